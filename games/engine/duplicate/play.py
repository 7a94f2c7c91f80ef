"""Planning and playing the games of a duplicate match.

* :func:`plan_match` — the deterministic list of games (:class:`PlannedGame`), deal by deal,
  one per rotation of the field over the seats; :func:`deal_seed` seeds each deal;
  :func:`match_config` the config of every game.
* :func:`play_game` — one game with the live tables' failure rules (strikes, the engine's
  ``timeout_action``, disqualification at :data:`STRIKES_TO_DISQUALIFY`), a
  :class:`GameOutcome`; :func:`play_task` plays a picklable :class:`GameTask` (what a
  ``mapper`` sends to a worker process).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.engine.core.protocol import Action, Game, GameRecord, JSONDict
from games.engine.core.rng import seed_state
from games.engine.duplicate.entrants import Decision, Entrant, EntrantError, Player

__all__ = [
    "MAX_MOVES",
    "STRIKES_TO_DISQUALIFY",
    "GameOutcome",
    "GameTask",
    "PlannedGame",
    "deal_seed",
    "match_config",
    "plan_match",
    "play_game",
    "play_task",
]

#: Strikes in one game that disqualify a seat (as at the live tables, ``GAMES_BOT_MAX_STRIKES``).
STRIKES_TO_DISQUALIFY = 3
#: A game longer than this many moves is an engine bug, not a result.
MAX_MOVES = 10_000


# --------------------------------------------------------------------------- the plan


@dataclass(frozen=True)
class PlannedGame:
    """One game of a match: deal ``deal_index`` (dealt from ``deal_seed``) with the field in
    rotation ``rotation``; ``order[seat]`` is the index of the entrant at ``seat``."""

    deal_index: int
    rotation: int
    deal_seed: int
    order: tuple[int, ...]


def deal_seed(seed: int | str, deal_index: int) -> int:
    """The engine seed of deal ``deal_index`` of a match seeded ``seed`` (63 bits, so it fits
    PostgreSQL's ``bigint``; the same on every machine).

    >>> deal_seed(1, 0) == deal_seed(1, 0) != deal_seed(1, 1)
    True
    >>> 0 <= deal_seed("x", 5) < 2**63
    True
    """
    return seed_state(f"duplicate:{seed}:{deal_index}") & ((1 << 63) - 1)


def plan_match(n_seats: int, deals: int, seed: int | str) -> list[PlannedGame]:
    """Every game of a duplicate match, deal by deal: deal ``d`` is played once per cyclic
    rotation ``r`` of the field, entrant ``(seat + r) mod n`` at ``seat``. So each entrant
    holds each seat's hand of every deal exactly once.

    >>> [(g.deal_index, g.rotation, g.order) for g in plan_match(3, 1, 7)]
    [(0, 0, (0, 1, 2)), (0, 1, (1, 2, 0)), (0, 2, (2, 0, 1))]
    >>> len({g.deal_seed for g in plan_match(4, 5, 7)})
    5
    """
    if n_seats < 1 or deals < 0:
        raise ValueError("a match needs at least one seat and no negative deal count")
    games: list[PlannedGame] = []
    for d in range(deals):
        s = deal_seed(seed, d)
        for r in range(n_seats):
            games.append(
                PlannedGame(d, r, s, tuple((seat + r) % n_seats for seat in range(n_seats)))
            )
    return games


def match_config(engine: Game, n_seats: int, options: Mapping[str, Any] | None = None) -> JSONDict:
    """The config of every game of a match: the engine's defaults with ``n_seats`` players and
    ``options`` (checked by ``validate_config``; ``bad_config`` otherwise).

    >>> from games.engine.registry import find_game
    >>> match_config(find_game("stud"), 3)["players"]
    3
    """
    return engine.validate_config({**dict(options or {}), "players": n_seats})


# --------------------------------------------------------------------------- one game


@dataclass(frozen=True)
class GameOutcome:
    """One finished game of a match; every tuple is indexed by seat.

    ``points`` the game's scores (see the module doc for the units); ``first`` / ``last`` the
    winner and the last of the ranking; ``moves`` the decisions each seat's player made (moves
    played for a disqualified seat are not counted), ``move_ms`` their total time (what the
    player reported through :class:`Decision` / :class:`EntrantError`, else the wall time of
    the call on the core's clock); ``strikes``
    and ``disqualified`` the failures; ``strike_codes`` one ``Counter``-like dict per seat;
    ``record`` the engine record (``engine.replay`` rebuilds the game from it)."""

    deal_index: int
    rotation: int
    deal_seed: int
    order: tuple[int, ...]
    points: tuple[float, ...]
    first: tuple[bool, ...]
    last: tuple[bool, ...]
    moves: tuple[int, ...]
    move_ms: tuple[float, ...]
    strikes: tuple[int, ...]
    disqualified: tuple[bool, ...]
    strike_codes: tuple[dict[str, int], ...]
    result: JSONDict
    record: GameRecord

    def to_json(self) -> JSONDict:
        """A JSON-able dict of the outcome."""
        return {
            "deal_index": self.deal_index,
            "rotation": self.rotation,
            "deal_seed": self.deal_seed,
            "order": list(self.order),
            "points": list(self.points),
            "first": list(self.first),
            "last": list(self.last),
            "moves": list(self.moves),
            "move_ms": [round(ms, 3) for ms in self.move_ms],
            "strikes": list(self.strikes),
            "disqualified": list(self.disqualified),
            "strike_codes": [dict(c) for c in self.strike_codes],
            "result": self.result,
            "record": self.record,
        }


def _strike_code(exc: BaseException) -> str:
    """The strike reason of a failing player, as the live tables name it."""
    code = str(getattr(exc, "code", None) or "exception")
    if isinstance(exc, ValueError) and not code.startswith("illegal:"):
        code = f"illegal:{code}"  # the engine refused the move
    return code


def play_game(
    engine: Game,
    config: Mapping[str, Any],
    seed: int | str,
    players: Sequence[Player],
    *,
    clock: Callable[[], float] = time.perf_counter,
    planned: PlannedGame | None = None,
) -> GameOutcome:
    """Play one game of ``engine`` dealt from ``seed`` with ``players[seat]`` at each seat.

    The pending seat (``round_status(state).pending[0]``, as the live tables take it) is asked
    for its move; a failure (any exception, or a move ``engine.check`` refuses) is a strike
    and ``engine.timeout_action`` is played; a seat with :data:`STRIKES_TO_DISQUALIFY`
    strikes is no longer asked. The players are not closed here (their owner closes them).
    ``planned`` only labels the outcome (deal, rotation, order).

    >>> from games.engine.duplicate import FirstLegalEntrant
    >>> from games.engine.registry import find_game
    >>> engine = find_game("diu")
    >>> players = [FirstLegalEntrant().player(engine, seat=s, seed=0) for s in range(4)]
    >>> out = play_game(engine, match_config(engine, 4), 3, players)
    >>> len(out.points), sum(out.points), sum(out.strikes)
    (4, 0, 0)
    """
    n = len(players)
    if int(config.get("players", n)) != n:
        raise ValueError("one player per seat of the config")
    state = engine.new_game(config, seed)
    moves = [0] * n
    ms = [0.0] * n
    strikes = [0] * n
    codes: list[Counter[str]] = [Counter() for _ in range(n)]
    played = 0
    while engine.result(state) is None:
        pending = engine.round_status(state).pending
        if not pending:
            raise RuntimeError(f"{engine.name}: a running game with no pending seat")
        seat = pending[0]
        move: Action | None = None
        if strikes[seat] < STRIKES_TO_DISQUALIFY:
            started = clock()
            try:
                chosen = players[seat].decide(state, seat)
                took = clock() - started
                if isinstance(chosen, Decision):
                    took = chosen.ms / 1000 if chosen.ms is not None else took
                    chosen = chosen.action
                candidate = {**chosen, "seat": seat}
                candidate.pop("bot_record", None)
                engine.check(state, candidate)
                move = candidate
            except Exception as exc:
                took = clock() - started
                if isinstance(exc, EntrantError) and exc.ms is not None:
                    took = exc.ms / 1000
                strikes[seat] += 1
                codes[seat][_strike_code(exc)] += 1
            moves[seat] += 1
            ms[seat] += took * 1000
        if move is None:
            move = engine.timeout_action(state, seat)
        state, _events = engine.apply(state, move)
        played += 1
        if played > MAX_MOVES:
            raise RuntimeError(f"{engine.name}: the game did not end within {MAX_MOVES} moves")
    result = engine.result(state) or {}
    scores = list(result.get("scores") or [0] * n)
    ranking = [s for s in result.get("ranking") or [] if isinstance(s, int)]
    winner = result.get("winner")
    last_seat = ranking[-1] if len(ranking) == n else None
    plan = planned or PlannedGame(0, 0, int(seed_state(seed)), tuple(range(n)))
    return GameOutcome(
        deal_index=plan.deal_index,
        rotation=plan.rotation,
        deal_seed=plan.deal_seed,
        order=plan.order,
        points=tuple(scores),
        first=tuple(winner == s for s in range(n)),
        last=tuple(last_seat == s for s in range(n)),
        moves=tuple(moves),
        move_ms=tuple(ms),
        strikes=tuple(strikes),
        disqualified=tuple(s >= STRIKES_TO_DISQUALIFY for s in strikes),
        strike_codes=tuple(dict(c) for c in codes),
        result=dict(result),
        record=engine.record(state),
    )


@dataclass(frozen=True)
class GameTask:
    """Everything one game of a match needs, for :func:`play_task`; picklable (engines are
    stateless objects that pickle) when the entrants are, so it can go to a worker process."""

    engine: Game
    config: JSONDict
    planned: PlannedGame
    entrants: tuple[Entrant, ...]
    """The whole field, in entrant order (``planned.order`` seats them)."""


def play_task(task: GameTask) -> GameOutcome:
    """Play ``task``: seat its entrants (:meth:`Entrant.player`), play, close the players."""
    engine = task.engine
    plan = task.planned
    players: list[Player] = []
    try:
        for seat, index in enumerate(plan.order):
            seed = (plan.deal_seed * 8 + seat) & 0x7FFFFFFF
            players.append(task.entrants[index].player(engine, seat=seat, seed=seed))
        return play_game(engine, task.config, plan.deal_seed, players, planned=plan)
    finally:
        for p in players:
            p.close()
