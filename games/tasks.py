"""Celery tasks of live tables: timers and automatic seats. Thin and idempotent.

Every task takes ids plus the version it was scheduled for and calls one service; the service
does nothing when the table or game has moved on, so a late, early or duplicate delivery is
harmless. Services schedule these by name through :mod:`games.realtime` (docs/protocol.md).
"""

from __future__ import annotations

from typing import Any

from celery import shared_task

from games import history, metrics, services
from games.quickplay.services import TASK_PAIR as TASK_QUICKPLAY_PAIR
from games.quickplay.services import pool_pair

#: The beat task that heals timers lost with a dead process (every 5 s; README "Production").
TASK_TIMERS_HEAL = "games.timers_heal"
TASK_PRESENCE_HEAL = "games.presence_heal"


@shared_task(name=services.TASK_TURN_TIMEOUT, ignore_result=True)
def turn_timeout(game_id: int, version: int) -> bool:
    """The turn deadline of ``game_id`` at ``version`` passed: the house policy acts."""
    return services.game_timeout(game_id=game_id, version=version)


@shared_task(name=services.TASK_SEAT_AUTOPLAY, ignore_result=True, bind=True)
def seat_autoplay(self: Any, game_id: int, version: int) -> bool:
    """A house AI, bot, away or disqualified seat acts at ``version`` (queue ``bots.<n>``, or
    ``bots.tournament`` at a tournament table), and the server seats' turns that follow at once
    (:func:`services.game_autoplay_turns`), which go back to the queue this came from."""
    queue = (getattr(self.request, "delivery_info", None) or {}).get("routing_key")
    return services.game_autoplay_turns(game_id=game_id, version=version, queue=queue)


@shared_task(name=services.TASK_SEAT_HOLD, ignore_result=True)
def seat_hold_expired(table_id: int, seat: int, since: str) -> bool:
    """A disconnected player's 30-second hold is over."""
    return services.seat_hold_expired(table_id=table_id, seat=seat, since=since)


@shared_task(name=services.TASK_TABLE_BEGIN, ignore_result=True)
def table_begin(table_id: int, version: int) -> bool:
    """The start countdown ended: deal game 1 unless the lobby changed."""
    return services.table_begin(table_id=table_id, version=version)


@shared_task(name=services.TASK_NEXT_GAME, ignore_result=True)
def next_game(table_id: int, after_game: int) -> bool:
    """Deal the game after ``after_game`` unless a player already did."""
    return services.game_next(table_id=table_id, after_game=after_game)


@shared_task(name=services.TASK_REMATCH_DEADLINE, ignore_result=True)
def rematch_deadline(table_id: int, offer_id: str) -> bool:
    """A rematch offer's deadline passed: who has not answered declines; the offer settles."""
    return services.rematch_deadline(table_id=table_id, offer_id=offer_id)


@shared_task(name=history.TASK_ARCHIVE, ignore_result=True)
def game_archive(game_id: int) -> bool:
    """Archive a finished game into ``Game.game_log`` (idempotent: a redelivery changes nothing)."""
    return history.game_archive(game_id=game_id)


@shared_task(name=history.TASK_PRUNE, ignore_result=True)
def actions_prune() -> int:
    """Delete hot ``Action`` rows of archived games past ``GAMES_ACTION_RETENTION_DAYS``
    (scheduled daily by Celery beat, ``CELERY_BEAT_SCHEDULE``)."""
    return history.actions_prune()


@shared_task(name=TASK_TIMERS_HEAL, ignore_result=True)
def timers_heal() -> int:
    """Beat, every few seconds (``CELERY_BEAT_SCHEDULE``): re-arm the timers of live tables
    that are overdue by more than ``GAMES_TIMERS_GRACE_SECONDS`` because the process holding
    them died (a killed worker, daphne killed right after a move). Idempotent: a copy of a
    timer that was only late does nothing.

    Then it announces the current version of every table that moved in the last
    ``GAMES_ANNOUNCE_SECONDS`` (:func:`games.services.versions_announce`): a move whose process
    died between its commit and its frames reaches the table's sockets within this period."""
    healed = metrics.timers_healed(
        services.timers_resume(overdue_by=services.timers_grace_seconds())
    )
    services.versions_announce()
    return healed


@shared_task(name=TASK_PRESENCE_HEAL, ignore_result=True)
def presence_heal() -> int:
    """Beat, every few seconds: seats still counted as connected by sockets of a process that
    died (their leases lapsed, games/seat_leases.py) turn disconnected, and their disconnect
    hold starts. Idempotent."""
    return services.presence_heal()


@shared_task(name=TASK_QUICKPLAY_PAIR, ignore_result=True)
def quickplay_pair() -> int:
    """Beat, every ``QUICKPLAY_PAIR_EVERY_SECONDS`` (and once after each join): form the
    quick-play tables due now (docs/quickplay.md). A no-op while the pool is empty."""
    return len(pool_pair())
