"""System-made names, read in the viewer's language at display time (issue 15).

The site names some things itself and stores the English: a practice table is "Practice — Lan"
(:func:`games.services.tables.table_create_practice`), a house AI plays as "AI Tùng (hard)"
(:func:`games.realtime.frames.house_name`). Those are data (rows and broadcast frames shared by
viewers of every language), so the pages recognise the patterns and translate them when they
show them; a name a person typed is shown as typed. The table page does the same in JS
(static/js/table.js ``displayTableName`` / ``seatName``).

>>> table_name("Practice — Lan"), table_name("Bàn của Lan")
('Practice — Lan', 'Bàn của Lan')
>>> player_name("AI Tùng (hard)"), player_name("Lan (hard)")
('AI Tùng (hard)', 'Lan (hard)')
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django.utils import formats
from django.utils.functional import lazy
from django.utils.translation import gettext, gettext_noop, ngettext

__all__ = [
    "HOUSE_LEVEL_WORDS",
    "PRACTICE_NAME",
    "game_label",
    "game_settings",
    "games_count",
    "player_name",
    "table_name",
]

#: The stored (English) name of a practice table; ``%(name)s`` is its owner's public name.
PRACTICE_NAME = gettext_noop("Practice — %(name)s")

#: The house AI levels' words as seat names carry them (lowercase, translated by the catalog).
HOUSE_LEVEL_WORDS = {
    "easy": gettext_noop("easy"),
    "medium": gettext_noop("medium"),
    "hard": gettext_noop("hard"),
    "expert": gettext_noop("expert"),
}

_PRACTICE = re.compile(r"^Practice — (?P<name>.+)$", re.DOTALL)
_HOUSE = re.compile(r"^(?P<who>AI \S+) \((?P<level>" + "|".join(HOUSE_LEVEL_WORDS) + r")\)$")


def table_name(name: str | None) -> str:
    """A table's name in the active language: a practice table's system-made name translated,
    any other name as it is."""
    text = name or ""
    match = _PRACTICE.match(text)
    if match is None:
        return text
    return gettext(PRACTICE_NAME) % {"name": match["name"]}


def player_name(name: str | None) -> str:
    """A seat's name in the active language: a house AI's level word translated ("AI Tùng
    (khó)"), any other name as it is."""
    text = name or ""
    match = _HOUSE.match(text)
    if match is None:
        return text
    return f"{match['who']} ({gettext(HOUSE_LEVEL_WORDS[match['level']])})"


def game_label(engine: str | None) -> str:
    """A game's readable title ("Tiến Lên Miền Nam") in the active language, for its engine
    name; an unknown engine shows its name (models may use it: no forms import here).

    >>> game_label("no-such-game")
    'no-such-game'
    """
    from games.engine.registry import GAMES

    game = GAMES.get(engine or "")
    return gettext(game.title) if game is not None else (engine or "")


def _games_count(n: int) -> str:
    return ngettext("%(n)d game", "%(n)d games", n) % {"n": n}


#: "16 games" in the active language when shown (a form's choices are built at import time,
#: before any request's language is active).
games_count = lazy(_games_count, str)


#: The labels of the settings every game's config may carry besides its table options
#: (English, translated by the catalog); :func:`game_settings` shows them.
SETTING_LABELS = {
    "players": gettext_noop("Players"),
    "games": gettext_noop("Games in the session"),
    "turn_seconds": gettext_noop("Turn timer (seconds)"),
    "opening": gettext_noop("Opening game (the lowest card leads)"),
    "leader": gettext_noop("First to lead"),
    "roles": gettext_noop("Roles"),
    "button": gettext_noop("Button"),
    "stacks": gettext_noop("Chips at the start"),
}
#: Config keys never shown as a setting (times and fixed deals are not settings).
_NOT_SETTINGS = frozenset({"started_at", "hands", "stock", "cards", "seed"})


def _seat(value: Any) -> str:
    return gettext("Seat %(n)d") % {"n": int(value) + 1}


def _word(engine: Any, key: str, value: Any) -> str | None:
    """A word option's value in words: its engine label, or (a normalized table such as
    Diu's ``claim_shapes``) the label of the choice it was made from; None if neither."""
    labels = getattr(engine, "table_option_value_labels", {}).get(key, {})
    if isinstance(value, str):
        label = labels.get(value.lower())
        return gettext(label) if label else value.replace("_", " ")
    for choice in getattr(engine, "table_option_choices", {}).get(key, ()):
        try:
            if engine.validate_config({key: choice}).get(key) == value:
                return gettext(labels[choice]) if choice in labels else choice
        except (ValueError, KeyError):
            return None
    return None


def _setting_value(engine: Any, key: str, value: Any) -> str:
    if isinstance(value, bool):
        return gettext("Yes") if value else gettext("No")
    if key in ("leader", "button") and isinstance(value, int):
        return _seat(value)
    if key == "roles" and isinstance(value, Mapping):
        return " · ".join(f"{role}: {_seat(seat)}" for role, seat in sorted(value.items()))
    if isinstance(value, list) and all(isinstance(v, (int, float)) for v in value):
        return " · ".join(str(formats.localize(v)) for v in value)
    if isinstance(value, (int, float)):
        return str(formats.localize(value))
    words = _word(engine, key, value) if engine is not None else None
    if words is not None:
        return words
    return gettext("custom") if isinstance(value, (Mapping, list)) else str(value)


def game_settings(engine_name: str | None, config: Any) -> list[tuple[str, str]]:
    """A game's settings as ``(label, value)`` in words and in the active language, for the
    history's game page: the shared ones (players, session length, turn timer …), then the
    game's own table options in the engine's order (its ``table_option_labels``, its value
    labels), then anything else by name. Unset values (a leader still to be found) are left
    out, as are the deal's secrets and times.

    >>> game_settings("tienlen", {"players": 4, "hide_hand_counts": False})
    [('Players', '4'), ('Hide hand counts', 'No')]
    >>> game_settings("diu", {"rotation": "winner_becomes_a", "t_play": 45})
    [('Seconds to discard', '45'), ('Roles rotate', 'The winner becomes A (头家)')]
    """
    from games.engine.registry import GAMES

    if not isinstance(config, Mapping):
        return []
    engine = GAMES.get(engine_name or "")
    own = list(engine.table_options) if engine is not None else []
    labels = dict(engine.table_option_labels) if engine is not None else {}
    order = [*SETTING_LABELS, *own]
    keys = [k for k in order if k in config] + sorted(k for k in config if k not in order)
    out = []
    for key in keys:
        value = config[key]
        if key in _NOT_SETTINGS or value is None:
            continue
        label = labels.get(key) or SETTING_LABELS.get(key)
        shown = gettext(label) if label else key.replace("_", " ").capitalize()
        out.append((shown, _setting_value(engine, key, value)))
    return out
