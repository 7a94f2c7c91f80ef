"""Celery tasks of tournaments (imported by ``GamesConfig.ready``). Thin and idempotent."""

from __future__ import annotations

from celery import shared_task

from games.tournaments import services


@shared_task(name=services.TASK_TICK, ignore_result=True)
def tournaments_tick() -> int:
    """Beat, every few seconds: start due tournaments and rounds, close finished rounds."""
    return services.tournaments_tick()


@shared_task(name=services.TASK_ADVANCE, ignore_result=True)
def tournament_advance(tournament_id: int) -> bool:
    """A round's table finished (or a start is due): bring the tournament up to date."""
    return services.tournament_advance(tournament_id=tournament_id)
