"""Suijiang Diu's claims (rules §6–§7): which hand cards make which claim on the card under
decision, 丢, the seat order, and the prompt (what the seat to act may answer).

>>> from games.engine.diu.rules import new_game
>>> prompt(new_game({"roles": {"A": 0, "B": 1, "C": 2, "D": 3},
...                  "hands": {"A": ["W", "55"], "B": ["11"], "C": ["12"]}}, 0))
{'seat': 0, 'kind': 'discard', 'options': ['55']}
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from games.engine.diu.cards import WILD, points, sort_cards
from games.engine.diu.config import CLAIM_TYPES, RANK
from games.engine.diu.scoring import complete, same
from games.engine.diu.state import DiuState

__all__ = ["can_diu", "claim_choices", "diu_choices", "next_active", "prompt"]


def claim_fits(
    kind: str, card: str, cards: Sequence[str], by_points: bool, shape: Sequence[int]
) -> bool:
    """True when ``cards`` make claim ``kind`` of the given shape (``[naturals, 听用]``)."""
    naturals = [c for c in cards if c != WILD]
    wilds = len(cards) - len(naturals)
    if [len(naturals), wilds] != list(shape):
        return False
    if kind == "chi":
        return all(points(card) + points(c) == 14 for c in naturals)
    return all(same(card, c, by_points) for c in naturals)


def _triple_fits(card: str, cards: Sequence[str], by_points: bool) -> bool:
    if len(cards) != 2:
        return False
    return all(c == WILD or same(card, c, by_points) for c in cards)


def holds_cards(hand: Sequence[str], cards: Sequence[str]) -> bool:
    need = Counter(cards)
    have = Counter(hand)
    return all(have[c] >= n for c, n in need.items())


def _minus(hand: Sequence[str], cards: Sequence[str]) -> list[str]:
    left = list(hand)
    for c in cards:
        left.remove(c)
    return left


def _subsets(hand: Sequence[str], size: int) -> list[list[str]]:
    distinct = sort_cards(set(hand))
    counts = Counter(hand)
    if size == 1:
        return [[c] for c in distinct]
    out = []
    for i, a in enumerate(distinct):
        for b in distinct[i:]:
            if a != b or counts[a] >= 2:
                out.append([a, b])
    return out


def next_active(state: DiuState, seat: int) -> int:
    """The 下家 of an active seat: A → B → C → A.

    >>> from games.engine.diu.rules import new_game
    >>> s = new_game({"roles": {"A": 3, "B": 1, "C": 0, "D": 2}}, seed=1)
    >>> next_active(s, 3), next_active(s, 0)
    (1, 3)
    """
    ring = [state.roles["A"], state.roles["B"], state.roles["C"]]
    return ring[(ring.index(seat) + 1) % 3]


def chi_barred(state: DiuState, seat: int) -> bool:
    if state.source != "discard":
        return False
    if state.config["chi_restriction"] == "relative":
        return next_active(state, seat) == state.source_seat  # the discarder's 上家
    return state.source_seat == state.roles["A"] and seat == state.roles["C"]


def claim_choices(state: DiuState, seat: int, kind: str) -> list[list[str]]:
    """The hand-card choices with which ``seat`` may make claim ``kind`` on the current card,
    ignoring the strictly-higher bar (restrictions, shapes, the card that must stay).

    >>> from games.engine.diu.rules import apply, new_game
    >>> cfg = {"roles": {"A": 0, "B": 1, "C": 2, "D": 3}, "stock": [],
    ...        "hands": {"A": ["66"], "B": ["11", "66", "W"], "C": ["11", "66"]}}
    >>> s, _ = apply(new_game(cfg, 0), {"type": "discard", "seat": 0, "card": "66"})
    >>> claim_choices(s, 1, "chi"), claim_choices(s, 2, "chi"), claim_choices(s, 2, "hard_pair")
    ([['11']], [], [['66']])
    """
    card = state.card
    shape = state.config["claim_shapes"].get(kind)
    if card is None or shape is None:
        return []
    if kind == "chi" and chi_barred(state, seat):
        return []
    hand = state.hands[seat]
    by_points = state.config["same_kind"] == "points"
    size = sum(shape)
    if kind != "chi":  # every other claim uses only 听用 and cards of the card's kind
        hand = [c for c in hand if c == WILD or same(card, c, by_points)]
    out = []
    for cards in _subsets(hand, size):
        if len(state.hands[seat]) - len(cards) < 1 or not claim_fits(
            kind, card, cards, by_points, shape
        ):
            continue
        if (
            kind == "chi"
            and not state.config["chow_split_double7"]
            and points(card) == 7
            and hand.count(cards[0]) >= 2
        ):
            continue
        out.append(cards)
    return out


def diu_open(state: DiuState) -> bool:
    return state.card is not None and (
        state.source == "stock" or bool(state.config["allow_diu_on_discard"])
    )


def diu_ok(state: DiuState, seat: int, cards: Sequence[str]) -> str | None:
    """None when ``cards`` make a legal 丢 for ``seat``; else the error code."""
    card = state.card
    assert card is not None
    by_points = state.config["same_kind"] == "points"
    if not _triple_fits(card, cards, by_points):
        return "invalid_diu"
    rest = _minus(state.hands[seat], cards)
    if state.config["diu_mode"] == "empty_hand":
        return None if not rest else "diu_incomplete"
    return None if complete(tuple(sort_cards(rest)), by_points) else "diu_incomplete"


def diu_choices(state: DiuState, seat: int) -> list[list[str]]:
    """The pairs of hand cards with which ``seat`` may 丢 on the current card.

    >>> from games.engine.diu.rules import apply, new_game
    >>> cfg = {"roles": {"A": 0, "B": 1, "C": 2, "D": 3}, "stock": [],
    ...        "hands": {"A": ["26"], "B": ["W", "W", "11", "66"], "C": ["13"]}}
    >>> s, _ = apply(new_game(cfg, 0), {"type": "discard", "seat": 0, "card": "26"})
    >>> diu_choices(s, 1)
    [['W', 'W']]
    """
    card = state.card
    if card is None or not diu_open(state):
        return []
    by_points = state.config["same_kind"] == "points"
    pool = [c for c in state.hands[seat] if c == WILD or same(card, c, by_points)]
    return [c for c in _subsets(pool, 2) if diu_ok(state, seat, c) is None]


def can_diu(state: DiuState, seat: int) -> bool:
    """True when ``seat`` holds a legal 丢 on the current card.

    >>> from games.engine.diu.rules import new_game
    >>> can_diu(new_game({}, seed=1), 0)
    False
    """
    return bool(diu_choices(state, seat))


def discard_options(hand: Sequence[str]) -> list[str]:
    naturals = sort_cards({c for c in hand if c != WILD})
    return naturals or sort_cards(set(hand))


def call_options(state: DiuState, seat: int) -> list[str]:
    opts = ["pass"]
    for kind in CLAIM_TYPES:
        if RANK[kind] > state.bar and claim_choices(state, seat, kind):
            opts.append(kind)
    if can_diu(state, seat):
        opts.append("diu")
    return opts


def prompt(state: DiuState) -> dict[str, Any] | None:
    """The current prompt ``{"seat", "kind", "options"}`` (None once the game is over).

    Kinds: ``discard`` (options: the cards that may be discarded), ``call`` (``pass``, the claim
    types above the bar, ``diu``), ``diu`` (the re-poll: ``pass``, ``diu``), ``offer``
    (``accept``, ``decline``).

    >>> from games.engine.diu.rules import new_game
    >>> prompt(new_game({"roles": {"A": 1, "B": 2, "C": 3, "D": 0},
    ...                  "hands": {"A": ["W", "55"], "B": ["11"], "C": ["12"]}}, 0))
    {'seat': 1, 'kind': 'discard', 'options': ['55']}
    """
    if state.finished:
        return None
    seat = state.turn
    if state.phase == "discard":
        options = discard_options(state.hands[seat])
    elif state.phase == "call":
        options = call_options(state, seat)
    elif state.phase == "diu":
        options = ["pass", "diu"] if can_diu(state, seat) else ["pass"]
    else:
        options = ["accept", "decline"]
    return {"seat": seat, "kind": state.phase, "options": options}
