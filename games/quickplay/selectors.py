"""Reads of people's ratings for the pages (docs/quickplay.md)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet

from games import skill
from games.engine.registry import GAMES
from games.models import game_seat_range
from games.quickplay.models import PersonRating, PersonRatingEvent


def quickplay_choices() -> list[tuple[str, list[int]]]:
    """Every game with the seat counts Quick play offers (the game's seat range)."""
    out = []
    for name in GAMES:
        low, high = game_seat_range(name)
        out.append((name, list(range(low, high + 1))))
    return out


def people_leaderboard(*, game: str) -> QuerySet[PersonRating]:
    """People rated in ``game``, best (mu − 3σ) first."""
    return (
        PersonRating.objects.filter(game=game, games__gt=0, user__is_active=True)
        .select_related("user")
        .order_by("-ordinal", "user_id")
    )


@dataclass(frozen=True)
class RatingRow:
    game: str
    display: int
    estimate: int
    band: int
    games: int
    wins: int


def rating_rows(user: Any) -> list[RatingRow]:
    """A person's rating in each game they played rated: shown rating, estimate ± 95% band."""
    rows = []
    for r in PersonRating.objects.filter(user=user, games__gt=0).order_by("game"):
        estimate, band = skill.skill_band(r.mu, r.sigma)
        rows.append(
            RatingRow(r.game, skill.display_rating(r.mu, r.sigma), estimate, band, r.games, r.wins)
        )
    return rows


def rating_history(user: Any, game: str, *, limit: int = 50) -> list[PersonRatingEvent]:
    """The last ``limit`` rated games of a person in ``game``, oldest first."""
    events = list(
        PersonRatingEvent.objects.filter(user=user, game=game).order_by("-created_at", "-pk")[
            :limit
        ]
    )
    return list(reversed(events))
