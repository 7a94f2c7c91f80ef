"""A bot worker that takes a shard over re-arms its tables (games.services.timers_rearm_queue,
config/shards.py): the running games' turns, and the next deal of a table between two games of
its session, whose timer (a ``default`` queue task held until due) may have died with the same
node: without it, beat's heal would deal it only once overdue by its grace, up to a heal period
(and a beat takeover) later (docs/bot-affinity.md "Re-arming")."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from games import clock as games_clock
from games import realtime, services
from games.models import Game, Table
from tests.games.live import started_table
from tests.scheduler import SCHEDULER, FrozenClock

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_table_between_games_gets_its_next_deal_again(clock: FrozenClock) -> None:
    table, _users, game = started_table()
    queue = realtime.bot_queue(game.pk)
    # its game ended; the next deal is due in 3 s, and its timer died with its node
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    due = games_clock.now_datetime() + timedelta(seconds=3)
    Table.objects.filter(pk=table.pk).update(next_game_at=due)
    SCHEDULER.clear()

    assert services.timers_rearm_queue("bots.elsewhere") == 0
    assert SCHEDULER.take() == []
    assert services.timers_rearm_queue(queue) == 1
    [deal] = SCHEDULER.take(services.TASK_NEXT_GAME)
    assert deal.args == [table.pk, game.number]
    assert deal.due == pytest.approx(due.timestamp())


def test_a_running_game_s_table_is_re_armed_and_a_finished_session_is_not(
    clock: FrozenClock, settings: Any
) -> None:
    table, _users, game = started_table()
    queue = realtime.bot_queue(game.pk)
    SCHEDULER.clear()
    assert services.timers_rearm_queue(queue) == 1
    assert [e.name for e in SCHEDULER.take()] == [services.TASK_TURN_TIMEOUT]
    Table.objects.filter(pk=table.pk).update(status=Table.Status.COMPLETED)
    assert services.timers_rearm_queue(queue) == 0
