"""Replies of sandbox children, made safe: the parent's view of an untrusted child.

A child runs hostile code, so nothing it sends is trusted: :func:`parse_frame` reads one reply
frame (size-capped), and :func:`decode` turns a reply, or the child's death or silence, into a
:class:`MoveOutcome` with a stable :class:`ErrorCode`, re-applying every cap and replacing what
could not be stored. Pure Python: no processes, no I/O. Shared by ``session`` (one process per
bot) and ``pool`` (warm children).
"""

from __future__ import annotations

import json
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from bots.sandbox import child
from bots.sandbox.outcome import ErrorCode, MoveOutcome, SandboxLimits

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


# --------------------------------------------------------------------------- results


@dataclass(slots=True)
class Died:
    """The child exited (or was killed) before answering."""

    returncode: int | None
    stderr_tail: bytes


@dataclass(slots=True)
class Overdue:
    """The child did not answer before the parent's hard deadline (it has been killed)."""


@dataclass(slots=True)
class ProtocolError:
    detail: str


Result = dict[str, Any] | Died | Overdue | ProtocolError


def parse_frame(buffer: bytearray) -> dict[str, Any] | ProtocolError | None:
    if len(buffer) < child.FRAME.size:
        return None
    head_len, payload_len = child.FRAME.unpack_from(buffer)
    if head_len + payload_len > MAX_REPLY_BYTES:
        return ProtocolError("reply too large")
    end = child.FRAME.size + head_len + payload_len
    if len(buffer) < end:
        return None
    try:
        header = json.loads(bytes(buffer[child.FRAME.size : child.FRAME.size + head_len]))
    except ValueError:
        return ProtocolError("reply is not JSON")
    if not isinstance(header, dict):
        return ProtocolError("reply is not an object")
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


def cap_message(message: object, limits: SandboxLimits) -> str:
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


def _death_code(died: Died, killed_by_parent: bool) -> tuple[ErrorCode, str]:
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


def decode(
    result: Result,
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
    if isinstance(result, Overdue):
        what = "loading the bot's code" if loading else "the move"
        return MoveOutcome.failure(
            ErrorCode.TIMEOUT,
            f"{what} did not finish within {timeout_s:g} s; the bot's process was killed",
            elapsed_ms=wall_ms,
            wall_ms=wall_ms,
        )
    if isinstance(result, Died):
        died_code, message = _death_code(result, killed_by_parent)
        return MoveOutcome.failure(died_code, message, elapsed_ms=wall_ms, wall_ms=wall_ms)
    if isinstance(result, ProtocolError):
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
        cap_message(result.get("message") or code.value, limits),
        console=console,
        console_truncated=truncated,
        elapsed_ms=elapsed_ms,
        wall_ms=wall_ms,
    )
