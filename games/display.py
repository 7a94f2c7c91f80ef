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

from django.utils.functional import lazy
from django.utils.translation import gettext, gettext_noop, ngettext

__all__ = [
    "HOUSE_LEVEL_WORDS",
    "PRACTICE_NAME",
    "game_label",
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
