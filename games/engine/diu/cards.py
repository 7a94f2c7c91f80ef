"""川牌 (Sichuan long cards) with 听用: card ids, the deck, points, kinds and the shuffles.

A natural card is a domino face written as its two pip digits low-high (``"11"`` … ``"66"``, 21
kinds); ``"W"`` is a 听用 (wild). Cards of one kind are identical, so hands are lists of ids
(multisets), kept in :func:`sort_key` order.

>>> points("26"), is_wild("W"), parse_card("62")
(8, True, '26')
>>> len(build_deck(4, 4)), build_deck(4, 4).count("W")
(88, 4)
>>> riffle_with(list(range(1, 11)), 5, [0, 1] * 5)
[1, 6, 2, 7, 3, 8, 4, 9, 5, 10]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TypeVar

from games.engine.core.errors import EngineError
from games.engine.core.rng import below
from games.engine.core.rng import shuffle as fisher_yates

__all__ = [
    "KINDS",
    "NAMES",
    "WILD",
    "build_deck",
    "is_wild",
    "parse_card",
    "parse_cards",
    "points",
    "riffle_once",
    "riffle_with",
    "shuffle_deck",
    "sort_cards",
    "sort_key",
]

T = TypeVar("T")

#: The 听用 id.
WILD = "W"
#: The 21 natural kinds, low-high pips, in (points, pips) order.
KINDS: tuple[str, ...] = tuple(
    sorted(
        (f"{a}{b}" for a in range(1, 7) for b in range(a, 7)),
        key=lambda k: (int(k[0]) + int(k[1]), k),
    )
)
#: The common Sichuan name of each kind (rules §3), for labels.
NAMES: dict[str, str] = {
    "11": "地牌",
    "12": "丁丁",
    "13": "和牌",
    "22": "板凳",
    "14": "幺四",
    "23": "拐子",
    "15": "猫猫",
    "24": "二红",
    "33": "长三",
    "16": "高脚七",
    "25": "黑七",
    "34": "红七",
    "26": "平八",
    "35": "三五",
    "44": "人牌",
    "36": "黑九",
    "45": "红九",
    "46": "红头十",
    "55": "梅子",
    "56": "斧头",
    "66": "天牌",
    "W": "听用",
}
_ORDER = {k: i for i, k in enumerate(KINDS)} | {WILD: len(KINDS)}


def parse_card(text: object) -> str:
    """The canonical id of a card: pips low-high, or ``"W"`` (``"w"`` accepted).

    >>> parse_card("55"), parse_card("w"), parse_card("43")
    ('55', 'W', '34')
    >>> parse_card("17")
    Traceback (most recent call last):
    ...
    games.engine.core.errors.EngineError: bad_card: '17' is not a card
    """
    if isinstance(text, str):
        if text.upper() == WILD:
            return WILD
        if len(text) == 2 and text[0] in "123456" and text[1] in "123456":
            a, b = sorted(text)
            return a + b
    raise EngineError("bad_card", f"{text!r} is not a card")


def parse_cards(cards: object) -> list[str]:
    """A list of card ids (duplicates allowed: cards of a kind are identical).

    >>> parse_cards(["66", "W", "66"])
    ['66', 'W', '66']
    """
    if not isinstance(cards, (list, tuple)):
        raise EngineError("bad_card", "cards must be a list")
    return [parse_card(c) for c in cards]


def is_wild(card: str) -> bool:
    """True for a 听用.

    >>> is_wild("W"), is_wild("66")
    (True, False)
    """
    return card == WILD


def points(card: str) -> int:
    """The pip total of a natural card (2…12); 0 for a 听用.

    >>> points("66"), points("W")
    (12, 0)
    """
    if card == WILD:
        return 0
    return int(card[0]) + int(card[1])


def sort_key(card: str) -> int:
    """The canonical order: naturals by (points, pips), 听用 last.

    >>> sorted(["W", "66", "13", "22"], key=sort_key)
    ['13', '22', '66', 'W']
    """
    return _ORDER[card]


def sort_cards(cards: Iterable[str]) -> list[str]:
    """Cards in canonical order.

    >>> sort_cards(["W", "56", "11"])
    ['11', '56', 'W']
    """
    return sorted(cards, key=sort_key)


def build_deck(copies_per_kind: int, wild_count: int) -> list[str]:
    """The unshuffled deck: ``copies_per_kind`` of each of the 21 kinds, then the 听用.

    >>> len(build_deck(5, 10))
    115
    """
    return [k for k in KINDS for _ in range(copies_per_kind)] + [WILD] * wild_count


def riffle_with(deck: Sequence[T], cut: int, picks: Iterable[int]) -> list[T]:
    """One riffle pass with a given cut and coin flips (0 takes from the top half ``A``, 1 from
    the bottom half ``B``); once a half is empty the other one runs out.

    >>> riffle_with("abcdef", 2, [1, 1, 1, 0])
    ['c', 'd', 'e', 'a', 'b', 'f']
    """
    a, b = list(deck[:cut]), list(deck[cut:])
    out: list[T] = []
    flips = iter(picks)
    ia = ib = 0
    while ia < len(a) or ib < len(b):
        take_a = next(flips, 0) % 2 == 0 if ia < len(a) and ib < len(b) else ia < len(a)
        if take_a:
            out.append(a[ia])
            ia += 1
        else:
            out.append(b[ib])
            ib += 1
    return out


def riffle_once(state: int, deck: Sequence[T]) -> tuple[int, list[T], int]:
    """The seed's riffle (rules §5.1): cut at ``N/2 ± r`` (r < 10, clamped to 1..N-1), then a
    fair coin per card while both halves last. Returns ``(rng state, deck, cut)``.

    >>> from games.engine.core.rng import seed_state
    >>> _, out, cut = riffle_once(seed_state(3), list(range(88)))
    >>> sorted(out) == list(range(88)), 35 <= cut <= 53
    (True, True)
    """
    n = len(deck)
    if n < 2:
        return state, list(deck), n
    state, r = below(state, 10)
    state, sign = below(state, 2)
    cut = min(max(n // 2 + (r if sign else -r), 1), n - 1)
    picks: list[int] = []
    for _ in range(n):
        state, coin = below(state, 2)
        picks.append(coin)
    return state, riffle_with(deck, cut, picks), cut


def shuffle_deck(state: int, deck: Sequence[T], mode: str, riffles: int) -> tuple[int, list[T]]:
    """Shuffle by ``mode``: ``fisher_yates``, ``riffle3`` (the seed's riffles only) or ``both``
    (Fisher–Yates, then the riffles "for fidelity", the default).

    >>> from games.engine.core.rng import seed_state
    >>> _, out = shuffle_deck(seed_state(1), build_deck(4, 4), "both", 3)
    >>> sorted(out) == sorted(build_deck(4, 4))
    True
    """
    out = list(deck)
    if mode in ("fisher_yates", "both"):
        state, out = fisher_yates(state, out)
    if mode in ("riffle3", "both"):
        for _ in range(riffles):
            state, out, _cut = riffle_once(state, out)
    return state, out
