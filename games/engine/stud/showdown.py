"""Seven-card stud's pots and showdown: main and side pots, who wins what (odd chips to the
highest card), an uncontested win, and the outcome of a finished hand.

>>> compute_pots([5, 5], [True, False])
[{'amount': 10, 'eligible': [0]}]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.engine.core.protocol import Event
from games.engine.stud.betting import is_live
from games.engine.stud.cards import cards_to_ids, hand_name, hand_rank, hand_ranks
from games.engine.stud.state import StudState

__all__ = ["compute_pots", "result"]


def compute_pots(contrib: Sequence[int], live: Sequence[bool]) -> list[dict[str, Any]]:
    """Main and side pots from total contributions: one pot per all-in level of the players
    still in the hand; folded players' chips count but make them eligible for nothing.

    >>> compute_pots([10, 30, 30, 5], [True, True, True, False])
    [{'amount': 35, 'eligible': [0, 1, 2]}, {'amount': 40, 'eligible': [1, 2]}]
    """
    levels = sorted({c for c, ok in zip(contrib, live, strict=True) if ok and c > 0})
    pots: list[dict[str, Any]] = []
    prev = 0
    for level in levels:
        amount = sum(min(c, level) - min(c, prev) for c in contrib)
        eligible = [s for s, c in enumerate(contrib) if live[s] and c >= level]
        pots.append({"amount": amount, "eligible": eligible})
        prev = level
    rest = sum(c - min(c, prev) for c in contrib)
    if rest:
        if pots:
            pots[-1]["amount"] += rest
        else:
            pots.append({"amount": rest, "eligible": [s for s in range(len(live)) if live[s]]})
    return pots


def side_pots(st: StudState, *, collected: bool = True) -> list[dict[str, Any]]:
    contrib = st.contrib
    if not collected:
        contrib = [c - b for c, b in zip(st.contrib, st.round_bets, strict=True)]
    return compute_pots(contrib, [is_live(st, s) for s in range(st.players)])


def result(st: StudState) -> dict[str, Any] | None:
    """None while the hand is on; then ``scores`` (chip net per seat), ``stacks``, per-pot
    ``pots`` (amount, eligible, winners, shares, hand), ``winner``, ``ranking`` and the hands
    shown at showdown.

    >>> from games.engine.stud.rules import new_game
    >>> result(new_game({"players": 2}, 1)) is None
    True
    """
    if not st.finished:
        return None
    n = st.players
    scores = [st.stacks[s] - st.start_stacks[s] for s in range(n)]
    ranking = sorted(range(n), key=lambda s: (-scores[s], s))
    return {
        "scores": scores,
        "stacks": list(st.stacks),
        "pots": [dict(a) for a in st.awards],
        "winner": ranking[0],
        "ranking": ranking,
        "showdown": st.showdown,
        "shown": _shown(st),
        "instant_win": None,
    }


def _shown(st: StudState) -> dict[str, Any] | None:
    if not st.showdown:
        return None
    out: dict[str, Any] = {}
    for s in range(st.players):
        if is_live(st, s):
            out[str(s)] = {
                "cards": cards_to_ids(st.cards[s][: st.dealt[s]]),
                "hand": hand_name(hand_rank(st.cards[s][: st.dealt[s]])),
                "ranks": hand_ranks(st.cards[s][: st.dealt[s]]),
            }
    return out


def _finish(st: StudState, events: list[Event] | None) -> None:
    st.finished = True
    st.turn = -1
    st.round_bets = [0] * st.players
    st.current_bet = 0
    if events is not None:
        res = result(st)
        events.append(Event("hand_ended", res if res is not None else {}))


def win_uncontested(st: StudState, winner: int, events: list[Event] | None) -> None:
    total = sum(st.contrib)
    st.stacks[winner] += total
    st.awards = [
        {
            "amount": total,
            "eligible": [winner],
            "winners": [winner],
            "shares": [total],
            "hand": None,
        }
    ]
    _finish(st, events)


def run_showdown(st: StudState, events: list[Event] | None) -> None:
    st.showdown = True
    n = st.players
    ranks = {s: hand_rank(st.cards[s][: st.dealt[s]]) for s in range(n) if is_live(st, s)}
    awards = []
    for pot in side_pots(st):
        eligible = pot["eligible"]
        best = min(ranks[s] for s in eligible)
        winners = [s for s in eligible if ranks[s] == best]
        share, odd = divmod(pot["amount"], len(winners))
        by_card = sorted(winners, key=lambda s: max(st.cards[s][: st.dealt[s]]), reverse=True)
        shares = [share + (1 if s in by_card[:odd] else 0) for s in winners]
        for s, chips in zip(winners, shares, strict=True):
            st.stacks[s] += chips
        awards.append(
            {
                "amount": pot["amount"],
                "eligible": list(eligible),
                "winners": winners,
                "shares": shares,
                "hand": hand_name(best),
            }
        )
    st.awards = awards
    if events is not None:
        events.append(Event("showdown", {"shown": _shown(st)}))
    _finish(st, events)
