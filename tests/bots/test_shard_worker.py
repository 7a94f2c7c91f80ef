"""A shard worker plays several games at once: ONE process (the sandboxes, and so the bots'
globals, live there) with a thread pool (``-P threads --concurrency N``), through REAL Celery
workers. A bot that thinks for seconds at one table costs only that table: the house AIs and
the bot at another table of the same shard keep their pace."""

from __future__ import annotations

import itertools
from datetime import datetime
from typing import Any

import pytest

from games import services
from games.models import Action, Game, Table
from games.realtime import bot_queue
from tests.bots.live import COUNTING_BOT, new_user, ready_version
from tests.bots.worker import (
    BROKER_URL,
    BrokerScheduler,
    _own_database,
    celery_worker,
    wait_for,
    worker_stats,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

#: Not the shared test worker database: other real-worker tests may run meanwhile.
BROKER = _own_database(BROKER_URL, 11)
SLOW_MS = 3000
#: What another table's turn may wait at most (it waited SLOW_MS on a one-at-a-time shard).
MARGIN_S = 1.5

#: Thinks for SLOW_MS per move (within the 5 s move limit), then plays its first valid move.
SLOW_BOT = f"""
function getNextMove(gameState) {{
  const start = Date.now();
  while (Date.now() - start < {SLOW_MS}) {{}}
  if (gameState.validMoves.length > 0) {{
    return {{ action: "play", cards: gameState.validMoves[0].cards }};
  }}
  return {{ action: "pass" }};
}}
"""


class Scheduler(BrokerScheduler):
    broker_url = BROKER


def _actions(table: Table) -> list[Action]:
    return list(Action.objects.filter(game__table=table).order_by("game__number", "seq"))


def test_a_slow_bot_delays_only_its_own_table(settings: Any) -> None:
    settings.GAMES_SCHEDULER = f"{__name__}.Scheduler"
    owner = new_user("owner")
    slow = ready_version(owner, SLOW_BOT, "Slow")
    fast = ready_version(owner, COUNTING_BOT, "Counter")
    with (
        celery_worker(broker_url=BROKER, queues=("default", "bots"), label="shard-default"),
        celery_worker(
            broker_url=BROKER,
            queues=("bots.0",),
            pool="threads",
            concurrency=4,
            label="shard-threads",
            clean=False,
        ) as log,
    ):
        slow_table = services.table_create_practice(owner=owner, bot_version_id=slow.pk, watch=True)
        fast_table = services.table_create_practice(owner=owner, bot_version_id=fast.pk, watch=True)

        def slow_moves() -> list[datetime]:
            return [a.created_at for a in _actions(slow_table) if a.seat == 0]

        # both tables play on; wait for at least the slow bot's third move after the other
        # table began, and for the other table to have made 10 moves inside one game by then
        # (a short deal and the pause before the next game can leave fewer: the window then
        # takes the slow bot's next move too)
        first = wait_for(lambda: _actions(fast_table), timeout=60, log=log)[0].created_at

        def window() -> tuple[list[Action], list[float]] | None:
            slow = [t for t in slow_moves() if t > first]
            if len(slow) < 3:
                return None
            actions = [a for a in _actions(fast_table) if a.created_at <= slow[-1]]
            gaps = [
                (b.created_at - a.created_at).total_seconds()
                for a, b in itertools.pairwise(actions)
                if a.game_id == b.game_id
            ]
            return (actions, gaps) if len(gaps) >= 10 else None

        actions, gaps = wait_for(window, timeout=120, log=log)
        stats = worker_stats("shard-threads", broker_url=BROKER)
    games = {g.pk for g in Game.objects.filter(table__in=[slow_table, fast_table])}
    assert {bot_queue(g) for g in games} == {"bots.0"}  # one shard
    # the other table's turns went on during the slow bot's moves: no gap inside a game of it
    # comes near the slow bot's thinking time
    assert max(gaps) < MARGIN_S, sorted(gaps)[-5:]
    # the fast bot's turns ran in one process: its global move counter went on all game
    for game_id in {a.game_id for a in actions}:
        records = [a.bot_record for a in actions if a.game_id == game_id and a.seat == 0]
        assert [r["console"] for r in records if r] == [
            [f"move {n}"] for n in range(1, len(records) + 1)
        ]
    # the slow bot moved in time (no strike), and one process served the shard
    slow_records = [a.bot_record for a in _actions(slow_table) if a.seat == 0]
    assert slow_records
    assert all(r and r["strike"] is None for r in slow_records)
    assert stats["pool"]["max-concurrency"] == 4
    assert "processes" not in stats["pool"]
