"""Celery tasks of the bots app; all run on the ``bots`` queue (``CELERY_TASK_ROUTES``)."""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from bots import services
from bots.warmup import PREPARE_TASK, bot_prepare_game


@shared_task(
    name=services.VALIDATE_TASK,
    acks_late=True,
    # One game of up to 2 minutes (the validation budget), plus starting four sandboxes.
    soft_time_limit=170,
    time_limit=180,
)
def botversion_validate(version_id: int) -> str:
    """Play the version's validation game; returns its status. Idempotent (see the service)."""
    return services.botversion_validate(version_id=version_id).status


@shared_task(
    name=services.RATINGS_TASK,
    acks_late=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=5,
    soft_time_limit=20,
    time_limit=30,
)
def ratings_record_game_task(game_id: int) -> bool:
    """Rate a finished arena game's bots; returns whether it rated. Idempotent (see the
    service), so a duplicate delivery or a retry changes nothing."""
    return services.ratings_record_game(game_id=game_id)


@shared_task(name=services.RELEASE_TASK, ignore_result=True, soft_time_limit=20, time_limit=30)
def bot_release_game_task(game_key: str) -> int:
    """Close a finished game's bot sandboxes in this worker process; returns how many."""
    return services.bot_release_game(game_key=game_key)


@shared_task(name=PREPARE_TASK, ignore_result=True, soft_time_limit=60, time_limit=70)
def bot_prepare_game_task(game_id: int) -> int:
    """A game was dealt: start its user bots' sandboxes in this process (its shard worker)
    before their first turns; returns how many (bots/warmup.py)."""
    return bot_prepare_game(game_id=game_id)


@shared_task(
    name=services.TEST_RUN_TASK,
    ignore_result=True,
    # The samples' 30 s budget, plus a last sample that started just before it ran out.
    soft_time_limit=80,
    time_limit=90,
)
def bot_test_run_task(run_id: str) -> str:
    """Test Bot: run the samples of run ``run_id`` and store the results in its record (the
    editor polls it); returns the run's status. Idempotent (see the service)."""
    return services.bot_test_run_execute(run_id=run_id)


# Duplicate matches (bots/matches/): registered with this module, where the workers look.
# The bot ladder (bots/ladder/): on the ladder queue.
from bots.ladder.tasks import ladder_close_set_task, ladder_refit, ladder_tick  # noqa: E402
from bots.matches.tasks import match_run, matches_heal  # noqa: E402

__all__ = [
    "bot_prepare_game_task",
    "bot_release_game_task",
    "bot_test_run_task",
    "botversion_validate",
    "ladder_close_set_task",
    "ladder_refit",
    "ladder_tick",
    "match_run",
    "matches_heal",
    "ratings_record_game_task",
]
