"""An external bot and a move whose process died between its commit and its frames (issue 27,
the commit-then-die gap, tests/games/test_versions_announce.py for the people's sockets): the
bot's turn task, scheduled on that commit, died too. Beat's ``games.timers_heal`` announces the
table's version (``game_version``) to the bot's sockets as well and catches its turn up: it
re-arms the table, and the bot gets its ``turn`` without reconnecting, instead of when the
table counts as stalled (the bot delay, a grace and a whole move time later). An open turn
the bot may have missed is sent again with the time left. docs/bot-api.md "Connecting".

The test is the bot's program, as in tests/bots/external/test_turns.py: it reads the frames
sent to the bot (``bots.external.services.send``, recorded) and answers with
:func:`bots.external.services.external_submit_move`, as its socket would."""

from __future__ import annotations

import time
from typing import Any

import pytest

from bots.external import mailbox, services
from bots.external.services import external_submit_move
from games import services as games_services
from games import tasks
from games.extensions import AnnouncedGame
from games.models import Action, Game
from tests.bots.external.helpers import bot_table, external_bot
from tests.bots.external.test_turns import BOT_SEAT, Frames, _at_bots_turn, _legal, _worker
from tests.bots.live import new_user
from tests.bots.worker import wait_for
from tests.scheduler import SCHEDULER, FrozenClock

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("live_bots")]


@pytest.fixture
def frames(monkeypatch: pytest.MonkeyPatch) -> Frames:
    recorder = Frames()
    monkeypatch.setattr(services, "send", recorder)
    return recorder


def _bots_turn(settings: Any, name: str) -> tuple[Any, Game]:
    settings.GAMES_BOT_DELAY_SECONDS = 1.0  # bot turns wait in the scheduler: the test runs them
    owner = new_user(name)
    bot, version, _token = external_bot(owner)
    table = bot_table(owner, version, seats=2, human=True)
    return bot, _at_bots_turn(table, owner)


def test_a_lost_turn_reaches_the_external_bot_at_the_next_heal_without_a_reconnect(
    settings: Any, frames: Frames, clock: FrozenClock
) -> None:
    bot, game = _bots_turn(settings, "ada")
    # the process that committed the person's move died before its on-commit work: the bot's
    # turn task (and any frame) went with it
    SCHEDULER.clear()
    assert frames.of("turn") == []
    clock.advance(2.5)  # beat's next heal: the table is not "stalled" yet (that takes 8 s)
    tasks.timers_heal()

    version = {"type": "game_version", "game_id": game.pk, "version": game.version}
    assert frames.of("game_version") == [version | {"seq": game.version + 1}]
    # the turn was re-armed: the bot-turn task (a worker) sends the turn, the bot answers it
    [task] = SCHEDULER.take(games_services.TASK_SEAT_AUTOPLAY)
    assert task.args == [game.pk, game.version]
    worker = _worker(game)
    turn = wait_for(lambda: frames.of("turn"), timeout=10)[0]
    assert (turn["game_id"], turn["seq"], turn["seat"]) == (game.pk, game.version + 1, BOT_SEAT)
    external_submit_move(bot=bot, game_id=game.pk, seq=turn["seq"], move=_legal(game))
    worker.join(10)
    assert not worker.is_alive()
    move = Action.objects.get(game=game, seq=game.version + 1)
    assert move.seat == BOT_SEAT
    assert (move.bot_record or {}).get("external") is True


def test_an_open_turn_is_sent_again_with_the_time_left_once_it_has_been_open_a_while(
    settings: Any, frames: Frames, clock: FrozenClock
) -> None:
    bot, game = _bots_turn(settings, "bea")
    SCHEDULER.clear()
    seq = game.version + 1
    frame = {"type": "turn", "game_id": game.pk, "seq": seq, "seat": BOT_SEAT, "gameState": {}}
    announced = AnnouncedGame(game.table_id, game.pk, game.number, game.version, True, clock())

    def announce(opened_ago: float) -> list[dict[str, Any]]:
        # the turn as its worker opened it ``opened_ago`` seconds ago (wall clock: the
        # mailbox's), its frame possibly lost on the way
        timeout = float(settings.BOTS_MOVE_TIMEOUT_SECONDS)
        record = {"seq": seq, "seat": BOT_SEAT, "deadline": time.time() + timeout - opened_ago}
        mailbox.open_turn(
            bot_id=bot.pk, game_id=game.pk, record=record | {"frame": frame}, ttl=timeout
        )
        try:
            frames.sent.clear()
            services.external_versions_announced(games=[announced])
            return frames.of("turn")
        finally:
            mailbox.close_turn(bot_id=bot.pk, game_id=game.pk, seq=seq)

    assert announce(0.2) == []  # just sent: the program is thinking on it
    [again] = announce(2.0)
    assert again | {"deadline_ms": 0} == frame | {"deadline_ms": 0}
    assert 0 < again["deadline_ms"] <= (float(settings.BOTS_MOVE_TIMEOUT_SECONDS) - 2.0) * 1000
    assert frames.of("game_version") == [
        {"type": "game_version", "game_id": game.pk, "version": game.version, "seq": seq}
    ]
    assert SCHEDULER.take() == []  # a turn is open: nothing re-armed


def test_only_running_games_with_an_external_bot_are_told(
    settings: Any, frames: Frames, clock: FrozenClock
) -> None:
    _bot, game = _bots_turn(settings, "cy")
    SCHEDULER.clear()
    over = AnnouncedGame(game.table_id, game.pk, game.number, game.version, False, clock())
    assert services.external_versions_announced(games=[over]) == 0
    assert frames.sent == []
    elsewhere = AnnouncedGame(game.table_id + 999, game.pk + 999, 1, 3, True, clock())
    assert services.external_versions_announced(games=[elsewhere]) == 0
    assert SCHEDULER.take() == []
