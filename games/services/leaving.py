"""People who leave: seats of absent players open before the next deal, and ending a
session (by the host, or when nobody is left)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import transaction

from games import clock, extensions, realtime
from games.models import Game, Mode, Seat, Table
from games.services.lines import seat_names, system_message, table_changed
from games.services.play import is_absent
from games.services.seats import empty_seat
from games.services.sql import lock_table
from games.services.unit import (
    TableCtx,
    TableError,
    Work,
    engine_of,
    refresh_lobby_status,
    require_host,
    user_name,
)

if TYPE_CHECKING:
    from accounts.models import User


def open_absent_seats(ctx: TableCtx, work: Work) -> bool:
    """Before the next deal (the table is locked, its last game over): no game is dealt to a
    person who is absent. Their seats open and the table goes back to the lobby, keeping the
    session, so the host can seat someone and start the next game; when the host was one of
    them the first present person becomes host. When no person is left at a table that had
    people, the session ends. Returns True when nothing may be dealt now."""
    absent = [s for s in ctx.seats if is_absent(s)]
    if not absent or ctx.table.mode == Mode.TOURNAMENT:
        return False  # a tournament table keeps its seats: the house plays on (tournaments.md)
    present = [s for s in ctx.seats if s.kind == Seat.Kind.HUMAN and not s.auto]
    if not present:
        _end_session(ctx, work, reason="abandoned")
        return True
    group = realtime.table_group(ctx.table.pk)
    host_left = any(s.user_id == ctx.table.owner_id for s in absent)
    for seat in absent:
        user, name, index = seat.user, user_name(seat.user), seat.index
        empty_seat(seat)
        work.send(group, {"type": "player_left", "seat": index, "name": name, "reason": "left"})
        system_message(ctx, work, "seat_opened", {"name": name, "seat": index + 1})
        if user is not None:
            work.rebinds.append(realtime.user_group(ctx.table.pk, user.pk))
    if host_left:
        heir = present[0]
        assert heir.user is not None
        ctx.table.owner = heir.user
        ctx.table.save(update_fields=["owner"])
        system_message(ctx, work, "host_changed", {"name": user_name(heir.user)})
        # every socket re-reads its role (is_host) from a fresh snapshot
        work.rebinds.extend(
            realtime.user_group(ctx.table.pk, s.user_id) for s in present if s.user_id is not None
        )
    ctx.table.status = Table.Status.WAITING
    ctx.table.next_game_at = None
    ctx.table.save(update_fields=["next_game_at"])
    refresh_lobby_status(ctx)
    table_changed(ctx, work)
    return True


def _end_session(ctx: TableCtx, work: Work, *, reason: str) -> None:
    """End the table's session now (``reason``: ``host`` or ``abandoned``): a running game is
    aborted (not counted anywhere), the games played so far stand, the table is completed."""
    now = clock.now_datetime()
    game = ctx.game
    if game is not None and game.status == Game.Status.RUNNING:
        game.status = Game.Status.ABORTED
        game.ended_at = now
        game.save(update_fields=["status", "ended_at"])
        for hook in extensions.game_aborted_hooks():  # the bots app: tell external bots
            hook(game=game, table=ctx.table, reason=reason)
    table = ctx.table
    table.status = Table.Status.COMPLETED
    table.next_game_at = None
    table.starts_at = None
    group = realtime.table_group(table.pk)
    system_message(ctx, work, f"session_ended_{reason}", {})
    if table.session is not None:
        engine = engine_of(table.game)
        table.session = {**table.session, "finished": True, "ended": reason}
        summary = realtime.session_json(table.session, engine, games=table.games_total)
        names = seat_names(ctx)
        work.send(group, {"type": "session_ended", **summary, "names": names, "reason": reason})
        best = summary["ranking"][0] if summary["ranking"] and summary["played"] else None
        if best is not None:
            system_message(
                ctx, work, "session_over", {"name": names[best], "points": summary["totals"][best]}
            )
    table.save(update_fields=["session", "next_game_at", "starts_at"])
    table_changed(ctx, work)


@transaction.atomic
def table_end(*, table_id: int, user: User | None, sink: realtime.Sink | None = None) -> None:
    """Host: end the session now (the ``end_session`` frame), at any time before it is over.
    A running game is aborted; the table is completed as after its last game."""
    ctx = lock_table(table_id)
    require_host(ctx, user)
    if ctx.table.status == Table.Status.COMPLETED:
        raise TableError("bad_state", "the session is over")
    work = Work(sink=sink)
    _end_session(ctx, work, reason="host")
    work.commit()
