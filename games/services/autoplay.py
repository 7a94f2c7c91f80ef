"""Seats the server plays: house AIs, bots (through the bot-player extension point), away and
disqualified seats; strikes; the owner-only ``bot_record`` frames."""

from __future__ import annotations

import functools
import inspect
import logging
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import transaction

from games import clock, extensions, metrics, realtime
from games.models import Action, Game, Mode, Seat
from games.services.lines import system_message, table_changed
from games.services.play import absent_move, apply_action, is_absent
from games.services.runs import Run
from games.services.sql import game_seats, lock_table
from games.services.unit import (
    TASK_SEAT_AUTOPLAY,
    Frame,
    TableCtx,
    Work,
    autoplay_slice_seconds,
    engine_of,
)

if TYPE_CHECKING:
    from accounts.models import User

logger = logging.getLogger(__name__)


def bot_queue(game_id: int, *, tournament: bool = False, ladder: bool = False) -> str:
    """The shard queue of game ``game_id``'s bot turns (``bots.<n>``, ``bots.tournament`` for
    a tournament table's game; see :func:`games.realtime.bot_queue`): whoever sends work for
    that game's bot sandboxes (the bots app closing them at the end) sends it there."""
    return realtime.bot_queue(game_id, tournament=tournament, ladder=ladder)


def table_bot_queue(table: Any, game_id: int) -> str:
    """:func:`bot_queue` of ``game_id`` played at ``table`` (a tournament table's mode sends
    its server turns to ``bots.tournament``, a ladder table's to ``bots.ladder``)."""
    mode = getattr(table, "mode", None)
    return bot_queue(game_id, tournament=mode == Mode.TOURNAMENT, ladder=mode == Mode.LADDER)


def _queue_of_game(game_id: int) -> str:
    mode = Game.objects.filter(pk=game_id).values_list("table__options__mode", flat=True).first()
    return bot_queue(game_id, tournament=mode == Mode.TOURNAMENT, ladder=mode == Mode.LADDER)


def game_autoplay_turns(*, game_id: int, version: int, queue: str | None = None) -> bool:
    """The bot-turn task: :func:`game_autoplay`, then, while the next turn is again a seat the
    server plays and is due at once (no bot delay), that turn too, in this task, for up to
    :func:`autoplay_slice_seconds`; then the rest goes back to the queue.

    The turns after the first are played on the table as the previous one left it and stored
    together (:class:`games.services.runs.Run`: one transaction every
    ``GAMES_AUTOPLAY_STORE_SECONDS`` instead of one per move, each move still its own stored
    action, no frame sent before its move is stored), and a move's frames are sent while the
    next move is chosen (in order; all of them before the task ends: the run's units of work
    send with :func:`games.realtime.send_soon`, the task ends with
    :func:`games.realtime.flush`). With a bot delay (live tables with people, 0.8 s) every
    turn is its own task, as before. ``queue``: the queue the task came from
    (read from the game's table when not given). Returns whether the first turn was played."""
    if not realtime.is_bot_queue(queue):
        queue = _queue_of_game(game_id)
    assert queue is not None
    deadline = time.monotonic() + autoplay_slice_seconds()
    todo: list[list[Any]] = [[game_id, version]]
    first: bool | None = None
    known: TableCtx | None = None
    # the run's choices: a move's frames go out while the next move is chosen (all of them
    # before the task ends: ``flush``), and the next turn due at once is this task's to play
    mine = realtime.Handover(TASK_SEAT_AUTOPLAY, queue)
    run = Run(Work(sink=realtime.send_soon, handover=mine))
    try:
        try:
            while todo:
                args = todo.pop(0)
                try:
                    known = _autoplay_turn(
                        game_id=int(args[0]), version=int(args[1]), known=known, run=run
                    )
                finally:  # what a turn handed over before failing is not lost with it
                    todo.extend(mine.drain())
                first = known is not None if first is None else first
                over = time.monotonic() >= deadline
                if run.held and todo and not over and run.due():
                    run.store_later()  # stored while the next moves are chosen
                elif run.held and (not todo or over):
                    run.store()
                todo.extend(mine.drain())
                if run.dropped is not None:  # the table changed: start again from it
                    todo[:] = [[game_id, run.dropped]]
                    run.dropped, known = None, None
                if over:
                    break
        finally:  # the moves held when a turn failed are stored (theirs did not fail)
            try:
                if not run.store():
                    todo[:] = [[game_id, run.dropped]]
            finally:
                run.close()
                todo.extend(mine.drain())
    finally:  # what this task will not play (its slice is over, or it failed) goes back
        for args in todo:
            realtime.schedule(TASK_SEAT_AUTOPLAY, args, delay=0.0, queue=queue)
        realtime.flush()  # every frame of the run's moves is sent before the task ends
    return bool(first)


def game_autoplay(*, game_id: int, version: int) -> bool:
    """House AI, bot, away or disqualified seat to act (task, ``bots`` queue): choose the move
    outside the lock, then apply it if the game is still at ``version``.

    A bot seat's move comes from the bot player (:func:`games.extensions.bot_player`); a
    failure (timeout, exception, illegal or malformed return) is an auto-pass and a strike whose
    reason is stored with the move's owner-only record on :attr:`Action.bot_record`."""
    return _autoplay_turn(game_id=game_id, version=version) is not None


def _autoplay_turn(
    *, game_id: int, version: int, known: TableCtx | None = None, run: Run | None = None
) -> TableCtx | None:
    """:func:`game_autoplay`; returns the table as the move left it (None: nothing was
    played). ``known``: that of the turn this task just played; when it is this game at
    ``version`` the move is chosen from it instead of reading the game and seat again. With
    ``run``, a move on ``known`` is held in the run (stored with the next ones) when it needs
    nothing but its action and the game row; otherwise the run is stored first and the move
    applied under the lock, if the game is still at ``version``, as always."""
    game: Game | None
    seats: list[Seat] | None = None
    if known is not None and known.game is not None and known.game.pk == game_id:
        game = known.game
    else:  # the game and its seats in one statement (the bot player reads nothing more)
        read = game_seats(game_id)
        game, seats = read if read is not None else (None, None)
    if game is None or game.status != Game.Status.RUNNING or game.version != version:
        return None
    engine = engine_of(game.engine)
    state = engine.state_from_json(game.state)
    status = engine.round_status(state)
    if not status.pending:
        return None
    seat_index = status.pending[0]
    if known is not None and known.game is game:
        seat = known.seats[seat_index]
    else:
        seat = _seat_at(seats or [], seat_index)
    move: dict[str, Any] | None = None
    actor = Action.Actor.TIMEOUT
    strike: str | None = None
    record: dict[str, Any] | None = None
    if is_absent(seat):
        move = absent_move(engine, state, seat_index)
    elif seat.auto or seat.disqualified:
        move = engine.timeout_action(state, seat_index)
    elif seat.kind == Seat.Kind.HOUSE:
        move = _house_move(engine, state, seat_index, seat.house_level or "medium")
        actor = Action.Actor.HOUSE
    elif seat.kind == Seat.Kind.BOT:
        player = extensions.bot_player()
        if run is not None and extensions.needs_stored_game(player, seat) and not run.store():
            return None  # the moves before it could not be stored: the caller starts again
        try:
            move, actor, strike, record = _bot_move(player, seat, game, engine, state)
        except extensions.TurnSuperseded:
            return None  # another copy of this turn's task played it
    else:
        return None  # a human is back: their turn timer applies
    if seat.kind == Seat.Kind.BOT and not (seat.auto or seat.disqualified):
        record = _bot_record(record, move=move, strike=strike, seat=seat)
    if run is not None and known is not None and known.game is game:
        apply_move = functools.partial(
            _play_turn,
            seat_index=seat_index,
            move=move,
            actor=actor,
            strike=strike,
            bot_record=record,
            at=clock.now(),  # made now, whenever the run stores it
        )
        return _play_in_run(run, known, apply_move, held=strike is None)
    return _autoplay_apply(
        work=run.work.fresh() if run is not None else Work(),
        table_id=game.table_id,
        game_id=game_id,
        version=version,
        seat_index=seat_index,
        move=move,
        actor=actor,
        strike=strike,
        bot_record=record,
    )


def _seat_at(seats: list[Seat], index: int) -> Seat:
    """The seat ``index`` of ``seats`` (:func:`games.services.sql.game_seats`)."""
    for seat in seats:
        if seat.index == index:
            return seat
    raise Seat.DoesNotExist(f"no seat {index}")


@metrics.timed_bot_turn("bot")
def _bot_move(
    player: Any, seat: Seat, game: Game, engine: Any, state: Any
) -> tuple[dict[str, Any], Action.Actor, str | None, dict[str, Any] | None]:
    """A bot seat's turn: ``(move, actor, strike, record)``. The move is the one the bot
    player returned, as the engine gave it back; a failure (timeout, exception, illegal or
    malformed return) is the engine's timeout move with the strike's reason."""
    index = int(seat.index)
    record: dict[str, Any] | None = None
    try:
        chosen = dict(player(seat=seat, game=game, engine=engine, state=state))
        record = chosen.pop("bot_record", None)
        move = {**chosen, "seat": index}
        engine.check(state, move)
        return move, Action.Actor.BOT, None, record
    except extensions.TurnSuperseded:
        raise
    except Exception as exc:
        strike = str(getattr(exc, "code", None) or "exception")
        if isinstance(exc, ValueError) and not strike.startswith("illegal:"):
            strike = f"illegal:{strike}"  # the engine refused the returned move
        record = dict(getattr(exc, "record", None) or record or {})
        record.setdefault("error_message", str(exc))
        logger.info("bot move failed", extra={"seat": index, "error": strike})
        return dict(engine.timeout_action(state, index)), Action.Actor.TIMEOUT, strike, record


def _play_in_run(
    run: Run, known: TableCtx, apply_move: Callable[..., Any], *, held: bool
) -> TableCtx | None:
    """A move of a run of server turns on ``known``: held in the run when it may be (stored
    with the next moves), else stored now after the moves held before it, in one transaction.
    None: the table changed meanwhile, and the caller starts again from it."""
    if held and run.play(known, apply_move):
        return known
    if run.store(then=apply_move, ctx=known):
        return known
    return None


@metrics.timed_bot_turn("house")
def _house_move(engine: Any, state: Any, seat: int, level: str) -> dict[str, Any]:
    """The house AI's move: a searching level (one whose ``house_action`` takes ``budget_ms``,
    e.g. Tiến Lên's expert) thinks at most ``HOUSE_AI_BUDGET_MS`` milliseconds."""
    if "budget_ms" in inspect.signature(engine.house_action).parameters:
        budget = float(settings.HOUSE_AI_BUDGET_MS)
        return dict(engine.house_action(state, seat, level, budget_ms=budget))
    return dict(engine.house_action(state, seat, level))


def _bot_record(
    record: Mapping[str, Any] | None, *, move: Mapping[str, Any], strike: str | None, seat: Seat
) -> dict[str, Any]:
    """The stored per-move record of a bot seat: the move applied, the strike reason (None for
    a good move) and what the bot player reported (time used, console output, error)."""
    out = dict(record or {})
    out["move"] = {k: v for k, v in move.items() if k != "seat"}  # the action as the engine has it
    out["strike"] = strike
    out["bot_version_id"] = seat.bot_version_id
    return out


@transaction.atomic
def _autoplay_apply(
    *,
    work: Work,
    table_id: int,
    game_id: int,
    version: int,
    seat_index: int,
    move: Mapping[str, Any],
    actor: str,
    strike: str | None = None,
    bot_record: Mapping[str, Any] | None = None,
) -> TableCtx | None:
    """Apply the chosen move under the table lock if the game is still at ``version``, in
    ``work`` (empty; its choices are the caller's); returns the locked table as the move left
    it, None when the game moved on."""
    ctx = lock_table(table_id)
    game = ctx.game
    if game is None or game.pk != game_id or game.status != Game.Status.RUNNING:
        return None
    if game.version != version:
        return None
    _play_turn(
        ctx,
        work,
        seat_index=seat_index,
        move=move,
        actor=actor,
        strike=strike,
        bot_record=bot_record,
    )
    work.commit()
    return ctx


def _play_turn(
    ctx: TableCtx,
    work: Work,
    *,
    seat_index: int,
    move: Mapping[str, Any],
    actor: str,
    strike: str | None = None,
    bot_record: Mapping[str, Any] | None = None,
    at: float | None = None,
) -> None:
    """A server seat's chosen move on the table ``ctx`` (its game still at the version the
    move was chosen on): the strike it earns, the move (made at ``at``, default now), the
    owner's ``bot_record`` frame."""
    game = ctx.game
    assert game is not None
    seat = ctx.seats[seat_index]
    record = dict(bot_record) if bot_record is not None else None
    if strike is not None:
        work.needs_database("a strike")
        seat.strikes += 1
        if seat.strikes >= int(settings.GAMES_BOT_MAX_STRIKES):
            seat.disqualified = True
            seat.auto = True
            system_message(
                ctx,
                work,
                "bot_disqualified",
                {"seat": seat_index + 1, "strikes": seat.strikes, "reason": str(strike)},
            )
        seat.save(update_fields=["strikes", "disqualified", "auto"])
        table_changed(ctx, work)
        if record is not None:
            record["strikes"] = seat.strikes
            record["disqualified"] = seat.disqualified
    reason = "auto" if actor == Action.Actor.TIMEOUT else None
    if seat.kind == Seat.Kind.HUMAN and seat.away_since is not None:
        reason = "disconnected"
    clean = {k: v for k, v in move.items() if k != "seat"}  # the engine says what a move holds
    seq = apply_action(
        ctx,
        work,
        seat=seat_index,
        action=clean,
        actor=actor,
        reason=reason,
        bot_record=record,
        at=at,
    )
    if record is not None:
        _send_bot_record(ctx, work, game, seat, seq, record)


def _send_bot_record(
    ctx: TableCtx, work: Work, game: Game, seat: Seat, seq: int, record: Mapping[str, Any]
) -> None:
    """The ``bot_record`` frame, to the bot owner's sockets at this table only (their
    per-user group): opponents, spectators and other bots never receive it. The owner comes
    with the locked seat (:func:`lock_table` loads the version's bot and its owner)."""
    if seat.bot_version_id is None or seat.bot_version is None:
        return
    owner_id = seat.bot_version.bot.owner_id
    work.send(
        realtime.user_group(ctx.table.pk, int(owner_id)),
        realtime.bot_record_frame(
            game=game.number,
            seq=seq,
            seat=seat.index,
            bot_version_id=seat.bot_version_id,
            record=record,
        ),
    )


#: At most this many of a game's stored records are re-sent to a (re)connecting owner (the
#: table page's panel keeps as many).
BOT_RECORDS_RESENT = 200


def game_bot_records(*, table_id: int, user: User | None) -> list[Frame]:
    """The ``bot_record`` frames of ``user``'s bots' moves in the table's current (latest)
    game, oldest first (the last :data:`BOT_RECORDS_RESENT`): what the owner's socket missed
    before it connected. Only the owner of the version that made a move gets its record (read
    from the version rows, as for the live frame); anyone else, and anonymous users, get []."""
    if user is None or not user.is_authenticated:
        return []
    game = Game.objects.filter(table_id=table_id).order_by("-number").only("pk", "number").first()
    if game is None:
        return []
    rows = list(
        Action.objects.filter(game=game, bot_record__isnull=False)
        .order_by("-seq")
        .values_list("seq", "seat", "bot_record")
    )
    versions = {
        r["bot_version_id"]
        for _, _, r in rows
        if isinstance(r, dict) and isinstance(r.get("bot_version_id"), int)
    }
    if not versions:
        return []
    version_model: Any = Seat._meta.get_field("bot_version").related_model
    mine = set(
        version_model.objects.filter(pk__in=versions, bot__owner_id=user.pk).values_list(
            "pk", flat=True
        )
    )
    frames = [
        realtime.bot_record_frame(
            game=game.number, seq=seq, seat=seat, bot_version_id=r["bot_version_id"], record=r
        )
        for seq, seat, r in rows
        if isinstance(r, dict) and r.get("bot_version_id") in mine
    ][:BOT_RECORDS_RESENT]
    frames.reverse()
    return frames
