"""Value types returned by the bot sandbox: error codes, move outcomes, limits, syntax issues.

Pure Python, no Django. Everything here is safe to store in a per-move record.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

__all__ = ["ErrorCode", "MoveOutcome", "SandboxLimits", "SyntaxIssue"]


class ErrorCode(enum.StrEnum):
    """Stable reason codes for a failed bot call. Stored in move records: never rename."""

    TIMEOUT = "timeout"
    """The bot used more than its time budget (per move, or while loading its code)."""
    MEMORY = "memory"
    """The bot exceeded its memory budget (JS heap, V8 heap cap or off-heap buffers)."""
    EXCEPTION = "exception"
    """The bot's code threw (including ``RangeError`` from runaway recursion)."""
    BAD_RETURN = "bad_return"
    """getNextMove returned something that is not a plain JSON object, or too large."""
    SYNTAX = "syntax"
    """The bot's code does not compile (or is too large to load)."""
    NO_ENTRY_POINT = "no_entry_point"
    """The bot's code does not define a ``getNextMove`` function."""
    CRASHED = "crashed"
    """The sandbox process died, broke protocol or is no longer running."""


@dataclass(frozen=True, slots=True)
class SandboxLimits:
    """Resource limits for one sandboxed bot. Defaults follow issue #5."""

    move_timeout_s: float = 5.0
    """CPU/wall budget of one getNextMove call, enforced inside V8."""
    load_timeout_s: float = 5.0
    """Budget of the bot's top-level code (run once, when the session starts)."""
    grace_s: float = 1.0
    """Extra wall-clock time the parent allows before it SIGKILLs an unresponsive child."""
    startup_timeout_s: float = 15.0
    """Wall-clock allowance for the child to start Python and V8 (before loading code)."""
    heap_limit_bytes: int = 50 * 1024 * 1024
    """JS heap in use above which V8 execution is terminated (counted as ``memory``)."""
    v8_max_old_space_mb: int = 64
    """V8's own old-space cap; going over it aborts the child (also counted as ``memory``)."""
    offheap_headroom_bytes: int = 128 * 1024 * 1024
    """RLIMIT_DATA headroom above the child's size after V8 start-up (ArrayBuffers etc.)."""
    max_code_chars: int = 512 * 1024
    """Bot source larger than this is refused at load (``syntax``)."""
    max_state_bytes: int = 1024 * 1024
    """Serialized game states larger than this are a caller error (ValueError)."""
    max_return_chars: int = 64 * 1024
    """Returned value, as JSON, larger than this is a ``bad_return``."""
    max_console_lines: int = 200
    """Console lines kept per call; later ones are dropped behind a ``[truncated]`` marker."""
    max_console_chars: int = 16 * 1024
    """Console characters kept per call (all lines together)."""
    max_message_chars: int = 500
    """Error messages are cut to this many characters."""

    def to_wire(self) -> dict[str, Any]:
        """The subset of limits the child process needs, as JSON-friendly values."""
        return {
            "heap_limit_bytes": int(self.heap_limit_bytes),
            "v8_max_old_space_mb": int(self.v8_max_old_space_mb),
            "offheap_headroom_bytes": int(self.offheap_headroom_bytes),
            "max_return_chars": int(self.max_return_chars),
            "max_console_lines": int(self.max_console_lines),
            "max_console_chars": int(self.max_console_chars),
            "max_message_chars": int(self.max_message_chars),
            "grace_s": float(self.grace_s),
        }


@dataclass(frozen=True, slots=True)
class MoveOutcome:
    """Result of one sandboxed call (a move, or loading the bot's code).

    ``value`` is the raw JSON object returned by ``getNextMove`` when ``ok``; validating it
    against the game rules is the engine's job. On failure ``error_code`` says why.
    """

    ok: bool
    value: dict[str, Any] | None = None
    error_code: ErrorCode | None = None
    error_message: str | None = None
    console: list[str] = field(default_factory=list)
    """Captured console lines (capped); the last line is ``[truncated]`` if output was cut."""
    console_truncated: bool = False
    elapsed_ms: float = 0.0
    """Time the bot's JavaScript used, measured in the child (parent wall time if killed)."""
    wall_ms: float = 0.0
    """Parent-side round-trip time of the call, including IPC."""

    @classmethod
    def failure(
        cls,
        code: ErrorCode,
        message: str,
        *,
        console: list[str] | None = None,
        console_truncated: bool = False,
        elapsed_ms: float = 0.0,
        wall_ms: float = 0.0,
    ) -> MoveOutcome:
        return cls(
            ok=False,
            error_code=code,
            error_message=message,
            console=list(console or []),
            console_truncated=console_truncated,
            elapsed_ms=elapsed_ms,
            wall_ms=wall_ms,
        )

    def to_record(self) -> dict[str, Any]:
        """A JSON-serializable dict for the per-move record."""
        return {
            "ok": self.ok,
            "value": self.value,
            "error_code": None if self.error_code is None else str(self.error_code),
            "error_message": self.error_message,
            "console": list(self.console),
            "console_truncated": self.console_truncated,
            "elapsed_ms": round(self.elapsed_ms, 3),
        }


@dataclass(frozen=True, slots=True)
class SyntaxIssue:
    """One problem found by :func:`bots.sandbox.check_syntax` (1-based line and column)."""

    line: int
    column: int
    message: str
