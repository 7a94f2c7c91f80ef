"""The house AI of stud (practice opponents, house seats, hints): simple rules on hand strength.

The strength of a seat's cards is a number: the hand class (0 high card, 1 pair, 2 two pair,
3 trips, 4 straight, 5 flush, 6 full house, 7 quads, 8 straight flush; with fewer than five
cards only pairs and sets count) plus up to 0.9 for the rank of its top group.

>>> from games.engine.stud.cards import ids_to_cards
>>> round(strength(ids_to_cards(["KS", "KD", "2C"])), 2)
1.82
>>> from games.engine.stud.rules import new_game
>>> s = new_game({"players": 3}, seed=2)
>>> [house_action(s, s.turn, lvl)["type"] for lvl in LEVELS]
['bring_in', 'bring_in', 'bring_in', 'bring_in']

``expert`` is :mod:`games.engine.stud.expert` (Monte-Carlo equity against the opponents' shown
cards); it is handed the acting seat's view and the public action log, never the state.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Sequence

from games.engine.core.errors import IllegalActionError
from games.engine.core.protocol import Action
from games.engine.core.rng import move_random
from games.engine.stud import expert
from games.engine.stud.cards import hand_name, hand_rank, showing_key
from games.engine.stud.rules import legal_names, timeout_action, up_cards
from games.engine.stud.state import StudState
from games.engine.stud.views import view

__all__ = ["LEVELS", "action_label", "expert_action", "house_action", "strength", "suggest"]

#: House AI strengths, weakest first.
LEVELS = ("easy", "medium", "hard", "expert")

_CLASS = {
    "high_card": 0,
    "pair": 1,
    "two_pair": 2,
    "three_of_a_kind": 3,
    "straight": 4,
    "flush": 5,
    "full_house": 6,
    "four_of_a_kind": 7,
    "straight_flush": 8,
}
_SHOWING_CLASS = (0, 1, 2, 3, 7)


def strength(cards: Sequence[int]) -> float:
    """How good a seat's cards are (see the module doc); a flush draw adds 0.5 early on.

    >>> from games.engine.stud.cards import ids_to_cards
    >>> strength(ids_to_cards(["2S", "3S", "4S", "5S", "6S"])) > strength(
    ...     ids_to_cards(["AS", "AD", "AC", "KS", "KD"]))
    True
    """
    cls, ranks = showing_key(cards)
    value = _SHOWING_CLASS[cls] + (ranks[0] / 12 * 0.9 if ranks else 0.0)
    if len(cards) >= 5:
        made = _CLASS[hand_name(hand_rank(cards))]
        if made > _SHOWING_CLASS[cls]:
            value = made + 0.45
    elif len(cards) >= 3 and max(Counter(c % 4 for c in cards).values()) >= 3:
        value += 0.5
    return value


def _own(st: StudState, seat: int) -> list[int]:
    return st.cards[seat][: st.dealt[seat]]


def _pot(st: StudState) -> int:
    return sum(st.contrib)


def _best_showing(st: StudState, seat: int) -> float:
    best = 0.0
    for s in range(st.players):
        if s != seat and st.active[s] and not st.folded[s]:
            best = max(best, strength(up_cards(st, s)))
    return best


def _choose(st: StudState, seat: int, names: list[str], value: float, careful: bool) -> str:
    to_call = st.current_bet - st.round_bets[seat]
    early = st.street <= 4
    if "bring_in" in names:
        return "complete" if value >= 1.6 and "complete" in names else "bring_in"
    if to_call <= 0:
        if value >= (1.5 if early else 2.2):
            for name in ("bet_big", "bet"):
                if name in names and (name == "bet" or value >= 2.5):
                    return name
        return "check"
    if value >= (1.8 if early else 3.0):
        for name in ("raise", "complete"):
            if name in names:
                return name
    cheap = to_call * 5 <= _pot(st)
    need = {3: 0.8, 4: 1.0}.get(st.street, 1.4)
    if careful and _best_showing(st, seat) > value + 0.3:
        return "call" if cheap and st.street < 7 else "fold"
    return "call" if value >= need or cheap else "fold"


def expert_action(
    state: StudState,
    seat: int,
    *,
    budget_ms: float | None = expert.DEFAULT_BUDGET_MS,
    iterations: int | None = None,
    clock: Callable[[], float] | None = None,
) -> expert.Decision:
    """The expert's decision for ``seat``, from what that seat may see: its
    :func:`~games.engine.stud.views.view` and the hand's public actions. Seeded by the game
    seed, the move number and the seat (reproducible with ``budget_ms=None``).

    >>> from games.engine.stud.rules import new_game
    >>> s = new_game({"players": 3}, seed=2)
    >>> d = expert_action(s, s.turn, budget_ms=None, iterations=300)
    >>> d == expert_action(s, s.turn, budget_ms=None, iterations=300), d.samples
    (True, 300)
    """
    log = [(s, name) for s, name, _, _ in state.log]
    return expert.decide(
        view(state, seat),
        log,
        seed=f"{state.seed}:{len(state.log)}:{seat}",
        budget_ms=budget_ms,
        iterations=iterations,
        clock=clock or time.perf_counter,
    )


def house_action(
    state: StudState,
    seat: int,
    level: str = "medium",
    *,
    budget_ms: float | None = expert.DEFAULT_BUDGET_MS,
    iterations: int | None = None,
    clock: Callable[[], float] | None = None,
) -> Action:
    """The house AI's move at a strength from :data:`LEVELS`: always a legal action.

    Easy plays loosely at random (seeded by the hand and move number); medium follows the
    strength of its own cards and the pot odds; hard also folds to a stronger-looking board;
    expert weighs its equity against the opponents' shown cards and betting
    (:func:`expert_action`: at most ``budget_ms`` milliseconds of ``clock``, default
    :func:`time.perf_counter`, None for no time limit, and ``iterations`` sampled deals; the
    other levels ignore the keywords).

    >>> from games.engine.stud.rules import new_game
    >>> s = new_game({"players": 3}, seed=2)
    >>> house_action(s, s.turn, "wild")
    Traceback (most recent call last):
    ...
    games.engine.core.errors.IllegalActionError: bad_action: unknown level 'wild'
    """
    if state.finished:
        raise IllegalActionError("hand_over", "the hand is over")
    if state.turn != seat:
        raise IllegalActionError("not_your_turn", f"it is seat {state.turn}'s turn")
    if level not in LEVELS:
        raise IllegalActionError("bad_action", f"unknown level {level!r}")
    if level == "expert":
        return expert_action(
            state, seat, budget_ms=budget_ms, iterations=iterations, clock=clock
        ).action
    names = legal_names(state, seat)
    value = strength(_own(state, seat))
    if level == "easy":
        rng = move_random(state.seed, len(state.log), seat)
        roll = rng.random()
        if "bring_in" in names:
            name = "complete" if roll < 0.1 and "complete" in names else "bring_in"
        elif "check" in names:
            name = "bet" if roll < 0.2 else "check"
        else:
            name = "fold" if roll < 0.2 else "raise" if roll > 0.9 else "call"
        if name not in names:
            name = timeout_action(state, seat)["type"]
    else:
        name = _choose(state, seat, names, value, careful=level == "hard")
    return {"type": name, "seat": seat}


def suggest(state: StudState, seat: int) -> Action:
    """A suggested action for ``seat`` (the medium house AI).

    >>> from games.engine.stud.rules import new_game
    >>> s = new_game({"players": 2}, seed=2)
    >>> suggest(s, s.turn)["type"] in ("bring_in", "complete")
    True
    """
    return house_action(state, seat, "medium")


_LABELS = {
    "bring_in": "Bring in",
    "complete": "Complete",
    "fold": "Fold",
    "check": "Check",
    "call": "Call",
    "bet": "Bet",
    "bet_big": "Bet big",
    "raise": "Raise to",
}


def action_label(name: str, amount: int | None = None) -> str:
    """A button or log label of an action (seed 4.3.3.8.3), with its amount when given.

    >>> action_label("raise", 20), action_label("fold"), action_label("bet_big", 10)
    ('Raise to 20', 'Fold', 'Bet big 10')
    """
    label = _LABELS.get(name, name)
    return f"{label} {amount}" if amount is not None else label
