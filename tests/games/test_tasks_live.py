"""Timers and automatic seats: the task logic (stale and current versions) and scheduling."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.core.management import call_command

from games import realtime, services, tasks
from games.engine.registry import find_game
from games.models import Action, Game, Seat
from tests.factories import UserFactory
from tests.games.live import pending_seat, seat_users, started_table, state_of
from tests.scheduler import SCHEDULER, FrozenClock

pytestmark = pytest.mark.django_db(transaction=True)
ENGINE = find_game("tienlen")


def test_turn_timeout_is_scheduled_for_the_deadline(clock: FrozenClock) -> None:
    _table, _users, game = started_table(turn_seconds=30)
    assert game.config["started_at"] == clock.now
    pending = SCHEDULER.take(services.TASK_TURN_TIMEOUT)
    assert len(pending) == 1
    due, _, args, queue = pending[0]
    assert args == [game.pk, 0]
    assert queue == "default"
    assert due == clock.now + 30


def test_timeout_task_current_version_acts_stale_does_nothing(clock: FrozenClock) -> None:
    _table, _users, game = started_table()
    seat = pending_seat(game)
    expected = ENGINE.timeout_action(state_of(game), seat)
    # before the deadline: nothing happens, the timer is re-armed
    assert tasks.turn_timeout(game.pk, 0) is False
    assert SCHEDULER.take(services.TASK_TURN_TIMEOUT)
    clock.advance(31)
    assert tasks.turn_timeout(game.pk, 5) is False  # stale
    assert tasks.turn_timeout(game.pk, 0) is True
    assert tasks.turn_timeout(game.pk, 0) is False  # duplicate delivery
    action = Action.objects.get(game=game)
    assert action.actor == "timeout"
    assert action.seat == seat
    assert action.payload["cards"] == expected["cards"]
    assert action.payload["auto"] is True
    game.refresh_from_db()
    assert game.version == 1


def test_disconnect_hold_then_auto_play_until_return(clock: FrozenClock) -> None:
    table, _users, game = started_table(turn_seconds=60)  # the hold ends first
    seat = pending_seat(game)
    user = seat_users(table)[seat]
    assert (
        services.table_presence(table_id=table.pk, user=user, counted_seat=None, connected=True)
        == seat
    )
    SCHEDULER.take()
    assert (
        services.table_presence(table_id=table.pk, user=user, counted_seat=seat, connected=False)
        is None
    )
    [hold] = [p for p in SCHEDULER.pending if p.name == services.TASK_SEAT_HOLD]
    assert hold.due == clock.now + 30
    args = hold.args
    assert tasks.seat_hold_expired(table.pk, seat, "2000-01-01T00:00:00+00:00") is False
    clock.advance(29)
    SCHEDULER.run_due()
    assert Seat.objects.get(table=table, index=seat).auto is False  # still held
    clock.advance(1)
    assert SCHEDULER.run_due() == 1  # the hold is over: the seat is auto-played at once
    assert tasks.seat_hold_expired(*args) is False
    s = Seat.objects.get(table=table, index=seat)
    assert s.auto is True
    first = Action.objects.get(game=game)
    assert first.seat == seat
    assert first.actor == "timeout"
    # the player comes back: auto is cleared
    services.table_presence(table_id=table.pk, user=user, counted_seat=None, connected=True)
    s.refresh_from_db()
    assert s.auto is False
    assert s.away_since is None
    assert s.connections == 1


def test_return_within_hold_keeps_the_seat() -> None:
    table, _users, game = started_table()
    seat = pending_seat(game)
    user = seat_users(table)[seat]
    services.table_presence(table_id=table.pk, user=user, counted_seat=None, connected=True)
    services.table_presence(table_id=table.pk, user=user, counted_seat=seat, connected=False)
    (_, _, args, _) = SCHEDULER.take(services.TASK_SEAT_HOLD)[0]
    services.table_presence(table_id=table.pk, user=user, counted_seat=None, connected=True)
    assert tasks.seat_hold_expired(*args) is False
    assert not Action.objects.filter(game=game).exists()


def test_leave_during_game_auto_plays_the_seat() -> None:
    table, _users, game = started_table()
    seat = pending_seat(game)
    services.seat_leave(table_id=table.pk, user=seat_users(table)[seat])
    # the autoplay task ran inline (bot delay 0): the seat acted with the house policy
    action = Action.objects.get(game=game, seq=1)
    assert action.seat == seat
    assert action.actor == "timeout"


def test_bot_seat_strikes_and_disqualification(bot_player: Any) -> None:
    bot_player(broken_bot)
    owner = UserFactory.create(username="host")
    bot_version = _bot_version(owner)
    table = services.table_create(owner=owner, name="Arena", options={"seats": 2})
    services.seat_add_bot(table_id=table.pk, user=owner, seat=1, bot_version_id=bot_version)
    services.seat_ready(table_id=table.pk, user=owner)
    services.table_start(table_id=table.pk, user=owner)
    game = Game.objects.get(table=table)
    # play until the bot (seat 1) has failed three times
    for _ in range(200):
        game.refresh_from_db()
        bot = Seat.objects.get(table=table, index=1)
        if bot.disqualified or game.status != Game.Status.RUNNING:
            break
        seat = pending_seat(game)
        assert seat == 0
        action = ENGINE.legal_actions(state_of(game), 0)[-1]
        move: dict[str, Any] = {"type": action["type"]}
        if action["type"] == "play":
            move["cards"] = action["cards"]
        services.game_play(table_id=table.pk, user=owner, version=game.version, action=move)
    bot = Seat.objects.get(table=table, index=1)
    assert bot.strikes >= 1
    if game.status == Game.Status.RUNNING:
        assert bot.disqualified
        assert bot.auto
        assert bot.strikes == 3


def broken_bot(**kwargs: Any) -> dict[str, Any]:
    raise RuntimeError("bot crashed")


def _bot_version(owner: Any) -> int:
    from tests.factories import BotVersionFactory

    return int(BotVersionFactory.create(bot__owner=owner, status="ready").pk)


def test_house_bot_player_extension_point_default() -> None:
    owner = UserFactory.create(username="host")
    bot_version = _bot_version(owner)
    table = services.table_create(owner=owner, name="Arena", options={"seats": 2})
    services.seat_add_bot(table_id=table.pk, user=owner, seat=1, bot_version_id=bot_version)
    services.seat_ready(table_id=table.pk, user=owner)
    services.table_start(table_id=table.pk, user=owner)
    game = Game.objects.get(table=table)
    if pending_seat(game) == 0:
        action = ENGINE.legal_actions(state_of(game), 0)[0]
        services.game_play(
            table_id=table.pk,
            user=owner,
            version=0,
            action={"type": "play", "cards": action["cards"]},
        )
    assert Action.objects.filter(game=game, actor="bot").exists()


def test_resume_timers_command_rearms() -> None:
    _table, _users, _game = started_table()
    SCHEDULER.take()
    call_command("games_resume_timers")
    names = [p[1] for p in SCHEDULER.take()]
    assert names == [services.TASK_TURN_TIMEOUT]


def test_past_deadline_fires_at_once_on_rearm(clock: FrozenClock) -> None:
    table, _users, game = started_table()
    SCHEDULER.clear()  # the process restarted: its timers are gone
    clock.advance(60)
    services.timers_rearm(table_id=table.pk)  # the deadline passed: runs inline now
    game.refresh_from_db()
    assert game.version == 1


# --------------------------------------------------------------------------- scheduler paths
def test_celery_scheduler_sends_the_task_to_its_queue_with_the_countdown(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without the test seam the scheduler is Celery's ``apply_async``: the task message lands
    on the broker (the real Redis), on the queue asked for, due after the countdown."""
    settings.GAMES_SCHEDULER = None
    assert isinstance(realtime.get_scheduler(), realtime.CeleryScheduler)
    # the task's own app (``current_app`` is thread-local and need not be the same object)
    app = realtime.celery_task(services.TASK_TURN_TIMEOUT).app
    queue = f"test-scheduler-{uuid.uuid4().hex}"  # nobody consumes it
    before = datetime.now(UTC)
    realtime.schedule(services.TASK_TURN_TIMEOUT, [7, 3], delay=12.5, queue=queue)
    with app.connection_for_read() as conn:
        simple = conn.SimpleQueue(queue)
        try:
            message = simple.get(timeout=5)
            message.ack()
        finally:
            simple.queue.delete()
            simple.close()
    headers = message.headers
    assert headers["task"] == services.TASK_TURN_TIMEOUT
    assert message.payload[0] == [7, 3]
    eta = datetime.fromisoformat(headers["eta"])
    assert before + timedelta(seconds=12) <= eta <= datetime.now(UTC) + timedelta(seconds=13)


def test_the_test_scheduler_runs_tasks_by_the_clock(clock: FrozenClock) -> None:
    """The real timer tasks run when the injected clock says they are due, and not before."""
    _table, _users, game = started_table(turn_seconds=30)
    assert SCHEDULER.run_due() == 0
    clock.advance(29.9)
    assert SCHEDULER.run_due() == 0
    assert not Action.objects.filter(game=game).exists()
    clock.advance(0.1)
    assert SCHEDULER.run_due() == 1  # the turn timed out; the next turn's timer is armed
    assert Action.objects.get(game=game).actor == "timeout"
    assert [p.args for p in SCHEDULER.pending] == [[game.pk, 1]]
    assert SCHEDULER.run_pending() == 1  # everything now, whatever the clock says
    game.refresh_from_db()
    assert game.version == 1  # the early timer re-armed itself, nothing more
