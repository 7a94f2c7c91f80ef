"""Celery tasks of matches (imported by :mod:`bots.tasks`, so workers register them).

``match_run`` goes to the ``lab`` queue (``./bin/run``'s ``worker-lab``); the healer runs on
beat's schedule (``CELERY_BEAT_SCHEDULE["bots-matches-heal"]``)."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

from bots.matches import services

#: A whole match is one task: 500 deals of bots at the move timeout fit well within it.
MATCH_SOFT_LIMIT = int(getattr(settings, "BOTS_MATCH_TIME_LIMIT_SECONDS", 3 * 60 * 60))


@shared_task(
    name=services.RUN_TASK,
    ignore_result=True,
    acks_late=True,
    soft_time_limit=MATCH_SOFT_LIMIT,
    time_limit=MATCH_SOFT_LIMIT + 60,
)
def match_run(match_id: int) -> str:
    """Play a queued match to its end (or stop); returns its status. Idempotent: a match that
    is not ``queued`` any more is left alone (see the service)."""
    return services.match_execute(match_id=match_id)


@shared_task(name=services.HEAL_TASK, ignore_result=True, soft_time_limit=20, time_limit=30)
def matches_heal() -> dict[str, int]:
    """Resume matches whose worker died (``failed`` after too many), requeue lost ones (see
    the service)."""
    return services.matches_heal()
