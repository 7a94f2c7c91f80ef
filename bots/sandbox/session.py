"""Parent side of the bot sandbox: one child process per bot per game.

:class:`BotProcess` starts ``python -I -B bots/sandbox/_worker.py`` in a new session with an
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
import json
import math
import os
import queue
import select
import signal
import subprocess
import sys
import threading
import time
import weakref
from collections.abc import Callable, Mapping
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, Final, cast

from bots.sandbox import _worker
from bots.sandbox.outcome import ErrorCode, MoveOutcome, SandboxLimits, SyntaxIssue

__all__ = ["BotProcess", "check_syntax", "run_once"]

WORKER_PATH: Final = Path(_worker.__file__).resolve()
MAX_REPLY_BYTES: Final = 4 * 1024 * 1024
STDERR_TAIL_BYTES: Final = 16 * 1024
TRUNCATED_MARKER: Final = "[truncated]"
_MEMORY_MARKERS: Final = (
    b"out of memory",
    b"MemoryError",
    b"Reached heap limit",
    b"allocation failed",
)
_WIRE_CODES: Final = {code.value: code for code in ErrorCode}


# --------------------------------------------------------------------------- child plumbing


@dataclass(slots=True)
class _Died:
    """The child exited (or was killed) before answering."""

    returncode: int | None
    stderr_tail: bytes


@dataclass(slots=True)
class _Overdue:
    """The child did not answer before the parent's hard deadline (it has been killed)."""


@dataclass(slots=True)
class _ProtocolError:
    detail: str


_Result = dict[str, Any] | _Died | _Overdue | _ProtocolError


def _kill(proc: subprocess.Popen[bytes]) -> None:
    """SIGKILL and reap ``proc``; safe to call repeatedly (also used as a GC finalizer)."""
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):  # raced with its exit
            proc.kill()
    with contextlib.suppress(subprocess.TimeoutExpired):  # unkillable (D state): give up
        proc.wait(timeout=5.0)
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


class _Child:
    """A running worker process and its pipes."""

    def __init__(self, python: str) -> None:
        self.proc: subprocess.Popen[bytes] = _spawner.popen(
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

    def request(self, header: dict[str, Any], payload: bytes, deadline: float) -> _Result:
        """Send one frame and wait for one reply frame until ``deadline`` (monotonic)."""
        data = memoryview(_worker.encode_frame(header, payload))
        buffer = bytearray()
        stderr_open = True
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                self.kill()
                return _Overdue()
            readers = [self._out_fd] + ([self._err_fd] if stderr_open else [])
            writers = [self._in_fd] if data else []
            try:
                readable, writable, _ = select.select(readers, writers, [], remaining)
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
                    return _ProtocolError("reply too large")
                parsed = _parse_frame(buffer)
                if parsed is not None:
                    return parsed

    def _died(self) -> _Died:
        try:
            returncode = self.proc.wait(timeout=2.0)
        except subprocess.TimeoutExpired:
            self.kill()
            returncode = self.proc.returncode
        tail = self.stderr_tail()
        self.kill()
        return _Died(returncode, tail)


def _parse_frame(buffer: bytearray) -> dict[str, Any] | _ProtocolError | None:
    if len(buffer) < _worker.FRAME.size:
        return None
    head_len, payload_len = _worker.FRAME.unpack_from(buffer)
    if head_len + payload_len > MAX_REPLY_BYTES:
        return _ProtocolError("reply too large")
    end = _worker.FRAME.size + head_len + payload_len
    if len(buffer) < end:
        return None
    try:
        header = json.loads(bytes(buffer[_worker.FRAME.size : _worker.FRAME.size + head_len]))
    except ValueError:
        return _ProtocolError("reply is not JSON")
    if not isinstance(header, dict):
        return _ProtocolError("reply is not an object")
    return header


# --------------------------------------------------------------------------- sanitising


def _clean_text(text: str) -> str:
    """Make text safe to store anywhere: no NUL bytes, no lone surrogates."""
    if "\x00" in text:
        text = text.replace("\x00", "\ufffd")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text


def _clean_value(value: Any, depth: int = 0) -> Any:
    if isinstance(value, str):
        return _clean_text(value)
    if isinstance(value, list) and depth < 80:
        return [_clean_value(item, depth + 1) for item in value]
    if isinstance(value, dict) and depth < 80:
        return {_clean_text(str(k)): _clean_value(v, depth + 1) for k, v in value.items()}
    return value


def _cap_message(message: object, limits: SandboxLimits) -> str:
    text = _clean_text(str(message))
    if len(text) > limits.max_message_chars:
        text = text[: limits.max_message_chars] + "…"
    return text


def _cap_console(lines: object, truncated: object, limits: SandboxLimits) -> tuple[list[str], bool]:
    """Re-apply the console caps parent-side (the child is not trusted to have done it)."""
    cut = bool(truncated)
    result: list[str] = []
    budget = limits.max_console_chars
    if isinstance(lines, list):
        for raw in lines:
            if not isinstance(raw, str):
                continue
            if raw == TRUNCATED_MARKER and cut:
                continue
            if len(result) >= limits.max_console_lines or budget <= 0:
                cut = True
                break
            line = _clean_text(raw[:budget])
            if len(line) < len(raw):
                cut = True
            result.append(line)
            budget -= len(line)
    if cut:
        result.append(TRUNCATED_MARKER)
    return result, cut


def _death_code(died: _Died, killed_by_parent: bool) -> tuple[ErrorCode, str]:
    tail = died.stderr_tail
    if any(marker in tail for marker in _MEMORY_MARKERS) or died.returncode == 3:
        return ErrorCode.MEMORY, "the bot exceeded its memory limit (its process was stopped)"
    if died.returncode == -signal.SIGKILL and not killed_by_parent:
        # Killed by someone else: in practice the kernel's OOM killer.
        return ErrorCode.MEMORY, "the bot's process was killed, probably for using too much memory"
    return (
        ErrorCode.CRASHED,
        f"the bot's sandbox process exited unexpectedly (status {died.returncode})",
    )


def _decode(
    result: _Result,
    *,
    limits: SandboxLimits,
    started: float,
    timeout_s: float,
    loading: bool,
    kill: Callable[[], None],
    killed_by_parent: bool,
) -> MoveOutcome:
    """Turn a child's reply (untrusted) or its death into a :class:`MoveOutcome`; ``kill``
    ends the child when the reply breaks the protocol."""
    wall_ms = (time.monotonic() - started) * 1000.0
    if isinstance(result, _Overdue):
        what = "loading the bot's code" if loading else "the move"
        return MoveOutcome.failure(
            ErrorCode.TIMEOUT,
            f"{what} did not finish within {timeout_s:g} s; the bot's process was killed",
            elapsed_ms=wall_ms,
            wall_ms=wall_ms,
        )
    if isinstance(result, _Died):
        died_code, message = _death_code(result, killed_by_parent)
        return MoveOutcome.failure(died_code, message, elapsed_ms=wall_ms, wall_ms=wall_ms)
    if isinstance(result, _ProtocolError):
        kill()
        return MoveOutcome.failure(
            ErrorCode.CRASHED,
            f"the bot's sandbox broke protocol ({result.detail})",
            elapsed_ms=wall_ms,
            wall_ms=wall_ms,
        )
    wire_code = result.get("code")
    code = _WIRE_CODES.get(wire_code) if isinstance(wire_code, str) else None
    if wire_code != "ok" and code is None:
        kill()
        return MoveOutcome.failure(
            ErrorCode.CRASHED, "the bot's sandbox sent an unknown reply", wall_ms=wall_ms
        )
    console, truncated = _cap_console(result.get("console"), result.get("truncated"), limits)
    elapsed = result.get("elapsed_ms")
    elapsed_ms = float(elapsed) if isinstance(elapsed, int | float) else wall_ms
    if code is None:
        value = result.get("value")
        if loading:
            return MoveOutcome(
                ok=True,
                console=console,
                console_truncated=truncated,
                elapsed_ms=elapsed_ms,
                wall_ms=wall_ms,
            )
        if not isinstance(value, dict):
            kill()
            return MoveOutcome.failure(
                ErrorCode.CRASHED, "the bot's sandbox sent a malformed reply", wall_ms=wall_ms
            )
        return MoveOutcome(
            ok=True,
            value=_clean_value(value),
            console=console,
            console_truncated=truncated,
            elapsed_ms=elapsed_ms,
            wall_ms=wall_ms,
        )
    return MoveOutcome.failure(
        code,
        _cap_message(result.get("message") or code.value, limits),
        console=console,
        console_truncated=truncated,
        elapsed_ms=elapsed_ms,
        wall_ms=wall_ms,
    )


def _default_python() -> str:
    return sys.executable


# --------------------------------------------------------------------------- public API


class BotProcess:
    """A sandboxed bot for one game: a child process with one V8 context.

    Usage::

        with BotProcess(code) as bot:           # starts the child and loads the code
            if not bot.load_outcome.ok: ...     # syntax / timeout / exception at load
            outcome = bot.move(game_state)      # -> MoveOutcome; repeat once per turn

    If the child dies (memory bomb, crash, parent-side kill), later :meth:`move` calls return
    ``crashed`` until :meth:`restart` starts a fresh child (the bot's globals are lost).
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
        self.code = code
        self.limits = limits or SandboxLimits()
        self.seed = seed
        self._python = python or _default_python()
        self._child: _Child | None = None
        self._load_outcome: MoveOutcome | None = None
        self._stopped_because: str | None = None
        self._lock = threading.Lock()

    #: Always False here (one bot per process); see :class:`bots.sandbox.PooledBot`.
    last_move_restarted = False

    # -- lifecycle

    def __enter__(self) -> BotProcess:
        if self._load_outcome is None:
            self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    @property
    def load_outcome(self) -> MoveOutcome:
        """Outcome of loading the bot's code (``ok`` with ``value=None`` on success)."""
        if self._load_outcome is None:
            raise RuntimeError("BotProcess.start() has not been called")
        return self._load_outcome

    @property
    def alive(self) -> bool:
        """True while a loaded child is running and able to take moves."""
        child = self._child
        return child is not None and child.alive()

    @property
    def pid(self) -> int | None:
        child = self._child
        return child.pid if child is not None and child.alive() else None

    def start(self) -> MoveOutcome:
        """Start the child and load the bot's code; returns (and keeps) the load outcome."""
        with self._lock:
            if self._load_outcome is not None:
                raise RuntimeError("already started; use restart()")
            self._load_outcome = self._start_locked()
            return self._load_outcome

    def restart(self) -> MoveOutcome:
        """Kill any current child, start a fresh one and reload the code (globals reset)."""
        with self._lock:
            self._close_locked()
            self._load_outcome = self._start_locked()
            return self._load_outcome

    def close(self) -> None:
        """Kill the child (idempotent)."""
        with self._lock:
            self._close_locked()
            self._stopped_because = "closed"

    def _close_locked(self) -> None:
        child, self._child = self._child, None
        if child is not None:
            child.kill()

    def _start_locked(self) -> MoveOutcome:
        self._stopped_because = None
        limits = self.limits
        started = time.monotonic()
        if len(self.code) > limits.max_code_chars:
            self._stopped_because = "syntax"
            return MoveOutcome.failure(
                ErrorCode.SYNTAX,
                f"the bot's code is longer than {limits.max_code_chars} characters",
            )
        try:
            payload = self.code.encode("utf-8")
        except UnicodeEncodeError:
            self._stopped_because = "syntax"
            return MoveOutcome.failure(ErrorCode.SYNTAX, "the bot's code is not valid Unicode")
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

    # -- moves

    def move(
        self, game_state: Mapping[str, Any] | str, timeout_s: float | None = None
    ) -> MoveOutcome:
        """Run ``getNextMove(gameState)`` once.

        ``game_state`` is a JSON-serialisable mapping (or its JSON text); it reaches the bot
        as a fresh object made by ``JSON.parse`` inside V8. Raises ``ValueError`` only for
        caller errors (state not JSON-serialisable or larger than ``max_state_bytes``).
        """
        limits = self.limits
        timeout = limits.move_timeout_s if timeout_s is None else float(timeout_s)
        if not math.isfinite(timeout) or timeout <= 0:
            raise ValueError("timeout_s must be a positive number of seconds")
        if isinstance(game_state, str):
            state_text = game_state
        else:
            state_text = json.dumps(game_state, separators=(",", ":"), allow_nan=False)
        payload = state_text.encode("utf-8")
        if len(payload) > limits.max_state_bytes:
            raise ValueError(f"game state is larger than {limits.max_state_bytes} bytes")

        with self._lock:
            if self._load_outcome is None:
                self._load_outcome = self._start_locked()
            load = self._load_outcome
            if not load.ok:
                assert load.error_code is not None
                return MoveOutcome.failure(
                    load.error_code, f"the bot could not be loaded: {load.error_message}"
                )
            child = self._child
            if child is None or not child.alive():
                reason = self._stopped_because or "its process exited"
                return MoveOutcome.failure(
                    ErrorCode.CRASHED,
                    f"the bot's sandbox is not running (stopped after: {reason}); "
                    "call restart() to start a fresh one",
                )
            started = time.monotonic()
            header = {"op": "move", "timeout_s": timeout}
            result = child.request(header, payload, started + timeout + limits.grace_s)
            outcome = self._to_outcome(result, child, started, timeout, loading=False)
            if not child.alive() or isinstance(result, _Died | _Overdue | _ProtocolError):
                self._close_locked()
                self._stopped_because = str(outcome.error_code)
            elif isinstance(result, dict) and result.get("fatal"):
                # The child exits by itself after a fatal reply; make sure it is reaped.
                self._close_locked()
                self._stopped_because = str(outcome.error_code)
            return outcome

    # -- reply decoding

    def _to_outcome(
        self,
        result: _Result,
        child: _Child,
        started: float,
        timeout_s: float,
        *,
        loading: bool,
    ) -> MoveOutcome:
        return _decode(
            result,
            limits=self.limits,
            started=started,
            timeout_s=timeout_s,
            loading=loading,
            kill=child.kill,
            killed_by_parent=child.killed_by_parent,
        )

    def __repr__(self) -> str:
        state = "alive" if self.alive else (self._stopped_because or "not started")
        return f"<BotProcess pid={self.pid} {state}>"


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
    child = _Child(_default_python())
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
                    message=_cap_message(item.get("message", "syntax error"), limits),
                )
            )
    return issues
