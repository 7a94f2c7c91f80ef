"""What a table operation announces: the ``table_updated`` frame and the system lines of the
table and lobby chats (the table layer's codes and each game's own)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils import timezone

from games import deals, realtime
from games.engine.core.protocol import Game as EngineGame
from games.models import ChatMessage, Seat
from games.services.unit import MAX_CHAT_LENGTH, Frame, TableCtx, Work


def table_changed(ctx: TableCtx, work: Work) -> None:
    """Save the table's new version and announce it (``table_updated``)."""
    work.needs_database("the table saved")
    ctx.table.version += 1
    ctx.table.save(update_fields=["version", "status", "options", "visibility", "updated_at"])
    work.send(
        realtime.table_group(ctx.table.pk),
        realtime.table_updated_frame(ctx.table, ctx.seats, ctx.current_number),
    )


def seat_names(ctx: TableCtx) -> list[str | None]:
    """The name each seat plays under (the protocol's ``seat.name``), for system lines."""
    return [realtime.seat_json(s, ctx.table.owner_id)["name"] for s in ctx.seats]


def table_send(ctx: TableCtx, work: Work, frame: Frame, spectators: Frame | None) -> None:
    """``frame`` for everyone at the table. When the spectators' copy differs (deal secrecy:
    ``games.deals.spectator_frame``), the seated people get ``frame`` and the spectators
    ``spectators`` (None: nothing), each through their own group."""
    if spectators is frame:
        work.send(realtime.table_group(ctx.table.pk), frame)
        return
    for seat in ctx.seats:
        if seat.kind == Seat.Kind.HUMAN:
            work.send(realtime.seat_group(ctx.table.pk, seat.index), frame)
    if spectators is not None:
        work.send(realtime.spectators_group(ctx.table.pk), spectators)


def system_message(
    ctx: TableCtx,
    work: Work,
    code: str,
    params: dict[str, Any],
    text: str | None = None,
    *,
    secret: bool = False,
) -> None:
    """A system line in the table room: ``code`` (``realtime.SYSTEM_CODES``) and ``params``
    for the readers' languages, ``text`` its English form (by default the table layer's).
    ``secret``: the game's deal is held back from spectators (``games.deals.spectator_access``),
    so a line naming cards or a hand (``deals.line_shows_cards``) goes to the seats only."""
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
    hidden = secret and deals.line_shows_cards(params)
    table_send(ctx, work, frame, None if hidden else frame)


def lobby_message(work: Work, code: str, params: dict[str, Any]) -> None:
    """A system line in the lobby chat (a public table opened, a session won)."""
    msg = ChatMessage.objects.create(
        room=ChatMessage.Room.LOBBY,
        text=realtime.system_text(code, params)[:MAX_CHAT_LENGTH],
        is_system=True,
        code=code,
        params=params,
    )
    work.send(realtime.LOBBY_GROUP, realtime.message_frame(msg, None))


def game_line(
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
