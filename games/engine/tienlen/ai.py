"""The house AI (hints, practice opponents) and hand arrangement for the "Auto-sort" button.

>>> arrange(["2H", "3S", "10D", "3C"], "rank")
['3S', '3C', '10D', '2H']
>>> [g["combo"] for g in arrange_groups(["3S", "3C", "4S", "4C", "5D", "5H", "9S", "2H"])]
['pairs_run', 'single', 'single']
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any

from games.engine.core.errors import EngineError, IllegalActionError
from games.engine.core.protocol import Action
from games.engine.core.rng import move_random
from games.engine.tienlen.cards import mask_to_ids, parse_cards
from games.engine.tienlen.combos import (
    BEAT,
    KIND_NAMES,
    beat_status,
    classify,
    is_hang,
)
from games.engine.tienlen.rules import legal_masks
from games.engine.tienlen.state import TienLenState

__all__ = [
    "LEVELS",
    "arrange",
    "arrange_groups",
    "choose_mask",
    "combo_name",
    "hard_mask",
    "house_action",
    "suggest",
]

#: House AI strengths, weakest first ("expert" searches: :mod:`games.engine.tienlen.expert`).
LEVELS = ("easy", "medium", "hard", "expert")
#: Time budget of one expert move when the caller names none (milliseconds).
EXPERT_BUDGET_MS = 300.0

_TWOS = 0xF << 48


def _require_turn(state: TienLenState, seat: int) -> None:
    if state.finished:
        raise IllegalActionError("game_over", "the game has ended")
    if state.turn != seat:
        raise IllegalActionError("not_your_turn", f"it is seat {state.turn}'s turn")


def _cuts(state: TienLenState, moves: list[int]) -> list[int]:
    """The plays among ``moves`` that cut (chặt) the top play rather than simply beat it."""
    return [m for m in moves if beat_status(classify(m), state.top_kind) != BEAT]


def choose_mask(state: TienLenState, seat: int) -> int:
    """The house AI's choice as a mask, or -1 to pass.

    Leading: get rid of the lowest card in the largest plain combination that holds it.
    Following: go out if possible, cut when allowed, else beat with the weakest plain play that
    spends no 2 (unless few cards are left); otherwise pass.

    >>> from games.engine.tienlen.rules import new_game
    >>> s = new_game({"players": 4, "opening": True}, seed=2)
    >>> choose_mask(s, s.turn) & 1
    1
    """
    moves = legal_masks(state, seat)
    if not moves:
        return -1
    hand = state.hands[seat]
    if hand in moves:  # going out beats every plan
        return hand
    if state.top == 0:
        low = state.required if state.required & hand else hand & -hand
        with_low = [m for m in moves if m & low]
        plain = [m for m in with_low if not is_hang(classify(m)) and not m & _TWOS] or with_low
        return max(plain, key=lambda m: (m.bit_count(), -classify(m)))
    cuts = _cuts(state, moves)
    if cuts:
        return min(cuts, key=classify)
    few = hand.bit_count() <= 4
    plain = [m for m in moves if few or not m & _TWOS]
    if not plain:
        return -1
    return min(plain, key=lambda m: (m.bit_count() != state.top.bit_count(), classify(m)))


def suggest(state: TienLenState, seat: int) -> Action:
    """A suggested action for ``seat`` (the "Suggestion" button and practice opponents).

    >>> from games.engine.tienlen.rules import new_game
    >>> s = new_game({"players": 4, "opening": True}, seed=2)
    >>> suggest(s, s.turn)["type"]
    'play'
    """
    _require_turn(state, seat)
    mask = choose_mask(state, seat)
    if mask < 0:
        return {"type": "pass", "seat": seat}
    return {"type": "play", "seat": seat, "cards": mask_to_ids(mask)}


def _easy_mask(state: TienLenState, seat: int) -> int:
    """Easy: a deterministic but arbitrary legal play (or a pass about a third of the time)."""
    moves = legal_masks(state, seat)
    if not moves:
        return -1
    rng = move_random(state.seed, len(state.log), seat)
    if state.top != 0 and rng.random() < 0.35:
        return -1
    return rng.choice(sorted(moves))


def _group_masks(hand: int) -> list[int]:
    return [parse_cards(g["cards"]) for g in arrange_groups(mask_to_ids(hand))]


def _breaks(mask: int, groups: list[int]) -> int:
    """How many of the hand's planned combinations a play breaks up."""
    return sum(1 for g in groups if g & mask and g & ~mask)


def hard_mask(state: TienLenState, seat: int) -> int:
    """Hard: plan the hand as combinations and keep them whole; lead the weakest group, keep
    2s and hàng for the end; when an opponent is about to go out, play the strongest beat."""
    moves = legal_masks(state, seat)
    if not moves:
        return -1
    hand = state.hands[seat]
    if hand in moves:  # going out beats every plan
        return hand
    groups = _group_masks(hand)
    danger = any(
        0 < state.hands[s].bit_count() <= 2 and s != seat and not (state.inactive >> s) & 1
        for s in range(state.players)
    )
    if state.top == 0:
        keep = [m for m in moves if not is_hang(classify(m)) and not m & _TWOS]
        whole = [m for m in keep if m in groups] or keep or moves
        if state.required and state.required & hand:
            whole = [m for m in whole if m & state.required] or moves
        if danger:
            return max(whole, key=lambda m: (m.bit_count(), classify(m)))
        return min(whole, key=lambda m: (-m.bit_count(), classify(m)))
    cuts = _cuts(state, moves)
    if cuts and (state.top & _TWOS or danger):
        return min(cuts, key=classify)
    plain = [m for m in moves if m not in cuts]
    if not plain:
        return -1
    if danger:
        return max(plain, key=classify)
    few = hand.bit_count() <= 5
    cheap = [m for m in plain if few or not m & _TWOS]
    if not cheap:
        return -1
    return min(cheap, key=lambda m: (_breaks(m, groups), classify(m)))


def house_action(
    state: TienLenState,
    seat: int,
    level: str = "medium",
    *,
    budget_ms: float | None = EXPERT_BUDGET_MS,
    iterations: int | None = None,
    clock: Callable[[], float] | None = None,
) -> Action:
    """The house AI's move at a strength from :data:`LEVELS` (practice opponents, house seats).

    The rule-based levels ignore the keywords. ``expert`` searches from the seat's own
    :func:`~games.engine.tienlen.expert.observe` view (never the other hands) for at most
    ``budget_ms`` milliseconds of ``clock`` (default :func:`time.perf_counter`; None: no time
    limit) and ``iterations`` rollouts, seeded by the game's seed, the move number and the seat.

    >>> from games.engine.tienlen.rules import new_game
    >>> s = new_game({"players": 4, "opening": True}, seed=2)
    >>> [house_action(s, s.turn, lvl, budget_ms=None, iterations=50)["cards"][0] for lvl in LEVELS]
    ['3S', '3S', '3S', '3S']
    """
    _require_turn(state, seat)
    if level == "easy":
        mask = _easy_mask(state, seat)
    elif level == "hard":
        mask = hard_mask(state, seat)
    elif level == "medium":
        mask = choose_mask(state, seat)
    elif level == "expert":
        from games.engine.tienlen import expert  # the searcher builds on the rule AIs above

        mask = expert.choose(
            expert.observe(state, seat),
            f"{state.seed}:{len(state.log)}:{seat}",
            budget_ms=budget_ms,
            iterations=iterations,
            clock=clock or time.perf_counter,
        )
    else:
        raise IllegalActionError("bad_action", f"unknown level {level!r}")
    if mask < 0 and state.top == 0:  # a leader cannot pass
        mask = choose_mask(state, seat)
    if mask < 0:
        return {"type": "pass", "seat": seat}
    return {"type": "play", "seat": seat, "cards": mask_to_ids(mask)}


def combo_name(cards: Iterable[object]) -> str:
    """The combination id of a set of cards (``single pair triple straight pairs_run four``).

    >>> combo_name(["3S", "3H"]), combo_name(["5S", "6C", "7D"])
    ('pair', 'straight')
    """
    kind = classify(_hand_mask(cards))
    if not kind:
        raise IllegalActionError("invalid_combination", "not a combination")
    return KIND_NAMES[kind >> 12]


def _hand_mask(cards: Iterable[object]) -> int:
    try:
        return parse_cards(cards)
    except EngineError:
        raise
    except TypeError as exc:  # pragma: no cover - defensive
        raise IllegalActionError("bad_card", "cards must be a list") from exc


def _take_run(hand: int, need: int) -> int:
    """The longest run (need=1 straight, need=2 pairs) in ``hand``, lowest cards; 0 if none."""
    best_start, best_len = -1, 0
    cur_start, cur_len = 0, 0
    for r in range(12):
        n = (hand >> (4 * r)) & 15
        if n.bit_count() >= need:
            if cur_len == 0:
                cur_start = r
            cur_len += 1
            if cur_len > best_len:
                best_start, best_len = cur_start, cur_len
        else:
            cur_len = 0
    if best_len < 3:
        return 0
    mask = 0
    for r in range(best_start, best_start + best_len):
        n = (hand >> (4 * r)) & 15
        for _ in range(need):
            low = n & -n
            mask |= low << (4 * r)
            n ^= low
    return mask


def arrange_groups(cards: Iterable[object]) -> list[dict[str, Any]]:
    """Split a hand greedily into combinations: fours, pairs runs, straights, triples, pairs,
    then singles; groups are listed weakest first.

    >>> arrange_groups(["5S", "6C", "7D", "KS", "KH"])
    [{'combo': 'straight', 'cards': ['5S', '6C', '7D']}, {'combo': 'pair', 'cards': ['KS', 'KH']}]
    """
    hand = _hand_mask(cards)
    groups: list[int] = []
    for r in range(12):
        if (hand >> (4 * r)) & 15 == 15:
            groups.append(15 << (4 * r))
            hand &= ~(15 << (4 * r))
    for need in (2, 1):
        while True:
            run = _take_run(hand, need)
            if not run:
                break
            groups.append(run)
            hand &= ~run
    for k in (3, 2):
        for r in range(13):
            n = (hand >> (4 * r)) & 15
            if n.bit_count() == k:
                groups.append(n << (4 * r))
                hand &= ~(n << (4 * r))
    m = hand
    while m:
        low = m & -m
        groups.append(low)
        m ^= low
    groups.sort(key=lambda g: (g.bit_length(), g))
    return [{"combo": KIND_NAMES[classify(g) >> 12], "cards": mask_to_ids(g)} for g in groups]


def arrange(cards: Iterable[object], mode: str = "rank") -> list[str]:
    """A new order for a hand: ``"rank"`` (weakest first) or ``"combos"`` (grouped).

    >>> arrange(["KH", "5S", "KS", "7D", "6C"], "combos")
    ['5S', '6C', '7D', 'KS', 'KH']
    >>> arrange(["3S"], "suit")
    Traceback (most recent call last):
    ...
    games.engine.core.errors.IllegalActionError: bad_action: mode must be 'rank' or 'combos'
    """
    if mode == "rank":
        return mask_to_ids(_hand_mask(cards))
    if mode == "combos":
        return [c for g in arrange_groups(cards) for c in g["cards"]]
    raise IllegalActionError("bad_action", "mode must be 'rank' or 'combos'")
