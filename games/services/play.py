"""The game itself: dealing, applying a move (frames, system lines, timers), finishing a game
(archive, session, announcements, the game-finished hooks), moves of players and timeouts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from django.db import transaction

from games import clock, deals, extensions, metrics, realtime, seeds
from games.engine.core.protocol import Event
from games.engine.core.protocol import Game as EngineGame
from games.models import (
    Action,
    Game,
    Mode,
    Seat,
    Table,
    game_table_options,
    is_rated,
    spectator_hands_live,
)
from games.quickplay.ratings import ratings_record
from games.services.lines import (
    game_line,
    lobby_message,
    seat_names,
    system_message,
    table_changed,
    table_send,
)
from games.services.sql import lock_table, save_move
from games.services.timers import arm_timeout, arm_timers, arm_turn_timeout, table_queue
from games.services.unit import (
    TASK_GAME_ARCHIVE,
    TASK_NEXT_GAME,
    Frame,
    TableCtx,
    TableError,
    Work,
    engine_of,
    next_game_seconds,
    number_setting,
)

if TYPE_CHECKING:
    from accounts.models import User


def is_absent(seat: Seat) -> bool:
    """A person's seat the house plays now: they sent ``leave_table``, or their last socket
    closed and the disconnect hold passed (a disqualified bot is not a person)."""
    return seat.kind == Seat.Kind.HUMAN and seat.auto and not seat.disqualified


def absent_move(engine: EngineGame, state: Any, seat: int) -> dict[str, Any]:
    """What the house AI plays for an absent person (``engine.house_action`` at medium
    strength), marked ``auto``."""
    return {**engine.house_action(state, seat, "medium"), "auto": True}


def _mark_absent(ctx: TableCtx, game: Game) -> None:
    """A game that ended while the house played a person's seat: the seat's entry in
    ``Game.players`` gets ``absent``: ``abandoned`` for the first such game of that person at
    this table (it counts, and is shown), ``absent`` for any later one (left out of their
    statistics)."""
    seats = [s for s in ctx.seats if is_absent(s)]
    if not seats or not isinstance(game.players, list):
        return
    players = [dict(p) if isinstance(p, dict) else p for p in game.players]
    for seat in seats:
        entry = players[seat.index] if seat.index < len(players) else None
        if not isinstance(entry, dict) or entry.get("user_id") != seat.user_id:
            continue
        earlier = (
            Game.objects.filter(
                table_id=ctx.table.pk,
                number__gte=ctx.table.session_first_game,  # this session's (a rematch's own)
                players__contains=[{"user_id": seat.user_id, "absent": "abandoned"}],
            )
            .exclude(pk=game.pk)
            .exists()
        )
        entry["absent"] = "absent" if earlier else "abandoned"
    game.players = players


# --------------------------------------------------------------------------- the game
def _session(ctx: TableCtx, engine: EngineGame) -> dict[str, Any]:
    if ctx.table.session is None:
        opts = ctx.table.options
        ctx.table.session = engine.session_start(
            ctx.table.seat_count,
            int(opts.get("session_length", 16)),
            {  # the game's own table options (models.game_table_options) and the turn time
                **{k: opts.get(k, v) for k, v in game_table_options(engine.name).items()},
                "turn_seconds": int(opts.get("turn_seconds", 30)),
            },
        )
    return dict(ctx.table.session)


def _audiences(ctx: TableCtx) -> list[tuple[str, int | None]]:
    """(group, seat or None for spectators) for every audience of a game frame."""
    table_id = ctx.table.pk
    out: list[tuple[str, int | None]] = [
        (realtime.seat_group(table_id, s.index), s.index)
        for s in ctx.seats
        if s.kind == Seat.Kind.HUMAN
    ]
    out.append((realtime.spectators_group(table_id), None))
    return out


def _views(
    engine: EngineGame, state: Any, seats: list[int | None], access: str, *, finished: bool
) -> list[Any]:
    """The state each audience's game frame carries (``engine.views``: the public parts
    computed once); the spectators' (None) is not computed when their frame will not carry it
    (``deals.spectator_frame`` replaces it with null while the deal is held back)."""
    hidden = access == deals.SPECTATOR_HIDDEN or (access == deals.SPECTATOR_NO_REVEAL and finished)
    wanted = [s for s in seats if not (hidden and s is None)]
    computed = iter(engine.views(state, wanted))
    return [None if hidden and s is None else next(computed) for s in seats]


def _events_for(events: Sequence[Event], seat: int | None) -> list[Frame]:
    return [e.to_json() for e in events if e.to is None or (seat is not None and e.to == seat)]


def _send_all_hands(ctx: TableCtx, work: Work, engine: EngineGame, state: Any, access: str) -> None:
    """Every hand, for the spectators who chose to see them, at a casual table whose host
    allows it (``spectator_hands: live``; never at a rated table, nor while the deal is held
    back from spectators): the ``hands`` audience (docs/protocol.md)."""
    game = ctx.game
    if game is None or access != deals.SPECTATOR_FULL or not spectator_hands_live(ctx.table):
        return
    work.send(
        realtime.hands_group(ctx.table.pk),
        realtime.all_hands_frame(engine, game, state, ctx.table.seat_count),
    )


def _duplicate_deal(
    ctx: TableCtx, engine: EngineGame, config: dict[str, Any], number: int
) -> int | None:
    """Arena sessions are dealt in duplicate sets (issue #16): with ``n`` seats, games
    ``k·n+1 … k·n+n`` replay the deal of the set's first game, rotated by one seat per game
    (``engine.duplicate_config``: seat ``s`` of rotation ``r`` gets the hand seat ``s+r`` was
    dealt, and who leads follows the hands), so each player holds each hand of the deal exactly
    once per set, in the same position. ``config`` becomes the duplicate's config and the set's
    seed is returned; None (a seed of its own, the session's own config) for the first game of
    a set, a table that is not an arena, or an engine without fixed deals."""
    if ctx.table.mode != Mode.ARENA.value:
        return None
    first, rotation = seeds.duplicate_set(number, ctx.table.seat_count)
    if rotation == 0:
        return None
    lead = Game.objects.filter(table=ctx.table, number=first).values_list("seed", "config").first()
    if lead is None:
        return None
    seed, lead_config = int(lead[0]), dict(lead[1] or {})
    duplicate = engine.duplicate_config(
        {k: v for k, v in lead_config.items() if k != "started_at"}, seed, rotation
    )
    if duplicate is None:
        return None
    started_at = config.get("started_at")
    config.clear()
    config.update(duplicate)
    if started_at is not None:
        config["started_at"] = started_at
    return seed


def deal_next(ctx: TableCtx, work: Work) -> None:
    """Deal the session's next game (the table is locked and in progress)."""
    engine = engine_of(ctx.table.game)
    session = _session(ctx, engine)
    config = dict(engine.session_next_config(session))
    now = clock.now()
    config["started_at"] = now
    number = (ctx.game.number + 1) if ctx.game is not None else 1
    # the table keeps counting its games; a rematch's session starts at session_first_game
    position = number - int(ctx.table.session_first_game) + 1
    seed = _duplicate_deal(ctx, engine, config, number)
    if seed is None:
        seed = seeds.game_seed(ctx.table, number)  # a tournament round's duplicate deal, or new
    state = engine.new_game(config, seed)
    game = Game.objects.create(
        table=ctx.table,
        number=number,
        session_position=position,
        engine=engine.name,
        rules_version=engine.rules_version,
        seed=seed,
        config=config,
        state=engine.state_to_json(state),
        players=[realtime.player_snapshot(s) for s in ctx.seats],
    )
    ctx.game = game
    ctx.table.next_game_at = None
    ctx.table.save(update_fields=["session", "next_game_at", "status"])
    events = engine.initial_events(state)
    games_total = ctx.table.games_total
    game.table = ctx.table
    access = deals.spectator_access(game)
    over = engine.result(state) is not None
    audiences = _audiences(ctx)
    seen = _views(engine, state, [seat for _group, seat in audiences], access, finished=over)
    for (group, seat), seen_state in zip(audiences, seen, strict=True):
        frame: Frame = {
            "type": "game_started",
            "game": number,
            "position": position,
            "games": games_total,
            "version": 0,
            "state": seen_state,
            "events": _events_for(events, seat),
        }
        if seat is None:  # deal secrecy: docs/history.md "Live spectators"
            frame = deals.spectator_frame(frame, access, finished=over)
        work.send(group, frame)
    _send_all_hands(ctx, work, engine, state, access)
    system_message(ctx, work, "game_dealt", {"game": position, "games": games_total})
    table_changed(ctx, work)
    if engine.result(state) is not None:
        _finish(ctx, work, engine, state)
        game.save()
        return
    for hook in extensions.game_dealt_hooks():  # the bots app: start the bots' sandboxes
        hook(game=game, table=ctx.table, seats=ctx.seats)
    _notify(ctx, work, engine, state)
    arm_timers(ctx, work, state=state, save=False)
    game.save(update_fields=["notified"])


def _notify(ctx: TableCtx, work: Work, engine: EngineGame, state: Any) -> None:
    """Seed 004 notification state: each pending human is sent ``your_turn`` exactly once per
    turn (the game version); the map is persisted on the game row by the caller's save."""
    game = ctx.game
    assert game is not None
    status = engine.round_status(state)
    notified = game.notified if game.notified.get("version") == game.version else {}
    seats_notified: dict[str, str] = dict(notified.get("seats", {}))
    for seat_index in status.pending:
        seat = ctx.seats[seat_index]
        if seat.kind != Seat.Kind.HUMAN or seat.auto or str(seat_index) in seats_notified:
            continue
        seats_notified[str(seat_index)] = clock.now_datetime().isoformat()
        work.send(
            realtime.seat_group(ctx.table.pk, seat_index),
            realtime.your_turn_frame(engine, game, state, seat_index),
        )
    game.notified = {
        "version": game.version,
        "round": status.round_index,
        "seats": seats_notified,
        **({"timer": game.notified["timer"]} if "timer" in game.notified else {}),
    }


def _finish(ctx: TableCtx, work: Work, engine: EngineGame, state: Any) -> None:
    """Archive a finished game, record it in the session, announce it, schedule what's next."""
    game = ctx.game
    assert game is not None
    result = engine.result(state)
    assert result is not None
    game.status = Game.Status.FINISHED
    game.ended_at = clock.now_datetime()
    game.result = result
    game.scores = list(result.get("scores") or [])
    game.winner_seat = result.get("winner")
    stats = engine.end_stats(state)
    game.total_rounds = stats["rounds"]
    game.game_log = engine.record(state)
    _mark_absent(ctx, game)
    session = engine.session_record(_session(ctx, engine), result)
    ctx.table.session = session
    summary = realtime.session_json(session, engine, games=ctx.table.games_total)
    names = seat_names(ctx)
    group = realtime.table_group(ctx.table.pk)
    game.table = ctx.table
    access = deals.spectator_access(game)
    secret = access != deals.SPECTATOR_FULL  # the result's lines: no hand for spectators
    ended: Frame = {
        "type": "game_ended",
        "game": game.number,
        "result": result,
        "stats": stats,
        "session": summary,
    }
    table_send(ctx, work, ended, deals.spectator_frame(ended, access))
    # the spectators of the deal's other tables sync again (a fresh snapshot): when this game
    # closes the deal, they get the cards back (docs/protocol.md "Deal secrecy")
    work.rebinds.extend(
        realtime.spectators_group(table)
        for table in sorted({t for t, _ in deals.deal_slots_changed(game)})
    )
    winner = result.get("winner")
    winner_name = names[winner] if isinstance(winner, int) and winner < len(names) else "?"
    shown = (result.get("shown") or {}).get(str(winner))  # a showdown game: the winning hand
    own = game_line(engine, "result", result, names)  # the game's own words, if any
    if own is not None:
        code, params, text = own
        system_message(
            ctx,
            work,
            code,
            {**params, "game": game.position},
            f"Game {game.position}: {text}",
            secret=secret,
        )
    elif result.get("instant_win"):
        system_message(
            ctx,
            work,
            "game_won_instant",
            {"name": winner_name, "game": game.position, "instant": str(result["instant_win"])},
            secret=secret,
        )
    elif isinstance(shown, dict) and shown.get("hand"):
        hand = str(shown["hand"])
        system_message(
            ctx,
            work,
            "game_won_hand",
            {"name": winner_name, "game": game.position, "hand": hand},
            realtime.system_text(
                "game_won_hand",
                {"name": winner_name, "game": game.position, "hand": hand.replace("_", " ")},
            ),
            secret=secret,
        )
    else:
        system_message(ctx, work, "game_won", {"name": winner_name, "game": game.position})
    if (
        not summary["finished"]
        and ctx.table.mode == Mode.LADDER
        and summary["played"] >= ctx.table.games_total
    ):  # a ladder table plays its round's games (one) and is done: the bot ladder records it
        session = {**session, "finished": True}
        ctx.table.session = session
        summary["finished"] = True
    if summary["finished"]:
        ctx.table.status = Table.Status.COMPLETED
        ctx.table.next_game_at = None
        work.send(group, {"type": "session_ended", **summary, "names": names})
        best = summary["ranking"][0] if summary["ranking"] else None
        if best is not None:
            system_message(
                ctx,
                work,
                "session_over",
                {"name": names[best], "points": summary["totals"][best]},
            )
            if ctx.table.visibility == Table.Visibility.PUBLIC:
                lobby_message(
                    work,
                    "lobby_session_won",
                    {"name": names[best], "table": ctx.table.name, "code": ctx.table.code},
                )
    else:
        delay = next_game_seconds()
        if ctx.table.mode == Mode.ARENA:  # nobody deals an arena table: games follow quickly
            delay = number_setting("GAMES_ARENA_NEXT_GAME_SECONDS")
        ctx.table.next_game_at = clock.now_datetime() + timedelta(seconds=delay)
        work.timer(TASK_NEXT_GAME, [ctx.table.pk, game.number], delay)
    ctx.table.save(update_fields=["session", "status", "next_game_at"])
    table_changed(ctx, work)
    # games.history.game_archive, on commit; a ladder game's on the ladder's own worker (nice
    # 15), so archiving the ladder's games never takes the default worker from live tables
    work.timer(TASK_GAME_ARCHIVE, [game.pk], 0, table_queue(ctx.table))
    for hook in extensions.game_finished_hooks():  # the bots app: close sandboxes, rate games
        hook(game=game, table=ctx.table)
    if is_rated(ctx.table):  # people's per-game ratings (docs/quickplay.md)
        ratings_record(game=game, table=ctx.table)


def apply_action(
    ctx: TableCtx,
    work: Work,
    *,
    seat: int,
    action: Mapping[str, Any],
    actor: str,
    reason: str | None = None,
    bot_record: Mapping[str, Any] | None = None,
    at: float | None = None,
) -> int:
    """Apply one action to the locked running game; append it, save, queue frames/timers.
    ``bot_record``: a bot seat's owner-only move record, stored on the action row. ``at``:
    when the move was made (default now; a run of server turns passes the time it played the
    move, which it may store a few milliseconds later, games/services/runs.py)."""
    game = ctx.game
    assert game is not None
    engine = engine_of(game.engine)
    state = engine.state_from_json(game.state)
    if at is None:
        at = clock.now()
        if work.timed_at is None:  # the timers this move asks for count from when it was made
            work.timed_at = at
    payload = {**action, "seat": seat, "at": at}
    state, events = engine.apply(state, payload)
    game.version += 1
    metrics.move_applied(actor)
    row = Action(
        game=game, seq=game.version, seat=seat, payload=payload, actor=actor, bot_record=bot_record
    )
    game.state = engine.state_to_json(state)
    game.table = ctx.table
    over = engine.result(state) is not None
    if over:  # stored with its game's end, under the lock
        work.needs_database("the end of the game")
    access = _spectator_access(game, work)
    if reason is not None:
        shown = engine.public_action(payload)
        timeout: Frame = {
            "type": "turn_timeout",
            "game": game.number,
            "version": game.version,
            "seat": seat,
            "action": shown,
            "reason": reason,
        }
        table_send(ctx, work, timeout, deals.spectator_frame(timeout, access))
    audiences = _audiences(ctx)
    seen = _views(engine, state, [seat for _group, seat in audiences], access, finished=over)
    for (group, audience), seen_state in zip(audiences, seen, strict=True):
        frame: Frame = {
            "type": "game_state_update",
            "game": game.number,
            "version": game.version,
            "events": _events_for(events, audience),
            "state": seen_state,
        }
        if audience is None:
            frame = deals.spectator_frame(frame, access, finished=over)
        work.send(group, frame)
    _send_all_hands(ctx, work, engine, state, access)
    names: list[str | None] | None = None
    for event in events:
        if event.to is None:  # a public event the game may put in words (a cut, a round won)
            names = seat_names(ctx) if names is None else names
            own = game_line(engine, event.type, event.data, names)
            if own is not None:
                system_message(ctx, work, *own, secret=access == deals.SPECTATOR_HIDDEN)
    if engine.result(state) is not None:
        row.save()
        _finish(ctx, work, engine, state)
        game.save()
    else:
        _notify(ctx, work, engine, state)
        arm_timers(ctx, work, state=state, save=False)
        save_move(game, row, held=work.held)
    return game.version


def _spectator_access(game: Game, work: Work) -> str:
    """What the spectators may see of this deal: a held move reads what this process last
    computed, or needs the database (``games.deals.known_spectator_access``)."""
    if work.held is None:
        return deals.spectator_access(game)
    known = deals.known_spectator_access(game)
    if known is None:
        work.needs_database("the deal's secrecy")
    return str(known)


def _running_game(ctx: TableCtx) -> Game:
    if ctx.game is None or ctx.game.status != Game.Status.RUNNING:
        raise TableError("no_game", "no game is running")
    return ctx.game


@metrics.timed_move
@transaction.atomic
def game_play(
    *,
    table_id: int,
    user: User | None,
    version: int,
    action: Mapping[str, Any],
    sink: realtime.Sink | None = None,
) -> int:
    """A player's move: any engine action, e.g. ``{"type": "play", "cards": [...]}``,
    ``{"type": "pass"}`` or ``{"type": "call"}``. Its fields pass through to the engine, which
    validates them; ``seat``, ``at`` and ``auto`` are the server's to set.

    ``version`` is the game version the client saw; a different one raises ``stale_version``
    (with the current ``version``) and changes nothing. Engine rejections keep their codes.
    Returns the new game version."""
    ctx = lock_table(table_id)
    mine = ctx.seat_of(user)
    if mine is None:
        raise TableError("not_seated", "you do not sit at this table")
    game = _running_game(ctx)
    if version != game.version:
        raise TableError("stale_version", "the game has moved on", version=game.version)
    work = Work(sink=sink)
    move = {k: v for k, v in action.items() if k not in ("seat", "at", "auto")}
    new_version = apply_action(ctx, work, seat=mine.index, action=move, actor=Action.Actor.HUMAN)
    if mine.auto and not mine.disqualified:  # playing yourself means you are back
        mine.auto = False
        mine.away_since = None
        mine.save(update_fields=["auto", "away_since"])
        table_changed(ctx, work)
    work.commit()
    return new_version


@transaction.atomic
def game_timeout(*, game_id: int, version: int) -> bool:
    """Turn timer (task): if the game is still at ``version`` and the deadline passed, the
    pending seat acts with the engine's ``timeout_action``. Late or duplicate timers: False."""
    table_id = Game.objects.filter(pk=game_id).values_list("table_id", flat=True).first()
    if table_id is None:
        return False
    ctx = lock_table(table_id)
    game = ctx.game
    if game is None or game.pk != game_id or game.status != Game.Status.RUNNING:
        return False
    armed = game.notified.get("timer")
    chained = armed is not None and armed.get("version") == version
    engine = engine_of(game.engine)
    state = engine.state_from_json(game.state)
    status = engine.round_status(state)
    work = Work()
    if chained:  # this is the game's armed timer and it has fired: forget it
        game.notified = {k: v for k, v in game.notified.items() if k != "timer"}
    if game.version != version or not status.pending:
        if chained:  # the game moved on while it waited: re-arm for the current turn
            arm_turn_timeout(ctx, work, status, save=False)
            game.save(update_fields=["notified"])
            work.commit()
        return False
    if status.check_at is not None and status.check_at > clock.now() + 0.25:
        arm_timeout(game, work, status.check_at, clock.now())
        game.save(update_fields=["notified"])
        work.commit()
        return False
    seat = status.pending[0]
    action = engine.timeout_action(state, seat)
    apply_action(ctx, work, seat=seat, action=action, actor=Action.Actor.TIMEOUT, reason="timeout")
    work.commit()
    return True
