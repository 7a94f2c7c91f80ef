"""Beat's ``games.timers_heal``: timers lost with a dead process are re-armed once overdue.

A process that dies (kill -9 of the worker holding a bot turn, of daphne right after a move's
commit) loses the timers it had scheduled; here the test scheduler forgets them
(``SCHEDULER.clear()``) and the clock moves on. The heal task must find exactly the tables
whose deadline, countdown, next game or automatic turn is overdue by more than the grace
period, re-arm them, and leave every other table alone.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core.management import call_command

from bots.models import BotVersion
from games import services, tasks
from games.clock import now_datetime
from games.models import Action, Game, Seat, Table
from tests.factories import BotVersionFactory, UserFactory
from tests.games.live import four_player_table, pending_seat, started_table
from tests.scheduler import SCHEDULER, FrozenClock

pytestmark = pytest.mark.django_db(transaction=True)
GRACE = 2.0
#: How long an automatic turn may take before it is overdue: bot delay + move timeout + grace.
BOT_DELAY = 0.5
MOVE_TIMEOUT = 5.0


@pytest.fixture(autouse=True)
def _timings(settings: Any) -> None:
    settings.GAMES_TIMERS_GRACE_SECONDS = GRACE
    settings.BOTS_MOVE_TIMEOUT_SECONDS = MOVE_TIMEOUT


def test_a_lost_turn_timer_is_rearmed_once_overdue_and_fires(clock: FrozenClock) -> None:
    _table, _users, game = started_table(turn_seconds=30)
    SCHEDULER.clear()  # the process holding the timer died
    clock.advance(30 + GRACE - 0.1)  # late, but within the grace period
    assert tasks.timers_heal() == 0
    assert SCHEDULER.pending == []
    clock.advance(0.2)
    assert tasks.timers_heal() == 1  # re-armed: the deadline passed, so it fired at once
    timed_out = Action.objects.get(game=game)
    assert timed_out.actor == Action.Actor.TIMEOUT
    # the chain goes on for the next turn; nothing is overdue any more
    assert [p.args for p in SCHEDULER.pending] == [[game.pk, 1]]
    assert tasks.timers_heal() == 0


def test_a_healthy_table_is_left_alone(clock: FrozenClock) -> None:
    _table, _users, game = started_table(turn_seconds=30)
    armed = list(SCHEDULER.pending)
    clock.advance(29)
    assert tasks.timers_heal() == 0
    assert SCHEDULER.pending == armed
    assert not Action.objects.filter(game=game).exists()


def test_a_late_timer_and_its_healed_copy_act_once(clock: FrozenClock) -> None:
    """The timer was only late (a busy worker), not lost: beat's copy and the original both
    run, and the turn still times out exactly once."""
    _table, _users, game = started_table(turn_seconds=30)
    [original] = SCHEDULER.take()  # held up in a busy worker
    clock.advance(30 + GRACE + 1)
    assert tasks.timers_heal() == 1  # beat's copy runs first
    assert tasks.turn_timeout(*original.args) is False  # then the late original: nothing
    assert Action.objects.filter(game=game, actor=Action.Actor.TIMEOUT).count() == 1


def _house_turn_game(settings: Any, clock: FrozenClock) -> Game:
    """A watched practice table (a bot and three house AIs, all automatic), its first turn
    waiting in the scheduler for the bot delay."""
    settings.GAMES_BOT_DELAY_SECONDS = BOT_DELAY
    owner = UserFactory.create(username="owner")
    version = BotVersionFactory.create(bot__owner=owner, status=BotVersion.Status.READY)
    table = services.table_create_practice(owner=owner, bot_version_id=version.pk, watch=True)
    game = Game.objects.get(table=table, number=1)
    assert [p.name for p in SCHEDULER.pending] == [services.TASK_SEAT_AUTOPLAY]
    assert Seat.objects.get(table=table, index=pending_seat(game)).kind != Seat.Kind.HUMAN
    return game


def test_a_lost_automatic_turn_is_rearmed_once_overdue(settings: Any, clock: FrozenClock) -> None:
    game = _house_turn_game(settings, clock)
    SCHEDULER.clear()  # the bots worker was killed with the turn in hand
    clock.advance(BOT_DELAY + MOVE_TIMEOUT + GRACE - 0.1)  # a slow bot may still be thinking
    assert tasks.timers_heal() == 0
    clock.advance(0.2)
    assert tasks.timers_heal() == 1
    [entry] = SCHEDULER.pending
    assert (entry.name, entry.args) == (services.TASK_SEAT_AUTOPLAY, [game.pk, 0])
    clock.advance(BOT_DELAY)
    assert SCHEDULER.run_due() >= 1
    game.refresh_from_db()
    assert game.version >= 1  # the game goes on
    assert Action.objects.filter(game=game, seq=1).exclude(actor=Action.Actor.HUMAN).exists()


def test_an_automatic_turn_after_a_move_counts_from_that_move(
    settings: Any, clock: FrozenClock
) -> None:
    game = _house_turn_game(settings, clock)
    clock.advance(60)  # a long game so far: what counts is the last move's time
    assert SCHEDULER.run_due() == 1  # the first turn is played; the next one is scheduled
    SCHEDULER.clear()  # and lost
    clock.advance(BOT_DELAY + MOVE_TIMEOUT + GRACE - 0.1)
    assert tasks.timers_heal() == 0
    clock.advance(0.2)
    assert tasks.timers_heal() == 1
    game.refresh_from_db()
    assert [p.args for p in SCHEDULER.pending] == [[game.pk, game.version]]


def test_a_lost_countdown_is_rearmed_and_deals(settings: Any, clock: FrozenClock) -> None:
    settings.GAMES_COUNTDOWN_SECONDS = 3.0
    table, users = four_player_table()
    services.table_start(table_id=table.pk, user=users[0])
    SCHEDULER.clear()
    clock.advance(3 + GRACE - 0.1)
    assert tasks.timers_heal() == 0
    clock.advance(0.2)
    assert tasks.timers_heal() == 1
    assert Table.objects.get(pk=table.pk).status == Table.Status.IN_PROGRESS
    assert Game.objects.filter(table=table, number=1).exists()


def test_a_lost_next_game_is_rearmed_and_deals(settings: Any, clock: FrozenClock) -> None:
    """The command re-arms the same way as beat (``--overdue``)."""
    settings.GAMES_NEXT_GAME_SECONDS = 20.0
    table, _users, game = started_table(turn_seconds=30)
    Game.objects.filter(pk=game.pk).update(
        status=Game.Status.FINISHED, ended_at=now_datetime()
    )  # a game that ended; its next-game timer is lost
    Table.objects.filter(pk=table.pk).update(next_game_at=now_datetime() + timedelta(seconds=20))
    SCHEDULER.clear()
    clock.advance(20 + GRACE - 0.1)
    call_command("games_resume_timers", "--overdue", stdout=_Null())
    assert not Game.objects.filter(table=table, number=2).exists()
    clock.advance(0.2)
    call_command("games_resume_timers", "--overdue", stdout=_Null())
    assert Game.objects.get(table=table, number=2).status == Game.Status.RUNNING


def test_the_command_without_overdue_rearms_every_live_table(clock: FrozenClock) -> None:
    started_table()
    SCHEDULER.clear()
    call_command("games_resume_timers", stdout=_Null())
    assert [p.name for p in SCHEDULER.pending] == [services.TASK_TURN_TIMEOUT]


def test_beat_runs_the_heal_task_every_few_seconds(settings: Any) -> None:
    entries = [
        e for e in settings.CELERY_BEAT_SCHEDULE.values() if e["task"] == "games.timers_heal"
    ]
    assert len(entries) == 1
    assert entries[0]["schedule"] <= 5.0


class _Null:
    def write(self, text: str) -> None:
        pass


def test_a_socket_connecting_during_the_countdown_does_not_stop_the_deal(
    settings: Any, clock: FrozenClock
) -> None:
    """A seated player's socket that connects (or closes) during the countdown bumps the
    table's version to announce it; the countdown's end, scheduled for the version before, must
    not be the only one, or game 1 waited for beat's heal (and, with no beat, for ever: the
    browser test that opened its pages just before the start saw that now and then)."""
    settings.GAMES_COUNTDOWN_SECONDS = 3.0
    table, users = four_player_table()
    services.table_start(table_id=table.pk, user=users[0])
    counted = services.table_presence(
        table_id=table.pk, user=users[1], counted_seat=None, connected=True, member="m1"
    )
    assert counted == 1
    services.table_presence(
        table_id=table.pk, user=users[2], counted_seat=None, connected=True, member="m2"
    )
    services.table_presence(
        table_id=table.pk, user=users[2], counted_seat=2, connected=False, member="m2"
    )
    clock.advance(3.0)
    assert SCHEDULER.run_due() >= 1
    assert Table.objects.get(pk=table.pk).status == Table.Status.IN_PROGRESS
    assert Game.objects.filter(table=table, number=1).exists()
    assert tasks.timers_heal() == 0  # nothing was left for beat
