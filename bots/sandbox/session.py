"""Parent side of the bot sandbox: one child process per bot per game.

:class:`BotProcess` starts ``python -I -B bots/sandbox/child.py`` in a new session with an
empty environment and no inherited descriptors, loads the bot's code into one hardened V8
context, and then answers :meth:`BotProcess.move` calls over length-prefixed JSON frames on
pipes. The bot's globals survive between moves. Time is enforced twice: by V8 inside the child
(``timeout_s``), and by this process, which SIGKILLs a child that has not answered within
``timeout_s + grace_s``. Nothing here raises because of what a bot does: every failure becomes
a :class:`MoveOutcome` with a stable :class:`ErrorCode`.

Thread-safe: a lock serialises the calls on one instance, and every child is started from one
long-lived thread of the process (its parent-death signal is tied to that thread), so any
thread may start, use and close sandboxes.
"""

from __future__ import annotations

import contextlib
import errno
import math
import os
import queue
import select
import subprocess
import sys
import threading
import time
import weakref
from collections.abc import Mapping
from concurrent.futures import Future
from pathlib import Path
from typing import Any, Final, cast

from bots.sandbox import child
from bots.sandbox.lease import SandboxLease
from bots.sandbox.outcome import MoveOutcome, SandboxLimits, SyntaxIssue
from bots.sandbox.replies import (
    MAX_REPLY_BYTES,
    STDERR_TAIL_BYTES,
    Died,
    Overdue,
    ProtocolError,
    Result,
    cap_message,
    parse_frame,
)

__all__ = ["BotProcess", "check_syntax", "run_once"]

WORKER_PATH: Final = Path(child.__file__).resolve()


# --------------------------------------------------------------------------- child plumbing

_POLL_READ: Final = select.POLLIN | select.POLLPRI | select.POLLHUP | select.POLLERR
_POLL_WRITE: Final = select.POLLOUT | select.POLLHUP | select.POLLERR


def wait_ready(
    readers: list[int], writers: list[int], timeout: float | None
) -> tuple[list[int], list[int]]:
    """``select.select(readers, writers, [], timeout)`` without its FD_SETSIZE (1024) limit.

    A long-running worker holds many descriptors, so its children's pipes can be numbered
    above 1024, where ``select()`` raises ValueError. ``poll()`` has no such limit; like
    ``select()``, a hung-up or failed pipe counts as ready (the read or write then says why),
    and a closed descriptor raises OSError.
    """
    poller = select.poll()
    for fd in readers:
        poller.register(fd, _POLL_READ if fd not in writers else _POLL_READ | _POLL_WRITE)
    for fd in writers:
        if fd not in readers:
            poller.register(fd, _POLL_WRITE)
    millis = None if timeout is None else max(0, math.ceil(timeout * 1000))
    readable: list[int] = []
    writable: list[int] = []
    for fd, events in poller.poll(millis):
        if events & select.POLLNVAL:
            raise OSError(errno.EBADF, "bad file descriptor", fd)
        if fd in readers and events & _POLL_READ:
            readable.append(fd)
        if fd in writers and events & _POLL_WRITE:
            writable.append(fd)
    return readable, writable


def reap_child(proc: subprocess.Popen[bytes]) -> None:
    """SIGKILL and reap ``proc``, leaving its pipes open; safe to call repeatedly."""
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):  # raced with its exit
            proc.kill()
    with contextlib.suppress(subprocess.TimeoutExpired):  # unkillable (D state): give up
        proc.wait(timeout=5.0)


def _kill(proc: subprocess.Popen[bytes]) -> None:
    """SIGKILL and reap ``proc`` and close its pipes; safe to call repeatedly (also used as a
    GC finalizer). Only for a child whose pipes no other thread may be using."""
    reap_child(proc)
    for stream in (proc.stdin, proc.stdout, proc.stderr):
        if stream is not None:
            with contextlib.suppress(OSError):
                stream.close()


class _Spawner:
    """Starts every sandbox child of this process from ONE long-lived thread.

    The child asks Linux to SIGKILL it when its parent dies (``PR_SET_PDEATHSIG``), and for
    Linux the parent is the *thread* that forked it. A child started straight from a Celery
    thread-pool thread, a ``run_samples`` pool thread or a daphne request thread would die
    with that thread while its game goes on; started from this thread, it dies only with the
    process. The thread is made lazily, again in a forked child (prefork workers)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._queue: queue.SimpleQueue[_SpawnRequest] | None = None
        self._pid = 0
        os.register_at_fork(after_in_child=self._forget)

    def _forget(self) -> None:  # after fork: the thread did not come along
        self._lock = threading.Lock()
        self._queue = None

    def popen(self, argv: list[str], **kwargs: Any) -> subprocess.Popen[bytes]:
        with self._lock:
            if self._queue is None or self._pid != os.getpid():
                self._queue = queue.SimpleQueue()
                self._pid = os.getpid()
                threading.Thread(
                    target=_spawn_loop, args=(self._queue,), name="sandbox-spawner", daemon=True
                ).start()
            requests = self._queue
        done: Future[subprocess.Popen[bytes]] = Future()
        requests.put((argv, kwargs, done))
        return done.result()


_SpawnRequest = tuple[list[str], dict[str, Any], "Future[subprocess.Popen[bytes]]"]


def _spawn_loop(requests: queue.SimpleQueue[_SpawnRequest]) -> None:
    while True:
        argv, kwargs, done = requests.get()
        try:
            done.set_result(cast("subprocess.Popen[bytes]", subprocess.Popen(argv, **kwargs)))
        except BaseException as exc:  # handed to the caller, which raises it
            done.set_exception(exc)


_spawner = _Spawner()


def spawn_worker(python: str) -> subprocess.Popen[bytes]:
    """``python -I -B child.py`` in a new session, empty environment, no inherited
    descriptors, its stdin/stdout/stderr pipes to us (unbuffered)."""
    return _spawner.popen(
        [python, "-I", "-B", str(WORKER_PATH)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        close_fds=True,
        env={"PATH": os.defpath, "LC_ALL": "C.UTF-8"},
        cwd="/",
        start_new_session=True,
        bufsize=0,
    )


class _Child:
    """A running worker process and its pipes."""

    def __init__(self, python: str) -> None:
        self.proc = spawn_worker(python)
        assert self.proc.stdin is not None
        assert self.proc.stdout is not None
        assert self.proc.stderr is not None
        self._in_fd = self.proc.stdin.fileno()
        self._out_fd = self.proc.stdout.fileno()
        self._err_fd = self.proc.stderr.fileno()
        for fd in (self._in_fd, self._out_fd, self._err_fd):
            os.set_blocking(fd, False)
        self._stderr = bytearray()
        self.killed_by_parent = False
        self._finalizer = weakref.finalize(self, _kill, self.proc)

    @property
    def pid(self) -> int:
        return self.proc.pid

    def alive(self) -> bool:
        return self.proc.poll() is None

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.killed_by_parent = True
        self._finalizer()

    def stderr_tail(self) -> bytes:
        self._drain_stderr()
        return bytes(self._stderr)

    def _drain_stderr(self) -> bool:
        """Read what is available on stderr; False on EOF."""
        while True:
            try:
                chunk = os.read(self._err_fd, 65536)
            except BlockingIOError:
                return True
            except OSError:
                return False
            if not chunk:
                return False
            self._stderr += chunk
            if len(self._stderr) > STDERR_TAIL_BYTES:
                del self._stderr[: len(self._stderr) - STDERR_TAIL_BYTES]

    def request(self, header: dict[str, Any], payload: bytes, deadline: float) -> Result:
        """Send one frame and wait for one reply frame until ``deadline`` (monotonic)."""
        data = memoryview(child.encode_frame(header, payload))
        buffer = bytearray()
        stderr_open = True
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                self.kill()
                return Overdue()
            readers = [self._out_fd] + ([self._err_fd] if stderr_open else [])
            writers = [self._in_fd] if data else []
            try:
                readable, writable = wait_ready(readers, writers, remaining)
            except InterruptedError:  # pragma: no cover - PEP 475 retries this
                continue
            if writable:
                try:
                    written = os.write(self._in_fd, data)
                    data = data[written:]
                except BlockingIOError:  # pragma: no cover
                    pass
                except (BrokenPipeError, ConnectionResetError):
                    return self._died()
            if self._err_fd in readable:
                stderr_open = self._drain_stderr()
            if self._out_fd in readable:
                try:
                    chunk = os.read(self._out_fd, 1 << 20)
                except BlockingIOError:  # pragma: no cover
                    continue
                if not chunk:
                    return self._died()
                buffer += chunk
                if len(buffer) > MAX_REPLY_BYTES:
                    self.kill()
                    return ProtocolError("reply too large")
                parsed = parse_frame(buffer)
                if parsed is not None:
                    return parsed

    def _died(self) -> Died:
        try:
            returncode = self.proc.wait(timeout=2.0)
        except subprocess.TimeoutExpired:
            self.kill()
            returncode = self.proc.returncode
        tail = self.stderr_tail()
        self.kill()
        return Died(returncode, tail)


def default_python() -> str:
    return sys.executable


# --------------------------------------------------------------------------- public API


class BotProcess(SandboxLease[_Child]):
    """A sandboxed bot for one game: a child process with one V8 context.

    Usage::

        with BotProcess(code) as bot:           # starts the child and loads the code
            if not bot.load_outcome.ok: ...     # syntax / timeout / exception at load
            outcome = bot.move(game_state)      # -> MoveOutcome; repeat once per turn

    If the child dies (memory bomb, crash, parent-side kill), later :meth:`move` calls return
    ``crashed`` until :meth:`restart` starts a fresh child (the bot's globals are lost).
    ``last_move_restarted`` is always False here (one bot per process).
    """

    def __init__(
        self,
        code: str,
        *,
        limits: SandboxLimits | None = None,
        seed: int | None = None,
        python: str | None = None,
    ) -> None:
        """``seed`` makes ``Math.random`` reproducible (V8 ``--random-seed``); None = random."""
        super().__init__(code, limits=limits, seed=seed)
        self._python = python or default_python()

    def _close_locked(self) -> None:
        child, self._child = self._child, None
        if child is not None:
            child.kill()

    def _start_locked(self) -> MoveOutcome:
        limits = self.limits
        started = time.monotonic()
        payload = self._code_payload_locked()
        if isinstance(payload, MoveOutcome):
            return payload
        child = _Child(self._python)
        self._child = child
        config = limits.to_wire() | {"seed": self.seed}
        header = {"op": "init", "config": config, "timeout_s": limits.load_timeout_s}
        deadline = started + limits.startup_timeout_s + limits.load_timeout_s + limits.grace_s
        result = child.request(header, payload, deadline)
        outcome = self._to_outcome(result, child, started, limits.load_timeout_s, loading=True)
        if not outcome.ok:
            self._close_locked()
            self._stopped_because = str(outcome.error_code)
        return outcome

    def _play_locked(self, child: _Child, payload: bytes, timeout: float) -> MoveOutcome:
        started = time.monotonic()
        header = {"op": "move", "timeout_s": timeout}
        result = child.request(header, payload, started + timeout + self.limits.grace_s)
        outcome = self._to_outcome(result, child, started, timeout, loading=False)
        if not child.alive() or isinstance(result, Died | Overdue | ProtocolError):
            self._close_locked()
            self._stopped_because = str(outcome.error_code)
        elif isinstance(result, dict) and result.get("fatal"):
            # The child exits by itself after a fatal reply; make sure it is reaped.
            self._close_locked()
            self._stopped_because = str(outcome.error_code)
        return outcome


def run_once(
    code: str,
    game_state: Mapping[str, Any] | str,
    *,
    limits: SandboxLimits | None = None,
    seed: int | None = None,
    timeout_s: float | None = None,
) -> MoveOutcome:
    """Load ``code`` in a fresh sandbox, make one move and tear it down.

    If loading fails, the load outcome (with its console output) is returned.
    """
    with BotProcess(code, limits=limits, seed=seed) as bot:
        if not bot.load_outcome.ok:
            return bot.load_outcome
        return bot.move(game_state, timeout_s=timeout_s)


def check_syntax(
    code: str, *, limits: SandboxLimits | None = None, timeout_s: float = 2.0
) -> list[SyntaxIssue]:
    """Compile ``code`` in a sandbox child without running any of it; [] if it compiles.

    Only syntax (and early declaration) errors are found: whether ``getNextMove`` exists is
    known only once the code runs (``no_entry_point`` at load).
    """
    limits = limits or SandboxLimits()
    if len(code) > limits.max_code_chars:
        return [SyntaxIssue(1, 1, f"the code is longer than {limits.max_code_chars} characters")]
    try:
        payload = code.encode("utf-8")
    except UnicodeEncodeError:
        return [SyntaxIssue(1, 1, "the code is not valid Unicode")]
    child = _Child(default_python())
    try:
        header = {
            "op": "check",
            "config": limits.to_wire() | {"seed": None},
            "timeout_s": timeout_s,
        }
        deadline = time.monotonic() + limits.startup_timeout_s + timeout_s + limits.grace_s
        result = child.request(header, payload, deadline)
    finally:
        child.kill()
    if not isinstance(result, dict) or not isinstance(result.get("issues"), list):
        return [SyntaxIssue(1, 1, "the code could not be checked")]
    issues: list[SyntaxIssue] = []
    for item in result["issues"][:20]:
        if isinstance(item, dict):
            line, column = item.get("line"), item.get("column")
            issues.append(
                SyntaxIssue(
                    line=line if isinstance(line, int) else 1,
                    column=column if isinstance(column, int) else 1,
                    message=cap_message(item.get("message", "syntax error"), limits),
                )
            )
    return issues
