"""Sandbox for user-written JavaScript bots (pure Python; no Django imports here).

Each bot in a game runs in its own child process holding one hardened V8 (mini-racer)
context; see ``docs/sandbox.md`` for the design and threat model.

Public API::

    from bots.sandbox import BotProcess, MoveOutcome, ErrorCode, SandboxLimits
    from bots.sandbox import check_syntax, run_once, SyntaxIssue
"""

from bots.sandbox.outcome import ErrorCode, MoveOutcome, SandboxLimits, SyntaxIssue
from bots.sandbox.session import BotProcess, check_syntax, run_once

__all__ = [
    "BotProcess",
    "ErrorCode",
    "MoveOutcome",
    "SandboxLimits",
    "SyntaxIssue",
    "check_syntax",
    "run_once",
]
