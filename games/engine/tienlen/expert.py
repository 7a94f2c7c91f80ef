"""The "expert" house AI: determinized Monte-Carlo search from one seat's point of view.

The searcher never touches a :class:`TienLenState`. :func:`observe` copies out of the state
what the seat may know — its own hand, every play and pass (the public log), the seat-level
flags every player sees (who passed, who is out, the cut chain, settled transfers) — and
nothing else: not the other hands, not the deal, not the seed, not the đền bài list (it is
computed from hidden hands). :func:`choose` works on that :class:`Observation` only:

1. the *unseen* cards are the 52 minus the own hand minus every card played; each opponent
   holds as many of them as it was dealt (13) minus what it has played, the rest were never
   dealt (fewer than four players);
2. each iteration deals the unseen cards at random to the opponents (a *determinization*) and
   plays every candidate move out to the end of the game with the hard rule AI for every seat
   (the fast mask path of :mod:`~games.engine.tienlen.rules`), all candidates on the same deal
   so that they are compared on equal cards;
3. candidates are halved every few deals (sequential halving), keeping the best by the mean
   of ``first place + POINTS_WEIGHT × points of the game``;
4. it stops after ``iterations`` rollouts or when the ``budget_ms`` budget read from the
   injected ``clock`` is spent, and plays the candidate with the best mean.

With a fixed seed and an iteration budget (no time budget) the move is reproducible.

>>> from games.engine.tienlen.rules import new_game
>>> s = new_game({"players": 4, "opening": True}, seed=2)
>>> mask = choose(observe(s, s.turn), seed="2:0", iterations=60)
>>> mask & 1  # the opening play holds 3♠
1
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from games.engine.core.errors import IllegalActionError
from games.engine.tienlen.ai import choose_mask, hard_mask
from games.engine.tienlen.cards import ALL_CARDS
from games.engine.tienlen.combos import classify, is_hang
from games.engine.tienlen.rules import apply_mask, can_pass, legal_masks
from games.engine.tienlen.scoring import compute_result
from games.engine.tienlen.state import TienLenState

__all__ = [
    "DEFAULT_BUDGET_MS",
    "MAX_CANDIDATES",
    "POINTS_WEIGHT",
    "Observation",
    "Search",
    "candidates",
    "choose",
    "determinize",
    "observe",
    "rollout",
    "search",
]

#: Time budget of one move when the caller gives none (milliseconds).
DEFAULT_BUDGET_MS = 300.0
#: Rollouts of one move when the caller gives no iteration budget (the time budget stops it).
DEFAULT_ITERATIONS = 100_000
#: How many candidate moves the search considers at most (the rule AIs' choices always).
MAX_CANDIDATES = 10
#: Weight of one point of the game's score against one first place in the search's objective.
POINTS_WEIGHT = 0.04
#: Deals per candidate before the first halving (then doubled after each halving).
_PHASE = 4

_TWOS = 0xF << 48


@dataclass(frozen=True, slots=True)
class Observation:
    """What one seat knows at its turn (all public but ``hand``).

    ``played_by[s]`` is the mask of the cards seat ``s`` has played so far; ``counts[s]`` the
    cards it holds (13 dealt minus those); ``undealt`` cards known to be in nobody's hand (with
    the opening rule the first play holds the lowest card dealt, so every card below it was
    not dealt). The other fields mirror :class:`TienLenState`'s."""

    seat: int
    players: int
    config: dict[str, Any]
    hand: int
    played_by: tuple[int, ...]
    counts: tuple[int, ...]
    turn: int
    game_leader: int
    round_index: int
    round_leader: int
    top: int
    top_kind: int
    top_seat: int
    passed: int
    required: int
    twos_run: int
    chain_points: int
    chain_debtor: int
    chain_payee: int
    settled: tuple[tuple[int, int, int, str], ...]
    played: int
    inactive: int
    frozen: int
    out: tuple[int, ...]
    counts_at_win: tuple[int, ...] | None
    log: tuple[tuple[int, int], ...]
    undealt: int = 0

    @property
    def unseen(self) -> int:
        """Mask of the cards that may be in another seat's hand: not in this seat's hand,
        never played and not known to be undealt.

        >>> from games.engine.tienlen.rules import new_game
        >>> observe(new_game({"players": 2}, seed=1), 0).unseen.bit_count()
        39
        """
        seen = self.hand | self.undealt
        for m in self.played_by:
            seen |= m
        return ALL_CARDS & ~seen


def observe(state: TienLenState, seat: int) -> Observation:
    """Seat ``seat``'s knowledge of ``state``: its hand and the public record only.

    Counts come from the public log (13 dealt minus the cards played), so they are known even
    with ``hide_hand_counts`` (every play is announced); the fixed deal of ``config["hands"]``
    is dropped.

    >>> from games.engine.tienlen.rules import new_game
    >>> o = observe(new_game({"players": 3}, seed=4), 1)
    >>> o.counts, o.hand.bit_count(), "hands" in o.config
    ((13, 13, 13), 13, False)
    """
    n = state.players
    played_by = [0] * n
    log: list[tuple[int, int]] = []
    for s, mask, _, _ in state.log:
        log.append((s, mask))
        if mask > 0:
            played_by[s] |= mask
    hand = state.hands[seat]
    first = next((mask for _, mask in log if mask > 0), 0)
    undealt = ((first & -first) - 1) if state.config.get("opening") and first else 0
    return Observation(
        seat=seat,
        players=n,
        config={k: v for k, v in state.config.items() if k not in ("hands", "started_at")},
        hand=hand,
        played_by=tuple(played_by),
        counts=tuple(13 - m.bit_count() for m in played_by),
        turn=state.turn,
        game_leader=state.game_leader,
        round_index=state.round_index,
        round_leader=state.round_leader,
        top=state.top,
        top_kind=state.top_kind,
        top_seat=state.top_seat,
        passed=state.passed,
        required=state.required & hand,
        twos_run=state.twos_run,
        chain_points=state.chain_points,
        chain_debtor=state.chain_debtor,
        chain_payee=state.chain_payee,
        settled=tuple(state.settled),
        played=state.played,
        inactive=state.inactive,
        frozen=state.frozen,
        out=tuple(state.out),
        counts_at_win=None if state.counts_at_win is None else tuple(state.counts_at_win),
        log=tuple(log),
        undealt=undealt,
    )


def determinize(obs: Observation, rng: random.Random) -> TienLenState:
    """A full state consistent with ``obs``: the unseen cards dealt at random to the other
    seats by their counts (the rest never dealt). The log starts empty (rollouts need none).

    >>> from games.engine.tienlen.rules import new_game
    >>> s = new_game({"players": 4}, seed=3)
    >>> d = determinize(observe(s, 0), random.Random(1))
    >>> d.hands[0] == s.hands[0], [h.bit_count() for h in d.hands]
    (True, [13, 13, 13, 13])
    """
    pool = [i for i in range(52) if (obs.unseen >> i) & 1]
    rng.shuffle(pool)
    hands = [0] * obs.players
    k = 0
    for s in range(obs.players):
        if s == obs.seat:
            hands[s] = obs.hand
            continue
        for i in pool[k : k + obs.counts[s]]:
            hands[s] |= 1 << i
        k += obs.counts[s]
    return TienLenState(
        config=obs.config,
        seed=0,
        rng=0,
        dealt=[h | p for h, p in zip(hands, obs.played_by, strict=True)],
        hands=hands,
        turn=obs.turn,
        game_leader=obs.game_leader,
        round_index=obs.round_index,
        round_leader=obs.round_leader,
        top=obs.top,
        top_kind=obs.top_kind,
        top_seat=obs.top_seat,
        passed=obs.passed,
        required=obs.required,
        twos_run=obs.twos_run,
        chain_points=obs.chain_points,
        chain_debtor=obs.chain_debtor,
        chain_payee=obs.chain_payee,
        settled=list(obs.settled),
        played=obs.played,
        inactive=obs.inactive,
        frozen=obs.frozen,
        den_bai=[],
        out=list(obs.out),
        counts_at_win=None if obs.counts_at_win is None else list(obs.counts_at_win),
        log=[],
        round_start=[0],
    )


def _rule_move(state: TienLenState, seat: int) -> int:
    mask = hard_mask(state, seat)
    if mask < 0 and state.top == 0:
        mask = choose_mask(state, seat)
    return mask


def rollout(state: TienLenState) -> TienLenState:
    """Play ``state`` to its end with the hard rule AI at every seat (the mask path).

    >>> from games.engine.tienlen.rules import new_game
    >>> rollout(new_game({"players": 3}, seed=5)).finished
    True
    """
    st = state
    while not st.finished:
        seat = st.turn
        st = apply_mask(st, seat, _rule_move(st, seat))
    return st


def _value(state: TienLenState, seat: int) -> float:
    res = compute_result(state)
    first = 1.0 if res["winner"] == seat else 0.0
    return first + POINTS_WEIGHT * float(res["scores"][seat])


def _prior(mask: int, hand: int) -> tuple[int, int]:
    """Order of candidates beyond the rule AIs' picks: plays that spend no 2 and no hàng first,
    then the weakest."""
    kind = classify(mask)
    costly = 1 if (mask & _TWOS or is_hang(kind)) and mask != hand else 0
    return (costly, kind & 63)


def candidates(obs: Observation, state: TienLenState) -> list[int]:
    """The moves the search weighs (masks, -1 a pass): going out alone when possible; else the
    rule AIs' choices, the pass when allowed, and the other legal plays by :func:`_prior` up
    to :data:`MAX_CANDIDATES`. ``state`` is any determinization of ``obs`` (the seat's own
    legal plays do not depend on the hidden hands).

    >>> from games.engine.tienlen.rules import new_game
    >>> s = new_game({"players": 4, "opening": True}, seed=2)
    >>> o = observe(s, s.turn)
    >>> cands = candidates(o, determinize(o, random.Random(0)))
    >>> 1 < len(cands) <= MAX_CANDIDATES, all(m & 1 for m in cands)
    (True, True)
    """
    seat = obs.seat
    moves = legal_masks(state, seat)
    if obs.hand in moves:
        return [obs.hand]
    out: list[int] = []
    for m in (_rule_move(state, seat), choose_mask(state, seat)):
        if m not in out and (m >= 0 or state.top != 0):
            out.append(m)
    if can_pass(state, seat) and -1 not in out:
        out.append(-1)
    rest = sorted((m for m in moves if m not in out), key=lambda m: (_prior(m, obs.hand), m))
    # a spread over kinds: the weakest play of each type/length first, then the next ones
    seen_kind: set[int] = set()
    firsts = []
    for m in rest:
        key = classify(m) >> 6
        if key not in seen_kind:
            seen_kind.add(key)
            firsts.append(m)
    for m in firsts + [m for m in rest if m not in firsts]:
        if len(out) >= MAX_CANDIDATES:
            break
        if m not in out:
            out.append(m)
    return out or [-1]


@dataclass(frozen=True, slots=True)
class Search:
    """What one search did: the move chosen (a mask, -1 a pass), the rollouts and deals
    (determinizations) it played, and each candidate's mean value and rollouts."""

    move: int
    rollouts: int
    deals: int
    stats: dict[int, tuple[float, int]]


def search(
    obs: Observation,
    seed: int | str,
    *,
    budget_ms: float | None = DEFAULT_BUDGET_MS,
    iterations: int | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> Search:
    """Search the move of the seat of ``obs`` (see the module doc).

    ``iterations`` caps the rollouts (default: :data:`DEFAULT_ITERATIONS`); ``budget_ms``
    (None: none) stops the search once ``clock`` (seconds) has advanced that much since the
    call — it is read after every rollout. With ``budget_ms=None`` the result depends only on
    ``obs``, ``seed`` and ``iterations``.

    >>> from games.engine.tienlen.rules import new_game
    >>> s = new_game({"players": 2, "opening": True}, seed=8)
    >>> r = search(observe(s, s.turn), 1, budget_ms=None, iterations=40)
    >>> r.rollouts, r == search(observe(s, s.turn), 1, budget_ms=None, iterations=40)
    (40, True)
    """
    if obs.turn != obs.seat:
        raise IllegalActionError("not_your_turn", f"it is seat {obs.turn}'s turn")
    rng = random.Random(f"expert:{seed}")
    cap = DEFAULT_ITERATIONS if iterations is None else max(1, iterations)
    deadline = None if budget_ms is None else clock() + budget_ms / 1000.0
    deal = determinize(obs, rng)
    alive = candidates(obs, deal)
    totals = dict.fromkeys(alive, 0.0)
    counts = dict.fromkeys(alive, 0)
    if len(alive) == 1:
        return Search(alive[0], 0, 0, {alive[0]: (0.0, 0)})
    used = 0
    deals = 0
    phase = _PHASE
    phase_end = phase
    while True:
        for m in alive:
            st = apply_mask(deal, obs.seat, m)
            totals[m] += _value(rollout(st), obs.seat)
            counts[m] += 1
            used += 1
            if used >= cap or (deadline is not None and clock() >= deadline):
                return _result(totals, counts, alive, used, deals + 1)
        deals += 1
        if deals >= phase_end and len(alive) > 2:
            alive = sorted(alive, key=lambda m: -totals[m] / counts[m])[: max(2, len(alive) // 2)]
            phase *= 2
            phase_end = deals + phase
        deal = determinize(obs, rng)


def choose(
    obs: Observation,
    seed: int | str,
    *,
    budget_ms: float | None = DEFAULT_BUDGET_MS,
    iterations: int | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> int:
    """The expert's move for the seat of ``obs`` as a mask (-1 to pass): :func:`search`'s.

    >>> from games.engine.tienlen.rules import new_game
    >>> s = new_game({"players": 2, "opening": True}, seed=8)
    >>> o = observe(s, s.turn)
    >>> choose(o, 1, budget_ms=None, iterations=40) == choose(o, 1, budget_ms=None, iterations=40)
    True
    """
    return search(obs, seed, budget_ms=budget_ms, iterations=iterations, clock=clock).move


def _result(
    totals: dict[int, float], counts: dict[int, int], alive: list[int], used: int, deals: int
) -> Search:
    """The candidate with the best mean among those evaluated on (nearly) every deal so far
    (a search stopped mid-deal leaves some one rollout behind; ties keep the candidates'
    order, the rule AIs' picks first)."""
    top = max(counts[m] for m in alive)
    pool = [m for m in alive if counts[m] >= max(1, top - 1)]
    best = max(pool, key=lambda m: (totals[m] / counts[m], -alive.index(m)))
    stats = {m: (totals[m] / counts[m] if counts[m] else 0.0, counts[m]) for m in totals}
    return Search(best, used, deals, stats)
