"""System chat lines: the table layer's own codes and templates, and every game's codes
(computed on access, so a game registered at run time is included)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from collections.abc import Set as AbstractSet
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
    "rematch_offered": gettext_noop("{name} offers a rematch."),
    "rematch_started": gettext_noop("Rematch: a new session starts at this table."),
    "rematch_lapsed": gettext_noop("Nobody accepted the rematch."),
    # lobby room
    "lobby_table_opened": gettext_noop("{name} opened a public table {table} ({game})."),
    "lobby_session_won": gettext_noop("{name} won the session at {table}."),
}


def system_codes() -> frozenset[str]:
    """Every system code the server can emit: the table layer's own and each registered game's
    (``GAME.system_codes``, lines made by ``GAME.system_line``), a game registered at run time
    included. Every one needs a ``sys_<code>`` entry in the browsers' i18n dictionaries.

    >>> {"seat_joined", "cut"} <= system_codes()
    True
    """
    return frozenset(SYSTEM_MESSAGES) | frozenset(
        code for game in GAMES.values() for code in game.system_codes
    )


class _SystemCodes(AbstractSet[str]):
    """:func:`system_codes` as a set computed on each access."""

    def __contains__(self, code: object) -> bool:
        return code in system_codes()

    def __iter__(self) -> Iterator[str]:
        return iter(system_codes())

    def __len__(self) -> int:
        return len(system_codes())

    def __repr__(self) -> str:
        return f"SYSTEM_CODES({sorted(system_codes())!r})"


#: :func:`system_codes` as a live set (``code in SYSTEM_CODES``).
SYSTEM_CODES: AbstractSet[str] = _SystemCodes()


def system_template(code: str) -> str | tuple[str, str] | None:
    """The English template of system ``code``: the table layer's (:data:`SYSTEM_MESSAGES`),
    else the game's that emits it (``GAME.system_messages``); None when there is none.

    >>> system_template("round_won")
    '{name} won round {round}.'
    >>> system_template("no_such_code") is None
    True
    """
    template = SYSTEM_MESSAGES.get(code)
    if template is not None:
        return template
    for game in GAMES.values():
        found = game.system_messages.get(code)
        if found is not None:
            return found
    return None


def system_text(code: str, params: Mapping[str, Any], *, translate: bool = False) -> str:
    """The line for a system ``code`` (:func:`system_template`): English (stored as
    ``text``), or in the active language with ``translate``.

    >>> system_text("seat_joined", {"name": "Lan", "seat": 2})
    'Lan joined seat 2.'
    >>> system_text("cut", {"name": "Lan", "victim": "Bo", "n": 1})
    'Lan cut Bo (1 point).'
    """
    template = system_template(code)
    if template is None:
        raise KeyError(code)
    if isinstance(template, tuple):
        n = int(params.get("n", 0))
        if translate:
            text = ngettext(template[0], template[1], n)
        else:
            text = template[0] if n == 1 else template[1]
    else:
        text = gettext(template) if translate else template
    return text.format_map({k: "" if v is None else v for k, v in params.items()})
