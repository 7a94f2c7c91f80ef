"""System chat lines: the table layer's own codes and templates, and every game's codes."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext, gettext_noop, ngettext

from games.engine.registry import GAMES

# --------------------------------------------------------------------------- system chat lines
#: The table layer's own system chat lines: stable code → English template with ``{name}``
#: placeholders (params). A template pair is (singular, plural), chosen by ``params["n"]``.
#: Browsers render ``sys_<code>`` of their i18n dictionary (templates/games/_table_i18n.html,
#: templates/_lobby_i18n.html) with the same placeholders; ``text`` keeps this English form.
SYSTEM_MESSAGES: dict[str, str | tuple[str, str]] = {
    # table room
    "seat_joined": gettext_noop("{name} joined seat {seat}."),
    "seat_left": gettext_noop("{name} left."),
    "seat_left_auto": gettext_noop("{name} left; the house plays seat {seat}."),
    "seat_away": gettext_noop("{name} is away; the house plays seat {seat}."),
    "seat_filled": gettext_noop("{name} sits at seat {seat}."),
    "seat_removed": gettext_noop("{name} was removed from seat {seat}."),
    "seat_opened": gettext_noop("{name} left the table; seat {seat} is open."),
    "host_changed": gettext_noop("{name} is the host now."),
    "session_ended_host": gettext_noop("The host ended the session."),
    "session_ended_abandoned": gettext_noop("Every player left: the session is over."),
    "bot_disqualified": gettext_noop(
        "The bot at seat {seat} is disqualified after {strikes} strikes (last: {reason}); "
        "the house plays it."
    ),
    "game_dealt": gettext_noop("Game {game} of {games} is dealt."),
    "game_won": gettext_noop("{name} won game {game}."),
    "game_won_instant": gettext_noop("{name} won game {game} by an instant win ({instant})."),
    "game_won_hand": gettext_noop("{name} won game {game} with {hand}."),
    "session_over": gettext_noop("Session over: {name} wins with {points}."),
    "cut": (
        gettext_noop("{name} cut {victim} ({n} point)."),
        gettext_noop("{name} cut {victim} ({n} points)."),
    ),
    "round_won": gettext_noop("{name} won round {round}."),
    # lobby room
    "lobby_table_opened": gettext_noop("{name} opened a public table {table} ({game})."),
    "lobby_session_won": gettext_noop("{name} won the session at {table}."),
}

#: Every system code the server can emit: the table layer's own and each game's
#: (``GAME.system_codes``, lines made by ``GAME.system_line``). Every one needs a ``sys_<code>``
#: entry in the browsers' i18n dictionaries.
SYSTEM_CODES: frozenset[str] = frozenset(SYSTEM_MESSAGES) | frozenset(
    code for game in GAMES.values() for code in game.system_codes
)


def system_text(code: str, params: Mapping[str, Any], *, translate: bool = False) -> str:
    """The line for a table-layer system ``code``: English (stored as ``text``), or in the
    active language with ``translate``.

    >>> system_text("seat_joined", {"name": "Lan", "seat": 2})
    'Lan joined seat 2.'
    >>> system_text("cut", {"name": "Lan", "victim": "Bo", "n": 1})
    'Lan cut Bo (1 point).'
    """
    template = SYSTEM_MESSAGES[code]
    if isinstance(template, tuple):
        n = int(params.get("n", 0))
        if translate:
            text = ngettext(template[0], template[1], n)
        else:
            text = template[0] if n == 1 else template[1]
    else:
        text = gettext(template) if translate else template
    return text.format_map({k: "" if v is None else v for k, v in params.items()})
