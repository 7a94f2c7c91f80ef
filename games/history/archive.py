"""Archiving: a finished game's compact log written into ``Game.game_log``, and the prune of the
hot ``Action`` rows of archived games (see the package docstring)."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from games.engine.core.protocol import Game as EngineGame
from games.history.records import (
    ARCHIVE_FORMAT,
    JSON,
    HistoryError,
    Record,
    clean_action,
    engine_of,
    game_record,
    is_archive,
    jsonish,
    players_of,
    public_players,
    seat_count,
)
from games.history.replay import disqualified_steps, replay_round
from games.history.stats import seat_summary
from games.models import Action, Game

logger = logging.getLogger(__name__)


TASK_ARCHIVE = "games.game_archive"
TASK_PRUNE = "games.actions_prune"


def retention_days() -> int:
    """Days the hot ``Action`` rows of an archived game are kept (setting
    ``GAMES_ACTION_RETENTION_DAYS``, default 30)."""
    return int(settings.GAMES_ACTION_RETENTION_DAYS)


# --------------------------------------------------------------------------- archiving
def _summary(
    game: Game, engine: EngineGame, record: Record, state: Any, result: Mapping[str, Any]
) -> JSON:
    players = players_of(game)
    n = len(players) or seat_count(record.config, [])
    seats = [seat_summary(result, s) for s in range(n)]
    reasons: dict[str, int] = {}
    for t in result.get("transfers") or []:
        reason = str(t.get("reason"))
        reasons[reason] = reasons.get(reason, 0) + int(t.get("points", 0))
    return {
        "players": public_players(players),
        "winner": result.get("winner"),
        "ranking": list(result.get("ranking") or []),
        "scores": list(result.get("scores") or []),
        "rounds": replay_round(engine, state) + 1,
        "actions": len(record.actions),
        # the game's own numbers (``seat_stats``): the seats listed, or a count per seat
        **{
            stat.key: [s for s in range(n) if seats[s][stat.key]]
            if stat.kind == "listed"
            else [seat[stat.key] for seat in seats]
            for stat in engine.seat_stats
        },
        "points_by_reason": reasons,
        "disqualified": disqualified_steps(game, record, n),
        "started_at": game.started_at.isoformat() if game.started_at else None,
        "ended_at": game.ended_at.isoformat() if game.ended_at else None,
    }


def archive_log(game: Game) -> JSON:
    """The archive of a finished game: the engine record, each action's actor, the owner-only
    bot records (by seq), the result and a summary. Raises when the replay does not reproduce
    the stored result (the archive must replay identically)."""
    engine = engine_of(game.engine, game.rules_version)
    record = game_record(game)
    state = engine.replay(record.config, record.seed, record.actions)
    result = engine.result(state)
    if result is None:
        raise HistoryError("incomplete", f"game {game.pk}: the actions do not end the game")
    if isinstance(game.result, dict) and jsonish(game.result) != jsonish(result):
        raise HistoryError("result_mismatch", f"game {game.pk}: the replay differs")
    return {
        "format": ARCHIVE_FORMAT,
        "game": game.engine,
        "rules_version": game.rules_version,
        "config": record.config,
        "seed": record.seed,
        "actions": [clean_action(a) for a in record.actions],
        "actors": record.actors,
        "bot_records": {str(k): v for k, v in sorted(record.bot_records.items())},
        "result": jsonish(result),
        "summary": _summary(game, engine, record, state, result),
    }


@transaction.atomic
def game_archive(*, game_id: int) -> bool:
    """Write the archive of finished game ``game_id`` into ``game_log`` and set
    ``archived_at``. Idempotent: returns False, changing nothing, when the game is not finished,
    its archive is already up to date, or it does not replay to its stored result (logged)."""
    game = Game.objects.select_for_update().filter(pk=game_id).first()
    if game is None or game.status != Game.Status.FINISHED:
        return False
    try:
        log = archive_log(game)
    except ValueError as exc:  # a game that does not replay: keep it as it is, say so
        logger.error("game not archived", extra={"game": game_id, "error": str(exc)})
        return False
    if game.archived_at is not None and jsonish(game.game_log) == jsonish(log):
        return False
    game.game_log = log
    game.archived_at = timezone.now()
    game.save(update_fields=["game_log", "archived_at"])
    return True


def games_to_archive() -> QuerySet[Game]:
    """Ids of every finished game, oldest first (what ``games_archive`` walks)."""
    return Game.objects.filter(status=Game.Status.FINISHED).order_by("pk")


@transaction.atomic
def actions_prune(*, days: int | None = None, now: datetime | None = None) -> int:
    """Delete the ``Action`` rows of archived games that ended more than ``days`` (default the
    retention setting) ago; return how many rows went. Only games whose archive holds all
    their actions are pruned."""
    cutoff = (now or timezone.now()) - timedelta(days=retention_days() if days is None else days)
    candidates = Game.objects.filter(
        status=Game.Status.FINISHED, archived_at__isnull=False, ended_at__lt=cutoff
    ).values_list("pk", "version", "game_log")
    ids = [
        pk
        for pk, version, log in candidates
        if isinstance(log, dict) and is_archive(log) and len(log.get("actions") or []) == version
    ]
    if not ids:
        return 0
    deleted, _ = Action.objects.filter(game_id__in=ids).delete()
    return int(deleted)
