"""The house AI: a simple rule-based player at three strengths (practice opponents, house seats).

Every level takes a 丢 whenever one is legal and accepts every offer. ``easy`` answers at
random (deterministically from the seed and the move number); ``medium`` claims the strongest
natural claim (硬 claims, then 吃) and never spends a 听用 short of 丢; ``hard`` claims only
when the claim leaves fewer loose cards, and discards the loose card least likely to be claimed.

>>> from games.engine.diu.rules import new_game
>>> s = new_game({"roles": {"A": 0, "B": 1, "C": 2, "D": 3}}, seed=2)
>>> [house_action(s, 0, lvl)["type"] for lvl in LEVELS]
['discard', 'discard', 'discard', 'discard']

``expert`` is :mod:`games.engine.diu.expert` (each answer judged by the hand it leaves, one claim
ahead); it is handed the seat's bot ``gameState``, never the state.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Sequence

from games.engine.core.errors import IllegalActionError
from games.engine.core.protocol import Action
from games.engine.core.rng import move_random
from games.engine.diu import expert
from games.engine.diu.cards import WILD, points, sort_key
from games.engine.diu.rules import (
    RANK,
    claim_choices,
    diu_choices,
    legal_actions,
    prompt,
)
from games.engine.diu.state import DiuState
from games.engine.diu.views import bot_view, parse_bot_move

__all__ = ["LEVELS", "expert_action", "house_action", "loose_cards", "suggest"]

#: House AI strengths, weakest first.
LEVELS = ("easy", "medium", "hard", "expert")


def loose_cards(hand: Sequence[str]) -> list[str]:
    """The naturals with no partner in the hand (no same kind, no 14-point complement).

    >>> loose_cards(["11", "66", "34", "34", "55", "W"])
    ['55']
    """
    counts = Counter(hand)
    out = []
    for c in hand:
        if c == WILD:
            continue
        if counts[c] >= 2:
            continue
        if any(o != WILD and o != c and points(o) + points(c) == 14 for o in counts):
            continue
        if points(c) == 7 and any(o != c and o != WILD and points(o) == 7 for o in counts):
            continue
        out.append(c)
    return sorted(out, key=sort_key)


def _seen(state: DiuState) -> Counter[str]:
    seen: Counter[str] = Counter(state.dead)
    for pile in state.discards:
        seen.update(pile)
    for melds in state.melds:
        for m in melds:
            seen.update(m["cards"])
    return seen


def _discard(state: DiuState, seat: int, options: list[str], level: str) -> str:
    hand = state.hands[seat]
    loose = [c for c in loose_cards(hand) if c in options]
    if level == "hard" and loose:
        seen = _seen(state)
        return max(loose, key=lambda c: (seen[c], sort_key(c)))
    if loose:
        return loose[-1]
    return options[-1]


def _claim(state: DiuState, seat: int, options: list[str], level: str) -> Action | None:
    hand = state.hands[seat]
    shapes = state.config["claim_shapes"]  # natural claims: no 听用, most naturals first
    natural = sorted(
        (t for t in options if t in shapes and shapes[t][1] == 0),
        key=lambda t: (t == "chi", -shapes[t][0], -RANK[t]),
    )
    if level == "medium":
        for kind in natural:
            choices = claim_choices(state, seat, kind)
            if choices:
                return {"type": "claim", "seat": seat, "claim": kind, "cards": choices[0]}
        return None
    base = len(loose_cards(hand))
    best: tuple[int, int] | None = None
    choice: Action | None = None
    for kind in natural:
        for cards in claim_choices(state, seat, kind):
            left = list(hand)
            for c in cards:
                left.remove(c)
            score = (len(loose_cards(left)), -RANK[kind])
            if score[0] < base and (best is None or score < best):
                best = score
                choice = {"type": "claim", "seat": seat, "claim": kind, "cards": cards}
    return choice


def expert_action(
    state: DiuState,
    seat: int,
    *,
    budget_ms: float | None = expert.DEFAULT_BUDGET_MS,
    iterations: int | None = None,
    clock: Callable[[], float] | None = None,
) -> Action:
    """The expert's move for the prompted ``seat``, decided from that seat's bot ``gameState``
    (:func:`~games.engine.diu.views.bot_view`) alone and checked like a bot's reply.

    >>> from games.engine.diu.rules import new_game
    >>> s = new_game({"roles": {"A": 0, "B": 1, "C": 2, "D": 3}}, seed=2)
    >>> expert_action(s, 0, budget_ms=None)["type"]
    'discard'
    """
    reply = expert.decide(
        bot_view(state, seat),
        budget_ms=budget_ms,
        iterations=iterations,
        clock=clock or time.perf_counter,
    ).reply
    return parse_bot_move(state, seat, reply)


def house_action(
    state: DiuState,
    seat: int,
    level: str = "medium",
    *,
    budget_ms: float | None = expert.DEFAULT_BUDGET_MS,
    iterations: int | None = None,
    clock: Callable[[], float] | None = None,
) -> Action:
    """The house AI's move for the prompted ``seat`` at a strength from :data:`LEVELS`.

    ``expert`` (:func:`expert_action`) judges at most ``iterations`` candidate answers within
    ``budget_ms`` milliseconds of ``clock`` (default :func:`time.perf_counter`; None: no time
    limit); the other levels ignore the keywords.

    >>> from games.engine.diu.rules import new_game
    >>> s = new_game({}, seed=2)
    >>> house_action(s, s.roles["D"])
    Traceback (most recent call last):
    ...
    games.engine.core.errors.IllegalActionError: not_your_turn: it is another seat's prompt
    """
    if level not in LEVELS:
        raise IllegalActionError("bad_action", f"unknown level {level!r}")
    current = prompt(state)
    if current is None:
        raise IllegalActionError("game_over", "the game has ended")
    if current["seat"] != seat:
        raise IllegalActionError("not_your_turn", "it is another seat's prompt")
    if level == "expert":
        return expert_action(state, seat, budget_ms=budget_ms, iterations=iterations, clock=clock)
    kind, options = current["kind"], list(current["options"])
    if kind == "offer":
        return {"type": "accept", "seat": seat}
    if "diu" in options:
        return {"type": "diu", "seat": seat, "cards": diu_choices(state, seat)[0]}
    if level == "easy":
        rng = move_random(state.seed, len(state.log), seat)
        actions = legal_actions(state, seat)
        if kind != "discard" and rng.random() < 0.5:
            return {"type": "pass", "seat": seat}
        return dict(rng.choice(actions))
    if kind == "discard":
        return {"type": "discard", "seat": seat, "card": _discard(state, seat, options, level)}
    if kind == "call":
        claim = _claim(state, seat, options, level)
        if claim is not None:
            return claim
    return {"type": "pass", "seat": seat}


def suggest(state: DiuState, seat: int) -> Action:
    """A suggested action for ``seat`` (the "Suggestion" button): the medium house move.

    >>> from games.engine.diu.rules import new_game
    >>> s = new_game({}, seed=2)
    >>> suggest(s, s.turn)["type"]
    'discard'
    """
    return house_action(state, seat, "medium")
