"""What a table operation announces: the ``table_updated`` frame and the system lines of the
table and lobby chats (the table layer's codes and each game's own)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils import timezone

from games import realtime
from games.engine.core.protocol import Game as EngineGame
from games.models import ChatMessage
from games.services.unit import MAX_CHAT_LENGTH, TableCtx, _Work


def _table_changed(ctx: TableCtx, work: _Work) -> None:
    ctx.table.version += 1
    ctx.table.save(update_fields=["version", "status", "options", "visibility", "updated_at"])
    work.send(
        realtime.table_group(ctx.table.pk),
        realtime.table_updated_frame(ctx.table, ctx.seats, ctx.current_number),
    )


def _seat_names(ctx: TableCtx) -> list[str | None]:
    """The name each seat plays under (the protocol's ``seat.name``), for system lines."""
    return [realtime.seat_json(s, ctx.table.owner_id)["name"] for s in ctx.seats]


def _system_message(
    ctx: TableCtx, work: _Work, code: str, params: dict[str, Any], text: str | None = None
) -> None:
    """A system line in the table room: ``code`` (``realtime.SYSTEM_CODES``) and ``params``
    for the readers' languages, ``text`` its English form (by default the table layer's)."""
    if text is None:
        text = realtime.system_text(code, params)
    msg = ChatMessage(
        table=ctx.table,
        room=ChatMessage.Room.TABLE,
        text=text[:MAX_CHAT_LENGTH],
        is_system=True,
        code=code,
        params=params,
    )
    held = work.held.messages if work.held is not None else None
    if held is None:
        msg.save()
    else:  # a run's held move: stored with the run, its frame completed then
        msg.created_at = timezone.now()
    frame = realtime.message_frame(msg, None)
    if held is not None:
        held.append((msg, frame))
    work.send(realtime.table_group(ctx.table.pk), frame)


def _lobby_message(work: _Work, code: str, params: dict[str, Any]) -> None:
    """A system line in the lobby chat (a public table opened, a session won)."""
    msg = ChatMessage.objects.create(
        room=ChatMessage.Room.LOBBY,
        text=realtime.system_text(code, params)[:MAX_CHAT_LENGTH],
        is_system=True,
        code=code,
        params=params,
    )
    work.send(realtime.LOBBY_GROUP, realtime.message_frame(msg, None))


def _game_line(
    engine: EngineGame, kind: str, data: Mapping[str, Any], names: Sequence[str | None]
) -> tuple[str, dict[str, Any], str] | None:
    """A game's own system line for an event or (``kind`` ``"result"``) a result
    (``engine.system_line``): code, params, English text (``engine.system_message``)."""
    line = engine.system_line(kind, data, names)
    if line is None:
        return None
    code, params = line
    text = engine.system_message(kind, data, names)
    return code, dict(params), str(text or code)
