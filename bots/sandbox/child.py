"""Child-process side of the bot sandbox: one process, one V8 context, one bot.

Started by :class:`bots.sandbox.BotProcess` as ``python -I -B <this file>`` (a standalone
script: it imports only the standard library and ``py_mini_racer``, never the project or
Django). It talks to the parent over its original stdin/stdout with length-prefixed frames::

    >II  header_length payload_length | header (UTF-8 JSON object) | payload (bytes)

Ops (parent -> child): ``init`` (V8 flags, limits, bot code; answered with the load outcome),
``move`` (payload = game state JSON text), ``check`` (syntax-check the code, never run it).
Every request gets exactly one reply frame. The child exits on EOF, and by itself after any
failure that leaves V8 in an unknown state (reply ``fatal: true``).

The parent module imports this file only for the framing helpers and constants.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import resource
import signal
import struct
import sys
import time
from pathlib import Path
from typing import Any

FRAME = struct.Struct(">II")
MAX_CHILD_INBOUND = 64 * 1024 * 1024
SENTINEL_NAME = "__sbx_syntax_sentinel_7f3a__"
HARNESS_PATH = Path(__file__).with_name("harness.js")

# Outcome codes on the wire (same strings as bots.sandbox.outcome.ErrorCode).
OK = "ok"
TIMEOUT = "timeout"
MEMORY = "memory"
EXCEPTION = "exception"
BAD_RETURN = "bad_return"
SYNTAX = "syntax"
NO_ENTRY_POINT = "no_entry_point"
CRASHED = "crashed"

_ENVELOPE_STATUSES = {OK, EXCEPTION, BAD_RETURN, NO_ENTRY_POINT, MEMORY}
_LOCATION_RE = re.compile(r"^<anonymous>:(\d+): ?")
_JS_LINE_BREAK = re.compile("\r\n|[\n\r\u2028\u2029]")


# --------------------------------------------------------------------------- framing


def encode_frame(header: dict[str, Any], payload: bytes = b"") -> bytes:
    head = json.dumps(header, ensure_ascii=True, separators=(",", ":")).encode("ascii")
    return FRAME.pack(len(head), len(payload)) + head + payload


def _read_exact(fd: int, n: int) -> bytes | None:
    chunks: list[bytes] = []
    remaining = n
    while remaining:
        chunk = os.read(fd, min(remaining, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        remaining -= len(chunk)
    return b"".join(chunks)


def read_frame(fd: int) -> tuple[dict[str, Any], bytes] | None:
    """Blocking read of one frame; ``None`` on EOF."""
    prefix = _read_exact(fd, FRAME.size)
    if prefix is None:
        return None
    head_len, payload_len = FRAME.unpack(prefix)
    if head_len + payload_len > MAX_CHILD_INBOUND:
        raise ValueError("frame too large")
    body = _read_exact(fd, head_len + payload_len)
    if body is None:
        return None
    header = json.loads(body[:head_len].decode("utf-8"))
    if not isinstance(header, dict):
        raise ValueError("frame header is not an object")
    return header, body[head_len:]


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


# --------------------------------------------------------------------------- process hardening


def _set_parent_death_signal() -> None:
    """Ask Linux to SIGKILL us when the parent dies, so no orphan keeps burning CPU."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        pr_set_pdeathsig = 1
        libc.prctl(pr_set_pdeathsig, signal.SIGKILL, 0, 0, 0)
    except Exception:  # pragma: no cover - best effort
        return


def _close_inherited_fds(keep: set[int]) -> None:
    try:
        fds = [int(name) for name in os.listdir("/proc/self/fd")]
    except OSError:  # pragma: no cover - no procfs
        fds = list(range(3, 256))
    for fd in fds:
        if fd not in keep:
            with contextlib.suppress(OSError):
                os.close(fd)


def _vm_data_bytes() -> int | None:
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmData:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError):  # pragma: no cover
        return None
    return None


def _limit(which: int, value: int) -> None:
    try:
        _soft, hard = resource.getrlimit(which)
        if hard != resource.RLIM_INFINITY:
            value = min(value, hard)
        resource.setrlimit(which, (value, value))
    except (ValueError, OSError):  # pragma: no cover - best effort
        pass


def _apply_rlimits_after_v8_start(offheap_headroom: int, *, spare_fds: int = 8) -> None:
    # V8 reserves its (pointer-compression) cage up front, so RLIMIT_AS is unusable and
    # RLIMIT_DATA must be relative to what V8 already mapped. The headroom bounds what is
    # allocated later outside the JS heap: ArrayBuffer backing stores, ICU, Python.
    data = _vm_data_bytes()
    if data is not None:
        _limit(resource.RLIMIT_DATA, data + offheap_headroom)
    _limit(resource.RLIMIT_FSIZE, 0)  # no regular-file writes (stderr is a pipe)
    _limit(resource.RLIMIT_CORE, 0)
    try:
        highest = max(int(name) for name in os.listdir("/proc/self/fd"))
    except (OSError, ValueError):  # pragma: no cover
        highest = 64
    _limit(resource.RLIMIT_NOFILE, highest + spare_fds)


# --------------------------------------------------------------------------- V8


_HARNESS: list[str] = []


def _harness_source() -> str:
    if not _HARNESS:
        _HARNESS.append(HARNESS_PATH.read_text(encoding="utf-8"))
    return _HARNESS[0]


def _init_v8(config: dict[str, Any], *, seed: object = None) -> None:
    """Start V8 for this process (flags are process-wide: once, before the first context)."""
    from py_mini_racer import init_mini_racer

    flags = [
        "--single-threaded",
        "--disallow-code-generation-from-strings",
        f"--max-old-space-size={int(config['v8_max_old_space_mb'])}",
    ]
    if isinstance(seed, int):
        flags.append(f"--random-seed={seed}")
    init_mini_racer(flags=flags)


class _Engine:
    """One hardened MiniRacer context plus the harness handle.

    ``shared=False`` (one bot per process): starts V8 with the bot's seed as V8's
    ``--random-seed`` and applies the process rlimits. ``shared=True`` (a warm pool child):
    V8 is already running; the seed goes to the harness's own ``Math.random`` when the bot's
    code is loaded (:meth:`load`), so that a pool child can make contexts ahead
    (:class:`_Spares`).
    """

    def __init__(self, config: dict[str, Any], *, shared: bool = False) -> None:
        from py_mini_racer import MiniRacer

        seed = config.get("seed")
        if not shared:
            _init_v8(config, seed=seed)
        self.mr = MiniRacer()
        self.config = config
        self.shared = shared
        self.grace_s = float(config["grace_s"])
        self.mr.set_hard_memory_limit(int(config["heap_limit_bytes"]))
        harness = _harness_source()
        wire_limits = json.dumps(
            {
                key: config[key]
                for key in ("max_return_chars", "max_console_lines", "max_console_chars")
            }
            | {"max_message_chars": int(config["max_message_chars"])}
        )
        # sourceURL keeps harness frames apart from the bot's "<anonymous>" ones in stacks.
        installed = self.mr.eval(
            f"({harness})({wire_limits})\n//# sourceURL=sandbox-harness.js", timeout_sec=10.0
        )
        if installed is not True:
            raise RuntimeError("sandbox harness did not install")
        if not shared:
            _apply_rlimits_after_v8_start(int(config["offheap_headroom_bytes"]))

    def close(self) -> None:
        self.mr.close()

    # -- helpers

    def _eval(self, code: str, timeout_s: float) -> Any:
        return self.mr.eval(code, timeout_sec=max(timeout_s, 0.001))

    def _fence(self, deadline: float) -> bool:
        """Wait until V8 is idle again; False if it is wedged.

        mini-racer runs the microtask queue (promise callbacks, async functions) *after*
        each eval task, outside its timeout. This no-op eval is queued behind those
        microtasks: if it cannot finish within the move's budget, a bot's async code is
        still running and only killing the process stops it.
        """
        from py_mini_racer import JSTimeoutException

        try:
            self._eval("0", max(deadline - time.perf_counter(), 0.05))
        except JSTimeoutException:
            return False
        return True

    def _memory_hit(self) -> bool:
        try:
            return bool(self.mr.was_hard_memory_limit_reached())
        except Exception:  # pragma: no cover
            return False

    def _take_console(self) -> tuple[list[str], bool] | None:
        """Console of an interrupted call; ``None`` if V8 did not answer (wedged isolate)."""
        try:
            env = json.loads(self._eval("__sandbox__.takeConsole()", self.grace_s / 2))
            return list(env.get("c") or []), bool(env.get("t"))
        except Exception:
            return None

    # -- ops

    def load(self, code: str, timeout_s: float, *, seed: object = None) -> dict[str, Any]:
        """Load the bot's ``code``; ``seed`` (an int) seeds the harness's ``Math.random``
        first (pool contexts; one bot per process is seeded by V8's flag)."""
        from py_mini_racer import (
            JSEvalException,
            JSOOMException,
            JSParseException,
            JSTimeoutException,
        )

        seeded = seed if self.shared and isinstance(seed, int) else None
        self._eval(f"__sandbox__.beginLoad({json.dumps(seeded)})", self.grace_s)
        started = time.perf_counter()
        deadline = started + timeout_s
        try:
            self._eval(code, timeout_s)
        except JSParseException as exc:
            return _reply(SYNTAX, _describe_js_error(str(exc)), started, fatal=True)
        except JSTimeoutException:
            return self._after_timeout(started, during_load=True)
        except JSOOMException:
            return _reply(MEMORY, "the bot ran out of memory while loading", started, fatal=True)
        except JSEvalException as exc:
            if self._memory_hit():
                return _reply(
                    MEMORY, "the bot ran out of memory while loading", started, fatal=True
                )
            text = str(exc)
            console, truncated = self._take_console() or ([], False)
            code_ = SYNTAX if _is_declaration_conflict(text) else EXCEPTION
            return _reply(code_, _describe_js_error(text), started, console, truncated, fatal=True)
        if not self._fence(deadline):
            return _reply(
                TIMEOUT,
                "the bot's async code did not finish in time",
                started,
                fatal=True,
                wedged=True,
            )
        env = json.loads(self._eval("__sandbox__.endLoad()", self.grace_s))
        return self._from_envelope(env, started, fatal_on_error=True)

    def move(self, state_text: str, timeout_s: float) -> dict[str, Any]:
        from py_mini_racer import JSEvalException, JSOOMException, JSTimeoutException

        call = f"__sandbox__.move({json.dumps(state_text)})"
        started = time.perf_counter()
        try:
            result, settled = self._call_and_fence(call, timeout_s)
        except JSTimeoutException:
            return self._after_timeout(started, during_load=False)
        except JSOOMException:
            return _reply(MEMORY, "the bot exceeded its memory limit", started, fatal=True)
        except JSEvalException as exc:
            if self._memory_hit():
                return _reply(MEMORY, "the bot exceeded its memory limit", started, fatal=True)
            return _reply(EXCEPTION, _describe_js_error(str(exc)), started, fatal=True)
        if not isinstance(result, str):
            return _reply(CRASHED, "sandbox harness returned no result", started, fatal=True)
        if not settled:
            return _reply(
                TIMEOUT,
                "the bot's async code did not finish in time",
                started,
                fatal=True,
                wedged=True,
            )
        return self._from_envelope(json.loads(result), started, fatal_on_error=False)

    def _call_and_fence(self, code: str, timeout_s: float) -> tuple[Any, bool]:
        """Evaluate ``code`` with a timeout, then fence (see :meth:`_fence`), in one hop.

        Same as ``mr.eval(code, timeout_sec=...)`` followed by ``_fence``, but both run in
        one coroutine on mini-racer's event loop: one thread round trip per move instead of
        two, which is most of the per-move overhead.
        """
        import asyncio

        from py_mini_racer import JSTimeoutException

        mr = self.mr
        # Private in mini-racer 0.14; if it moves, fall back to two public eval() calls.
        loop = getattr(getattr(mr, "_ctx", None), "event_loop", None)
        if loop is None:  # pragma: no cover - other mini-racer versions
            result = self._eval(code, timeout_s)
            return result, self._fence(time.perf_counter() + timeout_s)

        async def run() -> tuple[Any, bool]:
            started = time.perf_counter()
            try:
                result = await asyncio.wait_for(mr.eval_cancelable(code), timeout=timeout_s)
            except TimeoutError as exc:
                raise JSTimeoutException from exc
            remaining = max(timeout_s - (time.perf_counter() - started), 0.05)
            try:
                await asyncio.wait_for(mr.eval_cancelable("0"), timeout=remaining)
            except TimeoutError:
                return result, False
            return result, True

        return asyncio.run_coroutine_threadsafe(run(), loop).result()

    def _after_timeout(self, started: float, *, during_load: bool) -> dict[str, Any]:
        if self._memory_hit():
            return _reply(MEMORY, "the bot exceeded its memory limit", started, fatal=True)
        # After V8 terminated the script the context is normally reusable; the console probe
        # doubles as a health check. If it gets no answer, the isolate is stuck.
        taken = self._take_console()
        console, truncated = taken or ([], False)
        what = "loading the bot's code" if during_load else "the move"
        message = f"{what} took longer than the time limit"
        elapsed = _ms_since(started)
        return {
            "code": TIMEOUT,
            "message": message,
            "console": console,
            "truncated": truncated,
            "elapsed_ms": elapsed,
            "fatal": during_load or taken is None,
            "wedged": taken is None,
        }

    def _from_envelope(
        self, env: dict[str, Any], started: float, *, fatal_on_error: bool
    ) -> dict[str, Any]:
        status = env.get("s")
        console = list(env.get("c") or [])
        truncated = bool(env.get("t"))
        if status == OK:
            reply = _reply(OK, None, started, console, truncated)
            reply["value"] = env.get("v")
            return reply
        if status not in _ENVELOPE_STATUSES:
            return _reply(CRASHED, str(env.get("m")), started, console, truncated, fatal=True)
        fatal = fatal_on_error or status == MEMORY
        return _reply(str(status), str(env.get("m")), started, console, truncated, fatal=fatal)

    def check(self, code: str, timeout_s: float) -> dict[str, Any]:
        """Compile ``code`` without running any of it.

        A script's lexical declarations are instantiated (and checked for conflicts) before
        its first statement runs. Appending ``let <sentinel>;`` to the code, after the same
        name was declared in an earlier script, makes every syntactically valid program fail
        in that instantiation step with a "has already been declared" error, so nothing of
        it executes; genuine syntax errors are reported by the parser first.
        """
        from py_mini_racer import JSEvalException, JSParseException, JSTimeoutException

        self._eval(f"let {SENTINEL_NAME};", self.grace_s)
        started = time.perf_counter()
        try:
            self._eval(f"{code}\nlet {SENTINEL_NAME};", timeout_s)
        except JSParseException as exc:
            issue = _syntax_issue(str(exc))
            lines = _JS_LINE_BREAK.split(code)
            if issue["line"] > len(lines):
                # The parser only failed on the appended sentinel: the code is incomplete.
                issue = {
                    "line": len(lines),
                    "column": len(lines[-1]) + 1,
                    "message": "SyntaxError: Unexpected end of input",
                }
            return {"issues": [issue], "elapsed_ms": _ms_since(started)}
        except JSTimeoutException:
            return {
                "issues": [{"line": 1, "column": 1, "message": "the code could not be checked"}],
                "elapsed_ms": _ms_since(started),
            }
        except JSEvalException as exc:
            text = str(exc)
            if f"'{SENTINEL_NAME}' has already been declared" in text:
                return {"issues": [], "elapsed_ms": _ms_since(started)}
            return {"issues": [_syntax_issue(text)], "elapsed_ms": _ms_since(started)}
        # Unreachable for well-formed input; nothing to report.
        return {"issues": [], "elapsed_ms": _ms_since(started)}


def _ms_since(started: float) -> float:
    return (time.perf_counter() - started) * 1000.0


def _reply(
    code: str,
    message: str | None,
    started: float,
    console: list[str] | None = None,
    truncated: bool = False,
    *,
    fatal: bool = False,
    wedged: bool = False,
) -> dict[str, Any]:
    """One reply. ``fatal``: this bot's context is done (its process too, one bot per
    process). ``wedged``: V8 may still be running the bot's code; only ending the process
    stops it."""
    return {
        "code": code,
        "message": message,
        "console": console or [],
        "truncated": truncated,
        "elapsed_ms": _ms_since(started),
        "fatal": fatal,
        "wedged": wedged,
    }


def _is_declaration_conflict(text: str) -> bool:
    first = text.split("\n", 1)[0]
    return "SyntaxError: Identifier '" in first and "has already been declared" in first


def _describe_js_error(text: str) -> str:
    """``<anonymous>:3: TypeError: boom\\n...`` -> ``TypeError: boom (line 3)``."""
    first = text.split("\n", 1)[0]
    match = _LOCATION_RE.match(first)
    if match:
        return f"{first[match.end() :]} (line {match.group(1)})"
    return first


def _syntax_issue(text: str) -> dict[str, Any]:
    lines = text.split("\n")
    first = lines[0]
    match = _LOCATION_RE.match(first)
    line = int(match.group(1)) if match else 1
    message = first[match.end() :] if match else first
    column = 1
    if len(lines) >= 3 and "^" in lines[2]:
        column = lines[2].index("^") + 1
    return {"line": line, "column": column, "message": message}


# --------------------------------------------------------------------------- main loop


def _serve(proto_in: int, proto_out: int) -> int:
    first = read_frame(proto_in)
    if first is None:
        return 0
    header, payload = first
    config = header["config"]
    op = header.get("op")
    if op == "pool":
        return _serve_pool(proto_in, proto_out, config)
    engine = _Engine(config)
    code = payload.decode("utf-8")

    if op == "check":
        _write_all(proto_out, encode_frame(engine.check(code, float(header["timeout_s"]))))
        return 0
    if op != "init":
        raise ValueError(f"unexpected first op {op!r}")

    reply = engine.load(code, float(header["timeout_s"]))
    _write_all(proto_out, encode_frame(reply))
    if reply.get("fatal"):
        return 0

    while True:
        frame = read_frame(proto_in)
        if frame is None:
            return 0
        header, payload = frame
        if header.get("op") != "move":
            raise ValueError(f"unexpected op {header.get('op')!r}")
        try:
            reply = engine.move(payload.decode("utf-8"), float(header["timeout_s"]))
        except MemoryError:
            reply = _reply(MEMORY, "the sandbox ran out of memory", time.perf_counter(), fatal=True)
        _write_all(proto_out, encode_frame(reply))
        if reply.get("fatal"):
            return 0


#: What a context made ahead depends on: a spare fits a bot whose limits agree on these.
_ENGINE_KEYS = (
    "heap_limit_bytes",
    "grace_s",
    "max_return_chars",
    "max_console_lines",
    "max_console_chars",
    "max_message_chars",
)


class _Spares:
    """Contexts a pool child makes ahead (isolate, heap limit and harness; no bot code, no
    seed), so that opening a bot's context only loads its code: making the isolate and
    installing the harness is two thirds of an open (docs/sandbox.md "Warm pool"). A spare
    has never run anything: every bot still gets a fresh context of its own.

    A background thread keeps ``wanted`` of them, for the limits of the first bot the child
    opened (the pool gives a child bots of one kind), as long as the child has room
    (``room()``: contexts it may still open, spares included, so that the process's memory
    limit still holds).
    """

    def __init__(self, wanted: int, room: Any) -> None:
        import threading

        self.template: dict[str, Any] | None = None
        self.wanted = wanted
        self.room = room
        self.ready: list[_Engine] = []
        self.cond = threading.Condition()

    def take(self, config: dict[str, Any]) -> _Engine | None:
        """A spare for a bot with ``config``'s limits, or None (make one then)."""
        import threading

        with self.cond:
            if self.wanted <= 0:
                return None
            if self.template is None:  # the first bot's limits: spares are made like its
                self.template = {k: v for k, v in config.items() if k != "seed"}
                threading.Thread(target=self._run, name="sandbox-spares", daemon=True).start()
                return None
            if any(config.get(k) != self.template.get(k) for k in _ENGINE_KEYS):
                return None
            engine = self.ready.pop() if self.ready else None
            self.cond.notify()
        return engine

    def changed(self) -> None:
        """A context was opened or closed: there may be room for a spare again."""
        with self.cond:
            self.cond.notify()

    def _run(self) -> None:
        assert self.template is not None
        while True:
            with self.cond:
                while len(self.ready) >= self.wanted or self.room() <= len(self.ready):
                    self.cond.wait()
            try:
                engine = _Engine(self.template, shared=True)
            except Exception:  # no memory for it, say: the child opens contexts as they come
                with self.cond:
                    self.wanted = 0
                return
            with self.cond:
                self.ready.append(engine)


class _Slot:
    """One bot context of a pool child, served by its own thread (one request at a time)."""

    def __init__(self, ctx: int, send: Any, on_wedged: Any, spares: _Spares | None = None) -> None:
        import queue
        import threading

        self.ctx = ctx
        self.engine: _Engine | None = None
        self._spares = spares
        self._send = send
        self._on_wedged = on_wedged
        self.requests: queue.SimpleQueue[tuple[dict[str, Any], bytes] | None] = queue.SimpleQueue()
        threading.Thread(target=self._run, name=f"sandbox-ctx-{ctx}", daemon=True).start()

    def _run(self) -> None:
        while True:
            item = self.requests.get()
            if item is None:
                return
            header, payload = item
            try:
                reply, done = self._handle(header, payload)
            except MemoryError:
                os.write(2, b"sandbox worker: MemoryError (out of memory)\n")
                os._exit(3)
            except BaseException:
                import traceback

                os.write(2, traceback.format_exc()[-4000:].encode("utf-8", "replace"))
                os._exit(2)
            reply["id"] = header.get("id")
            reply["ctx"] = self.ctx
            if reply.get("wedged"):
                # V8 may still run this bot's code (a runaway microtask): only the end of the
                # process stops it. The parent re-runs the other contexts' moves elsewhere.
                self._send(reply)
                self._on_wedged()
                return
            self._send(reply)
            if done:
                return

    def _handle(self, header: dict[str, Any], payload: bytes) -> tuple[dict[str, Any], bool]:
        op = header.get("op")
        timeout_s = float(header.get("timeout_s") or 1.0)
        if op == "open":
            config = header["config"]
            spare = self._spares.take(config) if self._spares is not None else None
            self.engine = spare or _Engine(config, shared=True)
            reply = self.engine.load(payload.decode("utf-8"), timeout_s, seed=config.get("seed"))
            reply["spare"] = spare is not None
        elif op == "move" and self.engine is not None:
            reply = self.engine.move(payload.decode("utf-8"), timeout_s)
        elif op == "close":
            self._drop()
            return {"code": OK, "closed": True}, True
        else:  # a move after the context was dropped, or nonsense
            reply = _reply(CRASHED, f"no context for {op!r}", time.perf_counter(), fatal=True)
            return reply | {"dropped": True}, False
        if reply.get("code") == MEMORY and self.engine is not None:
            # The isolate's own heap limit, or an off-heap allocation that failed (which a
            # neighbour's buffers may have caused: the parent re-runs such a move alone).
            reply["own"] = self.engine._memory_hit()
        if reply.get("fatal") and not reply.get("wedged"):
            self._drop()  # V8 stopped the bot: free its isolate, the process goes on
            reply["dropped"] = True
        return reply, False

    def _drop(self) -> None:
        engine, self.engine = self.engine, None
        if engine is not None:
            with contextlib.suppress(Exception):
                engine.close()


def _serve_pool(proto_in: int, proto_out: int, config: dict[str, Any]) -> int:
    """A warm child hosting many bots: one isolated V8 isolate + context per bot.

    Requests carry ``id`` (echoed) and ``ctx`` (the bot's context number, chosen by the
    parent): ``open`` (config + code: load), ``move`` (state), ``close``. Each context has its
    own thread, so a slow bot never delays another; replies go out as they complete.
    ``config["spares"]`` contexts are made ahead (:class:`_Spares`).
    """
    import threading

    from py_mini_racer import MiniRacer

    _init_v8(config)
    # The first isolate maps V8's process-wide reservations (~0.5 GB of VmData): make them
    # before the limit is set, like the one-bot process does by starting V8 first.
    MiniRacer().close()
    contexts = max(1, int(config.get("contexts") or 1))
    # V8 heap pages count against RLIMIT_DATA: each isolate maps ~18 MB and may grow to its
    # heap limit (and a bit past it before V8 stops it); the off-heap headroom is shared by
    # the child's bots.
    headroom = int(config["offheap_headroom_bytes"])
    headroom += contexts * (int(config["heap_limit_bytes"]) + 32 * 1024 * 1024)
    _apply_rlimits_after_v8_start(headroom, spare_fds=16 * contexts)
    write_lock = threading.Lock()

    def send(reply: dict[str, Any]) -> None:
        frame = encode_frame(reply)
        with write_lock:
            _write_all(proto_out, frame)

    def on_wedged() -> None:
        with write_lock:  # no reply is cut in half
            os._exit(0)

    slots: dict[int, _Slot] = {}
    spares = _Spares(int(config.get("spares") or 0), lambda: contexts - len(slots))
    send({"code": OK, "ready": True, "pid": os.getpid()})
    while True:
        frame = read_frame(proto_in)
        if frame is None:
            return 0
        header, payload = frame
        ctx = header.get("ctx")
        if not isinstance(ctx, int):
            raise ValueError("request without a context number")
        op = header.get("op")
        slot = slots.get(ctx)
        if op == "open":
            if slot is not None:
                raise ValueError(f"context {ctx} is already open")
            slot = slots[ctx] = _Slot(ctx, send, on_wedged, spares)
        elif slot is None:
            reply = _reply(CRASHED, "no such context", time.perf_counter(), fatal=True)
            send(reply | {"id": header.get("id"), "ctx": ctx, "dropped": True})
            continue
        slot.requests.put((header, payload))
        if op == "close":
            slot.requests.put(None)
            del slots[ctx]
            spares.changed()


def main() -> int:
    # Keep the protocol pipes on private descriptors; stdout becomes stderr so that anything
    # V8 or Python prints cannot corrupt the protocol.
    proto_in = os.dup(0)
    proto_out = os.dup(1)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    os.dup2(2, 1)
    _set_parent_death_signal()
    _close_inherited_fds({0, 1, 2, proto_in, proto_out})
    _limit(resource.RLIMIT_CORE, 0)
    for key in list(os.environ):
        del os.environ[key]
    # Three threads hand the GIL around on every move (this one, mini-racer's event loop and
    # V8's callback thread); a short switch interval keeps a contended hand-off from costing
    # the default 5 ms.
    sys.setswitchinterval(0.0005)
    rc = 0
    try:
        rc = _serve(proto_in, proto_out)
    except MemoryError:
        os.write(2, b"sandbox worker: MemoryError (out of memory)\n")
        rc = 3
    except BaseException:
        import traceback

        os.write(2, traceback.format_exc()[-4000:].encode("utf-8", "replace"))
        rc = 2
    # Skip interpreter teardown: V8 may still be busy (runaway microtasks) and would block it.
    os._exit(rc)


if __name__ == "__main__":
    sys.exit(main())
