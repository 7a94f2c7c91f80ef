"""Every section of the reference in page order."""

from __future__ import annotations

from bots.reference.external import EXTERNAL_SECTIONS
from bots.reference.js_api import JS_API_SECTIONS, SANDBOX_ERRORS
from bots.reference.ladder import LADDER_SECTIONS
from bots.reference.local_runner import LOCAL_RUNNER_SECTIONS
from games.engine.core.reference import Block, Section, table
from games.engine.registry import GAMES

__all__ = ["game_sections", "sections"]


def _filled(block: Block) -> Block:
    """``block``, or the sandbox's failure codes table where a game placed it."""
    if block.kind != "sandbox_errors":
        return block
    return table(("code", "when"), *((f"`{c}`", w) for c, w in SANDBOX_ERRORS))


def game_sections() -> tuple[Section, ...]:
    """Every registered game's own sections (``Game.bot_reference``), in registry order, the
    sandbox's failure codes filled in.

    >>> [s.id for s in game_sections() if s.level == 2]
    ['tienlen', 'stud', 'diu']
    """
    return tuple(
        Section(
            s.id,
            s.title,
            s.level,
            tuple(_filled(b) for b in s.blocks),
            in_panel=s.in_panel,
            game=s.game if s.game is not None else game.name,
        )
        for game in GAMES.values()
        for s in game.bot_reference.sections
    )


def sections() -> tuple[Section, ...]:
    """Every section in page order: the shared ones, each registered game's (Tiến Lên's,
    stud's, Diu's, then any game added), the ladder's, the local runner's and the external
    bots'."""
    return (
        *JS_API_SECTIONS,
        *game_sections(),
        *LADDER_SECTIONS,
        *LOCAL_RUNNER_SECTIONS,
        *EXTERNAL_SECTIONS,
    )
