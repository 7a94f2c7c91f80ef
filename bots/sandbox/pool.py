"""Warm sandbox processes shared by many bots: one fresh V8 isolate + context per bot.

A :class:`SandboxPool` keeps a few children (``python -I -B child.py`` in *pool* mode) and
hands out :class:`PooledBot` leases, with the interface of :class:`bots.sandbox.BotProcess`
(``start/move/restart/close/alive/pid/load_outcome``, context manager). Each lease opens its own
context (a new ``MiniRacer``: its own isolate, heap, globals, builtins and microtask queue) in
a child with room, and closes it at the end of the game; the child stays warm for the next
games. Up to ``contexts_per_child`` bots share a child; every context has its own thread in
the child, so bots never wait for each other.

Isolation when something goes wrong (docs/sandbox.md, "Warm pool"):

* What V8 stops (timeout, heap limit, exceptions, bad returns) stays in the bot's context; a
  context V8 had to stop is closed, its neighbours go on.
* What only the end of the process stops (a runaway microtask, an uninterruptible builtin
  past the parent's deadline, V8's fatal out-of-memory) ends the child: the bots whose move
  was in flight there, and were not the cause, get their move **re-run alone** in a fresh
  context in a new child (``last_move_restarted``: their globals are gone, no strike); the
  others find their context gone on their next move (``alive`` is False: the registry
  restarts them, flagged ``restarted``).
* A ``memory`` outcome that may come from a neighbour (an off-heap allocation failing in a
  child that holds other bots, or the child dying with others in it) is re-judged the same
  way: the move is re-run alone, and that result counts.
"""

from __future__ import annotations

import collections
import contextlib
import itertools
import logging
import os
import subprocess
import threading
import time
import weakref
from collections.abc import Callable
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from typing import Any, Final, TypeVar

from bots.sandbox import child
from bots.sandbox.lease import SandboxLease
from bots.sandbox.outcome import ErrorCode, MoveOutcome, SandboxLimits
from bots.sandbox.replies import (
    MAX_REPLY_BYTES,
    STDERR_TAIL_BYTES,
    Died,
    Overdue,
    ProtocolError,
    Result,
    parse_frame,
)
from bots.sandbox.session import default_python, reap_child, spawn_worker, wait_ready

__all__ = ["PooledBot", "SandboxPool", "per_process", "sandbox_pool"]

T = TypeVar("T")

DEFAULT_CONTEXTS_PER_CHILD: Final = 16
DEFAULT_SPARE_CHILDREN: Final = 1
DEFAULT_MAX_CONTEXTS_SERVED: Final = 256
#: Contexts a child makes ahead (never used: each bot still gets a fresh one), so that a
#: game's bots start in the time their code takes to load (bots/sandbox/child.py _Spares).
DEFAULT_SPARE_CONTEXTS: Final = 4
#: V8's old-space cap per isolate in a pool child (MB), at least (see SandboxPool._config).
POOL_OLD_SPACE_MB: Final = 128
#: Children started for one request before giving up: the first, and one fresh retry.
START_ATTEMPTS: Final = 2

_log = logging.getLogger(__name__)


class _StartFailed(Exception):
    """A pool child did not get through its start handshake (it has been killed). The
    message says why, for the bot's outcome; ``stderr_tail`` is for the log only."""

    def __init__(self, why: str, stderr_tail: bytes = b"") -> None:
        super().__init__(why)
        self.stderr_tail = stderr_tail


@dataclass(slots=True)
class _Lost:
    """The child went away for a reason that is not (provably) this bot's: re-run alone."""

    why: str


class _SharedChild:
    """A pool-mode worker process: multiplexed requests (``id``, ``ctx``) over its pipes.

    Start handshake: the parent writes ``{"op": "pool", "ctx": 0, "config"}``; the child
    starts V8 and answers ``{"ready": true}``, which the reader thread hands over as the
    reply to request 0. No answer within ``startup_timeout_s``, a death or anything else
    raises :class:`_StartFailed` (the child is killed first).

    The pipes belong to the reader thread: it alone closes them, when it has read the
    child's end of output. ``kill()`` only signals and reaps. (Closing them from another
    thread let their descriptor numbers be reused by the next child's pipes while this
    reader still watched them: it then read, and lost, the next child's replies.)
    """

    def __init__(self, python: str, config: dict[str, Any], *, solo: bool = False) -> None:
        try:
            self.proc = spawn_worker(python)
        except OSError as exc:
            raise _StartFailed(f"could not be spawned ({exc.strerror or exc})") from exc
        assert self.proc.stdin is not None
        assert self.proc.stdout is not None
        assert self.proc.stderr is not None
        self._in_fd = self.proc.stdin.fileno()
        self._out_fd = self.proc.stdout.fileno()
        self._err_fd = self.proc.stderr.fileno()
        os.set_blocking(self._in_fd, False)
        self.config = config
        self.solo = solo
        """Started for one bot's move re-run alone: never shared, retired when empty."""
        self.open = 0  # contexts opened (or being opened) here; guarded by the pool's lock
        self.served = 0
        self.killed_by_parent = False
        self.wedged_ctx: int | None = None
        self.contexts_at_death = 0
        self.died: Died | None = None
        self._stderr = bytearray()
        self._pending: dict[int, Future[Result]] = {}
        self._ctx_ids = itertools.count(1)
        self._ids = itertools.count(1)
        self._lock = threading.Lock()
        self._write_lock = threading.Lock()
        self._stdin_closed = False  # guarded by _write_lock
        self._ready: Future[Result] = Future()
        self._pending[0] = self._ready
        self._finalizer = weakref.finalize(self, reap_child, self.proc)
        self.reader = threading.Thread(
            target=self._read_loop, name="sandbox-pool-reader", daemon=True
        )
        self.reader.start()
        self._handshake(float(config["startup_timeout_s"]))

    def _handshake(self, timeout_s: float) -> None:
        deadline = time.monotonic() + timeout_s
        header = {"op": "pool", "ctx": 0, "config": self.config}
        sent = self._write(child.encode_frame(header), deadline)
        if not sent and self.proc.poll() is None:
            self.kill()  # could not even hand it the request: the reader reports its end
        try:
            ready = self._ready.result(timeout=max(deadline - time.monotonic(), 0.0))
        except FutureTimeout:
            self.kill()
            raise _StartFailed(f"did not answer within {timeout_s:g} s") from None
        if isinstance(ready, Died):
            why = f"exited before it was ready (status {ready.returncode})"
            raise _StartFailed(why, ready.stderr_tail)
        if not isinstance(ready, dict) or ready.get("ready") is not True:
            self.kill()
            raise _StartFailed(f"answered its start request with {ready!r:.100}")

    @property
    def pid(self) -> int:
        return self.proc.pid

    def alive(self) -> bool:
        # a wedged reply means the child is ending itself (its reader may not know yet)
        return self.died is None and self.wedged_ctx is None and self.proc.poll() is None

    def new_context(self) -> int:
        return next(self._ctx_ids)

    def kill(self) -> None:
        """SIGKILL and reap the child (idempotent); the reader thread then closes the pipes."""
        if self.proc.poll() is None:
            self.killed_by_parent = True
        self._finalizer()

    # -- I/O

    def _write(self, data: bytes, deadline: float) -> bool:
        view = memoryview(data)
        with self._write_lock:
            if self._stdin_closed:  # its descriptor number may be another pipe's by now
                return False
            while view:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                try:
                    _, writable = wait_ready([], [self._in_fd], remaining)
                    if writable:
                        view = view[os.write(self._in_fd, view) :]
                except BlockingIOError:  # pragma: no cover
                    continue
                except (OSError, ValueError):
                    return False
        return True

    def _read_loop(self) -> None:
        try:
            self._read_replies()
        finally:
            self._close_pipes()

    def _close_pipes(self) -> None:
        """The reader is done with the pipes: only now may their descriptors be reused."""
        with self._write_lock:
            self._stdin_closed = True
            streams = (self.proc.stdin, self.proc.stdout, self.proc.stderr)
            for stream in streams:
                if stream is not None:
                    with contextlib.suppress(OSError):
                        stream.close()

    def _read_replies(self) -> None:
        buffer = bytearray()
        readers = [self._out_fd, self._err_fd]
        while self._out_fd in readers:
            try:
                readable, _ = wait_ready(readers, [], None)
            except (OSError, ValueError):
                break
            if self._err_fd in readable:
                chunk = _read(self._err_fd)
                if not chunk:
                    readers.remove(self._err_fd)
                else:
                    self._stderr += chunk
                    del self._stderr[: max(0, len(self._stderr) - STDERR_TAIL_BYTES)]
            if self._out_fd in readable:
                chunk = _read(self._out_fd)
                if not chunk:
                    break
                buffer += chunk
                while True:
                    parsed = parse_frame(buffer)
                    if parsed is None:
                        if len(buffer) > MAX_REPLY_BYTES:
                            parsed = ProtocolError("reply too large")
                        else:
                            break
                    if isinstance(parsed, ProtocolError):
                        self.kill()
                        self._fail_all(parsed)
                        return
                    head_len, payload_len = child.FRAME.unpack_from(buffer)
                    del buffer[: child.FRAME.size + head_len + payload_len]
                    self._dispatch(parsed)
        self._on_exit()

    def _dispatch(self, reply: dict[str, Any]) -> None:
        if reply.get("wedged") and isinstance(reply.get("ctx"), int):
            self.wedged_ctx = int(reply["ctx"])
        rid = reply.get("id")
        if rid is None and reply.get("ready"):
            rid = 0
        with self._lock:
            future = self._pending.pop(rid, None) if isinstance(rid, int) else None
        if future is not None and not future.done():
            future.set_result(reply)

    def _on_exit(self) -> None:
        try:
            returncode = self.proc.wait(timeout=2.0)
        except subprocess.TimeoutExpired:
            self.kill()
            returncode = self.proc.returncode
        with contextlib.suppress(OSError):
            while chunk := _read(self._err_fd):
                self._stderr += chunk
        died = Died(returncode, bytes(self._stderr[-STDERR_TAIL_BYTES:]))
        self.contexts_at_death = self.open
        self.died = died
        self._fail_all(died)
        self.kill()

    def _fail_all(self, result: Result) -> None:
        with self._lock:
            pending, self._pending = self._pending, {}
        for future in pending.values():
            if not future.done():
                future.set_result(result)

    def request(self, header: dict[str, Any], payload: bytes, deadline: float) -> Result | _Lost:
        """Send one request and wait for its reply until ``deadline`` (monotonic)."""
        rid = next(self._ids)
        future: Future[Result] = Future()
        with self._lock:
            if self.died is None:
                self._pending[rid] = future
        if self.died is not None:
            return self._judge_death(self.died, header.get("ctx"))
        sent = self._write(child.encode_frame(header | {"id": rid}, payload), deadline)
        if not sent and self.died is None and self.proc.poll() is None:
            self.kill()  # could not even hand the request over in time
            return Overdue()
        try:
            result = future.result(timeout=max(deadline - time.monotonic(), 0.0))
        except FutureTimeout:
            self.kill()
            return Overdue()
        if isinstance(result, Died):
            return self._judge_death(result, header.get("ctx"))
        return result

    def send_close(self, ctx: int) -> None:
        """Close a context without waiting for the answer."""
        if self.alive():
            rid = next(self._ids)  # nobody waits for it: the reply is dropped
            header = {"op": "close", "ctx": ctx, "id": rid}
            self._write(child.encode_frame(header), time.monotonic() + 1.0)

    def _judge_death(self, died: Died, ctx: object) -> Died | _Lost:
        """Whose fault is it that the child is gone, from one context's point of view?"""
        if self.killed_by_parent:
            return _Lost("another bot's move overran the parent's deadline")
        if self.wedged_ctx is not None and self.wedged_ctx != ctx:
            return _Lost("another bot's runaway async code ended the process")
        if self.contexts_at_death > 1:
            return _Lost("the process died while it held other bots")
        return died


def _read(fd: int) -> bytes:
    """What is there to read on a (blocking) pipe select() found readable; b"" at EOF."""
    try:
        return os.read(fd, 1 << 20)
    except OSError:
        return b""


class SandboxPool:
    """Warm sandbox children shared by up to ``contexts_per_child`` bots each. Thread-safe.

    ``spare_children`` idle children stay warm for the next games; a child that has served
    ``max_contexts_served`` bots is retired once empty (V8 and malloc fragmentation).
    ``spawns`` counts the children started, ``start_failures`` the children that did not
    get through their start handshake (each is retried once with a fresh child).
    """

    def __init__(
        self,
        *,
        contexts_per_child: int = DEFAULT_CONTEXTS_PER_CHILD,
        spare_children: int = DEFAULT_SPARE_CHILDREN,
        max_contexts_served: int = DEFAULT_MAX_CONTEXTS_SERVED,
        spare_contexts: int = DEFAULT_SPARE_CONTEXTS,
        python: str | None = None,
    ) -> None:
        if contexts_per_child < 1:
            raise ValueError("contexts_per_child must be at least 1")
        self.contexts_per_child = contexts_per_child
        self.spare_children = spare_children
        self.max_contexts_served = max_contexts_served
        self.spare_contexts = spare_contexts
        self._python = python or default_python()
        self._children: list[_SharedChild] = []
        self._lock = threading.Lock()
        self._spawn_lock = threading.Lock()
        self._orphans: collections.deque[tuple[_SharedChild, int]] = collections.deque()
        self.spawns = 0
        self.start_failures = 0

    def bot(
        self, code: str, *, limits: SandboxLimits | None = None, seed: int | None = None
    ) -> PooledBot:
        """A lease for one bot (not started: call ``start()`` or use it as a context manager)."""
        return PooledBot(code, limits=limits, seed=seed, pool=self)

    def children(self) -> list[int]:
        """PIDs of the live children."""
        self._reap_orphans()
        with self._lock:
            return [c.pid for c in self._children if c.alive()]

    def close(self) -> None:
        with self._lock:
            children, self._children = self._children, []
        for spawned in children:
            spawned.kill()

    def _config(self, limits: SandboxLimits, contexts: int) -> dict[str, Any]:
        return {
            # Room above the per-bot heap limit, so that mini-racer's limit stops a memory
            # bomb inside its context before V8's per-isolate cap aborts the whole process.
            "v8_max_old_space_mb": max(int(limits.v8_max_old_space_mb), POOL_OLD_SPACE_MB),
            "heap_limit_bytes": int(limits.heap_limit_bytes),
            "offheap_headroom_bytes": int(limits.offheap_headroom_bytes),
            "startup_timeout_s": float(limits.startup_timeout_s),
            "contexts": contexts,
            # a child shared by several bots makes the next ones' contexts ahead
            "spares": min(self.spare_contexts, contexts - 1),
        }

    def warm(self, limits: SandboxLimits | None = None) -> bool:
        """Start a child now unless one with room for a bot of ``limits`` is up, so that the
        first bot started here does not wait for a process (a bot worker about to take a
        shard over: config/shards.py). It stays as the spare (``spare_children``). Whether a
        child was started; a child that does not start is logged, not raised."""
        config = self._config(limits or SandboxLimits(), self.contexts_per_child)
        with self._spawn_lock:
            with self._lock:
                if any(
                    c.config == config
                    and not c.solo
                    and c.alive()
                    and c.open < self.contexts_per_child
                    and c.served < self.max_contexts_served
                    for c in self._children
                ):
                    return False
            try:
                child = self._spawn(config, solo=False)
            except _StartFailed:
                return False  # _spawn logged it; the first bot tries again
        self._release(child)  # its context was never opened: the child waits, empty
        with self._lock:
            child.served -= 1
        return True

    def _acquire(self, limits: SandboxLimits, *, solo: bool = False) -> _SharedChild:
        """A child with room for one more context (reserved), started if need be. Spawns are
        serialised, so that threads asking at once fill one new child instead of each
        starting their own."""
        self._reap_orphans()
        config = self._config(limits, 1 if solo else self.contexts_per_child)
        if solo:
            return self._spawn(config, solo=True)
        child = self._reserve(config)
        if child is not None:
            return child
        with self._spawn_lock:
            child = self._reserve(config)  # another thread's new child may have room
            return child if child is not None else self._spawn(config, solo=False)

    def _reap_orphans(self) -> None:
        while self._orphans:
            try:
                child, ctx = self._orphans.popleft()
            except IndexError:  # another thread took it
                return
            _give_back(self, child, ctx)

    def _reserve(self, config: dict[str, Any]) -> _SharedChild | None:
        with self._lock:
            self._children = [c for c in self._children if c.alive() or c.open]
            fits = [
                c
                for c in self._children
                if c.config == config
                and not c.solo
                and c.alive()
                and c.open < self.contexts_per_child
                and c.served < self.max_contexts_served
            ]
            if not fits:
                return None
            child = max(fits, key=lambda c: c.open)  # pack: fewer processes
            child.open += 1
            child.served += 1
            return child

    def _spawn(self, config: dict[str, Any], *, solo: bool) -> _SharedChild:
        """A new child, its first context reserved; :class:`_StartFailed` if neither it nor
        a fresh retry gets through the start handshake."""
        began = time.monotonic()
        for attempt in range(1, START_ATTEMPTS + 1):
            try:
                child = _SharedChild(self._python, config, solo=solo)
                break
            except _StartFailed as exc:
                with self._lock:
                    self.start_failures += 1
                tail = exc.stderr_tail[-1000:].decode("utf-8", "replace").strip()
                _log.warning(
                    "sandbox pool child did not start (attempt %d of %d): %s%s",
                    attempt,
                    START_ATTEMPTS,
                    exc,
                    f"\n{tail}" if tail else "",
                )
                if attempt == START_ATTEMPTS:
                    raise
        with self._lock:
            self.spawns += 1
            child.open += 1
            child.served += 1
            self._children.append(child)
        _log.info("sandbox pool child %d started in %.0f ms", child.pid, _since_ms(began))
        return child

    def _release(self, child: _SharedChild) -> None:
        """One context of ``child`` is closed; retire the child if it is surplus."""
        doomed: list[_SharedChild] = []
        with self._lock:
            child.open -= 1
            if child.open <= 0 and child in self._children:
                idle = [c for c in self._children if c.open <= 0 and c.alive() and not c.solo]
                worn = child.served >= self.max_contexts_served
                surplus = child.solo or len(idle) > self.spare_children
                if not child.alive() or worn or surplus:
                    self._children.remove(child)
                    doomed.append(child)
        for c in doomed:
            c.kill()


class PooledBot(SandboxLease[_SharedChild]):
    """One bot in a warm pool child: the interface and semantics of
    :class:`bots.sandbox.BotProcess` (globals kept between moves until ``close``/``restart``),
    plus ``last_move_restarted``: the last move ran in a fresh context because a neighbour
    ended the shared process (see the module's docstring). A sandbox that cannot start (its
    pool child failed the start handshake twice) is a ``crashed`` load outcome."""

    def __init__(
        self,
        code: str,
        *,
        limits: SandboxLimits | None = None,
        seed: int | None = None,
        pool: SandboxPool | None = None,
    ) -> None:
        super().__init__(code, limits=limits, seed=seed)
        self.pool = pool or sandbox_pool()
        self._ctx = 0
        self.from_spare = False
        """Its context was one the child had made ahead (a spare, never used before)."""
        self._finalizer: weakref.finalize[Any, Any] | None = None

    # -- lifecycle

    def _close_locked(self) -> None:
        child, self._child = self._child, None
        if self._finalizer is not None:
            self._finalizer.detach()
            self._finalizer = None
        if child is not None:
            _give_back(self.pool, child, self._ctx)

    def _start_locked(self, *, solo: bool = False) -> MoveOutcome:
        limits = self.limits
        payload = self._code_payload_locked()
        if isinstance(payload, MoveOutcome):
            return payload
        for attempt_solo in (solo, True):
            started = time.monotonic()
            try:
                child = self.pool._acquire(limits, solo=attempt_solo)
            except _StartFailed as exc:
                self._stopped_because = str(ErrorCode.CRASHED)
                wall_ms = (time.monotonic() - started) * 1000.0
                return MoveOutcome.failure(
                    ErrorCode.CRASHED,
                    f"the bot's sandbox could not start (its process {exc}); "
                    "call restart() to try again",
                    wall_ms=wall_ms,
                )
            ctx = child.new_context()
            self._child, self._ctx = child, ctx
            self._finalizer = weakref.finalize(self, _orphaned, self.pool, child, ctx)
            config = limits.to_wire() | {"seed": self.seed}
            header = {"op": "open", "ctx": ctx, "config": config}
            header["timeout_s"] = limits.load_timeout_s
            deadline = started + limits.load_timeout_s + limits.grace_s + 2.0
            result = child.request(header, payload, deadline)
            if isinstance(result, _Lost) and not attempt_solo:
                self._close_locked()
                continue  # a neighbour ended the process: load again, alone
            outcome = self._outcome(result, child, started, limits.load_timeout_s, loading=True)
            self.from_spare = isinstance(result, dict) and result.get("spare") is True
            if not outcome.ok:
                self._close_locked()
                self._stopped_because = str(outcome.error_code)
            return outcome
        raise AssertionError("unreachable")  # pragma: no cover

    def _outcome(
        self,
        result: Result | _Lost,
        child: _SharedChild,
        started: float,
        timeout_s: float,
        *,
        loading: bool,
    ) -> MoveOutcome:
        if isinstance(result, _Lost):  # only in a solo child, which holds no neighbour
            result = child.died or Died(None, b"")
        return self._to_outcome(result, child, started, timeout_s, loading=loading)

    # -- moves

    def _play_locked(self, child: _SharedChild, payload: bytes, timeout: float) -> MoveOutcome:
        outcome = self._move_locked(child, payload, timeout)
        if outcome is None:  # re-judge alone, in a fresh context
            self._close_locked()
            self.last_move_restarted = True
            self._load_outcome = self._start_locked(solo=True)
            if not self._load_outcome.ok:
                return self._load_outcome
            solo = self._child
            assert solo is not None
            outcome = self._move_locked(solo, payload, timeout, final=True)
            assert outcome is not None
        return outcome

    def _move_locked(
        self, child: _SharedChild, payload: bytes, timeout: float, *, final: bool = False
    ) -> MoveOutcome | None:
        """One move in ``child``; None when it must be re-run alone (not this bot's fault)."""
        limits = self.limits
        started = time.monotonic()
        header = {"op": "move", "ctx": self._ctx, "timeout_s": timeout}
        result = child.request(header, payload, started + timeout + limits.grace_s)
        if isinstance(result, _Lost) and not final:
            return None
        neighbours = child.open > 1
        if (
            isinstance(result, dict)
            and result.get("code") == "memory"
            and not result.get("own")
            and neighbours
            and not final
        ):
            return None  # an off-heap allocation failed in a shared process: whose memory?
        outcome = self._outcome(result, child, started, timeout, loading=False)
        gone = not isinstance(result, dict) or result.get("dropped") or result.get("fatal")
        if gone or not child.alive():
            self._close_locked()
            self._stopped_because = str(outcome.error_code)
        return outcome

    def _repr_details(self) -> str:
        return f" ctx={self._ctx}"


def _orphaned(pool: SandboxPool, child: _SharedChild, ctx: int) -> None:
    """GC finalizer of a lease never closed: no locks or I/O here (the collector may run inside
    any code, a pool or pipe lock held); the pool closes the context on its next call."""
    pool._orphans.append((child, ctx))


def _give_back(pool: SandboxPool, child: _SharedChild, ctx: int) -> None:
    """Close a bot's context and return its room to the pool."""
    with contextlib.suppress(Exception):
        child.send_close(ctx)
    pool._release(child)


def _since_ms(began: float) -> float:
    return (time.monotonic() - began) * 1000.0


def per_process(make: Callable[[], T]) -> Callable[[], T]:
    """A getter of one ``make()`` per process: made on first use, thread-safe; a forked
    process makes its own (its parent's threads and pipes are not its to use)."""
    made: list[T] = []
    lock = [threading.Lock()]

    def get() -> T:
        with lock[0]:
            if not made:
                made.append(make())
            return made[0]

    def forget() -> None:
        made.clear()
        lock[0] = threading.Lock()

    os.register_at_fork(after_in_child=forget)
    return get


#: This process's pool (made on first use; a forked process makes its own).
sandbox_pool = per_process(SandboxPool)
