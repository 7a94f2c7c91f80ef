"""Write-side operations of the games app. Services own their transactions.

Every change to a live table goes through one function here: it locks the table row
(``select_for_update``), checks who may do it and (for moves) the client's game version, applies
the engine, appends an :class:`~games.models.Action`, saves state and version, and only then —
in ``transaction.on_commit`` — broadcasts frames and schedules timers (docs/protocol.md).
Errors are :class:`TableError` (a ``ValueError`` with a stable ``code``) or the engine's own
``ValueError``\\ s with their codes; nothing changes when one is raised.

The modules, by concern: :mod:`~games.services.unit` (the unit of work, ``TableError``, task
names and delays), :mod:`~games.services.sql` (the move path's hand-written lock and save),
:mod:`~games.services.lines` (table frames and system lines), :mod:`~games.services.tables`
(creating tables, options, countdown, next game), :mod:`~games.services.seats`,
:mod:`~games.services.play` (deal, moves, finishing a game), :mod:`~games.services.timers`,
:mod:`~games.services.autoplay` (house AI, bot and away seats), :mod:`~games.services.presence`,
:mod:`~games.services.leaving` (open seats, end of a session), :mod:`~games.services.rematch`
(a new session at the same table after one) and :mod:`~games.services.chat`.
Nothing here names a game: each is reached through the registry and its engine's members.
"""

from __future__ import annotations

from games.services.autoplay import (
    bot_queue,
    game_autoplay,
    game_autoplay_turns,
    game_bot_records,
    table_bot_queue,
)
from games.services.chat import chat_post
from games.services.invites import (
    invite_accept,
    invite_create,
    invite_revoke,
    invite_table_create,
)
from games.services.leaving import table_end
from games.services.play import game_play, game_timeout
from games.services.presence import (
    presence_heal,
    seat_hold_expired,
    seat_presence_recount,
    table_presence,
)
from games.services.rematch import (
    rematch_answer,
    rematch_deadline,
    rematch_offer,
    rematch_seconds,
)
from games.services.seats import (
    seat_add_bot,
    seat_join,
    seat_kick,
    seat_leave,
    seat_ready,
)
from games.services.tables import (
    SeatSpec,
    game_next,
    house_levels,
    table_begin,
    table_create,
    table_create_arena,
    table_create_bot_practice,
    table_create_practice,
    table_set_option,
    table_start,
)
from games.services.timers import (
    timers_grace_seconds,
    timers_rearm,
    timers_rearm_queue,
    timers_resume,
    versions_announce,
    versions_announce_seconds,
)
from games.services.unit import (
    TASK_GAME_ARCHIVE,
    TASK_NEXT_GAME,
    TASK_REMATCH_DEADLINE,
    TASK_SEAT_AUTOPLAY,
    TASK_SEAT_HOLD,
    TASK_TABLE_BEGIN,
    TASK_TURN_TIMEOUT,
    TableError,
    bot_delay,
    hold_seconds,
    next_game_seconds,
)

__all__ = [
    "TASK_GAME_ARCHIVE",
    "TASK_NEXT_GAME",
    "TASK_REMATCH_DEADLINE",
    "TASK_SEAT_AUTOPLAY",
    "TASK_SEAT_HOLD",
    "TASK_TABLE_BEGIN",
    "TASK_TURN_TIMEOUT",
    "SeatSpec",
    "TableError",
    "bot_delay",
    "bot_queue",
    "chat_post",
    "game_autoplay",
    "game_autoplay_turns",
    "game_bot_records",
    "game_next",
    "game_play",
    "game_timeout",
    "hold_seconds",
    "house_levels",
    "invite_accept",
    "invite_create",
    "invite_revoke",
    "invite_table_create",
    "next_game_seconds",
    "presence_heal",
    "rematch_answer",
    "rematch_deadline",
    "rematch_offer",
    "rematch_seconds",
    "seat_add_bot",
    "seat_hold_expired",
    "seat_join",
    "seat_kick",
    "seat_leave",
    "seat_presence_recount",
    "seat_ready",
    "table_begin",
    "table_bot_queue",
    "table_create",
    "table_create_arena",
    "table_create_bot_practice",
    "table_create_practice",
    "table_end",
    "table_presence",
    "table_set_option",
    "table_start",
    "timers_grace_seconds",
    "timers_rearm",
    "timers_rearm_queue",
    "timers_resume",
    "versions_announce",
    "versions_announce_seconds",
]
