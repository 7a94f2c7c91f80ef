"""The one error type of bot turns, apart from the modules that raise and catch it: a sandboxed
bot's turn (:mod:`bots.turns`) and an external bot's (:mod:`bots.external.services`) raise it,
the live tables catch it (a strike). Importing it from here keeps those modules out of a loop."""

from __future__ import annotations

from typing import Any

__all__ = ["BotMoveError"]


class BotMoveError(RuntimeError):
    """A bot turn that gives no legal move: ``code`` is a sandbox code (``timeout``…) or
    ``illegal:<engine code>``; ``record`` is the per-move record (owner-only)."""

    def __init__(self, code: str, message: str, record: dict[str, Any]) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.record = record
