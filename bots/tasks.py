"""Celery tasks of the bots app; all run on the ``bots`` queue (``CELERY_TASK_ROUTES``)."""

from __future__ import annotations

from celery import shared_task

from bots import services


@shared_task(
    name=services.VALIDATE_TASK,
    acks_late=True,
    # One game of up to 2 minutes (the validation budget), plus starting four sandboxes.
    soft_time_limit=170,
    time_limit=180,
)
def botversion_validate(*, version_id: int) -> str:
    """Play the version's validation game; returns its status. Idempotent (see the service)."""
    return services.botversion_validate(version_id=version_id).status
