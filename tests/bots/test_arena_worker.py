"""Arenas of bots, end to end through REAL Celery workers (not the test scheduler).

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
from games.realtime import bot_queue
from tests.bots.live import COUNTING_BOT, example_version, new_user, ready_version
from tests.bots.worker import celery_worker, wait_for, worker_stats

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
    # pinned deals with turns (no tới trắng): games 1 and 2 of an arena share a deal (a
    # duplicate set), so one instant-win deal would leave no moves to read
    with celery_worker(seeds=[3, 4, 5]) as log:
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
        second = wait_for(lambda: _finished(table, 2), timeout=120, log=log)

    result = game.result
    assert sorted(result["ranking"]) == [0, 1, 2, 3]
    assert result["winner"] == result["ranking"][0] == game.winner_seat
    assert sum(result["scores"]) == 0
    # game 1's deal has turns (pinned seed); game 2 is its rotated duplicate
    assert second.seed == game.seed
    played = game
    assert played.version > 0
    actions = list(Action.objects.filter(game=played).order_by("seq"))
    assert len(actions) == played.version
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


def _seat_records(game: Game) -> dict[int, list[dict[str, Any]]]:
    out: dict[int, list[dict[str, Any]]] = {}
    for action in Action.objects.filter(game=game).order_by("seq"):
        assert action.bot_record is not None
        assert action.seat is not None
        out.setdefault(action.seat, []).append(action.bot_record)
    return out


def test_bot_turns_stay_on_their_shard_process_so_globals_survive(settings: Any) -> None:
    """The production layout of bin/run: a multi-process worker for ``default``/``bots`` and one
    worker process (a thread pool) per shard queue. Every bot turn of a game runs in its
    shard's process, so a bot's global move counter goes on across the whole game (it would
    restart at 1 on a turn that landed in another process), and no bot turn runs on the default
    worker."""
    settings.GAMES_SCHEDULER = "tests.bots.worker.BrokerScheduler"
    settings.BOTS_QUEUE_SHARDS = 2
    owner = new_user("owner")
    versions = [ready_version(owner, COUNTING_BOT, f"Counter {n}") for n in range(4)]
    with (
        celery_worker(
            queues=("default", "bots"), pool="prefork", concurrency=2, label="default-test"
        ),
        celery_worker(
            queues=("bots.0",), pool="threads", concurrency=4, label="shard0", clean=False
        ) as shard0,
        celery_worker(
            queues=("bots.1",), pool="threads", concurrency=4, label="shard1", clean=False
        ) as shard1,
    ):
        table = services.table_create_arena(
            owner=owner, bot_version_ids=[v.pk for v in versions], session_length=16
        )
        games = [
            wait_for(lambda: _finished(table, 1), timeout=120, log=shard0),
            wait_for(lambda: _finished(table, 2), timeout=120, log=shard1),
        ]
        if not any(g.version for g in games):
            # an instant-win deal (tới trắng) has no turns, and the arena plays one deal in
            # every rotation (games 1-4): the next set's deal is new
            games += [
                wait_for(lambda: _finished(table, 5), timeout=120, log=shard0),
                wait_for(lambda: _finished(table, 6), timeout=120, log=shard1),
            ]
        stats = {label: worker_stats(label) for label in ("default-test", "shard0", "shard1")}
    queues = [bot_queue(g.pk) for g in games]
    assert queues == [f"bots.{g.pk % 2}" for g in games]
    assert set(queues[:2]) == {"bots.0", "bots.1"}  # consecutive games: both shards played
    played = [g for g in games if g.version > 0]
    assert played
    for game in played:
        records = _seat_records(game)
        assert sorted(records) == [0, 1, 2, 3]
        for seat_records in records.values():
            assert [r["strike"] for r in seat_records] == [None] * len(seat_records)
            assert not any(r["restarted"] for r in seat_records)
            # one sandbox (one process) for the whole game: the global counter goes on
            assert [r["console"] for r in seat_records] == [
                [f"move {n}"] for n in range(1, len(seat_records) + 1)
            ]
    # the default worker (two processes) dealt the games but played no turn; each shard
    # worker is one process (a pool of threads) and played its games' turns
    assert len(stats["default-test"]["pool"]["processes"]) == 2
    assert "games.table_begin" in stats["default-test"]["total"]
    assert "games.seat_autoplay" not in stats["default-test"]["total"]
    for game in played:
        shard = stats[{"bots.0": "shard0", "bots.1": "shard1"}[bot_queue(game.pk)]]
        assert "processes" not in shard["pool"]  # threads of the worker's one process
        assert shard["pool"]["max-concurrency"] == 4
        # turns that follow at once run in one task (games.services.game_autoplay_turns):
        # fewer tasks than turns, all of them on the game's shard
        assert 1 <= shard["total"]["games.seat_autoplay"] <= game.version
