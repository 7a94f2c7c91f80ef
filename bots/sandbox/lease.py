"""What every sandboxed bot of a game offers its caller, wherever its V8 context lives.

:class:`SandboxLease` is the interface and lifecycle shared by :class:`bots.sandbox.BotProcess`
(one child process per bot) and :class:`bots.sandbox.PooledBot` (one context in a warm pool
child): the context manager, ``start/restart/close``, ``load_outcome``, ``alive``, ``pid``,
the caller-error checks of ``move`` and what a move answers when the bot is not loaded or
not running. A subclass supplies how its sandbox starts, stops and plays one move.
"""

from __future__ import annotations

import json
import math
import threading
from collections.abc import Mapping
from types import TracebackType
from typing import Any, Generic, Protocol, Self, TypeVar

from bots.sandbox.outcome import ErrorCode, MoveOutcome, SandboxLimits
from bots.sandbox.replies import Result, decode

__all__ = ["SandboxLease"]


class _SandboxChild(Protocol):
    """The process side of a lease, as the lease sees it."""

    killed_by_parent: bool

    @property
    def pid(self) -> int: ...

    def alive(self) -> bool: ...

    def kill(self) -> None: ...


ChildT = TypeVar("ChildT", bound=_SandboxChild)


class SandboxLease(Generic[ChildT]):
    """A sandboxed bot for one game (base of ``BotProcess`` and ``PooledBot``).

    Thread-safe: one lock serialises the calls on an instance. Subclasses implement
    ``_start_locked`` (start the sandbox and load the code), ``_close_locked`` (stop it,
    idempotent) and ``_play_locked`` (one move in a running sandbox), all under the lock.
    """

    #: The last move ran in a fresh context because a neighbour ended the shared process
    #: (only a :class:`bots.sandbox.PooledBot` can say True).
    last_move_restarted = False

    def __init__(self, code: str, *, limits: SandboxLimits | None, seed: int | None) -> None:
        """``seed`` makes ``Math.random`` reproducible; None = random."""
        self.code = code
        self.limits = limits or SandboxLimits()
        self.seed = seed
        self._child: ChildT | None = None
        self._load_outcome: MoveOutcome | None = None
        self._stopped_because: str | None = None
        self._lock = threading.Lock()

    # -- lifecycle

    def __enter__(self) -> Self:
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
            raise RuntimeError(f"{type(self).__name__}.start() has not been called")
        return self._load_outcome

    @property
    def alive(self) -> bool:
        """True while a loaded sandbox is running and able to take moves."""
        child = self._child
        return child is not None and child.alive()

    @property
    def pid(self) -> int | None:
        child = self._child
        return child.pid if child is not None and child.alive() else None

    def start(self) -> MoveOutcome:
        """Start the sandbox and load the bot's code; returns (and keeps) the load outcome
        (what the bot's code does, ok or not, is an outcome, never an exception)."""
        with self._lock:
            if self._load_outcome is not None:
                raise RuntimeError("already started; use restart()")
            self._load_outcome = self._start_locked()
            return self._load_outcome

    def restart(self) -> MoveOutcome:
        """Stop any current sandbox, start a fresh one and reload the code (globals reset)."""
        with self._lock:
            self._close_locked()
            self._load_outcome = self._start_locked()
            return self._load_outcome

    def close(self) -> None:
        """Stop the sandbox (idempotent)."""
        with self._lock:
            self._close_locked()
            self._stopped_because = "closed"

    def _start_locked(self) -> MoveOutcome:
        raise NotImplementedError

    def _close_locked(self) -> None:
        raise NotImplementedError

    def _code_payload_locked(self) -> bytes | MoveOutcome:
        """The bot's code to load, or the ``syntax`` outcome of code that cannot be sent."""
        self._stopped_because = None
        limits = self.limits
        if len(self.code) > limits.max_code_chars:
            self._stopped_because = "syntax"
            return MoveOutcome.failure(
                ErrorCode.SYNTAX,
                f"the bot's code is longer than {limits.max_code_chars} characters",
            )
        try:
            return self.code.encode("utf-8")
        except UnicodeEncodeError:
            self._stopped_because = "syntax"
            return MoveOutcome.failure(ErrorCode.SYNTAX, "the bot's code is not valid Unicode")

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
            self.last_move_restarted = False
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
            return self._play_locked(child, payload, timeout)

    def _play_locked(self, child: ChildT, payload: bytes, timeout: float) -> MoveOutcome:
        raise NotImplementedError

    def _to_outcome(
        self,
        result: Result,
        child: ChildT,
        started: float,
        timeout_s: float,
        *,
        loading: bool,
    ) -> MoveOutcome:
        return decode(
            result,
            limits=self.limits,
            started=started,
            timeout_s=timeout_s,
            loading=loading,
            kill=child.kill,
            killed_by_parent=child.killed_by_parent,
        )

    def _repr_details(self) -> str:
        return ""

    def __repr__(self) -> str:
        state = "alive" if self.alive else (self._stopped_because or "not started")
        return f"<{type(self).__name__} pid={self.pid}{self._repr_details()} {state}>"
