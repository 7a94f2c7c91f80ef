"""The system heals itself with real processes: kill -9 the worker that plays a bot-only game,
start another with beat, and the game goes on within seconds, with no command and no client.

The killed worker held the game's next turn (a task it had taken from the broker, waiting for
the bot delay); with Redis as the broker such a task would come back only after the visibility
timeout (an hour). Beat's ``games.timers_heal`` re-arms it once it is overdue.
"""

from __future__ import annotations

import os
import signal
from typing import Any

import pytest

from games import services
from games.models import Game
from tests.bots.live import example_version, new_user
from tests.bots.worker import celery_worker, wait_for, worker_stats

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def _version(table_id: int) -> int:
    game = Game.objects.filter(table_id=table_id).order_by("-number").first()
    return -1 if game is None else game.number * 10_000 + game.version


def test_a_bot_game_resumes_after_kill_9_of_its_worker(settings: Any) -> None:
    settings.GAMES_SCHEDULER = "tests.bots.worker.BrokerScheduler"
    owner = new_user("owner")
    version = example_version(owner, "greedy")
    env = {
        "GAMES_BOT_DELAY_SECONDS": "0.5",
        "BOTS_MOVE_TIMEOUT_SECONDS": "2",
        "GAMES_NEXT_GAME_SECONDS": "1",  # a game that ends meanwhile is followed at once
    }
    with celery_worker(env=env, label="doomed") as log:
        table = services.table_create_practice(owner=owner, bot_version_id=version.pk, watch=True)
        wait_for(lambda: _version(table.pk) >= 10_003, timeout=60, log=log)
        os.kill(int(worker_stats("doomed")["pid"]), signal.SIGKILL)
    stalled = _version(table.pk)
    assert stalled >= 10_003

    with celery_worker(env=env, label="healer", clean=False, beat=1.0) as log:
        # overdue after the bot delay + the move timeout + the grace (2 s), found within 1 s
        wait_for(lambda: _version(table.pk) > stalled, timeout=45, log=log)
        wait_for(lambda: _version(table.pk) > stalled + 3, timeout=45, log=log)
        text = log.read_text(errors="replace")
    assert "games.timers_heal" in text
