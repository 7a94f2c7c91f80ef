"""Timers and automatic seats: the task logic (stale and current versions) and scheduling."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from django.core.management import call_command
from django.test import override_settings

from games import realtime, services, tasks
from games.engine.registry import find_game
from games.models import Action, Game, Seat
from games.realtime import manual_scheduler
from tests.factories import UserFactory
from tests.games.live import pending_seat, seat_users, started_table, state_of

pytestmark = pytest.mark.django_db(transaction=True)
ENGINE = find_game("tienlen")


def test_turn_timeout_is_scheduled_for_the_deadline() -> None:
    _table, _users, game = started_table(turn_seconds=30)
    pending = manual_scheduler().take(services.TASK_TURN_TIMEOUT)
    assert len(pending) == 1
    due, _, args, queue = pending[0]
    assert args == [game.pk, 0]
    assert queue == "default"
    assert due == pytest.approx(game.config["started_at"] + 30, abs=2)


def test_timeout_task_current_version_acts_stale_does_nothing(monkeypatch: Any) -> None:
    _table, _users, game = started_table()
    seat = pending_seat(game)
    expected = ENGINE.timeout_action(state_of(game), seat)
    # before the deadline: nothing happens, the timer is re-armed
    assert tasks.turn_timeout(game.pk, 0) is False
    assert manual_scheduler().take(services.TASK_TURN_TIMEOUT)
    later = time.time() + 31
    monkeypatch.setattr(services, "_now", lambda: later)
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


def test_disconnect_hold_then_auto_play_until_return(monkeypatch: Any) -> None:
    table, _users, game = started_table()
    seat = pending_seat(game)
    user = seat_users(table)[seat]
    assert (
        services.table_presence(table_id=table.pk, user=user, counted_seat=None, connected=True)
        == seat
    )
    manual_scheduler().take()
    assert (
        services.table_presence(table_id=table.pk, user=user, counted_seat=seat, connected=False)
        is None
    )
    holds = manual_scheduler().take(services.TASK_SEAT_HOLD)
    assert len(holds) == 1
    assert holds[0][0] == pytest.approx(time.time() + 30, abs=2)
    args = holds[0][2]
    assert tasks.seat_hold_expired(table.pk, seat, "2000-01-01T00:00:00+00:00") is False
    assert tasks.seat_hold_expired(*args) is True
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
    (_, _, args, _) = manual_scheduler().take(services.TASK_SEAT_HOLD)[0]
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


def test_bot_seat_strikes_and_disqualification(settings: Any) -> None:
    settings.GAMES_BOT_PLAYER = "tests.games.test_tasks_live.broken_bot"
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

    return int(BotVersionFactory.create(bot__owner=owner).pk)


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
    manual_scheduler().take()
    call_command("games_resume_timers")
    names = [p[1] for p in manual_scheduler().take()]
    assert names == [services.TASK_TURN_TIMEOUT]


def test_past_deadline_fires_at_once_on_rearm(monkeypatch: Any) -> None:
    table, _users, game = started_table()
    later = time.time() + 60
    monkeypatch.setattr(services, "_now", lambda: later)
    services.timers_rearm(table_id=table.pk)  # the deadline passed: runs inline now
    game.refresh_from_db()
    assert game.version == 1


# --------------------------------------------------------------------------- scheduler paths
def test_celery_scheduler_uses_apply_async(monkeypatch: Any) -> None:
    calls: list[tuple[Any, ...]] = []

    class FakeTask:
        def apply_async(self, **kwargs: Any) -> None:
            calls.append(tuple(sorted(kwargs.items())))

    monkeypatch.setattr(realtime, "_task", lambda name: FakeTask())
    with override_settings(GAMES_SCHEDULER="celery"):
        realtime.schedule("games.turn_timeout", [1, 2], delay=12.5, queue="bots")
    assert calls == [(("args", [1, 2]), ("countdown", 12.5), ("queue", "bots"))]


def test_auto_scheduler_choice() -> None:
    with override_settings(GAMES_SCHEDULER="auto", CELERY_TASK_ALWAYS_EAGER=False):
        assert isinstance(realtime.get_scheduler(), realtime.CeleryScheduler)
    with override_settings(GAMES_SCHEDULER="auto", CELERY_TASK_ALWAYS_EAGER=True):
        assert isinstance(realtime.get_scheduler(), realtime.LocalScheduler)


def test_local_scheduler_runs_the_task_later_in_process(monkeypatch: Any) -> None:
    ran = threading.Event()
    seen: list[list[Any]] = []

    class FakeTask:
        def apply(self, args: list[Any], throw: bool) -> None:
            seen.append(args)
            ran.set()

    monkeypatch.setattr(realtime, "_task", lambda name: FakeTask())
    with override_settings(GAMES_SCHEDULER="local"):
        start = time.monotonic()
        realtime.schedule("games.turn_timeout", [7, 3], delay=0.2)
        assert seen == []  # not yet: a countdown is honoured even with eager Celery
        assert ran.wait(5)
        assert time.monotonic() - start >= 0.19
    assert seen == [[7, 3]]


def test_local_scheduler_eager_task_end_to_end() -> None:
    """The real task through the in-process timer: an expired turn is auto-played."""
    table, _users, game = started_table(turn_seconds=5)
    Game.objects.filter(pk=game.pk).update(
        state={**game.state, "turn_started_at": time.time() - 4.8}
    )
    with override_settings(GAMES_SCHEDULER="local"):
        services.timers_rearm(table_id=table.pk)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if Action.objects.filter(game=game).exists():
                break
            time.sleep(0.05)
        assert Action.objects.get(game=game).actor == "timeout"
        # the timer chain re-armed for the next seat's deadline: a thread that would outlive
        # this test (and once fired into a later one) unless it is cancelled at teardown
        assert [t.name for t in realtime.local_timers_alive()]
        assert realtime.local_timers_cancel() >= 1
        assert realtime.local_timers_alive() == []


class _SlowTask:
    """A fake task that records its runs (and may schedule another timer while it runs)."""

    def __init__(self, run_for: float = 0.0, then: float | None = None) -> None:
        self.runs: list[list[Any]] = []
        self.started = threading.Event()
        self.run_for = run_for
        self.then = then

    def apply(self, args: list[Any], throw: bool) -> None:
        self.started.set()
        self.runs.append(args)
        time.sleep(self.run_for)
        if self.then is not None:
            realtime.schedule("games.turn_timeout", [*args, "chained"], delay=self.then)


def test_local_timers_cancel_stops_pending_timers(monkeypatch: Any) -> None:
    task = _SlowTask()
    monkeypatch.setattr(realtime, "_task", lambda name: task)
    with override_settings(GAMES_SCHEDULER="local"):
        realtime.schedule("games.turn_timeout", [1, 0], delay=0.3)
        realtime.schedule("games.turn_timeout", [1, 1], delay=0.4)
        assert len(realtime.local_timers_alive()) == 2
        assert realtime.local_timers_cancel() == 2
    assert realtime.local_timers_alive() == []
    time.sleep(0.6)
    assert task.runs == []  # cancelled timers never fire


def test_local_timers_cancel_joins_a_running_timer_and_what_it_scheduled(
    monkeypatch: Any,
) -> None:
    task = _SlowTask(run_for=0.3, then=0.05)
    monkeypatch.setattr(realtime, "_task", lambda name: task)
    with override_settings(GAMES_SCHEDULER="local"):
        realtime.schedule("games.turn_timeout", [2, 0], delay=0.01)
        assert task.started.wait(5)
        realtime.local_timers_cancel()  # waits for the running task, then cancels its timer
        assert realtime.local_timers_alive() == []
        time.sleep(0.3)
    assert task.runs == [[2, 0]]  # the chained timer never fired
