"""Bot turns are sharded by game: every turn of one game goes to the same queue ``bots.<n>``
(one worker process per shard keeps the game's sandboxes and so the bots' globals), and so does
the request to close that game's sandboxes. The end-to-end check through real worker processes
is in tests/bots/test_arena_worker.py."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from bots import services as bot_services
from config.settings import base
from games import realtime, services
from games.models import Game
from games.realtime import bot_queue
from tests.bots.live import COUNTING_BOT, new_user, ready_version
from tests.scheduler import SCHEDULER


def test_the_shard_is_a_pure_function_of_the_game_id(settings: Any) -> None:
    settings.BOTS_QUEUE_SHARDS = 3
    assert [bot_queue(g) for g in range(1, 8)] == [
        "bots.1",
        "bots.2",
        "bots.0",
        "bots.1",
        "bots.2",
        "bots.0",
        "bots.1",
    ]
    assert {bot_queue(41) for _ in range(10)} == {"bots.2"}
    assert services.bot_queue(41) == "bots.2"
    settings.BOTS_QUEUE_SHARDS = 1
    assert {bot_queue(g) for g in range(50)} == {"bots.0"}


def test_the_default_settings_declare_the_shard_queues() -> None:
    names = [q.name for q in base.CELERY_TASK_QUEUES]
    shards = [f"bots.{n}" for n in range(base.BOTS_QUEUE_SHARDS)]
    # bots.tournament: tournament tables' turns; trials: validation, Test Bot; lab: matches;
    # ladder, bots.ladder: the bot ladder's tasks and its tables' turns (worker-ladder)
    assert names == [
        "default",
        "bots",
        *shards,
        "bots.tournament",
        "trials",
        "lab",
        "ladder",
        "bots.ladder",
    ]
    assert base.CELERY_TASK_ROUTES["bots.tasks.*"] == {"queue": "bots"}
    assert base.CELERY_TASK_ROUTES["bots.tasks.match_run"] == {"queue": "lab"}
    assert base.CELERY_TASK_ROUTES["bots.tasks.ladder_*"] == {"queue": "ladder"}


def test_no_user_code_runs_on_the_timers_worker(tmp_path: Any) -> None:
    """Issue 24 item 6: two Test Bot runs of ``while(true){}`` held both slots of the worker of
    the timers (``default,bots``) and a table's 3 s countdown took 29 s. Validation games and
    Test Bot runs now go to ``trials``, which only ``worker-trials`` consumes; the worker of the
    timers consumes no queue on which a user's code runs (nor do the lab and turn workers
    consume ``default``)."""
    from celery import current_app

    from config import launcher

    routes = current_app.conf.task_routes
    assert routes[bot_services.VALIDATE_TASK] == {"queue": "trials"}
    assert routes[bot_services.TEST_RUN_TASK] == {"queue": "trials"}
    assert bot_services.TRIALS_QUEUE == "trials"
    user_code = {"trials", "lab", "bots.tournament", *(f"bots.{n}" for n in range(4))}
    consumed: dict[str, set[str]] = {}
    env = {"TIENLEN_DATA_DIR": str(tmp_path), "BOTS_QUEUE_SHARDS": "4"}
    for program in launcher.site_programs(env):
        if "worker" in program.command:
            queues = program.command[program.command.index("-Q") + 1]
            consumed[program.name] = set(queues.split(","))
            if "--bot-shards" in program.command:  # its home queue, through a lease
                home = program.command[program.command.index("--bot-shard-home") + 1]
                # -Q names an idle queue (shards, tournament) or the ladder's own tasks
                consumed[program.name] = {home} | (consumed[program.name] - {"bots.idle"})
    assert "default" in consumed["worker-default"]
    assert not consumed["worker-default"] & user_code
    assert consumed["worker-trials"] == {"trials"}
    others = [name for name in consumed if name != "worker-default"]
    assert all("default" not in consumed[name] for name in others)
    assert {q.name for q in base.CELERY_TASK_QUEUES} <= set().union(*consumed.values())


@pytest.mark.django_db(transaction=True)
def test_every_bot_turn_of_a_game_is_scheduled_on_its_shard(settings: Any) -> None:
    """A practice table (a bot and three house AIs; the house player stands in for the bot's
    code): each turn waits in the manual scheduler with its queue until it is run."""
    settings.BOTS_QUEUE_SHARDS = 4
    settings.GAMES_BOT_DELAY_SECONDS = 0.5
    SCHEDULER.take()
    owner = new_user("owner")
    version = ready_version(owner, COUNTING_BOT)
    table = services.table_create_practice(owner=owner, bot_version_id=version.pk, watch=True)
    game = Game.objects.get(table=table, number=1)
    queues: list[str] = []
    for _ in range(30):
        pending = SCHEDULER.take("games.seat_autoplay")
        if not pending:
            break
        queues += [queue for _, _, _, queue in pending]
        for _, name, args, _ in pending:
            realtime.schedule(name, args, delay=0)
    assert len(queues) >= 10
    assert set(queues) == {f"bots.{game.pk % 4}"}
    SCHEDULER.take()


@pytest.mark.django_db(transaction=True)
def test_closing_a_games_sandboxes_elsewhere_goes_to_its_shard(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The game ended on a person's move (daphne holds no sandbox of it): the release task is
    sent to the game's shard, the one process that holds them."""
    settings.BOTS_QUEUE_SHARDS = 4
    sent: list[tuple[str, list[Any], float, str]] = []

    def collect(
        name: str, args: list[Any], *, delay: float, queue: str, since: float | None = None
    ) -> None:
        sent.append((name, args, delay, queue))  # sent, not run: no worker here

    monkeypatch.setattr(SCHEDULER, "schedule", collect)
    game = SimpleNamespace(pk=4242, players=[{"kind": "bot"}])
    bot_services.bot_game_finished(game=game, table=SimpleNamespace(mode="hybrid"))
    assert sent == [(bot_services.RELEASE_TASK, ["game:4242"], 0, "bots.2")]
