"""An arena of the example bots, end to end through a REAL Celery worker (not eager).

The worker is a subprocess (``celery -A config worker -Q default,bots``) on a dedicated Redis
database; this process only calls the service that creates and starts the arena table. Dealing,
every bot turn (sandboxes in the worker), the next game and the rating task all run there.
"""

from __future__ import annotations

from typing import Any

import pytest

from bots.models import BotRating, BotRatingEvent
from games import services
from games.models import Action, Game, Seat, Table
from tests.bots.live import example_version, new_user
from tests.bots.worker import celery_worker, wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def _finished(table: Table, number: int) -> Game | None:
    return Game.objects.filter(table=table, number=number, status=Game.Status.FINISHED).first()


def test_arena_of_four_example_bots_through_a_real_worker(settings: Any) -> None:
    settings.GAMES_SCHEDULER = "tests.bots.worker.BrokerScheduler"
    owner = new_user("owner")
    versions = [
        example_version(owner, "random"),
        example_version(owner, "greedy"),
        example_version(owner, "defensive"),
        example_version(owner, "greedy", "Greedy two"),
    ]
    with celery_worker() as log:
        table = services.table_create_arena(
            owner=owner, bot_version_ids=[v.pk for v in versions], session_length=16
        )
        # nothing ran here: the deal waits for the worker
        game = wait_for(lambda: _finished(table, 1), timeout=120, log=log)
        wait_for(
            lambda: BotRatingEvent.objects.filter(game_id=game.pk).count() == 4,
            timeout=30,
            log=log,
        )
        # the next game is dealt automatically and played too
        wait_for(lambda: _finished(table, 2), timeout=120, log=log)

    result = game.result
    assert sorted(result["ranking"]) == [0, 1, 2, 3]
    assert result["winner"] == result["ranking"][0] == game.winner_seat
    assert sum(result["scores"]) == 0
    actions = list(Action.objects.filter(game=game).order_by("seq"))
    assert len(actions) == game.version > 0
    # every move came from a bot's sandbox, with its record; the examples never strike
    assert {a.actor for a in actions} == {Action.Actor.BOT}
    for action in actions:
        record = action.bot_record
        assert record is not None
        assert record["strike"] is None
        assert record["ok"] is True
        assert record["move"]["type"] == action.payload["type"]
        assert record["elapsed_ms"] < 5000
    assert set(Seat.objects.filter(table=table).values_list("strikes", flat=True)) == {0}
    # the rating: one event per bot, in the engine's finishing order
    events = {e.seat: e for e in BotRatingEvent.objects.filter(game_id=game.pk)}
    assert [events[s].rank for s in result["ranking"]] == [1, 2, 3, 4]
    assert events[result["ranking"][0]].won
    winner = events[result["ranking"][0]]
    assert winner.mu_after > winner.mu_before
    last = events[result["ranking"][-1]]
    assert last.mu_after < last.mu_before
    ratings = BotRating.objects.filter(bot_id__in=[v.bot_id for v in versions])
    assert ratings.count() == 4
    assert all(r.games >= 1 for r in ratings)
