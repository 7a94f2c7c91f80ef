"""External bots: creating them, playing their seats at live tables, their sockets' frames.

Server → bot frames (docs/bot-api.md): ``hello``, ``game_start``, ``turn``, ``game_end``,
``error``; bot → server: ``move``. Every frame a bot receives is built here, from the seat's
``engine.bot_view`` only (never another seat's hidden cards).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.db import transaction

from bots.errors import BotMoveError
from bots.external import mailbox, matches
from bots.external.wire import (
    REVOKED_TYPE,
    ExternalBotError,
    accept_move,
    bot_group,
    error_frame,
    send,
    turn_frame,
)
from bots.models import Bot, BotVersion, external_games_limit, move_timeout
from games import clock
from games.deals import deal_result, public_config
from games.engine.registry import find_game
from games.extensions import AnnouncedGame
from games.models import Game, Seat, Table
from games.realtime import send_now

if TYPE_CHECKING:
    from accounts.models import User

logger = logging.getLogger(__name__)


# --------------------------------------------------------------------------- creating
@transaction.atomic
def external_bot_create(*, owner: User, name: str, game: str, description: str = "") -> Bot:
    """An external bot for ``game`` with its one ``ready`` version (no code: seats and ratings
    reference the version). Its token is made with :func:`bots.external.tokens.token_issue`."""
    bot = Bot(owner=owner, name=name, description=description, game=game, kind=Bot.Kind.EXTERNAL)
    bot.full_clean()
    bot.save()
    BotVersion.objects.create(
        bot=bot,
        number=1,
        code="",
        status=BotVersion.Status.READY,
        validation={"external": True},
    )
    return bot


def require_js(bot: Bot) -> None:
    """Code, validation, Test Bot and the editor are for JavaScript bots only."""
    if bot.kind == Bot.Kind.EXTERNAL:
        raise ValidationError(
            "An external bot has no code: a program plays it over the bot API.",
            code="external_bot",
        )


# --------------------------------------------------------------------------- frames
def hello_frame(bot: Bot) -> dict[str, Any]:
    return {
        "type": "hello",
        "bot": {"id": bot.pk, "name": bot.name, "game": bot.game},
        "limits": {"move_seconds": move_timeout(), "games": external_games_limit()},
    }


def game_start_frame(game: Game, seat: int) -> dict[str, Any]:
    """The ``game_start`` frame of ``seat``: only what that seat may see. The config goes
    through :func:`games.deals.public_config`, the history's rule (a Bot Arena rotated game's
    ``config["hands"]`` holds all four hands, the seed-like keys fix the deal); the seat's own
    cards come in its ``turn`` (``engine.bot_view``)."""
    return {
        "type": "game_start",
        "game_id": game.pk,
        "game": game.engine,
        "seat": seat,
        "players": len(game.players) if isinstance(game.players, list) else None,
        "config": public_config(game.config),
    }


# --------------------------------------------------------------------------- the seat player
def turn_seq(game: Any) -> int:
    """The ``seq`` of a live game's open turn: the number its move will have in the game's
    history (``Action.seq``, the Replay lab's and ``/api/games/<id>/bot-moves/``'s number),
    the game's version plus one (1 for the game's first move)."""
    return int(game.version) + 1


def _time_left_ms(deadline: float) -> int:
    return max(0, int((float(deadline) - time.time()) * 1000))


def external_seat_player(*, seat: Any, game: Any, engine: Any, state: Any) -> dict[str, Any]:
    """Play a seat of an external bot (the bot-seat player, ``bots.turns.bot_seat_player``,
    hands external versions here). Runs in ``games.seat_autoplay`` on the game's bot queue,
    outside the table lock: sends ``game_start`` (the bot's first turn in this game) and the
    ``turn`` to the bot's sockets, then waits up to the per-move limit for the move its
    sockets checked and posted. No move in time raises ``BotMoveError("timeout")``, a move the
    engine refuses ``BotMoveError("illegal:<code>")``: the live tables strike the seat for
    either, as for a sandboxed bot.

    The same turn may be played by a second worker meanwhile (the table's timers are re-armed
    when someone opens its socket): that one joins the open turn (its deadline, its outcome,
    :mod:`bots.external.mailbox`) and re-sends it with the time really left, and only the
    worker that finds the deadline passed with no move sends ``error`` ``timeout``."""
    index = int(seat.index)
    bot_id = int(seat.bot_version.bot_id)
    seq = turn_seq(game)
    timeout = move_timeout()
    started = time.monotonic()
    record: dict[str, Any] = {"external": True}
    done = mailbox.outcome(game_id=game.pk, seq=seq)
    if done is None:
        external_game_started(bot_id=bot_id, game=game, seat=index)
        frame = turn_frame(
            game_id=game.pk,
            seq=seq,
            seat=index,
            game_state=engine.bot_view(state, index),
            deadline_ms=int(timeout * 1000),
        )
        turn, opened = mailbox.open_turn(
            bot_id=bot_id,
            game_id=game.pk,
            record={"seq": seq, "seat": index, "deadline": time.time() + timeout, "frame": frame},
            ttl=timeout + 1.0,
        )
        deadline = float(turn["deadline"])
        send(bot_id, frame if opened else frame | {"deadline_ms": _time_left_ms(deadline)})
        try:
            raw, timed_out = mailbox.wait_move(game_id=game.pk, seq=seq, deadline=deadline)
        finally:
            if opened:
                mailbox.close_turn(bot_id=bot_id, game_id=game.pk, seq=seq)
    else:  # this turn was decided before this worker came to it (the game moves on)
        raw, timed_out = done.get("move"), False
    record |= {
        "ok": raw is not None,
        "value": raw,
        "elapsed_ms": round((time.monotonic() - started) * 1000, 3),
    }
    if raw is None:
        record |= {"error_code": "timeout", "error_message": "no move in time"}
        if timed_out and _still_at(game):
            send(bot_id, error_frame("timeout", "no move in time", game_id=game.pk, seq=seq))
        raise BotMoveError("timeout", f"no move within {timeout:g} s", record)
    try:
        action = dict(engine.parse_bot_move(state, index, raw))
    except ValueError as exc:
        code = f"illegal:{getattr(exc, 'code', 'illegal_move')}"
        record |= {"ok": False, "error_code": code, "error_message": str(exc)}
        raise BotMoveError(code, str(exc), record) from exc
    return action | {"bot_record": record}


def _still_at(game: Any) -> bool:
    """Whether ``game`` is still running at the version its turn was asked on (else its turn
    is moot: the game moved on or ended, and no strike will be applied)."""
    running = Game.objects.filter(pk=game.pk, status=Game.Status.RUNNING)
    return running.filter(version=game.version).exists()


def external_game_started(*, bot_id: int, game: Any, seat: int) -> None:
    """Send ``game_start`` of ``game`` to bot ``bot_id`` at ``seat``, once per game and seat
    (before its first turn, or before a ``game_end`` of a game it never had a turn in)."""
    first = mailbox.client().set(
        f"{mailbox.turn_key(bot_id, game.pk)}:started:{seat}", "1", nx=True, ex=86400
    )
    if first:
        send(bot_id, game_start_frame(game, seat))


# --------------------------------------------------------------------------- the bot's requests
def _running_seats(bot_id: int) -> list[tuple[Game, int]]:
    """``(game, seat)`` of every running game in which external bot ``bot_id`` holds a seat."""
    seats = Seat.objects.filter(kind=Seat.Kind.BOT, bot_version__bot_id=bot_id).exclude(
        table__status=Table.Status.COMPLETED
    )
    out = []
    for table_id, index in seats.values_list("table_id", "index"):
        game = (
            Game.objects.filter(table_id=table_id, status=Game.Status.RUNNING)
            .order_by("-number")
            .first()
        )
        if game is not None:
            out.append((game, index))
    return out


def external_resume(*, bot: Bot) -> list[dict[str, Any]]:
    """What a (re)connecting program is sent after ``hello``: ``game_start`` of every game in
    progress where the bot sits, and the open ``turn`` of each (its time left); then the same
    for the match games it is playing (:func:`bots.external.matches.match_resume_frames`)."""
    frames: list[dict[str, Any]] = []
    for game, index in _running_seats(bot.pk):
        frames.append(game_start_frame(game, index))
        turn = mailbox.get_turn(bot_id=bot.pk, game_id=game.pk)
        if turn is not None and turn.get("seat") == index:
            left = int((float(turn["deadline"]) - time.time()) * 1000)
            if left > 0:
                frames.append(dict(turn["frame"]) | {"deadline_ms": left})
    return frames + matches.match_resume_frames(bot_id=bot.pk)


def external_submit_move(*, bot: Bot, game_id: Any, seq: Any, move: Any) -> dict[str, Any]:
    """Check a ``move`` of ``bot`` for turn ``seq`` of game ``game_id`` and post it to the
    waiting worker. Refused (:class:`ExternalBotError`, nothing changes, the turn stays open
    until its deadline): ``bad_frame`` (missing or mistyped fields), ``unknown_game`` (not a
    running game of this bot), ``not_your_turn`` (no open turn of the bot in that game),
    ``stale_seq`` (another turn's ``seq``), ``illegal_move`` (the engine's refusal, its code in
    ``reason``). Returns ``{"game_id", "seq"}``. A match game's id (``match-<id>-<n>``) goes
    to :func:`bots.external.matches.match_submit_move` (the same checks)."""
    if matches.is_match_game_id(game_id):
        return matches.match_submit_move(bot_id=bot.pk, game_id=game_id, seq=seq, move=move)
    if not isinstance(game_id, int) or isinstance(game_id, bool):
        raise ExternalBotError("bad_frame", "game_id must be an integer")
    if not isinstance(seq, int) or isinstance(seq, bool):
        raise ExternalBotError("bad_frame", "seq must be an integer")
    if not isinstance(move, dict):
        raise ExternalBotError("bad_frame", "move must be an object (a bot's move)")
    game = Game.objects.filter(pk=game_id, status=Game.Status.RUNNING).first()
    mine = (
        game is not None
        and Seat.objects.filter(
            table_id=game.table_id, kind=Seat.Kind.BOT, bot_version__bot_id=bot.pk
        ).exists()
    )
    if game is None or not mine:
        raise ExternalBotError("unknown_game", "no game in progress of this bot has that id")
    turn = mailbox.get_turn(bot_id=bot.pk, game_id=game_id)
    if turn is None:
        raise ExternalBotError("not_your_turn", "the bot has no turn open in that game")
    if turn.get("seq") != seq or turn_seq(game) != seq:
        raise ExternalBotError("stale_seq", f"the open turn is seq {turn.get('seq')}")
    return accept_move(
        game=game.engine,
        state=game.state,
        seat=int(turn["seat"]),
        game_id=game_id,
        seq=seq,
        move=move,
    )


def external_game_finished(*, game: Any, table: Any, reason: str = "finished") -> None:
    """Tell the external bots that sat in ``game`` that it ended (``game_end``, on commit):
    ``reason`` ``finished`` (called from the bots app's game-finished hook,
    ``bots.turns.bot_game_finished``; ``result`` is what the table is shown, without its cards
    while the game's deal is still played elsewhere: :func:`games.deals.deal_result`) or
    ``session_ended`` (the host ended the session mid-game, or everyone left: the game was
    aborted, ``result`` null; ``bots.turns.bot_game_aborted``). A bot that never had a turn
    in the game (an instant win at the deal) gets its ``game_start`` first."""
    table_id = getattr(table, "pk", None) or getattr(game, "table_id", None)
    if table_id is None:
        return
    seats = list(
        Seat.objects.filter(
            table_id=table_id, kind=Seat.Kind.BOT, bot_version__bot__kind=Bot.Kind.EXTERNAL
        ).values_list("index", "bot_version__bot_id")
    )
    if not seats:
        return
    # while the deal is still played elsewhere (a rotation to come, another table of the
    # round), the result keeps only the scores: no hand left, no card shown (games.deals)
    result = deal_result(game, game.result) if reason == "finished" else None
    frame_base = {"type": "game_end", "game_id": game.pk, "result": result, "reason": reason}
    sends = [(bot_id, index, frame_base | {"seat": index}) for index, bot_id in seats]

    def deliver() -> None:
        for bot_id, index, frame in sends:
            external_game_started(bot_id=bot_id, game=game, seat=index)  # never an end alone
            send(bot_id, frame)

    transaction.on_commit(deliver)


#: Seconds a turn is open before beat's announce re-sends it (a program still thinking on a
#: turn it just got is not sent it again at once).
RESEND_OPEN_TURN_SECONDS = 1.0
#: Seconds after a move with no turn opened for the external bot whose turn it is before beat's
#: announce re-arms the table (beyond the bot delay: the turn's task is only queued meanwhile).
REARM_AFTER_SECONDS = 1.0


def game_version_frame(game: AnnouncedGame) -> dict[str, Any]:
    """The ``game_version`` frame of a running table game: its version and the ``seq`` of its
    next move (a turn of the bot with a lower ``seq`` is over)."""
    return {
        "type": "game_version",
        "game_id": game.game_id,
        "version": game.version,
        "seq": game.version + 1,
    }


def external_versions_announced(*, games: Sequence[AnnouncedGame]) -> int:
    """Hook of the live tables (``games.extensions.on_versions_announced``): beat's
    ``games.timers_heal`` has just announced ``games`` (the tables that moved lately) to their
    sockets. A move whose process died between its commit and its frames never reached an
    external bot either, and the bot's turn task (scheduled on that commit) died too: the bot
    would wait until the table counts as stalled (the bot delay, a grace and a whole move time
    later). So every external bot seated at a running one of ``games`` gets its
    ``game_version`` frame, and when the game waits for that bot: its open turn again with the
    time left (open for over :data:`RESEND_OPEN_TURN_SECONDS`), or, when no turn was opened
    :data:`REARM_AFTER_SECONDS` after the bot delay, the table's timers re-armed now (the turn
    comes as a ``turn``). Returns how many frames were sent. docs/bot-api.md "Connecting"."""
    from games.services import bot_delay, timers_rearm

    running = {g.table_id: g for g in games if g.running}
    if not running:
        return 0
    seats = list(
        Seat.objects.filter(
            table_id__in=running,
            kind=Seat.Kind.BOT,
            bot_version__bot__kind=Bot.Kind.EXTERNAL,
            disqualified=False,
        ).values_list("table_id", "index", "bot_version__bot_id")
    )
    sent, stale = 0, set()
    now, timeout = clock.now(), move_timeout()
    for table_id, index, bot_id in seats:
        game = running[table_id]
        send(bot_id, game_version_frame(game))
        sent += 1
        turn = mailbox.get_turn(bot_id=bot_id, game_id=game.game_id)
        if turn is not None and turn.get("seq") == game.version + 1 and turn.get("seat") == index:
            deadline = float(turn["deadline"])
            left = _time_left_ms(deadline)
            if left > 0 and timeout * 1000 - left >= RESEND_OPEN_TURN_SECONDS * 1000:
                send(bot_id, dict(turn["frame"]) | {"deadline_ms": left})
                sent += 1
        elif now - game.last_at > bot_delay() + REARM_AFTER_SECONDS:
            stale.add((table_id, index))
    for table_id in sorted({table for table, _ in stale}):
        row = Game.objects.filter(pk=running[table_id].game_id).only("engine", "state").first()
        if row is None:
            continue
        engine = find_game(row.engine)
        pending = engine.round_status(engine.state_from_json(row.state)).pending
        if any((table_id, index) in stale for index in pending):
            timers_rearm(table_id=table_id)  # idempotent: a copy of a live turn does nothing
    return sent


def external_disconnect_all(*, bot_id: int) -> None:
    """Close every open socket and stream of ``bot_id`` (its token was revoked or replaced)."""
    send_now(
        [(bot_group(bot_id), {"type": REVOKED_TYPE})],
        f"closing the sockets of external bot {bot_id} failed",
    )
