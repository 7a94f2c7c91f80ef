"""Real-time plumbing of live tables: group names, frame builders, system lines, broadcasts and
the scheduler.

Services call :func:`broadcast` and :func:`schedule` from ``transaction.on_commit`` callbacks;
consumers use the group names. Nothing here touches the rules (that is the engine) or owns a
transaction (that is the services). See docs/protocol.md for the frames. By concern:
:mod:`~games.realtime.groups`, :mod:`~games.realtime.frames`, :mod:`~games.realtime.lines`
(system chat lines), :mod:`~games.realtime.fanout` (broadcasting and its sinks) and
:mod:`~games.realtime.scheduling`. A test that replaces a function replaces it in the module
that defines it (``games.realtime.fanout.send_now``), where its callers look it up.
"""

from __future__ import annotations

from games.realtime.fanout import (
    Outbox,
    Send,
    Sink,
    audience_frames,
    broadcast,
    flush,
    rebind,
    send_async,
    send_now,
    send_soon,
)
from games.realtime.frames import (
    Frame,
    all_hands_frame,
    bot_record_frame,
    error_frame,
    house_name,
    message_frame,
    message_json,
    player_snapshot,
    rematch_json,
    seat_json,
    session_json,
    table_json,
    table_updated_frame,
    ts,
    your_turn_frame,
)
from games.realtime.groups import (
    EVERYONE,
    LOBBY_GROUP,
    SPECTATORS,
    hands_group,
    quickplay_group,
    seat_group,
    spectators_group,
    table_audience,
    table_group,
    user_group,
)
from games.realtime.lines import (
    SYSTEM_CODES,
    SYSTEM_MESSAGES,
    system_template,
    system_text,
)
from games.realtime.scheduling import (
    LADDER_QUEUE,
    CeleryScheduler,
    Handover,
    bot_queue,
    celery_task,
    get_scheduler,
    is_bot_queue,
    schedule,
)

__all__ = [
    "EVERYONE",
    "LADDER_QUEUE",
    "LOBBY_GROUP",
    "SPECTATORS",
    "SYSTEM_CODES",
    "SYSTEM_MESSAGES",
    "CeleryScheduler",
    "Frame",
    "Handover",
    "Outbox",
    "Send",
    "Sink",
    "all_hands_frame",
    "audience_frames",
    "bot_queue",
    "bot_record_frame",
    "broadcast",
    "celery_task",
    "error_frame",
    "flush",
    "get_scheduler",
    "hands_group",
    "house_name",
    "is_bot_queue",
    "message_frame",
    "message_json",
    "player_snapshot",
    "quickplay_group",
    "rebind",
    "rematch_json",
    "schedule",
    "seat_group",
    "seat_json",
    "send_async",
    "send_now",
    "send_soon",
    "session_json",
    "spectators_group",
    "system_template",
    "system_text",
    "table_audience",
    "table_group",
    "table_json",
    "table_updated_frame",
    "ts",
    "user_group",
    "your_turn_frame",
]
