"""Celery tasks of the ladder (imported by :mod:`bots.tasks`, so workers register them); all on
the ``ladder`` queue (``CELERY_TASK_ROUTES``: ``worker-ladder``)."""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from bots.ladder import services


@shared_task(name="bots.tasks.ladder_tick", ignore_result=True, soft_time_limit=60, time_limit=90)
def ladder_tick() -> int:
    """Beat: enter entrants, record finished sets, start the next ones (see the service)."""
    return services.ladder_tick()


@shared_task(
    name=services.CLOSE_TASK,
    ignore_result=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=5,
    soft_time_limit=30,
    time_limit=40,
)
def ladder_close_set_task(set_id: int) -> str:
    """Record a ladder set once all its tables are done (idempotent)."""
    return services.ladder_close_set(set_id=set_id)


@shared_task(
    name="bots.tasks.ladder_refit", ignore_result=True, soft_time_limit=300, time_limit=330
)
def ladder_refit() -> int:
    """Beat: refit every ladder over all its sets in a fixed order (see the service)."""
    return sum(services.ladder_refit(ladder) for ladder in services.ladders())
