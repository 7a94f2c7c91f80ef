"""Seats before and during a game: joining, coming back, leaving, readiness, house AIs and
bots, kicking."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.db import transaction

from games import programs, realtime
from games.models import Seat, Table
from games.services.lines import system_message, table_changed
from games.services.sql import lock_table
from games.services.timers import arm_timers
from games.services.unit import (
    TableCtx,
    TableError,
    Work,
    check_bot_seats,
    engine_of,
    refresh_lobby_status,
    require_host,
    require_lobby,
    user_name,
)

if TYPE_CHECKING:
    from accounts.models import User


@transaction.atomic
def seat_join(
    *, table_id: int, user: User | None, seat: int | None = None, sink: realtime.Sink | None = None
) -> int:
    """Sit ``user`` at an empty seat (the given one or the first); returns the seat index.

    During a game a seated player who left (or went away) comes back: their seat stops being
    auto-played."""
    if user is None or not user.is_authenticated:
        raise TableError("login_required", "log in to take a seat")
    ctx = lock_table(table_id)
    work = Work(sink=sink)
    mine = ctx.seat_of(user)
    if ctx.table.status == Table.Status.IN_PROGRESS:
        if mine is None:
            raise TableError("bad_state", "the game has started; you can watch")
        _seat_back(ctx, mine, work)
        work.commit()
        return mine.index
    require_lobby(ctx)
    if mine is not None:
        raise TableError("already_seated", f"you sit at seat {mine.index}")
    if seat is None:
        target = next((s for s in ctx.seats if s.kind == Seat.Kind.EMPTY), None)
        if target is None:
            raise TableError("no_seat", "the table is full")
    else:
        target = next((s for s in ctx.seats if s.index == seat), None)
        if target is None:
            raise TableError("no_seat", f"no seat {seat}")
        if target.kind != Seat.Kind.EMPTY:
            raise TableError("seat_taken", f"seat {seat} is taken")
    target.kind = Seat.Kind.HUMAN
    target.user = user
    target.ready = False
    target.connections = 0
    target.auto = False
    target.away_since = None
    target.save()
    refresh_lobby_status(ctx)
    table_changed(ctx, work)
    work.send(
        realtime.table_group(ctx.table.pk),
        {"type": "player_joined", "seat": target.index, "name": user.public_name, "kind": "human"},
    )
    system_message(ctx, work, "seat_joined", {"name": user.public_name, "seat": target.index + 1})
    work.rebinds.append(realtime.user_group(ctx.table.pk, user.pk))
    work.commit()
    return target.index


def _seat_back(ctx: TableCtx, seat: Seat, work: Work) -> None:
    if not seat.auto or seat.disqualified:
        return
    seat.auto = False
    seat.away_since = None
    seat.save(update_fields=["auto", "away_since"])
    work.send(
        realtime.table_group(ctx.table.pk),
        {
            "type": "player_joined",
            "seat": seat.index,
            "name": user_name(seat.user),
            "kind": "human",
        },
    )
    table_changed(ctx, work)
    arm_timers(ctx, work)


@transaction.atomic
def seat_leave(*, table_id: int, user: User | None, sink: realtime.Sink | None = None) -> None:
    """Leave the table. Before the game the seat is freed (the host cannot leave); during a
    game the seat is auto-played by the house policy until the player comes back."""
    ctx = lock_table(table_id)
    mine = ctx.seat_of(user)
    if mine is None or user is None:
        raise TableError("not_seated", "you do not sit at this table")
    work = Work(sink=sink)
    if ctx.table.status == Table.Status.IN_PROGRESS:
        if not mine.auto:
            mine.auto = True
            mine.save(update_fields=["auto"])
            work.send(
                realtime.table_group(ctx.table.pk),
                {
                    "type": "player_left",
                    "seat": mine.index,
                    "name": user.public_name,
                    "reason": "left",
                },
            )
            system_message(
                ctx, work, "seat_left_auto", {"name": user.public_name, "seat": mine.index + 1}
            )
            table_changed(ctx, work)
            arm_timers(ctx, work)
        work.commit()
        return
    require_lobby(ctx)
    if user.pk == ctx.table.owner_id:
        raise TableError("bad_state", "the host cannot leave the table")
    empty_seat(mine)
    refresh_lobby_status(ctx)
    table_changed(ctx, work)
    work.send(
        realtime.table_group(ctx.table.pk),
        {"type": "player_left", "seat": mine.index, "name": user.public_name, "reason": "left"},
    )
    system_message(ctx, work, "seat_left", {"name": user.public_name})
    work.rebinds.append(realtime.user_group(ctx.table.pk, user.pk))
    work.commit()


def empty_seat(seat: Seat) -> None:
    seat.kind = Seat.Kind.EMPTY
    seat.user = None
    seat.bot_version = None
    seat.house_level = None
    seat.ready = False
    seat.connections = 0
    seat.auto = False
    seat.away_since = None
    seat.strikes = 0
    seat.disqualified = False
    seat.save()


@transaction.atomic
def seat_ready(
    *, table_id: int, user: User | None, ready: bool = True, sink: realtime.Sink | None = None
) -> None:
    """Mark the caller's seat ready (or not); the table turns Ready when everyone is."""
    ctx = lock_table(table_id, with_game=False)
    require_lobby(ctx)
    mine = ctx.seat_of(user)
    if mine is None:
        raise TableError("not_seated", "take a seat first")
    work = Work(sink=sink)
    mine.ready = ready
    mine.save(update_fields=["ready"])
    refresh_lobby_status(ctx)
    table_changed(ctx, work)
    work.commit()


@transaction.atomic
def seat_add_bot(
    *,
    table_id: int,
    user: User | None,
    seat: int,
    level: str = "medium",
    bot_version_id: int | None = None,
    sink: realtime.Sink | None = None,
) -> None:
    """Host: put a house AI (``level``) or a bot version at an empty or bot seat: the host's
    own ready version or a ready version of a bot its owner opened to others, of this table's
    game (``BotVersion.objects.seatable``, the Create Table form's rule too)."""
    ctx = lock_table(table_id, with_game=False)
    require_host(ctx, user)
    require_lobby(ctx)
    target = next((s for s in ctx.seats if s.index == seat), None)
    if target is None:
        raise TableError("no_seat", f"no seat {seat}")
    if target.kind == Seat.Kind.HUMAN:
        raise TableError("seat_taken", f"seat {seat} has a player")
    if bot_version_id is not None:
        # The FK's target model, read only (games does not import bots' internals); its
        # ``seatable`` is the one rule, the Create Table form's too.
        version_model: Any = Seat._meta.get_field("bot_version").related_model
        seatable = version_model.objects.seatable(user=user, free=False).select_related("bot")
        version = seatable.filter(pk=bot_version_id).first()
        if version is None:
            raise TableError(
                "unknown_bot",
                "no such bot version: seat your own ready versions or ready versions of bots "
                "their owners opened to others",
            )
        if version.bot.game != ctx.table.game:  # a bot plays the one game it was written for
            raise TableError("unknown_bot", f"that bot plays {version.bot.game}, not this game")
        others = [
            int(s.bot_version_id)
            for s in ctx.seats
            if s.kind == Seat.Kind.BOT and s.bot_version_id is not None and s is not target
        ]
        if programs.same_program_twice([*others, version.pk]):
            raise TableError(
                programs.SAME_PROGRAM_TWICE,
                "that program already holds a seat here (another version of the bot, or "
                "another external bot of its owner)",
            )
        try:  # an external bot: offline, at its limit of games, others' share used (bots.seating)
            check_bot_seats(user, [version.pk], table_id=ctx.table.pk)
        except ValidationError as exc:
            raise TableError(str(exc.code or "unknown_bot"), " ".join(exc.messages)) from exc
        target.kind = Seat.Kind.BOT
        target.bot_version = version
        target.house_level = None
        name = f"{version.bot.name} v{version.number}"
    else:
        levels = engine_of(ctx.table.game).house_levels
        if level not in levels:
            raise TableError("bad_frame", f"level must be one of {', '.join(levels)}")
        target.kind = Seat.Kind.HOUSE
        target.house_level = level
        target.bot_version = None
        name = realtime.house_name(target.index, level)
    target.user = None
    target.name = ""
    target.ready = True
    target.strikes = 0
    target.disqualified = False
    target.auto = False
    target.save()
    work = Work(sink=sink)
    refresh_lobby_status(ctx)
    table_changed(ctx, work)
    work.send(
        realtime.table_group(ctx.table.pk),
        {"type": "player_joined", "seat": seat, "name": name, "kind": target.kind},
    )
    system_message(ctx, work, "seat_filled", {"name": name, "seat": seat + 1})
    work.commit()


def table_add_bot(
    *,
    table: Table,
    user: User | None,
    seat: int,
    level: str | None = None,
    bot_version: Any = None,
) -> None:
    """:func:`seat_add_bot` for callers holding a table (the Create Table view): a house AI
    at ``level`` or ``bot_version`` (a BotVersion or its id)."""
    version_id = getattr(bot_version, "pk", bot_version)
    seat_add_bot(
        table_id=table.pk,
        user=user,
        seat=seat,
        level=level or "medium",
        bot_version_id=int(version_id) if version_id is not None else None,
    )


@transaction.atomic
def seat_kick(
    *, table_id: int, user: User | None, seat: int, sink: realtime.Sink | None = None
) -> None:
    """Host, before the game: empty a seat (a player becomes a spectator)."""
    ctx = lock_table(table_id, with_game=False)
    require_host(ctx, user)
    require_lobby(ctx)
    target = next((s for s in ctx.seats if s.index == seat), None)
    if target is None or target.kind == Seat.Kind.EMPTY:
        raise TableError("no_seat", f"seat {seat} is empty")
    if target.kind == Seat.Kind.HUMAN and target.user_id == ctx.table.owner_id:
        raise TableError("bad_state", "the host cannot kick themselves")
    work = Work(sink=sink)
    kicked_user = target.user
    name = realtime.seat_json(target, ctx.table.owner_id)["name"]
    empty_seat(target)
    refresh_lobby_status(ctx)
    table_changed(ctx, work)
    work.send(
        realtime.table_group(ctx.table.pk),
        {"type": "player_left", "seat": seat, "name": name, "reason": "kicked"},
    )
    system_message(ctx, work, "seat_removed", {"name": name, "seat": seat + 1})
    if kicked_user is not None:
        work.rebinds.append(realtime.user_group(ctx.table.pk, kicked_user.pk))
    work.commit()
