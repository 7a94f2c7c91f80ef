"""Chat lines in the lobby and at a table."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import transaction

from games import realtime
from games.models import ChatMessage, Seat, Table
from games.services.unit import MAX_CHAT_LENGTH, TableError, Work

if TYPE_CHECKING:
    from accounts.models import User


@transaction.atomic
def chat_post(
    *,
    user: User | None,
    text: str,
    table_id: int | None = None,
    room: str | None = None,
    sink: realtime.Sink | None = None,
) -> ChatMessage:
    """Post a chat line: in the lobby (no table), or at a table in ``table`` (players) or
    ``spectators`` (everyone else). The raw text is stored (never HTML; clients escape it)."""
    if user is None or not user.is_authenticated:
        raise TableError("login_required", "log in to chat")
    if not isinstance(text, str) or not text.strip():
        raise TableError("empty_message", "say something")
    text = text.strip()
    if len(text) > MAX_CHAT_LENGTH:  # code points: an emoji is 1 (or a few), never half of one
        raise TableError("message_too_long", f"at most {MAX_CHAT_LENGTH} characters")
    if "\x00" in text or any("\ud800" <= ch <= "\udfff" for ch in text):
        raise TableError("bad_frame", "text has a NUL or a lone surrogate")  # JSON allows both
    work = Work(sink=sink)
    if table_id is None:
        msg = ChatMessage.objects.create(room=ChatMessage.Room.LOBBY, author=user, text=text)
        work.send(realtime.LOBBY_GROUP, realtime.message_frame(msg, user.public_name))
        work.commit()
        return msg
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        raise TableError("no_table", "no such table")
    seated = Seat.objects.filter(table_id=table_id, kind=Seat.Kind.HUMAN, user=user).exists()
    own_room = ChatMessage.Room.TABLE if seated else ChatMessage.Room.SPECTATORS
    room = room or own_room
    if room != own_room:
        raise TableError("wrong_room", f"you chat in the {own_room} room")
    msg = ChatMessage.objects.create(table=table, room=room, author=user, text=text)
    group = (
        realtime.table_group(table_id)
        if room == ChatMessage.Room.TABLE
        else realtime.spectators_group(table_id)
    )
    work.send(group, realtime.message_frame(msg, user.public_name))
    work.commit()
    return msg
