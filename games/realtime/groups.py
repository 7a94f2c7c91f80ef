"""Channel-layer group names of live tables and the lobby, and the audience a table group
stands for in a ``table.frames`` message."""

from __future__ import annotations

import re

LOBBY_GROUP = "lobby"


# --------------------------------------------------------------------------- group names
def table_group(table_id: int) -> str:
    """Everyone at a table: players and spectators (lobby state, public chat, results)."""
    return f"table-{table_id}"


def seat_group(table_id: int, seat: int) -> str:
    """The sockets of the player sitting at ``seat``: the only place that seat's cards go."""
    return f"table-{table_id}-seat-{seat}"


def spectators_group(table_id: int) -> str:
    """Spectators: the spectator view and the spectators' chat room."""
    return f"table-{table_id}-spectators"


def hands_group(table_id: int) -> str:
    """The spectators who chose to see every hand (a casual table whose host allows it:
    ``games.models.spectator_hands_live``). No socket joins it: it only names the ``hands``
    audience of a ``table.frames`` message, which such a spectator's socket keeps besides the
    spectators' entries (``games.realtime.audience_frames``)."""
    return f"table-{table_id}-hands"


def user_group(table_id: int, user_id: int) -> str:
    """Every socket of one user at one table (to re-bind them after a seat change)."""
    return f"table-{table_id}-user-{user_id}"


# --------------------------------------------------------------------------- broadcasting
#: The ``audience`` of an entry in a ``table.frames`` message: everyone at the table, the
#: spectators, or one seat (an ``int``).
EVERYONE = "table"
SPECTATORS = "spectators"
HANDS = "hands"
Audience = str | int

_TABLE_GROUP = re.compile(r"^table-(\d+)(?:-seat-(\d+)|-(spectators|hands))?$")


def table_audience(group: str) -> tuple[int, Audience] | None:
    """``(table id, audience)`` of a table, seat or spectators group; None for other groups.

    >>> table_audience(seat_group(7, 2)), table_audience(spectators_group(7))
    ((7, 2), (7, 'spectators'))
    >>> table_audience(hands_group(7))
    (7, 'hands')
    >>> table_audience(table_group(7)), table_audience(user_group(7, 3))
    ((7, 'table'), None)
    """
    match = _TABLE_GROUP.match(group)
    if match is None:
        return None
    table_id, seat, spectators = match.groups()
    if seat is not None:
        return int(table_id), int(seat)
    if spectators:
        return int(table_id), str(spectators)
    return int(table_id), EVERYONE


def quickplay_group(user_id: int) -> str:
    """The lobby sockets of one person: the quick-play pass sends ``quickplay_seated`` there
    (docs/protocol.md "The lobby socket")."""
    return f"quickplay-{user_id}"
