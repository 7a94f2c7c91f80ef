"""Timers of a live table: the pending turn's bot move or turn timeout (one timer chain per
game), and re-arming them after a restart or when beat finds one overdue."""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.db.models import Exists, FloatField, OuterRef, Q, Subquery
from django.db.models.fields.json import KT
from django.db.models.functions import Cast, Coalesce

from games import clock, extensions, realtime
from games.models import Action, Game, Mode, Seat, Table
from games.services.sql import lock_table
from games.services.unit import (
    TASK_NEXT_GAME,
    TASK_REMATCH_DEADLINE,
    TASK_SEAT_AUTOPLAY,
    TASK_TABLE_BEGIN,
    TASK_TURN_TIMEOUT,
    TableCtx,
    Work,
    bot_delay,
    engine_of,
    number_setting,
)

logger = logging.getLogger(__name__)


def table_queue(table: Table) -> str:
    """The queue of a table's own tasks (its deal, its games' archive): ``default``, or for a
    ladder table the ladder's own (``bots.ladder``, worker-ladder at nice 15), so the ladder
    takes nothing from the worker that runs people's tables' timers (docs/bot-ladder.md).

    >>> table_queue(Table(options={"mode": "ladder"})), table_queue(Table(options={}))
    ('bots.ladder', 'default')
    """
    return realtime.LADDER_QUEUE if table.mode == Mode.LADDER else "default"


def arm_timers(
    ctx: TableCtx, work: Work, *, state: Any = None, force: bool = False, save: bool = True
) -> None:
    """Schedule what the pending turn needs: a bot/auto move, or the human's turn timeout.

    Turn timeouts form **one chain per game** instead of one Celery task per move: the game
    row remembers the armed timer (``notified["timer"] = {"version", "at"}``). While that
    timer fires no later than the new deadline nothing is scheduled (deadlines only move
    later as the game goes on); when it fires on a game that moved on, :func:`game_timeout`
    re-arms it for the current turn. ``force`` (after a restart) schedules anyway. ``save``
    writes the record (callers that save the game row themselves pass False)."""
    game = ctx.game
    if game is None or game.status != Game.Status.RUNNING:
        return
    engine = engine_of(game.engine)
    if state is None:
        state = engine.state_from_json(game.state)
    status = engine.round_status(state)
    for seat_index in status.pending:
        seat = ctx.seats[seat_index]
        if seat.kind != Seat.Kind.HUMAN or seat.auto or seat.disqualified:
            # the game's shard queue (a tournament table's: bots.tournament): all its bot
            # turns run in one worker process
            work.timer(
                TASK_SEAT_AUTOPLAY,
                [game.pk, game.version],
                bot_delay(),
                realtime.bot_queue(
                    game.pk,
                    tournament=ctx.table.mode == Mode.TOURNAMENT,
                    ladder=ctx.table.mode == Mode.LADDER,
                ),
            )
    arm_turn_timeout(ctx, work, status, force=force, save=save)


def arm_turn_timeout(
    ctx: TableCtx, work: Work, status: Any, *, force: bool = False, save: bool = True
) -> None:
    """The human part of :func:`arm_timers`: keep one turn timer armed no later than the
    pending human's deadline."""
    game = ctx.game
    assert game is not None
    humans = [
        i
        for i in status.pending
        if ctx.seats[i].kind == Seat.Kind.HUMAN
        and not ctx.seats[i].auto
        and not ctx.seats[i].disqualified
    ]
    if not humans or status.check_at is None:
        return
    armed = game.notified.get("timer")
    if not force and armed is not None and float(armed["at"]) <= status.check_at:
        return  # the armed timer fires first and re-arms for this turn
    arm_timeout(game, work, status.check_at, clock.now())
    if save:
        game.save(update_fields=["notified"])


def arm_timeout(game: Game, work: Work, at: float, now: float) -> None:
    """Schedule the turn timeout of ``game`` at its current version for ``at`` and remember
    it on the row (saved by the caller)."""
    work.timer(TASK_TURN_TIMEOUT, [game.pk, game.version], at - now)
    game.notified = {**game.notified, "timer": {"version": game.version, "at": at}}


def arm_countdown(ctx: TableCtx, work: Work) -> None:
    """Schedule the end of the table's countdown to game 1 for the table's version now, if a
    countdown runs. The end checks the version it was scheduled for, so a change that keeps
    the countdown going (a seated player's socket connecting or closing bumps the version to
    announce it) arms it again; a lobby change that stops the countdown clears ``starts_at``
    or the Ready status, and nothing is armed."""
    table = ctx.table
    if table.status == Table.Status.READY and table.starts_at is not None:
        delay = (table.starts_at - clock.now_datetime()).total_seconds()
        work.timer(TASK_TABLE_BEGIN, [table.pk, table.version], delay, table_queue(table))


@transaction.atomic
def timers_rearm(*, table_id: int, sink: realtime.Sink | None = None) -> None:
    """Schedule every timer a table needs now (a deadline already passed fires at once):
    the pending turn, a countdown, the automatic next game, a rematch offer's deadline.
    Duplicates are harmless: every task checks the version (or offer) it was scheduled for."""
    ctx = lock_table(table_id)
    work = Work(sink=sink)
    now = clock.now_datetime()
    table = ctx.table
    if table.status == Table.Status.READY and table.starts_at is not None:
        arm_countdown(ctx, work)
    elif table.status == Table.Status.IN_PROGRESS and ctx.game is not None:
        if ctx.game.status == Game.Status.RUNNING:
            arm_timers(ctx, work, force=True)
        else:
            at = table.next_game_at or now
            work.timer(TASK_NEXT_GAME, [table.pk, ctx.game.number], (at - now).total_seconds())
    elif table.status == Table.Status.COMPLETED and isinstance(table.rematch, dict):
        delay = float(table.rematch["deadline"]) - clock.now()
        work.timer(TASK_REMATCH_DEADLINE, [table.pk, table.rematch["id"]], delay)
    work.commit()


def timers_grace_seconds() -> float:
    """How late a timer may be before beat re-arms it (``GAMES_TIMERS_GRACE_SECONDS``)."""
    return number_setting("GAMES_TIMERS_GRACE_SECONDS")


def timers_resume(*, overdue_by: float | None = None) -> int:
    """Re-arm the timers of live tables; returns how many tables were re-armed.

    ``overdue_by=None`` (``manage.py games_resume_timers``): every live table. A number (beat's
    ``games.timers_heal``, every few seconds): only tables where something should have happened
    more than ``overdue_by`` seconds ago and did not, because the process that held its timer
    died: a turn timer that never fired (``notified["timer"]["at"]``), a countdown, a next game,
    a rematch offer's deadline, or the pending turn of a house AI, bot or auto seat (due
    ``GAMES_BOT_DELAY_SECONDS`` after the last action, plus ``BOTS_MOVE_TIMEOUT_SECONDS`` for
    the move itself). Re-arming is
    idempotent: every task checks the version it was scheduled for, so a timer that was only
    late makes the copy do nothing."""
    if overdue_by is None:
        ids = set(
            Table.objects.filter(
                Q(status__in=(Table.Status.READY, Table.Status.IN_PROGRESS))
                | Q(status=Table.Status.COMPLETED, rematch__isnull=False)
            ).values_list("pk", flat=True)
        )
    else:
        ids = _overdue_tables(overdue_by)
    for table_id in sorted(ids):
        timers_rearm(table_id=table_id)
    return len(ids)


def versions_announce_seconds() -> float:
    """How long after a table's last move beat keeps announcing its version
    (``GAMES_ANNOUNCE_SECONDS``)."""
    return number_setting("GAMES_ANNOUNCE_SECONDS")


def versions_announce(*, within: float | None = None, sink: realtime.Sink | None = None) -> int:
    """Send every table whose game moved (or was dealt, or ended) in the last ``within``
    seconds (default ``GAMES_ANNOUNCE_SECONDS``) one ``game_version`` frame with its game's
    number and current version; returns how many tables.

    A move's frames go out after its commit (``transaction.on_commit``): the process that
    committed it (a worker playing a house AI, bot or turn timeout, daphne) may die between the
    two, and the table's sockets would never hear of the move: a person whose turn it became
    would wait for the turn timer. Beat runs this with ``games.timers_heal`` (every 5 s): a
    client behind the announced version sends ``sync`` and gets the ``snapshot`` (with its
    ``your_turn``), as on any version gap; a client up to date ignores it (docs/protocol.md).
    No cost per move: one query and one frame per recently active table per heal. Then the
    :func:`games.extensions.on_versions_announced` hooks get the announced games (the bots
    app: an external bot waiting for a turn whose frame or task was lost, docs/bot-api.md)."""
    seconds = versions_announce_seconds() if within is None else within
    since = clock.now() - seconds
    last_at = (
        Action.objects.filter(game=OuterRef("pk"))
        .order_by("-seq")
        .annotate(at=Cast(KT("payload__at"), FloatField()))
        .values("at")[:1]
    )
    recent = Game.objects.filter(
        Q(status=Game.Status.RUNNING, table__status=Table.Status.IN_PROGRESS)
        | Q(
            status=Game.Status.FINISHED,
            ended_at__gte=clock.now_datetime() - timedelta(seconds=seconds),
        )
    ).annotate(
        last_at=Coalesce(
            Subquery(last_at, output_field=FloatField()),
            Cast(KT("config__started_at"), FloatField()),
        )
    )
    rows = recent.filter(last_at__gte=since).values_list(
        "table_id", "pk", "number", "version", "status", "last_at"
    )
    games = [
        extensions.AnnouncedGame(table, pk, n, v, status == Game.Status.RUNNING, float(at))
        for table, pk, n, v, status, at in rows.order_by("table_id")
    ]
    frames = [
        (
            realtime.table_group(g.table_id),
            {"type": "game_version", "game": g.number, "version": g.version},
        )
        for g in games
    ]
    realtime.broadcast(frames, sink)
    for hook in extensions.versions_announced_hooks():
        # the external bots' sockets (bots app): their turns, not a snapshot to sync
        try:
            hook(games=games)
        except Exception:  # the tables' own announce went out; the next heal tries again
            logger.exception("a versions-announced hook failed")
    return len(frames)


def timers_rearm_queue(queue: str) -> int:
    """Re-arm the timers of every live table whose running game's bot turns go to ``queue``
    (``bots.<n>``, :func:`games.realtime.bot_queue`), and of every table of it between two
    games of its session (its last game's turns went there); returns how many tables.

    Called by a bot worker that has just taken a shard over (config/shards.py,
    docs/bot-affinity.md): the turn its dead owner had taken from the queue is lost with it,
    and this schedules it again at once instead of waiting for beat's ``games.timers_heal``
    (which needs the turn to be overdue by a bot's whole move time first). The next deal of a
    table between games (``next_game_at``, a task of the ``default`` queue that the dead node's
    worker may have held until due) is scheduled again for its time too: beat would find it
    only once overdue by its grace, at a heal up to 5 s later (and after its own lock's
    takeover when beat died on the same node). Idempotent, as :func:`timers_rearm` is."""
    from games.services.autoplay import table_bot_queue

    running = (
        Game.objects.filter(status=Game.Status.RUNNING, table__status=Table.Status.IN_PROGRESS)
        .select_related("table")
        .only("pk", "table__id", "table__options")
    )
    ids = {g.table_id for g in running if table_bot_queue(g.table, g.pk) == queue}
    last_game = Game.objects.filter(table=OuterRef("pk")).order_by("-number").values("pk")[:1]
    between = (
        Table.objects.filter(status=Table.Status.IN_PROGRESS, next_game_at__isnull=False)
        .annotate(last_game=Subquery(last_game))
        .only("pk", "options")
    )
    ids.update(
        t.pk
        for t in between
        if t.last_game is not None and table_bot_queue(t, t.last_game) == queue
    )
    for table_id in sorted(ids):
        timers_rearm(table_id=table_id)
    return len(ids)


def _overdue_tables(grace: float) -> set[int]:
    """Live tables with a timer overdue by more than ``grace`` seconds (see timers_resume)."""
    now = clock.now()
    cutoff = clock.now_datetime() - timedelta(seconds=grace)
    ids: set[int] = set()
    ids.update(
        Table.objects.filter(status=Table.Status.READY, starts_at__lt=cutoff).values_list(
            "pk", flat=True
        )
    )
    ids.update(
        Table.objects.filter(status=Table.Status.IN_PROGRESS, next_game_at__lt=cutoff).values_list(
            "pk", flat=True
        )
    )
    ids.update(  # a rematch offer whose deadline passed unsettled
        Table.objects.filter(
            status=Table.Status.COMPLETED, rematch__deadline__lt=now - grace
        ).values_list("pk", flat=True)
    )
    running = Game.objects.filter(
        status=Game.Status.RUNNING, table__status=Table.Status.IN_PROGRESS
    )
    ids.update(
        running.filter(notified__timer__at__lt=now - grace).values_list("table_id", flat=True)
    )
    # automatic turns: games idle for longer than a bot turn takes, at tables with such a seat
    automatic = Seat.objects.filter(table=OuterRef("table_id")).filter(
        Q(kind__in=(Seat.Kind.BOT, Seat.Kind.HOUSE)) | Q(auto=True) | Q(disqualified=True)
    )
    last_at = (
        Action.objects.filter(game=OuterRef("pk"))
        .order_by("-seq")
        .annotate(at=Cast(KT("payload__at"), FloatField()))
        .values("at")[:1]
    )
    idle = now - grace - bot_delay() - number_setting("BOTS_MOVE_TIMEOUT_SECONDS")
    stalled = (
        running.filter(Exists(automatic))
        .annotate(
            last_at=Coalesce(
                Subquery(last_at, output_field=FloatField()),
                Cast(KT("config__started_at"), FloatField()),
            )
        )
        .filter(last_at__lt=idle)
        .exclude(table_id__in=ids)
    )
    for game in stalled.select_related("table").only("pk", "engine", "state", "table_id"):
        engine = engine_of(game.engine)
        pending = engine.round_status(engine.state_from_json(game.state)).pending
        seats = {s.index: s for s in Seat.objects.filter(table_id=game.table_id, index__in=pending)}
        if any(s.kind != Seat.Kind.HUMAN or s.auto or s.disqualified for s in seats.values()):
            ids.add(game.table_id)
    return ids
