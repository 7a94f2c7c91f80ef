"""The game export format (``tienlen-arena/game``), built from plain data: no Django, no
database. The site's export (:func:`games.history.export.game_export`, which adds the
signature) and the local runner's ``./bin/bot replay`` (:mod:`bots.lab`, unsigned) both build
their files with these functions, so the import page reads either.

>>> from games.engine.registry import find_game
>>> engine = find_game("tienlen")
>>> state = engine.new_game({"players": 2}, 5)
>>> doc = export_head(game="tienlen", rules_version="tienlen-1", table="Local", number=1,
...     games=1, status="finished", started_at=None, ended_at=None, players=[], result=None)
>>> doc["format"], doc["version"]
('tienlen-arena/game', 2)
>>> sorted(seeded_fields(engine.record(state)))
['actions', 'config', 'seed']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["EXPORT_FORMAT", "EXPORT_VERSION", "clean_action", "export_head", "seeded_fields"]

EXPORT_FORMAT = "tienlen-arena/game"
EXPORT_VERSION = 2


def clean_action(action: Mapping[str, Any]) -> dict[str, Any]:
    """An action as exported: without the server's private ``_…`` keys.

    >>> clean_action({"type": "pass", "seat": 1, "_t": 3})
    {'type': 'pass', 'seat': 1}
    """
    return {k: v for k, v in action.items() if not k.startswith("_")}


def export_head(
    *,
    game: str,
    rules_version: str,
    table: str,
    number: int,
    games: int,
    status: str,
    started_at: str | None,
    ended_at: str | None,
    players: Sequence[Mapping[str, Any]],
    result: Mapping[str, Any] | None,
) -> dict[str, Any]:
    """The fields every export has, in the order the site writes them. ``players`` one dict
    per seat (``seat``, ``name``, ``kind``, ``bot_id``, ``bot_version``, ``house_level``)."""
    return {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "game": game,
        "rules_version": rules_version,
        "table": table,
        "number": number,
        "games": games,
        "status": status,
        "started_at": started_at,
        "ended_at": ended_at,
        "players": [dict(p) for p in players],
        "result": None if result is None else dict(result),
    }


def seeded_fields(record: Mapping[str, Any]) -> dict[str, Any]:
    """A finished game's replay input as exported: ``config``, ``seed`` and ``actions`` of a
    game record (``{"config", "seed", "actions"}``, e.g. an engine's ``record``)."""
    return {
        "config": dict(record["config"]),
        "seed": record["seed"],
        "actions": [clean_action(a) for a in record["actions"]],
    }
