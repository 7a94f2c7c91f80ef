"""Presence: sockets connecting and closing, the disconnect hold and what follows it."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from django.db import transaction

from games import clock, realtime, seat_leases
from games.models import Action, Game, Seat, Table
from games.services.lines import system_message, table_changed
from games.services.play import absent_move, apply_action
from games.services.sql import lock_table
from games.services.timers import arm_countdown, arm_timers
from games.services.unit import (
    TASK_SEAT_HOLD,
    TableCtx,
    Work,
    engine_of,
    hold_seconds,
    user_name,
)

if TYPE_CHECKING:
    from accounts.models import User

logger = logging.getLogger(__name__)


@transaction.atomic
def table_presence(
    *,
    table_id: int,
    user: User | None,
    counted_seat: int | None,
    connected: bool,
    member: str = "",
    sink: realtime.Sink | None = None,
) -> int | None:
    """Keep a socket's presence right: ``counted_seat`` is the seat this socket was counted
    at (None: not counted). Returns the seat it is counted at now (None when disconnecting or
    not seated). Coming back clears an away/auto seat; the last socket of a seated player
    closing during a game starts the disconnect hold (seed §5.2). ``member`` (the socket's
    channel name; every consumer passes it) holds a lease on the seat while counted there
    (games/seat_leases.py): a socket whose process dies is uncounted by :func:`presence_heal`."""
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
        if member:
            _lease_release(table_id, counted_seat, user.pk, member)
        if old is not None and old.kind == Seat.Kind.HUMAN and old.user_id == user.pk:
            _seat_counted(ctx, work, old, user, max(0, old.connections - 1), running=running)
    if mine is not None:
        if member:  # the lease first: a recount under this lock never sees the count alone
            try:
                seat_leases.hold(table_id=table_id, seat=mine.index, user_id=user.pk, member=member)
            except Exception:  # Redis away: the socket's watchdog holds it at its next renewal
                logger.warning("seat lease failed", exc_info=True)
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
    # the version moved: a countdown to game 1 goes on (its end was scheduled for the old one)
    arm_countdown(ctx, work)
    work.commit()
    return new_seat


def _seat_counted(
    ctx: TableCtx, work: Work, seat: Seat, user: User, connections: int, *, running: bool
) -> None:
    """Store the seat's new socket count (lower than before); its last socket gone during a
    game starts the disconnect hold."""
    seat.connections = connections
    if connections == 0 and running:
        seat.away_since = clock.now_datetime()
        work.send(
            realtime.table_group(ctx.table.pk),
            {
                "type": "player_left",
                "seat": seat.index,
                "name": user.public_name,
                "reason": "disconnected",
            },
        )
        work.timer(
            TASK_SEAT_HOLD,
            [ctx.table.pk, seat.index, seat.away_since.isoformat()],
            hold_seconds(),
        )
    seat.save(update_fields=["connections", "away_since"])
    table_changed(ctx, work)


def _lease_release(table_id: int, seat: int, user_id: int, member: str) -> None:
    try:
        seat_leases.release(table_id=table_id, seat=seat, user_id=user_id, member=member)
    except Exception:  # Redis away: the lease lapses on its own
        logger.warning("seat lease release failed", exc_info=True)


def presence_heal() -> int:
    """Beat, every few seconds: uncount the sockets of processes that died (a web node killed
    with ``kill -9`` runs no disconnect). Every seat counted as connected whose live leases
    (games/seat_leases.py) are fewer than its count is recounted under its table's lock; one
    left with none is disconnected as if its last socket had closed (the disconnect hold
    starts during a game). Returns how many seats were recounted. Idempotent."""
    counted = list(
        Seat.objects.filter(kind=Seat.Kind.HUMAN, connections__gt=0, user__isnull=False)
        .values_list("table_id", "index", "user_id", "connections")
        .order_by("table_id", "index")
    )
    keys = [(t, i, u) for t, i, u, _n in counted]
    found = seat_leases.live(keys)
    fewer = [key for key, (*_k, n), alive in zip(keys, counted, found, strict=True) if alive < n]
    return sum(seat_presence_recount(table_id=t, seat=i, user_id=u) for t, i, u in fewer)


@transaction.atomic
def seat_presence_recount(*, table_id: int, seat: int, user_id: int) -> bool:
    """Count ``seat``'s sockets again from their live leases (under the table's lock); True
    when its count went down."""
    ctx = lock_table(table_id)
    target = ctx.seats[seat] if seat < len(ctx.seats) else None
    if target is None or target.kind != Seat.Kind.HUMAN or target.user_id != user_id:
        return False
    user = target.user
    assert user is not None  # a human seat with this user_id
    alive = seat_leases.live([(table_id, seat, user_id)])[0]
    if target.connections <= alive:
        return False
    work = Work()
    running = ctx.game is not None and ctx.table.status == Table.Status.IN_PROGRESS
    _seat_counted(ctx, work, target, user, alive, running=running)
    arm_countdown(ctx, work)
    work.commit()
    return True


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
