"""Suijiang Diu's hand value: when cards split completely into groups (rules §8), and the
outcome of a finished hand (who pays whom).

>>> is_complete(["11", "W"]), is_complete(["11", "12"])
(True, False)
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from games.engine.diu.cards import WILD, points, sort_cards, sort_key
from games.engine.diu.state import DiuState

__all__ = ["is_complete", "result"]


def same(a: str, b: str, by_points: bool) -> bool:
    if a == WILD or b == WILD:
        return False
    return points(a) == points(b) if by_points else a == b


@lru_cache(maxsize=65536)
def complete(cards: tuple[str, ...], by_points: bool) -> bool:
    if not cards:
        return True
    naturals = [c for c in cards if c != WILD]
    wilds = len(cards) - len(naturals)
    if not naturals:
        return wilds != 1
    a = naturals[0]
    rest = list(cards)
    rest.remove(a)

    def without(*taken: str) -> tuple[str, ...] | None:
        left = list(rest)
        for t in taken:
            if t not in left:
                return None
            left.remove(t)
        return tuple(left)

    distinct = sorted({c for c in rest if c != WILD}, key=sort_key)
    options: list[tuple[str, ...] | None] = []
    for b in distinct:
        if same(a, b, by_points) or points(a) + points(b) == 14:
            options.append(without(b))
        if same(a, b, by_points):
            options.append(without(b, WILD))
            for c in distinct:
                if same(a, c, by_points) and sort_key(c) >= sort_key(b):
                    options.append(without(b, c))
    options.append(without(WILD))
    options.append(without(WILD, WILD))
    return any(o is not None and complete(o, by_points) for o in options)


def is_complete(cards: Sequence[str], same_kind: str = "pips") -> bool:
    """True when the cards split completely into groups (rules §8): a 14-pair, an identical
    natural pair, natural+听用, 听用+听用, or three of a kind (听用 filling in).

    >>> is_complete(["11", "66", "34", "34"]), is_complete(["11", "W"]), is_complete(["11"])
    (True, True, False)
    >>> is_complete([]), is_complete(["W", "W", "W"]), is_complete(["16", "25"])
    (True, True, True)
    """
    return complete(tuple(sort_cards(cards)), same_kind == "points")


def result(state: DiuState) -> dict[str, Any] | None:
    """None while the hand is on; then the outcome (``win`` or ``exhausted``), winner, roles,
    scores (summing to 0; D always 0), ranking, melds, the 丢 group and every hand.

    >>> from games.engine.diu.rules import new_game
    >>> result(new_game({}, seed=1)) is None
    True
    """
    if not state.finished:
        return None
    scores = [0, 0, 0, 0]
    hard = False
    if state.outcome == "win" and state.winner is not None:
        hard = WILD not in state.diu_cards
        pay = int(state.config["base"]) * (2 if hard and state.config["hard_bonus"] else 1)
        for role in ("A", "B", "C"):
            seat = state.roles[role]
            if seat != state.winner:
                scores[seat] -= pay
                scores[state.winner] += pay
    return {
        "result": state.outcome,
        "winner": state.winner,
        "roles": dict(state.roles),
        "scores": scores,
        "ranking": sorted(range(4), key=lambda s: (-scores[s], s)),
        "diu": (
            {"seat": state.winner, "cards": list(state.diu_cards), "hard": hard}
            if state.outcome == "win"
            else None
        ),
        "melds": [[dict(m) for m in seat_melds] for seat_melds in state.melds],
        "hands": [list(h) for h in state.hands],
    }
