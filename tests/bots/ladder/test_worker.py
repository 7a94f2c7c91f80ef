"""The ladder through a REAL Celery worker (a subprocess on a dedicated Redis database, as
tests/bots/test_arena_worker.py): this process only runs the scheduler's tick; the deals, every
bot turn (sandboxes in the worker) and the recording of the set run there. The worker consumes
only ``default``, ``bots``, ``ladder`` and ``bots.ladder``, not the people's tables' shard
queues: the set finishing shows the ladder's turns never go to those."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bots.ladder import services
from bots.models import Bot, LadderEntrant, LadderSet
from games.models import Action, Game
from tests.bots.live import example_version, new_user
from tests.bots.worker import celery_worker, wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def test_a_ladder_set_plays_and_is_recorded_on_the_ladder_worker(settings: Any) -> None:
    settings.GAMES_SCHEDULER = "tests.bots.worker.BrokerScheduler"
    settings.GAMES_COUNTDOWN_SECONDS = 0.5  # the deal too waits for the worker
    settings.LADDER_GAMES = ["tienlen:3"]
    owner = new_user("owner")
    versions = [example_version(owner, key) for key in ("greedy", "defensive")]
    for version in versions:
        Bot.objects.filter(pk=version.bot_id).update(promoted_version=version)
    env = {"HOUSE_AI_BUDGET_MS": "20"}
    with celery_worker(queues=("default", "bots", "ladder", "bots.ladder"), env=env) as log:
        assert services.ladder_tick(rng=random.Random(2)) == 1
        the_set = LadderSet.objects.get()
        wait_for(
            lambda: LadderSet.objects.filter(
                pk=the_set.pk, status=LadderSet.Status.FINISHED
            ).exists(),
            timeout=180,
            log=log,
        )
    the_set.refresh_from_db()
    games = list(Game.objects.filter(table__ladder_table__ladder_set=the_set))
    assert len(games) == 3
    assert {g.seed for g in games} == {the_set.seed}
    assert all(g.status == Game.Status.FINISHED for g in games)
    # the bots' moves came from their sandboxes in the worker
    bot_moves = Action.objects.filter(game__in=games, actor=Action.Actor.BOT)
    assert bot_moves.exists()
    assert all(a.bot_record and a.bot_record["ok"] for a in bot_moves)
    assert len(the_set.totals) == 3
    played = [LadderEntrant.objects.get(pk=e) for e in the_set.field]
    assert [e.games for e in played if not e.anchor] == [3] * sum(not e.anchor for e in played)
