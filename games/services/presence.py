"""Presence: sockets connecting and closing, the disconnect hold and what follows it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import transaction

from games import clock, realtime
from games.models import Action, Game, Seat, Table
from games.services.lines import system_message, table_changed
from games.services.play import absent_move, apply_action
from games.services.sql import lock_table
from games.services.timers import arm_timers
from games.services.unit import TASK_SEAT_HOLD, Work, engine_of, hold_seconds, user_name

if TYPE_CHECKING:
    from accounts.models import User


@transaction.atomic
def table_presence(
    *,
    table_id: int,
    user: User | None,
    counted_seat: int | None,
    connected: bool,
    sink: realtime.Sink | None = None,
) -> int | None:
    """Keep a socket's presence right: ``counted_seat`` is the seat this socket was counted
    at (None: not counted). Returns the seat it is counted at now (None when disconnecting or
    not seated). Coming back clears an away/auto seat; the last socket of a seated player
    closing during a game starts the disconnect hold (seed §5.2)."""
    if user is None or not user.is_authenticated:
        return None
    ctx = lock_table(table_id)
    mine = ctx.seat_of(user) if connected else None
    new_seat = mine.index if mine is not None else None
    if counted_seat == new_seat:
        return new_seat
    work = Work(sink=sink)
    running = ctx.game is not None and ctx.table.status == Table.Status.IN_PROGRESS
    if counted_seat is not None:
        old = ctx.seats[counted_seat] if counted_seat < len(ctx.seats) else None
        if old is not None and old.kind == Seat.Kind.HUMAN and old.user_id == user.pk:
            old.connections = max(0, old.connections - 1)
            if old.connections == 0 and running:
                old.away_since = clock.now_datetime()
                work.send(
                    realtime.table_group(ctx.table.pk),
                    {
                        "type": "player_left",
                        "seat": old.index,
                        "name": user.public_name,
                        "reason": "disconnected",
                    },
                )
                work.timer(
                    TASK_SEAT_HOLD,
                    [ctx.table.pk, old.index, old.away_since.isoformat()],
                    hold_seconds(),
                )
            old.save(update_fields=["connections", "away_since"])
            table_changed(ctx, work)
    if mine is not None:
        mine.connections += 1
        back = mine.away_since is not None or (mine.auto and not mine.disqualified)
        mine.away_since = None
        if back and running:
            mine.auto = False if not mine.disqualified else mine.auto
            work.send(
                realtime.table_group(ctx.table.pk),
                {
                    "type": "player_joined",
                    "seat": mine.index,
                    "name": user.public_name,
                    "kind": "human",
                },
            )
        mine.save(update_fields=["connections", "away_since", "auto"])
        table_changed(ctx, work)
        if running:
            arm_timers(ctx, work)
    work.commit()
    return new_seat


@transaction.atomic
def seat_hold_expired(*, table_id: int, seat: int, since: str) -> bool:
    """Disconnect hold over (task): if the player is still away since ``since``, the house AI
    plays their seat to the end of the current game (at once when it is their turn); no later
    game is dealt to them (:func:`_open_absent_seats`)."""
    ctx = lock_table(table_id)
    target = ctx.seats[seat] if seat < len(ctx.seats) else None
    if target is None or target.away_since is None or target.away_since.isoformat() != since:
        return False
    if target.auto or ctx.table.status != Table.Status.IN_PROGRESS:
        return False  # a table back in the lobby (a seat opened) keeps a lobby's rules
    work = Work()
    target.auto = True
    target.save(update_fields=["auto"])
    table_changed(ctx, work)
    name = user_name(target.user) or f"Seat {seat + 1}"
    system_message(ctx, work, "seat_away", {"name": name, "seat": seat + 1})
    game = ctx.game
    if game is not None and game.status == Game.Status.RUNNING:
        engine = engine_of(game.engine)
        state = engine.state_from_json(game.state)
        if seat in engine.round_status(state).pending:
            action = absent_move(engine, state, seat)
            apply_action(
                ctx,
                work,
                seat=seat,
                action=action,
                actor=Action.Actor.TIMEOUT,
                reason="disconnected",
            )
    work.commit()
    return True
