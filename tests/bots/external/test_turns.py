"""An external bot's turn at a live table when a second worker plays the same turn (a table's
timers are re-armed whenever someone opens its socket, e.g. a spectator during the bot's turn):
the re-sent turn carries the time really left, an answer in time is the move of both workers,
and ``error`` ``timeout`` comes once, only for a real timeout. Also: a turn's ``seq`` is the
number its move gets in the game's history.

The bot turns run in threads here (as two workers would), the test is the bot's program: it
reads the frames sent to the bot (``bots.external.services.send``, recorded) and answers with
:func:`bots.external.services.external_submit_move`, as its socket would."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import pytest
from django.db import connection

from bots.external import mailbox, services
from bots.external.services import external_submit_move
from bots.external.wire import ExternalBotError
from games import services as games_services
from games.engine.registry import find_game
from games.models import Action, Game, Seat, Table
from tests.bots.external.helpers import bot_table, external_bot, latest_game
from tests.bots.live import new_user
from tests.bots.worker import wait_for
from tests.scheduler import SCHEDULER

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("live_bots")]

ENGINE = find_game("tienlen")
BOT_SEAT = 1


class Frames:
    """Every frame sent to external bots, in order (thread-safe)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.sent: list[tuple[int, dict[str, Any]]] = []

    def __call__(self, bot_id: int, frame: dict[str, Any]) -> None:
        with self.lock:
            self.sent.append((bot_id, dict(frame)))

    def of(self, kind: str) -> list[dict[str, Any]]:
        with self.lock:
            return [f for _, f in self.sent if f["type"] == kind]


@pytest.fixture
def frames(monkeypatch: pytest.MonkeyPatch) -> Frames:
    recorder = Frames()
    monkeypatch.setattr(services, "send", recorder)
    return recorder


def _at_bots_turn(table: Table, owner: Any) -> Game:
    """Play the human's turns (seat 0) and let nothing else run until it is the bot's turn;
    the bot's own turn task is left unplayed (the test plays it)."""
    for _ in range(200):
        game = latest_game(table)
        assert game is not None
        assert game.status == Game.Status.RUNNING
        state = ENGINE.state_from_json(game.state)
        seat = ENGINE.round_status(state).pending[0]
        if seat == BOT_SEAT:
            SCHEDULER.take()
            return game
        action = ENGINE.legal_actions(state, seat)[0]
        move: dict[str, Any] = {"type": action["type"]}
        if action["type"] == "play":
            move["cards"] = action["cards"]
        games_services.game_play(table_id=table.pk, user=owner, version=game.version, action=move)
    raise AssertionError("the bot never had a turn")


def _table(settings: Any, name: str) -> tuple[Any, Any, Table, Game]:
    settings.GAMES_BOT_DELAY_SECONDS = 1.0  # bot turns wait in the scheduler: the test runs them
    owner = new_user(name)
    bot, version, _token = external_bot(owner)
    table = bot_table(owner, version, seats=2, human=True)
    return owner, bot, table, _at_bots_turn(table, owner)


def _worker(game: Game) -> threading.Thread:
    """One worker playing the bot's turn: the bot-turn task's body."""

    def play() -> None:
        try:
            games_services.game_autoplay(game_id=game.pk, version=game.version)
        finally:
            connection.close()

    thread = threading.Thread(target=play)
    thread.start()
    return thread


def _legal(game: Game) -> dict[str, Any]:
    state = ENGINE.state_from_json(game.state)
    view = ENGINE.bot_view(state, BOT_SEAT)
    if view["validMoves"]:
        return {"action": "play", "cards": view["validMoves"][0]["cards"]}
    return {"action": "pass"}


def test_a_second_worker_resends_the_time_left_and_an_answer_in_time_is_no_timeout(
    settings: Any, frames: Frames
) -> None:
    _owner, bot, table, game = _table(settings, "ada")
    first = _worker(game)
    turn = wait_for(lambda: mailbox.get_turn(bot_id=bot.pk, game_id=game.pk), timeout=10)
    assert frames.of("turn")[0]["deadline_ms"] == 5000  # the whole time, when it is first sent
    # someone opens the table's socket: the timers are re-armed, a second worker plays the turn
    second_started = time.time()
    second = _worker(game)
    wait_for(lambda: len(frames.of("turn")) == 2, timeout=10)
    again = frames.of("turn")[1]
    assert (again["game_id"], again["seq"]) == (game.pk, turn["seq"])
    # the time really left on the first frame's deadline, not a new 5 s
    left_at_start = (turn["deadline"] - second_started) * 1000
    assert again["deadline_ms"] <= left_at_start < 5000
    still = mailbox.get_turn(bot_id=bot.pk, game_id=game.pk)
    assert still is not None
    assert still["deadline"] == turn["deadline"]  # the one deadline stands

    # the bot answers (in time) the turn it was sent: once, accepted, played once
    move = _legal(game)
    assert external_submit_move(bot=bot, game_id=game.pk, seq=again["seq"], move=move) == {
        "game_id": game.pk,
        "seq": again["seq"],
    }
    first.join(timeout=20)
    second.join(timeout=20)
    assert not first.is_alive()
    assert not second.is_alive()
    seat = Seat.objects.get(table=table, index=BOT_SEAT)
    assert (seat.strikes, seat.disqualified) == (0, False)
    played = Action.objects.get(game=game, seq=again["seq"])  # one numbering: the turn's seq
    assert (played.seat, played.actor) == (BOT_SEAT, Action.Actor.BOT)
    assert (played.bot_record or {}).get("strike") is None
    assert frames.of("error") == []  # no `timeout` for a turn answered in time
    # sending the same answer again is harmless; the turn is closed once played
    with pytest.raises(ExternalBotError) as err:
        external_submit_move(bot=bot, game_id=game.pk, seq=again["seq"], move=move)
    assert err.value.code in {"not_your_turn", "stale_seq", "unknown_game"}


def test_a_real_timeout_is_sent_once_and_struck_once(settings: Any, frames: Frames) -> None:
    settings.BOTS_MOVE_TIMEOUT_SECONDS = 0.5
    _owner, bot, table, game = _table(settings, "bea")
    first = _worker(game)
    wait_for(lambda: mailbox.get_turn(bot_id=bot.pk, game_id=game.pk), timeout=10)
    second = _worker(game)
    first.join(timeout=20)
    second.join(timeout=20)
    seq = game.version + 1
    errors = frames.of("error")
    assert [(e["code"], e["game_id"], e["seq"]) for e in errors] == [("timeout", game.pk, seq)]
    seat = Seat.objects.get(table=table, index=BOT_SEAT)
    assert seat.strikes == 1
    timed_out = Action.objects.get(game=game, seq=seq)
    assert (timed_out.seat, (timed_out.bot_record or {}).get("strike")) == (BOT_SEAT, "timeout")
    # a move after the deadline is refused `timeout`, not taken as the turn's answer
    assert mailbox.push_move(game_id=game.pk, seq=seq, move={"action": "pass"}) == "timeout"


def test_a_turns_seq_is_its_moves_number_in_the_history(settings: Any, frames: Frames) -> None:
    _owner, bot, _t, game = _table(settings, "cal")
    worker = _worker(game)
    wait_for(lambda: frames.of("turn"), timeout=10)
    turn = frames.of("turn")[0]
    assert turn["seq"] == game.version + 1
    with pytest.raises(ExternalBotError) as err:  # the game's version is not the turn's seq
        external_submit_move(bot=bot, game_id=game.pk, seq=game.version, move=_legal(game))
    assert err.value.code == "stale_seq"
    external_submit_move(bot=bot, game_id=game.pk, seq=turn["seq"], move=_legal(game))
    worker.join(timeout=20)
    assert Action.objects.get(game=game, seq=turn["seq"]).seat == BOT_SEAT


async def test_over_the_socket_frame_rate_an_answer_to_an_open_turn_is_never_refused(
    settings: Any,
) -> None:
    """A match sends turns as fast as its house AIs move (51 in 0.54 s was seen): a bot that
    answers each at once must not be refused ``rate_limited``; other frames over the rate are,
    with ``game_id``, ``seq`` and ``retry_after``."""
    from channels.db import database_sync_to_async

    from bots.external.matches import MatchTurns
    from bots.lab.entrants import ExternalEntrant, MatchGame
    from games.engine.duplicate import GameTask, PlannedGame, match_config
    from tests.bots.external.helpers import communicator, receive

    settings.BOTS_EXTERNAL_WS_RATE = 1
    settings.BOTS_EXTERNAL_WS_BURST = 2
    bot, _version, token = await database_sync_to_async(external_bot)(
        await database_sync_to_async(new_user)("dot")
    )
    config = match_config(ENGINE, 2)
    game = MatchGame.of(6161, 1, GameTask(ENGINE, config, PlannedGame(0, 0, 10, (0, 1)), ()))
    entrant = ExternalEntrant("ext", bot.pk, MatchTurns(), timeout_s=20.0).for_game(game)
    state = ENGINE.new_game(config, 10)
    seat = ENGINE.round_status(state).pending[0]
    got: dict[str, Any] = {}
    player = await database_sync_to_async(entrant.player)(ENGINE, seat=seat, seed=1)
    thread = threading.Thread(target=lambda: got.update(d=player.decide(state, seat)))
    thread.start()
    comm = communicator(token)
    try:
        while mailbox.get_turn(bot_id=bot.pk, game_id=game.game_id) is None:
            await asyncio.sleep(0.02)
        # connecting now: hello, then the game and its open turn (the time left)
        assert (await comm.connect())[0]
        assert [(await receive(comm))["type"] for _ in range(2)] == ["hello", "game_start"]
        turn = await receive(comm)
        assert turn["type"] == "turn"

        async def reply() -> dict[str, Any]:
            """The next frame that answers ours (a turn frame sent just before the socket
            joined may still arrive: it is skipped)."""
            while (frame := await receive(comm))["type"] in {"game_start", "turn"}:
                pass
            return frame

        for _ in range(2):  # the burst
            await comm.send_json_to({"type": "ping"})
            assert (await reply())["type"] == "pong"
        await comm.send_json_to({"type": "move", "game_id": game.game_id, "seq": 99, "move": {}})
        refused = await reply()
        assert (refused["code"], refused["game_id"], refused["seq"]) == (
            "rate_limited",
            game.game_id,
            99,
        )
        assert 0 < refused["retry_after"] <= 1
        move = {"action": "play", "cards": turn["gameState"]["validMoves"][0]["cards"]}
        await comm.send_json_to(
            {"type": "move", "game_id": game.game_id, "seq": turn["seq"], "move": move}
        )
        for _ in range(400):  # the worker's wait ends once the socket accepted the move
            if not thread.is_alive():
                break
            await asyncio.sleep(0.05)
        assert got["d"].action == ENGINE.parse_bot_move(state, seat, move)
        while not await comm.receive_nothing(timeout=0.2):  # no error for the answer
            assert (await receive(comm))["type"] in {"game_start", "turn"}
    finally:
        thread.join(timeout=25)
        await comm.disconnect()
    entrant.turns.end(bot_id=bot.pk, game=game, seat=seat, result=None)


def _frames_of(frames: Frames, bot_id: int, game_id: int) -> list[dict[str, Any]]:
    with frames.lock:
        return [f for b, f in frames.sent if b == bot_id and f.get("game_id") == game_id]


def test_an_instant_win_sends_game_start_before_game_end(settings: Any, frames: Frames) -> None:
    """A deal that wins at once (tới trắng) ends the game before the bot's first turn: the
    bot still gets ``game_start`` before ``game_end``, never an end of a game it never saw."""
    from games import seeds

    instant = next(s for s in range(5000) if ENGINE.new_game({"players": 4}, seed=s).finished)
    owner = new_user("eli")
    bot, version, _token = external_bot(owner)
    with seeds.use(lambda: instant):
        table = bot_table(owner, version, seats=4)
        SCHEDULER.take()  # the next game is not dealt
    game = latest_game(table)
    assert game is not None
    assert (game.status, game.version) == (Game.Status.FINISHED, 0)
    sent = _frames_of(frames, bot.pk, game.pk)
    assert [f["type"] for f in sent] == ["game_start", "game_end"]
    start, end = sent
    assert (start["seat"], end["seat"], end["reason"]) == (0, 0, "finished")
    assert end["result"] == game.result


def test_a_session_ended_mid_game_sends_game_end(settings: Any, frames: Frames) -> None:
    """The host ends the session during a game: the game is aborted and the bot is told so
    (``game_end`` with ``reason`` ``session_ended``), after its ``game_start``."""
    owner, bot, table, game = _table(settings, "fin")
    games_services.table_end(table_id=table.pk, user=owner)
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED
    sent = _frames_of(frames, bot.pk, game.pk)
    assert [f["type"] for f in sent] == ["game_start", "game_end"]
    assert (sent[1]["reason"], sent[1]["result"], sent[1]["seat"]) == (
        "session_ended",
        None,
        BOT_SEAT,
    )
