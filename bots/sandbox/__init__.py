"""Sandbox for user-written JavaScript bots (pure Python; no Django imports here).

Each bot in a game runs in its own hardened V8 (mini-racer) isolate and context: one child
process per bot (:class:`BotProcess`), or many bots per warm child process
(:class:`SandboxPool` / :class:`PooledBot`, what live tables use); see ``docs/sandbox.md``
for the design and threat model.

Public API::

    from bots.sandbox import BotProcess, MoveOutcome, ErrorCode, SandboxLimits
    from bots.sandbox import PooledBot, SandboxPool, sandbox_pool
    from bots.sandbox import check_syntax, run_once, SyntaxIssue
"""

from bots.sandbox.outcome import ErrorCode, MoveOutcome, SandboxLimits, SyntaxIssue
from bots.sandbox.pool import PooledBot, SandboxPool, sandbox_pool
from bots.sandbox.session import BotProcess, check_syntax, run_once

__all__ = [
    "BotProcess",
    "ErrorCode",
    "MoveOutcome",
    "PooledBot",
    "SandboxLimits",
    "SandboxPool",
    "SyntaxIssue",
    "check_syntax",
    "run_once",
    "sandbox_pool",
]
