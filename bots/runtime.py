"""Live bot processes of one worker process: a registry of sandboxes keyed by game and seat.

A bot keeps one sandbox for a whole game so its globals persist between turns: by default a
fresh V8 context in a warm pool child shared with other bots (``PooledBot``, ``mode="pool"``),
or a process of its own (``BotProcess``, ``mode="process"``, the ``BOTS_SANDBOX_MODE`` of the
module's :data:`registry`); see docs/sandbox.md "Warm pool".
Celery runs a table's bot turns as separate tasks, so the sandboxes live here, in the worker
process, between tasks: keyed by ``(game_key, seat, version_id)``, evicted when idle or when the
registry is full (least recently used first), and closed by :meth:`BotRegistry.release_game` at
the end of a game. Pure Python, no Django: the caller supplies the bot's code.

Every turn of one game goes to the same worker process (the game's shard queue ``bots.<n>``,
``games.realtime.bot_queue``, is consumed by one worker process at a time: config/shards.py)
to keep the globals. A turn that lands in a process without the bot's sandbox (its shard moved
to another worker: docs/bot-affinity.md) passes the bot's earlier turns of the game
(``history``): the new sandbox plays them again first, their output discarded, so its globals
are those the bot had (``Math.random`` is seeded per game and seat). That process runs a
thread pool, so it plays the turns of several games at once: the registry is thread-safe, the
turns (and the release) of one game are serialised by a per-game lock, and a sandbox in use by
a turn is never evicted.
"""

from __future__ import annotations

import atexit
import json
import logging
import threading
import time
import zlib
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Literal

from django.conf import settings

from bots.sandbox import (
    BotProcess,
    ErrorCode,
    MoveOutcome,
    PooledBot,
    SandboxLimits,
    SandboxPool,
)
from bots.sandbox.pool import per_process, sandbox_pool

__all__ = [
    "BotRegistry",
    "BotTurnResult",
    "Rebuilt",
    "RegistryKey",
    "ReplayHistory",
    "ReplayTurn",
    "SandboxMode",
    "TurnSupersededError",
    "registry",
]

RegistryKey = tuple[str, int, int]  # (game_key, seat, bot_version_id)
#: ``pool``: one fresh V8 context per bot in warm shared processes (default);
#: ``process``: one process per bot per game (the earlier design, kept for comparison).
SandboxMode = Literal["pool", "process"]
Sandbox = BotProcess | PooledBot
#: One earlier turn of a bot in its game, to play again in a new sandbox: the ``gameState`` it
#: got then and what it returned then (the raw return of its record, to check the replay).
ReplayTurn = tuple[Mapping[str, Any], Any]


class ReplayHistory(list[ReplayTurn]):
    """A bot's earlier turns (:data:`ReplayTurn`) as read from the game's stored moves, and
    ``upto``: the game's version that read saw (its last stored move's ``seq``; None: not
    known). A history given as a plain list has no ``upto``."""

    def __init__(self, turns: Iterable[ReplayTurn] = (), *, upto: int | None = None) -> None:
        super().__init__(turns)
        self.upto = upto


logger = logging.getLogger(__name__)

DEFAULT_MAX_PROCESSES = 16
DEFAULT_IDLE_SECONDS = 15 * 60.0


@dataclass(frozen=True)
class Rebuilt:
    """A sandbox rebuilt ahead of its bot's next turn (:meth:`BotRegistry.rebuild`): what its
    replay found, reported by that turn (``replayed``, ``replay_diverged``), and what it cost."""

    replayed: int
    diverged: bool
    last_state: Mapping[str, Any] | str | None
    """The ``gameState`` of the last turn played again: a second copy of that turn's task is
    dropped as a new sandbox's would be (:meth:`BotRegistry.play`)."""
    start_ms: float
    history_ms: float
    replay_ms: float
    upto: int | None = None
    """The game's version its earlier turns were read at (:attr:`ReplayHistory.upto`; None:
    not known): the next turn checks that no turn of the bot was stored after it."""


class TurnSupersededError(Exception):
    """The turn asked for was played already by this sandbox (a duplicate of its task)."""


@dataclass(frozen=True)
class BotTurnResult:
    """What a bot did on one turn. ``value`` is its raw return (validate it with the engine's
    ``parse_bot_move``); on failure ``error_code`` is a sandbox :class:`ErrorCode` value."""

    ok: bool
    value: dict[str, Any] | None
    error_code: str | None
    error_message: str | None
    console: list[str] = field(default_factory=list)
    console_truncated: bool = False
    elapsed_ms: float = 0.0
    wall_ms: float = 0.0
    restarted: bool = False
    """True when the bot's process had died and was restarted for this turn (globals reset)."""
    replayed: int = 0
    """Earlier turns of the game played again in a new sandbox before this one (its shard
    moved to this worker process): their output was discarded."""
    replay_diverged: bool = False
    """One of those returned something else than it had: the bot is not deterministic (it
    reads the clock, say), so its globals may differ from what they were."""

    @classmethod
    def from_outcome(
        cls,
        outcome: MoveOutcome,
        *,
        restarted: bool = False,
        replayed: int = 0,
        replay_diverged: bool = False,
    ) -> BotTurnResult:
        return cls(
            replayed=replayed,
            replay_diverged=replay_diverged,
            ok=outcome.ok,
            value=outcome.value,
            error_code=None if outcome.error_code is None else str(outcome.error_code),
            error_message=outcome.error_message,
            console=list(outcome.console),
            console_truncated=outcome.console_truncated,
            elapsed_ms=outcome.elapsed_ms,
            wall_ms=outcome.wall_ms,
            restarted=restarted,
        )

    def to_record(self) -> dict[str, Any]:
        """A JSON dict for the per-move record (owner-only: it holds the console). A turn
        after a replay also says how many turns were played again (``replayed``) and whether
        one of them came out otherwise (``replay_diverged``)."""
        replay = (
            {"replayed": self.replayed, "replay_diverged": self.replay_diverged}
            if self.replayed
            else {}
        )
        return replay | {
            "ok": self.ok,
            "value": self.value,
            "error_code": self.error_code,
            "error_message": self.error_message,
            "console": list(self.console),
            "console_truncated": self.console_truncated,
            "elapsed_ms": round(self.elapsed_ms, 3),
            "restarted": self.restarted,
        }


def game_seed(game_key: str, seat: int) -> int:
    """A stable ``Math.random`` seed for one seat of one game (same game, same sequence)."""
    return zlib.crc32(f"{game_key}#{seat}".encode()) & 0x7FFFFFFF


@dataclass
class _Entry:
    process: Sandbox
    last_used: float
    busy: int = 0
    """Turns using the sandbox now: a busy entry is never evicted."""
    fresh: bool = True
    """Started by the turn now using it (a failed start is then not retried at once)."""
    turns: int = 0
    """Turns the sandbox played (earlier turns played again included): 0 means it has not
    seen any of the game yet, so a turn with a ``history`` plays that first."""
    version: int | None = None
    """The game version of the last turn it played (when the caller says it)."""
    started: threading.Event = field(default_factory=threading.Event)
    """Set once its sandbox has started (or failed to): :meth:`BotRegistry.prepare` starts
    sandboxes in the background, and a turn that finds one starting waits for it."""
    rebuilt: Rebuilt | None = None
    """Rebuilt ahead by :meth:`BotRegistry.rebuild`, no turn played since: the next turn
    reports the replay."""


@dataclass
class _GameLock:
    lock: threading.Lock = field(default_factory=threading.Lock)
    users: int = 0


class BotRegistry:
    """Sandboxes of one worker process. Thread-safe: the turns of different games run at once,
    those of one game (and its release) one at a time (a per-game lock)."""

    def __init__(
        self,
        *,
        max_processes: int = DEFAULT_MAX_PROCESSES,
        idle_seconds: float = DEFAULT_IDLE_SECONDS,
        limits: SandboxLimits | None = None,
        clock: Callable[[], float] = time.monotonic,
        mode: SandboxMode = "pool",
        pool: SandboxPool | None = None,
    ) -> None:
        """``max_processes``: sandboxes kept (bots, whatever the mode). ``pool``: the warm
        processes of ``mode="pool"`` (default: this process's :func:`sandbox_pool`)."""
        if mode not in ("pool", "process"):
            raise ValueError(f"unknown sandbox mode {mode!r}")
        self.mode: SandboxMode = mode
        self._pool = pool
        self.max_processes = max_processes
        self.idle_seconds = idle_seconds
        self.limits = limits
        self._clock = clock
        self._entries: OrderedDict[RegistryKey, _Entry] = OrderedDict()
        self._games: dict[str, _GameLock] = {}
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._entries)

    def keys(self) -> list[RegistryKey]:
        with self._lock:
            return list(self._entries)

    @property
    def pool(self) -> SandboxPool:
        # not cached: after a fork (prefork workers) the default pool is the child's own
        return self._pool if self._pool is not None else sandbox_pool()

    def _sandbox(self, code: str, seed: int) -> Sandbox:
        if self.mode == "process":
            return BotProcess(code, limits=self.limits, seed=seed)
        return self.pool.bot(code, limits=self.limits, seed=seed)

    def process_for(self, key: RegistryKey) -> Sandbox | None:
        entry = self._entries.get(key)
        return None if entry is None else entry.process

    @contextmanager
    def game_turn(self, game_key: str) -> Iterator[None]:
        """Hold ``game_key``'s lock: its turns and its release never overlap, while other games
        go on. Re-entrant use from one thread deadlocks (turns never nest)."""
        with self._lock:
            slot = self._games.setdefault(game_key, _GameLock())
            slot.users += 1
        try:
            with slot.lock:
                yield
        finally:
            with self._lock:
                slot.users -= 1
                if slot.users == 0:
                    del self._games[game_key]

    def play(
        self,
        key: RegistryKey,
        *,
        load_code: Callable[[], str],
        game_state: Mapping[str, Any] | str,
        timeout_s: float,
        history: Callable[[], Sequence[ReplayTurn]] | None = None,
        version: int | None = None,
        superseded: Callable[[], bool] | None = None,
        stored_since: Callable[[int], bool] | None = None,
    ) -> BotTurnResult:
        """Run one turn of the bot at ``key``, starting (or restarting) its sandbox if needed.

        ``load_code`` is called only when a new sandbox is started. Turns of the same game
        wait for each other (:meth:`game_turn`); other games' turns run meanwhile.
        ``history``: called when the sandbox has played none of the game yet (it is new in this
        process); the turns it lists are played first, their results discarded.

        ``version``: the game's version at this turn. A sandbox that already played a turn at
        that version or later either meets a second copy of a turn's task, played already
        (``superseded()`` is true: :class:`TurnSupersededError`, nothing played), or played
        moves that were never stored (a run of moves dropped): then it is closed and a fresh
        one rebuilt from ``history``, so a turn is never played twice into the globals.

        A sandbox rebuilt ahead (:meth:`rebuild`) has seen the bot's turns stored up to the
        version its history was read at (:attr:`ReplayHistory.upto`). Its first turn checks
        that it has seen all of them before this turn: ``stored_since(upto)`` says whether the
        bot has a turn stored after that version and before this one (one that was in flight
        in the shard's previous worker when the history was read). If so, the sandbox is
        closed and a fresh one replays ``history`` read now; a turn at a version older than
        ``upto`` is a copy of a turn stored already (when ``superseded()``). A sandbox that
        replays in the turn itself reads ``history`` after the game reached ``version``, so
        it sees every turn stored before it.
        """
        began = time.perf_counter()
        with self.game_turn(key[0]):
            locked = time.perf_counter()
            entry = self._checkout(key, load_code)
            if version is not None and entry.version is not None and version <= entry.version:
                self._unbusy(entry)
                if superseded is not None and superseded():
                    raise TurnSupersededError(key[0])
                self._drop(key, entry)
                entry = self._checkout(key, load_code)
            rebuilt = entry.rebuilt
            if rebuilt is not None and rebuilt.upto is not None and version is not None:
                if version < rebuilt.upto and superseded is not None and superseded():
                    # its rebuild read the game past this turn: a copy of a stored turn
                    self._unbusy(entry)
                    raise TurnSupersededError(key[0])
                if (
                    version > rebuilt.upto
                    and entry.turns  # none: the turn replays what it reads now (below)
                    and history is not None
                    and stored_since is not None
                    and stored_since(rebuilt.upto)
                ):
                    # a turn of the bot stored after its rebuild read the earlier turns (one
                    # the shard's previous worker was still playing): the globals miss it
                    logger.warning(
                        "a rebuilt bot sandbox missed a turn stored after its earlier turns "
                        "were read: game=%s seat=%d read_at=%d version=%d: replayed again",
                        key[0],
                        key[1],
                        rebuilt.upto,
                        version,
                    )
                    self._unbusy(entry)
                    self._drop(key, entry)
                    entry = self._checkout(key, load_code)
            timing = _Timing(lock_ms=_ms(began, locked), start_ms=_ms(locked))
            if history is not None and superseded is not None and entry.turns == 0:
                # a sandbox new in this process (a worker change): a second copy of the
                # bot's last stored turn (its task re-armed while the first copy was being
                # stored elsewhere) would play that turn twice into the rebuilt globals; and
                # so would a copy of an older turn, when the history read found the game
                # already past this turn's version
                fetched = time.perf_counter()
                read = history()
                turns = list(read)
                timing.history_ms = _ms(fetched)
                upto = getattr(read, "upto", None)
                stale = upto is not None and version is not None and upto > version
                if (turns and _same_state(turns[-1][0], game_state)) or (stale and superseded()):
                    self._unbusy(entry)
                    raise TurnSupersededError(key[0])
                history = lambda turns=turns: turns  # noqa: E731 (computed once)
            rebuilt = entry.rebuilt
            if (
                superseded is not None
                and rebuilt is not None
                and rebuilt.last_state is not None
                and _same_state(rebuilt.last_state, game_state)
            ):  # rebuilt ahead: the same second copy as above
                self._unbusy(entry)
                raise TurnSupersededError(key[0])
            if version is not None:
                entry.version = version
            try:
                return self._play_entry(
                    entry,
                    key,
                    game_state=game_state,
                    timeout_s=timeout_s,
                    history=history,
                    timing=timing,
                )
            finally:
                self._unbusy(entry)

    def _unbusy(self, entry: _Entry) -> None:
        with self._lock:
            entry.busy -= 1
            entry.fresh = False
            entry.last_used = self._clock()

    def _drop(self, key: RegistryKey, entry: _Entry) -> None:
        """Close ``key``'s sandbox (``entry``) now: the next checkout starts a fresh one."""
        with self._lock:
            if self._entries.get(key) is entry:
                del self._entries[key]
        entry.process.close()

    def prepare(self, key: RegistryKey, *, load_code: Callable[[], str]) -> None:
        """Start the sandbox of ``key`` now unless it runs already, so that the bot's first turn
        does not wait for it (bots/warmup.py). The start runs in the background, beside the
        other bots' of the game (a pool child opens their contexts at once); a turn of ``key``
        that comes first waits for it. Its load outcome (a syntax error, a start failure) is
        the one the first turn then reports, as if the turn had started it."""
        with self._lock:
            if key in self._entries:
                return
        code = load_code()
        entry = _Entry(self._sandbox(code, game_seed(key[0], key[1])), self._clock())
        entry.busy, entry.fresh = 1, False  # never evicted while it starts
        with self._lock:
            if key in self._entries:  # a turn started it meanwhile: ours never ran
                return
            self._entries[key] = entry
            doomed = self._evict_locked(self._clock(), keep=key)
        _close(doomed)
        try:
            _starter().submit(self._start_prepared, key, entry)
        except RuntimeError:  # the interpreter is shutting down: start it here
            self._start_prepared(key, entry)

    def _start_prepared(self, key: RegistryKey, entry: _Entry) -> None:
        try:
            entry.process.start()
        finally:
            self._started_in_background(key, entry)

    def _started_in_background(self, key: RegistryKey, entry: _Entry) -> None:
        """A background start of ``entry`` (:meth:`prepare`, :meth:`rebuild`) is over: it may
        be evicted again, its waiting turns go on, and it is closed if the game was released
        meanwhile."""
        with self._lock:
            entry.busy -= 1
            entry.last_used = self._clock()
            gone = self._entries.get(key) is not entry
        entry.started.set()
        if gone:
            entry.process.close()

    def rebuild(
        self,
        key: RegistryKey,
        *,
        load_code: Callable[[], str],
        history: Callable[[], Sequence[ReplayTurn]],
        timeout_s: float,
    ) -> bool:
        """Rebuild the sandbox of ``key`` ahead of its bot's next turn: start it and play the
        bot's earlier turns of the game (``history``) in it, in the background, beside the
        other seats' (a worker that has just taken a shard over, config/shards.py). The next
        turn of ``key`` waits for it if it comes first, then plays at once and reports the
        replay (``replayed``, ``replay_diverged``) as if it had played it. False (nothing
        done) when ``key`` has a sandbox here already. ``history`` is called in the
        background; if it fails, the next turn replays as usual. ``timeout_s``: each replayed
        turn's time limit (the bot's move time)."""
        with self._lock:
            if key in self._entries:
                return False
        code = load_code()
        entry = _Entry(self._sandbox(code, game_seed(key[0], key[1])), self._clock())
        entry.busy, entry.fresh = 1, False  # never evicted while it is rebuilt
        with self._lock:
            if key in self._entries:  # a turn started it meanwhile: ours never ran
                return False
            self._entries[key] = entry
            doomed = self._evict_locked(self._clock(), keep=key)
        _close(doomed)
        try:
            _starter().submit(self._start_rebuilt, key, entry, history, timeout_s)
        except RuntimeError:  # the interpreter is shutting down: rebuild it here
            self._start_rebuilt(key, entry, history, timeout_s)
        return True

    def _start_rebuilt(
        self,
        key: RegistryKey,
        entry: _Entry,
        history: Callable[[], Sequence[ReplayTurn]],
        timeout_s: float,
    ) -> None:
        try:
            began = time.perf_counter()
            entry.process.start()
            started = time.perf_counter()
            if entry.process.load_outcome.ok:
                read = history()
                turns = list(read)
                fetched = time.perf_counter()
                replayed, diverged = _replay(entry.process, turns, timeout_s=timeout_s)
                entry.turns = replayed
                entry.rebuilt = Rebuilt(
                    replayed=replayed,
                    diverged=diverged,
                    last_state=turns[-1][0] if turns else None,
                    start_ms=_ms(began, started),
                    history_ms=_ms(started, fetched),
                    replay_ms=_ms(fetched),
                    upto=getattr(read, "upto", None),
                )
                _log_rebuild(
                    "bot sandbox rebuilt ahead",
                    key,
                    replayed=replayed,
                    diverged=diverged,
                    ahead=True,
                    timing=_Timing(
                        start_ms=entry.rebuilt.start_ms,
                        history_ms=entry.rebuilt.history_ms,
                        replay_ms=entry.rebuilt.replay_ms,
                    ),
                )
        except Exception:  # the next turn replays as usual
            logger.exception("rebuilding the bot sandbox of %s seat %s failed", key[0], key[1])
        finally:
            self._started_in_background(key, entry)

    def _checkout(self, key: RegistryKey, load_code: Callable[[], str]) -> _Entry:
        """The entry of ``key`` (a new sandbox if there is none), marked busy; one that
        :meth:`prepare` is starting is waited for."""
        game_key, seat, _version = key
        with self._lock:
            now = self._clock()
            doomed = self._evict_locked(now, keep=key)
            entry = self._entries.get(key)
            if entry is not None:
                entry.last_used = now
                entry.busy += 1
                self._entries.move_to_end(key)
        _close(doomed)
        if entry is not None:
            entry.started.wait()
            return entry
        process = self._sandbox(load_code(), game_seed(game_key, seat))
        process.start()
        with self._lock:
            existing = self._entries.get(key)
            if existing is not None:  # started meanwhile (a turn that bypassed the game lock)
                entry = existing
            else:
                entry = self._entries[key] = _Entry(process, self._clock())
                entry.started.set()
            entry.busy += 1
            doomed = self._evict_locked(self._clock(), keep=key)
        if entry.process is not process:
            process.close()
        _close(doomed)
        entry.started.wait()
        return entry

    def _play_entry(
        self,
        entry: _Entry,
        key: RegistryKey,
        *,
        game_state: Mapping[str, Any] | str,
        timeout_s: float,
        history: Callable[[], Sequence[ReplayTurn]] | None = None,
        timing: _Timing | None = None,
    ) -> BotTurnResult:
        process = entry.process
        restarted = False
        load = process.load_outcome
        # it died on an earlier turn, or its sandbox could not start on an earlier turn or at
        # the deal (or died while loading, ``crashed``: the platform's trouble as often as the
        # bot's): a fresh child, globals reset; code that does not load (syntax, timeout...)
        # is not retried
        crashed = load.error_code == ErrorCode.CRASHED and not entry.fresh
        if (load.ok and not process.alive) or crashed:
            process.restart()
            restarted = True
            if not process.load_outcome.ok:
                return BotTurnResult.from_outcome(process.load_outcome, restarted=True)
        replayed, diverged = 0, False
        timing = timing or _Timing()
        if history is not None and entry.turns == 0 and process.load_outcome.ok:
            replaying = time.perf_counter()
            replayed, diverged = _replay(process, history(), timeout_s=timeout_s)
            timing.replay_ms = _ms(replaying)
            entry.turns += replayed
        rebuilt, entry.rebuilt = entry.rebuilt, None
        if rebuilt is not None and (restarted or replayed):
            rebuilt = None  # not what the turn's globals come from
        if rebuilt is not None:  # its replay is this turn's to report
            replayed, diverged = rebuilt.replayed, rebuilt.diverged
        moving = time.perf_counter()
        outcome = process.move(game_state, timeout_s=timeout_s)
        timing.move_ms = _ms(moving)
        entry.turns += 1
        # a neighbour in a shared process ended it mid-move: the move was re-run alone
        restarted = restarted or process.last_move_restarted
        if replayed:
            _log_rebuild(
                "bot turn after a replay",
                key,
                replayed=replayed,
                diverged=diverged,
                ahead=rebuilt is not None,
                timing=timing,
            )
        return BotTurnResult.from_outcome(
            outcome, restarted=restarted, replayed=replayed, replay_diverged=diverged
        )

    def release_game(self, game_key: str) -> int:
        """Close every sandbox of ``game_key``, after a turn of it in progress; returns how
        many were closed."""
        with self.game_turn(game_key):
            with self._lock:
                doomed = [k for k in self._entries if k[0] == game_key]
                entries = [self._entries.pop(k) for k in doomed]
            _close(entries)
        return len(entries)

    def release_games(self, which: Callable[[str], bool]) -> int:
        """:meth:`release_game` of every game key here for which ``which`` is true (the games
        of a shard this process no longer serves); returns how many sandboxes were closed."""
        with self._lock:
            games = {k[0] for k in self._entries if which(k[0])}
        return sum(self.release_game(game) for game in sorted(games))

    def close_all(self) -> None:
        with self._lock:
            entries = list(self._entries.values())
            self._entries.clear()
        _close(entries)

    def _evict_locked(self, now: float, *, keep: RegistryKey) -> list[_Entry]:
        """Unlink idle entries and the least recently used beyond the cap, never a busy one;
        the caller closes them after releasing the lock."""
        doomed: list[_Entry] = []
        for k, entry in list(self._entries.items()):
            if k != keep and not entry.busy and now - entry.last_used > self.idle_seconds:
                doomed.append(self._entries.pop(k))
        while len(self._entries) > self.max_processes:
            # a sandbox in use stays: the registry may hold more than the cap for a while
            oldest = next((k for k, e in self._entries.items() if k != keep and not e.busy), None)
            if oldest is None:
                break
            doomed.append(self._entries.pop(oldest))
        return doomed


@dataclass
class _Timing:
    """Where a turn's time went, in ms (logged after a replay: docs/bot-affinity.md)."""

    lock_ms: float = 0.0
    """Waiting for the game's lock (another turn of the game, or a release)."""
    start_ms: float = 0.0
    """Getting the sandbox: started here, or waited for while :meth:`BotRegistry.prepare` or
    :meth:`BotRegistry.rebuild` started it."""
    history_ms: float = 0.0
    """Reading the bot's earlier turns (the game's stored moves through the engine)."""
    replay_ms: float = 0.0
    """Playing them again in the sandbox."""
    move_ms: float = 0.0
    """The turn's own move."""


def _ms(since: float, until: float | None = None) -> float:
    return ((time.perf_counter() if until is None else until) - since) * 1000.0


def _log_rebuild(
    what: str, key: RegistryKey, *, replayed: int, diverged: bool, ahead: bool, timing: _Timing
) -> None:
    """One INFO line a run can read (benchmarks/cluster.py ``bot_replays``: where a JS-bot
    table's takeover went), ``at`` its wall time."""
    logger.info(
        "%s: game=%s seat=%d replayed=%d diverged=%s ahead=%s lock_ms=%.0f start_ms=%.0f "
        "history_ms=%.0f replay_ms=%.0f move_ms=%.0f at=%.3f",
        what,
        key[0],
        key[1],
        replayed,
        diverged,
        ahead,
        timing.lock_ms,
        timing.start_ms,
        timing.history_ms,
        timing.replay_ms,
        timing.move_ms,
        time.time(),  # the wall clock a run reads the log by
    )


def _same_state(earlier: Mapping[str, Any] | str, now: Mapping[str, Any] | str) -> bool:
    """Whether two ``gameState`` views are the same (either may be JSON text)."""

    def parsed(view: Mapping[str, Any] | str) -> Any:
        return json.loads(view) if isinstance(view, str) else dict(view)

    return bool(parsed(earlier) == parsed(now))


def _replay(process: Sandbox, turns: Sequence[ReplayTurn], *, timeout_s: float) -> tuple[int, bool]:
    """Play ``turns`` again in ``process`` (a new sandbox), discarding what they print;
    returns how many were played and whether one returned something else than it had."""
    diverged = False
    for game_state, returned in turns:
        outcome = process.move(game_state, timeout_s=timeout_s)
        diverged = diverged or outcome.value != returned
    if diverged:
        logger.warning("a bot's replayed turns came out otherwise: it is not deterministic")
    return len(turns), diverged


def _close(entries: list[_Entry]) -> None:
    for entry in entries:
        entry.process.close()


#: The threads that start prepared sandboxes (a game's bots at once) and rebuild the sandboxes
#: of a shard just taken over (several games' seats at once), one set per process.
_starter = per_process(
    lambda: ThreadPoolExecutor(max_workers=8, thread_name_prefix="sandbox-start")
)


def _mode_from_settings() -> SandboxMode:
    return "process" if settings.BOTS_SANDBOX_MODE == "process" else "pool"


#: The registry of this worker process (``BOTS_SANDBOX_MODE=process`` for one process per bot).
registry = BotRegistry(mode=_mode_from_settings())
atexit.register(registry.close_all)
