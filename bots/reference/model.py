"""The reference's data model (:mod:`games.engine.core.reference`, where each game's part is
written too), under the name the shared sections import."""

from __future__ import annotations

from games.engine.core.reference import (
    Block,
    BotReference,
    Section,
    code,
    normal,
    p,
    rows3,
    sandbox_errors,
    table,
    ul,
)

__all__ = [
    "Block",
    "BotReference",
    "Section",
    "code",
    "normal",
    "p",
    "rows3",
    "sandbox_errors",
    "table",
    "ul",
]
