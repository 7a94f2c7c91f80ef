"""Celery tasks of matches (imported by :mod:`bots.tasks`, so workers register them).

``match_run`` goes to the ``lab`` queue (``./bin/run``'s ``worker-lab``): one slice of the
lab's next match, round-robin by user; the healer runs on beat's schedule
(``CELERY_BEAT_SCHEDULE["bots-matches-heal"]``, every ``BOTS_MATCH_HEAL_SECONDS``, 2 s)."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

from bots.matches import services

#: A task plays slices of one match while nobody else waits: at most a whole match, 500 deals
#: of bots at the move timeout fit well within it.
MATCH_SOFT_LIMIT = int(settings.BOTS_MATCH_TIME_LIMIT_SECONDS)


@shared_task(
    name=services.RUN_TASK,
    ignore_result=True,
    acks_late=True,
    # a killed pool process puts its message back at once (the healer resumes its match)
    reject_on_worker_lost=True,
    soft_time_limit=MATCH_SOFT_LIMIT,
    time_limit=MATCH_SOFT_LIMIT + 60,
)
def match_run(match_id: int) -> str:
    """Play a slice of the lab's next queued match (round-robin by user; see the service);
    returns its status. Idempotent: with no match queued it does nothing."""
    return services.match_execute(match_id=match_id)


@shared_task(name=services.HEAL_TASK, ignore_result=True, soft_time_limit=20, time_limit=30)
def matches_heal() -> dict[str, int]:
    """Resume matches whose worker died (``failed`` after too many), requeue lost ones (see
    the service)."""
    return services.matches_heal()
