"""Duplicate matches (issue #16): every deal replayed with the field rotated over the seats.

Card games are luck-heavy, so a field of entrants (bots, house AIs…) is compared the way
duplicate bridge does it: each deal (a seed) is played once per cyclic rotation of the field
over the seats, so every entrant holds every seat's hand of every deal exactly once. The field
size is the number of seats.

Pure Python (no Django, no I/O, no processes): the site's match task and the local runner
``./bin/bot`` (:mod:`bots.lab`) both drive :func:`run_match`; for parallel play the caller
passes a ``mapper`` (e.g. a process pool's ``map``).

* :func:`plan_match` — the deterministic list of games: ``(deal_index, rotation, deal_seed,
  order)``, ``order[seat]`` the index of the entrant sitting there.
* :func:`play_game` — one game with the live tables' failure rules: a player that raises or
  returns an illegal move gets a **strike** and the engine's ``timeout_action`` (what a live
  table plays for a timed-out or failing seat: the house policy's pass / check-or-fold / …) is
  played instead; at :data:`STRIKES_TO_DISQUALIFY` strikes the seat is disqualified and every
  later move of it is the ``timeout_action`` without asking the player. Each game of a match is
  its own one-game table session, so strikes start at 0 in every game (live tables count them
  over the table session).
* :class:`DuplicateStats` — accumulates outcomes deal by deal; :meth:`~DuplicateStats.report`
  gives per-entrant numbers and 95 % confidence intervals, :meth:`~DuplicateStats.separated`
  the early-stop test, :meth:`~DuplicateStats.estimate` one point of the running series.
* :func:`run_match` — plan, play (optionally in parallel), accumulate, stop early (asked,
  or once the intervals separate), resume a stopped match; returns a :class:`MatchResult`
  (report + series).

**Points** are each game's ``result["scores"][seat]``, in the game's own unit: Tiến Lên points
(cards left, chặt/thối penalties…; zero-sum), stud chips won or lost in the hand (zero-sum),
Diu score (units of the ``base`` stake; zero-sum). **First place** is ``result["winner"] ==
seat`` (as the site's statistics count wins; a game without a winner, e.g. a Diu draw, has no
first place); **last place** is the last seat of ``result["ranking"]``.

**Intervals.** Deals are the unit: the four (n) rotations of a deal are not independent, so for
every entrant the per-deal mean over its rotations is one observation ``x_1 … x_d``. The
interval is ``mean ± t(0.975, d-1) · s / √d`` (``s`` the sample standard deviation of the
per-deal means; Student's t quantile). Rates (first places) use the same formula on the
per-deal share of first places (a clustered Wald interval), clipped to [0, 1]. With fewer than
2 deals there is no interval (``None``). **Early stop** (``stop_when_separated``): after at
least ``min_deals`` deals, once the first entrant's points interval overlaps no other
entrant's.

>>> from games.engine.registry import find_game
>>> engine = find_game("tienlen")
>>> field = [HouseEntrant("hard"), HouseEntrant("easy")]
>>> result = run_match(engine, field, deals=3, seed=1)
>>> result.report["games"], [e["games"] for e in result.report["entrants"]]
(6, [6, 6])
>>> sum(e["mean_points"] for e in result.report["entrants"])  # Tiến Lên is zero-sum
0.0
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from games.engine.core.protocol import Action, Game, GameRecord, JSONDict
from games.engine.core.rng import seed_state
from games.engine.core.text import gettext_noop

__all__ = [
    "MIN_DEALS_TO_SEPARATE",
    "POINTS_UNITS",
    "STRIKES_TO_DISQUALIFY",
    "Decision",
    "DuplicateStats",
    "Entrant",
    "EntrantError",
    "FirstLegalEntrant",
    "GameOutcome",
    "GameTask",
    "HouseEntrant",
    "Mapper",
    "MatchProgress",
    "MatchResult",
    "PlannedGame",
    "Player",
    "deal_seed",
    "interval",
    "match_config",
    "plan_match",
    "play_game",
    "play_task",
    "run_match",
    "t_quantile",
]

#: Strikes in one game that disqualify a seat (as at the live tables, ``GAMES_BOT_MAX_STRIKES``).
STRIKES_TO_DISQUALIFY = 3
#: :meth:`DuplicateStats.separated` never answers True before this many deals.
MIN_DEALS_TO_SEPARATE = 10
#: A game longer than this many moves is an engine bug, not a result.
MAX_MOVES = 10_000
#: What a game's points (``result["scores"]``) count, for the report (English, marked for the
#: site's catalog; the site translates it); a game not listed here shows ``points``.
POINTS_UNITS: dict[str, str] = {
    "tienlen": gettext_noop("Tiến Lên points"),
    "stud": gettext_noop("chips won or lost"),
    "diu": gettext_noop("Diu score (base stakes)"),
}


# --------------------------------------------------------------------------- entrants


class EntrantError(Exception):
    """A player's failure with a stable ``code`` (``timeout``, ``exception``, ``illegal:…``):
    a strike. Any other exception a player raises is a strike too (code ``exception``, or the
    engine error's ``illegal:<code>``).

    >>> EntrantError("timeout", "over 5 s").code
    'timeout'
    """

    def __init__(self, code: str, message: str = "", *, ms: float | None = None) -> None:
        super().__init__(f"{code}: {message}" if message else code)
        self.code = code
        self.message = message
        #: The time the failed move took, as the player measured it (None: the core's clock).
        self.ms = ms


@dataclass(frozen=True)
class Decision:
    """What a player may return instead of a bare action: the action plus the time the
    player itself measured for it (a sandboxed bot reports its JavaScript time); without
    ``ms`` the core's clock times the call."""

    action: Mapping[str, Any]
    ms: float | None = None


@runtime_checkable
class Player(Protocol):
    """An entrant seated in one game: asked for a move whenever its seat is pending."""

    def decide(self, state: Any, seat: int) -> Mapping[str, Any] | Decision:
        """The seat's move (an engine action; its ``seat`` is set by the core); raise
        :class:`EntrantError` (or anything) for a failure: a strike."""
        ...

    def close(self) -> None:
        """The game is over (or abandoned): free what the player holds."""
        ...


@runtime_checkable
class Entrant(Protocol):
    """A member of the field. ``name`` labels it in the report; :meth:`player` seats it in one
    game (a sandboxed bot starts one process per game there, so its globals live for one
    game, as at a live table). Entrants are passed to the ``mapper``'s worker processes, so an
    entrant used with a process pool must be picklable."""

    @property
    def name(self) -> str:
        """The entrant's label in the report."""
        ...

    def player(self, engine: Game, *, seat: int, seed: int) -> Player:
        """A fresh player for ``seat`` of one game of ``engine``; ``seed`` is a stable per
        game-and-seat number for the player's own randomness."""
        ...


class _HousePlayer:
    def __init__(self, engine: Game, level: str) -> None:
        self.engine = engine
        self.level = level

    def decide(self, state: Any, seat: int) -> Mapping[str, Any]:
        return self.engine.house_action(state, seat, self.level)

    def close(self) -> None:
        return None


@dataclass(frozen=True)
class HouseEntrant:
    """The house AI at ``level`` (one of the engine's ``house_levels``: ``easy``, ``medium``,
    ``hard``…), through ``engine.house_action``.

    >>> HouseEntrant("hard").name
    'house:hard'
    """

    level: str
    name: str = ""

    def __post_init__(self) -> None:
        if not self.name:
            object.__setattr__(self, "name", f"house:{self.level}")

    def player(self, engine: Game, *, seat: int, seed: int) -> Player:
        if self.level not in engine.house_levels:
            raise ValueError(f"{engine.name} has no house level {self.level!r}")
        return _HousePlayer(engine, self.level)


class _FirstLegalPlayer:
    def __init__(self, engine: Game) -> None:
        self.engine = engine

    def decide(self, state: Any, seat: int) -> Mapping[str, Any]:
        return self.engine.legal_actions(state, seat)[0]

    def close(self) -> None:
        return None


@dataclass(frozen=True)
class FirstLegalEntrant:
    """Always the first legal action (a baseline; also handy in tests).

    >>> FirstLegalEntrant().name
    'first-legal'
    """

    name: str = "first-legal"

    def player(self, engine: Game, *, seat: int, seed: int) -> Player:
        return _FirstLegalPlayer(engine)


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


# --------------------------------------------------------------------------- statistics

#: Student's t quantile t(0.975, df) for df = 1 … 30.
_T975 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)  # fmt: skip


def t_quantile(df: int) -> float:
    """Student's t quantile at 0.975 with ``df`` degrees of freedom (a table up to 30, then
    the Cornish–Fisher expansion around 1.95996, exact to 3 decimals).

    >>> t_quantile(1), t_quantile(9), round(t_quantile(60), 3), round(t_quantile(10**6), 3)
    (12.706, 2.262, 2.0, 1.96)
    """
    if df < 1:
        raise ValueError("df must be at least 1")
    if df <= len(_T975):
        return _T975[df - 1]
    z = 1.959963984540054
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    return z + g1 / df + g2 / df**2 + g3 / df**3


def interval(
    values: Sequence[float], *, lo: float | None = None, hi: float | None = None
) -> tuple[float, float] | None:
    """The 95 % interval of the mean of ``values`` (one per deal): ``mean ± t(0.975, d-1) ·
    s / √d``, clipped to ``[lo, hi]`` when given; None with fewer than 2 values.

    >>> interval([1.0, 2.0, 3.0, 4.0])
    (0.446..., 4.553...)
    >>> interval([0.0, 0.25, 0.5, 0.0], lo=0.0, hi=1.0)
    (0.0, 0.568...)
    >>> interval([5.0]) is None
    True
    """
    d = len(values)
    if d < 2:
        return None
    mean = math.fsum(values) / d
    var = math.fsum((v - mean) ** 2 for v in values) / (d - 1)
    half = t_quantile(d - 1) * math.sqrt(var / d)
    low, high = mean - half, mean + half
    if lo is not None:
        low = max(lo, low)
    if hi is not None:
        high = min(hi, high)
    return (low, high)


@dataclass
class _EntrantTally:
    games: int = 0
    firsts: int = 0
    lasts: int = 0
    points: float = 0.0
    strikes: int = 0
    disqualified: int = 0
    moves: int = 0
    move_ms: float = 0.0
    strike_codes: Counter[str] = field(default_factory=Counter)
    deal_points: list[float] = field(default_factory=list)
    deal_firsts: list[float] = field(default_factory=list)


def _rounded(ci: tuple[float, float] | None, digits: int) -> list[float] | None:
    return None if ci is None else [round(ci[0], digits), round(ci[1], digits)]


class DuplicateStats:
    """Per-entrant tallies of a duplicate match, fed one whole deal at a time.

    >>> stats = DuplicateStats(["a", "b"])
    >>> stats.add_deal([_demo(0, 0, (0, 1), (3, -3)), _demo(0, 1, (1, 0), (2, -2))])
    >>> [e["mean_points"] for e in stats.report()["entrants"]]
    [0.5, -0.5]
    """

    def __init__(self, names: Sequence[str], *, game: str = "", seed: int | str = 0) -> None:
        self.names = list(names)
        self.game = game
        self.seed = seed
        self.deals = 0
        self.games = 0
        self.tallies = [_EntrantTally() for _ in self.names]

    def add_deal(self, outcomes: Sequence[GameOutcome]) -> None:
        """Add every game (rotation) of one deal: each entrant's per-deal means are one
        observation of the intervals."""
        if not outcomes:
            raise ValueError("a deal has at least one game")
        n = len(self.names)
        deal_points = [0.0] * n
        deal_firsts = [0.0] * n
        seen = [0] * n
        for out in outcomes:
            for seat, index in enumerate(out.order):
                t = self.tallies[index]
                t.games += 1
                t.firsts += out.first[seat]
                t.lasts += out.last[seat]
                t.points += out.points[seat]
                t.strikes += out.strikes[seat]
                t.disqualified += out.disqualified[seat]
                t.moves += out.moves[seat]
                t.move_ms += out.move_ms[seat]
                t.strike_codes.update(out.strike_codes[seat])
                deal_points[index] += out.points[seat]
                deal_firsts[index] += out.first[seat]
                seen[index] += 1
            self.games += 1
        for index, t in enumerate(self.tallies):
            if seen[index]:
                t.deal_points.append(deal_points[index] / seen[index])
                t.deal_firsts.append(deal_firsts[index] / seen[index])
        self.deals += 1

    def to_json(self) -> JSONDict:
        """Everything the tallies hold, as JSON (store it to resume a match later with
        :meth:`from_json` and ``run_match(..., resume=...)``)."""
        return {
            "names": list(self.names),
            "game": self.game,
            "seed": self.seed,
            "deals": self.deals,
            "games": self.games,
            "tallies": [
                {
                    "games": t.games,
                    "firsts": t.firsts,
                    "lasts": t.lasts,
                    "points": t.points,
                    "strikes": t.strikes,
                    "disqualified": t.disqualified,
                    "moves": t.moves,
                    "move_ms": t.move_ms,
                    "strike_codes": dict(t.strike_codes),
                    "deal_points": list(t.deal_points),
                    "deal_firsts": list(t.deal_firsts),
                }
                for t in self.tallies
            ],
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> DuplicateStats:
        """The tallies back from :meth:`to_json`.

        >>> stats = DuplicateStats(["a", "b"], game="stud", seed=4)
        >>> stats.add_deal([_demo(0, 0, (0, 1), (3, -3)), _demo(0, 1, (1, 0), (2, -2))])
        >>> DuplicateStats.from_json(stats.to_json()).report() == stats.report()
        True
        """
        stats = cls(list(obj["names"]), game=str(obj["game"]), seed=obj["seed"])
        stats.deals = int(obj["deals"])
        stats.games = int(obj["games"])
        for t, raw in zip(stats.tallies, obj["tallies"], strict=True):
            t.games, t.firsts, t.lasts = int(raw["games"]), int(raw["firsts"]), int(raw["lasts"])
            t.points, t.strikes = float(raw["points"]), int(raw["strikes"])
            t.disqualified, t.moves = int(raw["disqualified"]), int(raw["moves"])
            t.move_ms = float(raw["move_ms"])
            t.strike_codes = Counter({str(k): int(v) for k, v in raw["strike_codes"].items()})
            t.deal_points = [float(v) for v in raw["deal_points"]]
            t.deal_firsts = [float(v) for v in raw["deal_firsts"]]
        return stats

    def entrant_report(self, index: int) -> JSONDict:
        """One entrant's line of the report (see :meth:`report`)."""
        t = self.tallies[index]
        games = t.games or 1
        return {
            "name": self.names[index],
            "games": t.games,
            "first_rate": round(t.firsts / games, 4) if t.games else 0.0,
            "first_ci": _rounded(interval(t.deal_firsts, lo=0.0, hi=1.0), 4),
            "mean_points": round(t.points / games, 4) if t.games else 0.0,
            "points_ci": _rounded(interval(t.deal_points), 4),
            "firsts": t.firsts,
            "lasts": t.lasts,
            "last_rate": round(t.lasts / games, 4) if t.games else 0.0,
            "strikes": t.strikes,
            "strike_codes": dict(sorted(t.strike_codes.items())),
            "disqualified": t.disqualified,
            "moves": t.moves,
            "mean_move_ms": round(t.move_ms / t.moves, 3) if t.moves else None,
        }

    def report(self) -> JSONDict:
        """``{game, points_unit, seed, seats, deals, games, entrants: [...]}``; each entrant
        ``{name, games, first_rate, first_ci, mean_points, points_ci, firsts, lasts, last_rate,
        strikes, strike_codes, disqualified, moves, mean_move_ms}`` (``*_ci`` ``[low, high]``
        or None; ``mean_move_ms`` the only timing field)."""
        return {
            "game": self.game,
            "points_unit": POINTS_UNITS.get(self.game, "points"),
            "seed": self.seed,
            "seats": len(self.names),
            "deals": self.deals,
            "games": self.games,
            "entrants": [self.entrant_report(i) for i in range(len(self.names))],
        }

    def estimate(self) -> JSONDict:
        """One point of the running-estimate series (after the deals so far): ``{deals,
        mean_points, points_ci, first_rate, first_ci}``, each a list in entrant order."""
        lines = [self.entrant_report(i) for i in range(len(self.names))]
        return {
            "deals": self.deals,
            **{k: [line[k] for line in lines] for k in _SERIES_KEYS},
        }

    def separated(self, *, min_deals: int = MIN_DEALS_TO_SEPARATE) -> bool:
        """The early-stop test: after at least ``min_deals`` deals, the first entrant's points
        interval overlaps no other entrant's (it is clearly better or clearly worse than each
        of them).

        >>> stats = DuplicateStats(["a", "b"])
        >>> for k in range(3):
        ...     a, b = _demo(k, 0, (0, 1), (10 + k, -10 - k)), _demo(k, 1, (1, 0), (4, -4))
        ...     stats.add_deal([a, b])
        >>> stats.separated(min_deals=3), stats.separated()
        (True, False)
        """
        if self.deals < max(2, min_deals) or len(self.names) < 2:
            return False
        mine = interval(self.tallies[0].deal_points)
        if mine is None:
            return False
        for t in self.tallies[1:]:
            other = interval(t.deal_points)
            if other is None or not (mine[1] < other[0] or other[1] < mine[0]):
                return False
        return True


_SERIES_KEYS = ("mean_points", "points_ci", "first_rate", "first_ci")


def _demo(
    deal: int, rotation: int, order: tuple[int, ...], points: tuple[float, ...]
) -> GameOutcome:
    """A hand-made outcome (for the doctests)."""
    n = len(order)
    best = max(range(n), key=lambda s: points[s])
    worst = min(range(n), key=lambda s: points[s])
    return GameOutcome(
        deal_index=deal,
        rotation=rotation,
        deal_seed=deal,
        order=order,
        points=points,
        first=tuple(s == best for s in range(n)),
        last=tuple(s == worst for s in range(n)),
        moves=(1,) * n,
        move_ms=(1.0,) * n,
        strikes=(0,) * n,
        disqualified=(False,) * n,
        strike_codes=tuple({} for _ in range(n)),
        result={},
        record={},
    )


# --------------------------------------------------------------------------- the match


@dataclass(frozen=True)
class MatchProgress:
    """Where a running match is, for ``on_progress``: deals done of planned, games done, and
    the statistics so far (``stats.report()``)."""

    deals_done: int
    deals: int
    games_done: int
    stats: DuplicateStats


@dataclass
class MatchResult:
    """What :func:`run_match` returns. ``report`` is :meth:`DuplicateStats.report` plus
    ``deals_planned`` and ``stopped`` (None when every deal was played, ``"separated"`` when
    the intervals separated, ``"stopped"`` when ``should_stop`` asked); ``series`` holds one
    :meth:`DuplicateStats.estimate` per deal played; ``outcomes`` every game (only with
    ``keep_outcomes``)."""

    report: JSONDict
    series: list[JSONDict]
    stats: DuplicateStats
    outcomes: list[GameOutcome] = field(default_factory=list)

    def to_json(self) -> JSONDict:
        """The report with its ``series``."""
        return {**self.report, "series": list(self.series)}


#: ``mapper(fn, tasks)``: plays ``fn(task)`` for every task, the outcomes in task order (the
#: built-in ``map``, or an executor's ``map`` for parallel play).
Mapper = Callable[[Callable[[GameTask], GameOutcome], Iterable[GameTask]], Iterable[GameOutcome]]


def _chunks(
    plan: list[PlannedGame], n_seats: int, deals_per_batch: int
) -> Iterator[list[PlannedGame]]:
    step = max(1, deals_per_batch) * n_seats
    for i in range(0, len(plan), step):
        yield plan[i : i + step]


def run_match(
    engine: Game,
    entrants: Sequence[Entrant],
    deals: int,
    seed: int | str,
    *,
    config: Mapping[str, Any] | None = None,
    mapper: Mapper | None = None,
    deals_per_batch: int = 1,
    on_progress: Callable[[MatchProgress], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
    stop_when_separated: bool = False,
    min_deals: int = MIN_DEALS_TO_SEPARATE,
    keep_outcomes: bool = False,
    resume: DuplicateStats | None = None,
    series: Sequence[JSONDict] = (),
) -> MatchResult:
    """Play a duplicate match of ``entrants`` (the field: one per seat) over ``deals`` deals
    of ``engine`` from ``seed``.

    ``config`` holds table options (the players are the field's size; see
    :func:`match_config`). ``mapper(fn, tasks)`` plays games, returning outcomes in task order
    (the built-in ``map`` by default; a process pool's ``map`` for parallel play); it is given
    ``deals_per_batch`` deals at a time. After each deal (in deal order, so the result does not
    depend on the batching) ``on_progress`` is called, and the match stops early when
    ``should_stop()`` is true or, with ``stop_when_separated``,
    :meth:`DuplicateStats.separated` (after ``min_deals``). The same engine, field, deals,
    seed and config give the same report (timing aside).

    ``resume`` (statistics saved with :meth:`DuplicateStats.to_json` after some deals of the
    same match) continues after its last deal; ``series`` is the running estimate so far.
    """
    n = len(entrants)
    if not engine.min_players <= n <= engine.max_players:
        raise ValueError(
            f"{engine.name} is played by {engine.min_players}–{engine.max_players} seats, not {n}"
        )
    cfg = match_config(engine, n, config)
    names = [e.name for e in entrants]
    stats = DuplicateStats(names, game=engine.name, seed=seed)
    if resume is not None:
        if resume.names != names or resume.game != engine.name or resume.seed != seed:
            raise ValueError("resume holds another match's statistics")
        stats = resume
    plan = [g for g in plan_match(n, deals, seed) if g.deal_index >= stats.deals]
    running: list[JSONDict] = list(series)
    kept: list[GameOutcome] = []
    stopped: str | None = None
    run = mapper or (lambda fn, tasks: map(fn, tasks))
    field_ = tuple(entrants)
    for batch in _chunks(plan, n, deals_per_batch):
        if should_stop is not None and should_stop():
            stopped = "stopped"
            break
        tasks = [GameTask(engine, cfg, planned, field_) for planned in batch]
        outcomes = list(run(play_task, tasks))
        for i in range(0, len(outcomes), n):
            deal = outcomes[i : i + n]
            stats.add_deal(deal)
            running.append(stats.estimate())
            if keep_outcomes:
                kept.extend(deal)
            if on_progress is not None:
                on_progress(MatchProgress(stats.deals, deals, stats.games, stats))
            if stop_when_separated and stats.separated(min_deals=min_deals):
                stopped = "separated"
                break
            if should_stop is not None and should_stop():
                stopped = "stopped"
                break
        if stopped:
            break
    report = stats.report()
    report["deals_planned"] = deals
    report["stopped"] = stopped
    return MatchResult(report=report, series=running, stats=stats, outcomes=kept)
