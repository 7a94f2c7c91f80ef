"""Ratings of bots from rated games (arena and tournament tables): a multi-player
TrueSkill-style model, house AIs as fixed anchors (bots/anchors.py), recorded once per game by
a task after the game ends."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from bots.anchors import anchor_skill, rating_status
from bots.models import RATING_Z, BotRating, BotRatingEvent, BotVersion
from games import skill
from games.realtime import schedule
from games.selectors import FinishedGame, game_finished_get

__all__ = [
    "RATED_MODES",
    "RATINGS_TASK",
    "RATING_MODEL",
    "ratings_record_game",
    "ratings_record_game_later",
]

logger = logging.getLogger(__name__)

#: Celery name of the rating task (``bots.tasks``), routed to the ``bots`` queue.
RATINGS_TASK = "bots.tasks.ratings_record_game_task"

#: Table modes whose games are rated. Hybrid tables (people and bots) and casual/practice
#: tables are not: a bot's rating measures bots against bots. Tournament tables are, as arena
#: tables (docs/tournaments.md).
RATED_MODES = frozenset({"arena", "tournament"})

#: Multi-player TrueSkill-style model (openskill, Weng–Lin Plackett–Luce; ``games.skill``, the
#: one people's ratings use too); defaults mu 25, sigma 25/3.
RATING_MODEL = skill.RATING_MODEL


@dataclass(frozen=True)
class _Entrant:
    bot_id: int | None
    """None for a house AI anchor (:mod:`bots.anchors`)."""
    version_id: int | None
    seat: int
    rank: int
    level: str | None = None


def _rated_entrants(game: FinishedGame) -> list[_Entrant]:
    """The rated participants of ``game`` in finishing order (1 = best): its user bots and its
    house AIs with an anchor skill (:mod:`bots.anchors`).

    People are not rated and are left out of the order (the others keep their relative order).
    A bot holding several seats counts once, at its best-placed seat.
    """
    version_of = {
        s.index: s.bot_version_id
        for s in game.seats
        if s.kind == "bot" and s.bot_version_id is not None
    }
    anchor_of = {
        s.index: s.house_level
        for s in game.seats
        if s.kind == "house" and anchor_skill(s.house_level) is not None
    }
    bot_of_version = dict(
        BotVersion.objects.filter(pk__in=set(version_of.values())).values_list("pk", "bot_id")
    )
    entrants: list[_Entrant] = []
    seen: set[int] = set()
    for seat in game.ranking:
        if seat in anchor_of:
            entrants.append(
                _Entrant(None, None, seat, rank=len(entrants) + 1, level=anchor_of[seat])
            )
            continue
        version_id = version_of.get(seat)
        bot_id = bot_of_version.get(version_id) if version_id is not None else None
        if version_id is None or bot_id is None or bot_id in seen:
            continue
        seen.add(bot_id)
        entrants.append(_Entrant(bot_id, version_id, seat, rank=len(entrants) + 1))
    return entrants


def _entrant_rating(entrant: _Entrant, ratings: dict[int, BotRating]) -> Any:
    if entrant.bot_id is None:
        mu, sigma = anchor_skill(entrant.level) or (25.0, 25.0 / 3)
        return RATING_MODEL.rating(mu=mu, sigma=sigma)
    row = ratings[entrant.bot_id]
    return RATING_MODEL.rating(mu=row.mu, sigma=row.sigma)


def ratings_record_game(*, game_id: int) -> bool:
    """Update the ratings of the user bots that played finished game ``game_id``.

    Rated: finished games of a rated table (:data:`RATED_MODES`) whose participants pass
    :func:`bots.anchors.rating_status`: at least one user bot and two rated participants,
    where each distinct user bot counts once and each house AI counts as a fixed **anchor**
    (its skill from :data:`bots.anchors.ANCHOR_SKILLS`, never updated). The participants are
    ranked by the engine's result ranking (see :func:`_rated_entrants`) and rated together with
    openskill's Plackett–Luce model; each user bot gets a :class:`BotRatingEvent` (the rating
    history) and its :class:`BotRating` is updated. Returns whether the game was rated.

    Idempotent: the bots' rating rows are locked (``select_for_update``, in bot id order) and a
    game that already has rating events is left alone, so a duplicate call or task delivery
    changes nothing. Ratings are applied in the order the calls arrive, which is the order games
    end as long as the caller enqueues on commit.
    """
    game = game_finished_get(game_id=game_id)
    if game is None or game.mode not in RATED_MODES:
        return False
    entrants = _rated_entrants(game)
    bots = [e for e in entrants if e.bot_id is not None]
    status = rating_status(
        bots=[b.bot_id for b in bots if b.bot_id is not None],
        anchors=[e.level for e in entrants if e.bot_id is None],
    )
    if not status.rated:
        return False
    bot_ids = sorted(b.bot_id for b in bots if b.bot_id is not None)
    fresh = RATING_MODEL.rating()
    with transaction.atomic():
        BotRating.objects.bulk_create(
            [
                BotRating(bot_id=b, mu=fresh.mu, sigma=fresh.sigma, ordinal=fresh.ordinal())
                for b in bot_ids
            ],
            ignore_conflicts=True,
        )
        ratings = {
            r.bot_id: r
            for r in BotRating.objects.select_for_update()
            .filter(bot_id__in=bot_ids)
            .order_by("bot_id")
        }
        if BotRatingEvent.objects.filter(bot_id=bot_ids[0], game_id=game.id).exists():
            return False
        before = [_entrant_rating(e, ratings) for e in entrants]
        after = RATING_MODEL.rate([[r] for r in before], ranks=[float(e.rank) for e in entrants])
        events = []
        rated = len(entrants)
        for entrant, old, (new,) in zip(entrants, before, after, strict=True):
            if entrant.bot_id is None or entrant.version_id is None:
                continue  # an anchor: its skill is fixed
            won = game.winner_seat == entrant.seat
            events.append(
                BotRatingEvent(
                    bot_id=entrant.bot_id,
                    game_id=game.id,
                    version_id=entrant.version_id,
                    seat=entrant.seat,
                    rank=entrant.rank,
                    rated_bots=rated,
                    won=won,
                    mu_before=old.mu,
                    sigma_before=old.sigma,
                    mu_after=new.mu,
                    sigma_after=new.sigma,
                    played_at=game.ended_at,
                )
            )
            rating = ratings[entrant.bot_id]
            rating.mu = new.mu
            rating.sigma = new.sigma
            rating.ordinal = new.ordinal(z=RATING_Z)
            rating.games += 1
            rating.wins += int(won)
            rating.last_version_id = entrant.version_id
            if rating.last_played_at is None or game.ended_at > rating.last_played_at:
                rating.last_played_at = game.ended_at
            rating.save()
        BotRatingEvent.objects.bulk_create(events)
    logger.info("bot ratings updated", extra={"game_id": game_id, "bots": bot_ids})
    return True


def ratings_record_game_later(*, game_id: int) -> None:
    """Rate game ``game_id`` once the current transaction commits (``RATINGS_TASK`` on the
    ``bots`` queue). Call it where a game is marked finished; unrated games (not arena, fewer
    than two bots) are a cheap no-op in the task."""
    transaction.on_commit(lambda: schedule(RATINGS_TASK, [game_id], delay=0, queue="bots"))
