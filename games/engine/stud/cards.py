"""Stud cards as small ints, the bring-in card order, showing-hand strength, and hand ranking.

A card is ``rank * 4 + suit`` with ranks 2..A as 0..12 and suits ♣ ♦ ♥ ♠ as 0..3, so comparing
two ints compares cards in the bring-in order (rank, then suit ♣ < ♦ < ♥ < ♠). Ids are the
shared card ids (``"10H"``); ``T`` and suit symbols are accepted on input.

Five-of-seven hand ranking comes from the phevaluator library (a perfect-hash evaluator);
this module only converts cards and names the rank classes.

>>> c = card_index("10H")
>>> card_id(c), card_index("TH") == c, card_index("2C") < card_index("2D") < card_index("3C")
('10H', True, True)
>>> hand_name(hand_rank(ids_to_cards(["AS", "KS", "QS", "JS", "10S", "2C", "3D"])))
'straight_flush'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import combinations

from phevaluator.evaluator import evaluate_cards  # type: ignore[import-untyped]

from games.engine.core.cards import SUIT_SYMBOLS, Card
from games.engine.core.errors import EngineError

__all__ = [
    "CARD_IDS",
    "RANKS",
    "SUITS",
    "card_dict",
    "card_id",
    "card_index",
    "cards_to_ids",
    "hand_name",
    "hand_rank",
    "hand_ranks",
    "ids_to_cards",
    "showing_key",
    "showing_name",
    "showing_ranks",
]

#: Rank labels, lowest first (stud: 2 low, A high).
RANKS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
#: Suit letters in the bring-in order ♣ < ♦ < ♥ < ♠.
SUITS: tuple[str, ...] = ("C", "D", "H", "S")
#: Card id of each card int.
CARD_IDS: tuple[str, ...] = tuple(r + s for r in RANKS for s in SUITS)

_INDEX = {cid: i for i, cid in enumerate(CARD_IDS)}
_PH_RANKS = "23456789TJQKA"
_PH_SUITS = "cdhs"


def card_index(text: object) -> int:
    """The int of a card id; ``bad_card`` if it is not one.

    >>> card_index("2C"), card_index("A♠")
    (0, 51)
    >>> card_index("1C")
    Traceback (most recent call last):
    ...
    games.engine.core.errors.EngineError: bad_card: '1C' is not a card
    """
    if not isinstance(text, str):
        raise EngineError("bad_card", f"{text!r} is not a card")
    card = Card.parse(text)
    return _INDEX[str(card)]


def card_id(card: int) -> str:
    """The id of a card int.

    >>> card_id(51)
    'AS'
    """
    return CARD_IDS[card]


def ids_to_cards(ids: Iterable[object]) -> list[int]:
    """Card ids to ints, in order.

    >>> ids_to_cards(["2C", "AS"])
    [0, 51]
    """
    return [card_index(c) for c in ids]


def cards_to_ids(cards: Iterable[int]) -> list[str]:
    """Card ints to ids, in order.

    >>> cards_to_ids([0, 51])
    ['2C', 'AS']
    """
    return [CARD_IDS[c] for c in cards]


def card_dict(card: int) -> dict[str, object]:
    """The bot API card object: ``{"rank", "suit", "value", "id"}`` (value 2..14, A high).

    >>> card_dict(card_index("AS"))
    {'rank': 'A', 'suit': '♠', 'value': 14, 'id': 'AS'}
    """
    cid = CARD_IDS[card]
    return {"rank": cid[:-1], "suit": SUIT_SYMBOLS[cid[-1]], "value": card // 4 + 2, "id": cid}


def _ph(card: int) -> str:
    return _PH_RANKS[card // 4] + _PH_SUITS[card % 4]


def hand_rank(cards: Sequence[int]) -> int:
    """The strength of the best five of 5–7 cards: smaller is stronger (1 = royal flush).

    >>> hand_rank(ids_to_cards(["AS", "AH", "AD", "AC", "KS"])) < hand_rank(
    ...     ids_to_cards(["KS", "KH", "KD", "KC", "AS"]))
    True
    """
    return int(evaluate_cards(*(_ph(c) for c in cards)))


#: Upper bounds of phevaluator's rank classes (the standard 7462 distinct five-card hands).
_CLASSES: tuple[tuple[int, str], ...] = (
    (10, "straight_flush"),
    (166, "four_of_a_kind"),
    (322, "full_house"),
    (1599, "flush"),
    (1609, "straight"),
    (2467, "three_of_a_kind"),
    (3325, "two_pair"),
    (6185, "pair"),
    (7462, "high_card"),
)


def hand_name(rank: int) -> str:
    """The class of a :func:`hand_rank` value.

    >>> hand_name(1), hand_name(7462)
    ('straight_flush', 'high_card')
    """
    for bound, name in _CLASSES:
        if rank <= bound:
            return name
    raise EngineError("bad_state", f"no hand rank {rank}")


def hand_ranks(cards: Sequence[int]) -> list[str]:
    """The rank labels that name the best five of 5–7 cards, most telling first: the pair's
    rank; both pairs' (higher first); the three's or four's; the full house's three then pair;
    a straight's top card (5 for A-2-3-4-5); a flush's or a high card's highest card. Browsers
    build "Pair of Kings" from ``("pair", ["K"])``.

    >>> hand_ranks(ids_to_cards(["KS", "KH", "2C", "7D", "9H", "JC", "3S"]))
    ['K']
    >>> hand_ranks(ids_to_cards(["AS", "AH", "7C", "7D", "9H", "9C", "3S"]))
    ['A', '9']
    >>> hand_ranks(ids_to_cards(["KS", "KH", "KC", "5D", "5H", "2C", "3S"]))
    ['K', '5']
    >>> hand_ranks(ids_to_cards(["AS", "2H", "3C", "4D", "5H", "9C", "JS"]))
    ['5']
    >>> hand_ranks(ids_to_cards(["AH", "2H", "9H", "4H", "5H", "9C", "JS"]))
    ['A']
    """
    cards = list(cards)
    best = min(combinations(cards, 5), key=hand_rank) if len(cards) > 5 else cards
    name = hand_name(hand_rank(best))
    ranks = sorted((c // 4 for c in best), reverse=True)
    if name in ("straight", "straight_flush"):
        top = 3 if ranks == [12, 3, 2, 1, 0] else ranks[0]  # the wheel's top card is the 5
        return [RANKS[top]]
    if name in ("flush", "high_card"):
        return [RANKS[ranks[0]]]
    counts = Counter(ranks)
    groups = sorted(
        (r for r, n in counts.items() if n >= 2), key=lambda r: (counts[r], r), reverse=True
    )
    return [RANKS[r] for r in groups[:2]]


_SHOWING_NAMES = ("high_card", "pair", "two_pair", "three_of_a_kind", "four_of_a_kind")


def showing_key(up: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    """How strong up cards look for choosing who acts first (rulings: four of a kind > three
    of a kind > two pair > pair > high cards, then ranks; straights and flushes do not count).

    Returns ``(class, ranks)``: class 0..4 as named by :func:`showing_name`; ranks grouped by
    count then rank, highest first. Suits never matter.

    >>> showing_key(ids_to_cards(["KS", "KD", "2C"]))
    (1, (11, 11, 0))
    >>> showing_key(ids_to_cards(["9S", "9D", "4C", "4H"])) > showing_key(
    ...     ids_to_cards(["AS", "AD", "KC", "QH"]))
    True
    """
    counts = Counter(c // 4 for c in up)
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    ranks = tuple(r for r, n in groups for _ in range(n))
    top = groups[0][1] if groups else 0
    pairs = sum(1 for _, n in groups if n == 2)
    if top >= 4:
        cls = 4
    elif top == 3:
        cls = 3
    elif pairs >= 2:
        cls = 2
    elif pairs == 1:
        cls = 1
    else:
        cls = 0
    return cls, ranks


def showing_name(up: Sequence[int]) -> str:
    """The class name of up cards (``high_card pair two_pair three_of_a_kind four_of_a_kind``).

    >>> showing_name(ids_to_cards(["7S", "7D", "7C"]))
    'three_of_a_kind'
    """
    return _SHOWING_NAMES[showing_key(up)[0]]


def showing_ranks(up: Sequence[int]) -> list[str]:
    """The rank labels that name :func:`showing_name` of up cards: the pair's, both pairs'
    (higher first), the three's or four's, or the highest card.

    >>> showing_ranks(ids_to_cards(["9S", "9D", "4C", "4H"]))
    ['9', '4']
    >>> showing_ranks(ids_to_cards(["QS", "3D"]))
    ['Q']
    >>> showing_ranks([])
    []
    """
    cls, ranks = showing_key(up)
    if not ranks:
        return []
    return [RANKS[ranks[0]], RANKS[ranks[2]]] if cls == 2 else [RANKS[ranks[0]]]
