"""People's per-game ratings (docs/quickplay.md "Ratings"): openskill Plackett–Luce, as bots',
with house AIs as fixed anchors (``games.skill``); moved by every finished game of a rated
table (``options["rated"]``: quick-play tables)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from games import clock, skill
from games.models import Game, Seat, Table, is_rated
from games.quickplay.models import PersonRating, PersonRatingEvent

__all__ = ["rating_of", "ratings_record"]


def rating_of(user_id: int, game: str) -> tuple[float, float]:
    """``(mu, sigma)`` of a person in ``game`` (a newcomer: openskill's mu 25, sigma 25/3)."""
    row = PersonRating.objects.filter(user_id=user_id, game=game).values_list("mu", "sigma")
    found = row.first()
    if found is None:
        fresh = skill.RATING_MODEL.rating()
        return float(fresh.mu), float(fresh.sigma)
    return float(found[0]), float(found[1])


@dataclass(frozen=True)
class _Entrant:
    seat: int
    rank: int
    user_id: int | None  # None: a house AI anchor
    level: str | None = None


def _entrants(game: Game) -> list[_Entrant]:
    result = game.result if isinstance(game.result, dict) else {}
    ranking = [s for s in result.get("ranking") or [] if isinstance(s, int)]
    players = {
        int(p["seat"]): p
        for p in (game.players if isinstance(game.players, list) else [])
        if isinstance(p, dict) and "seat" in p
    }
    out: list[_Entrant] = []
    seen: set[int] = set()
    for seat in ranking:
        p = players.get(seat) or {}
        if p.get("kind") == Seat.Kind.HUMAN and isinstance(p.get("user_id"), int):
            if p["user_id"] in seen:
                continue
            seen.add(p["user_id"])
            out.append(_Entrant(seat, len(out) + 1, p["user_id"]))
        elif p.get("kind") == Seat.Kind.HOUSE and skill.anchor_skill(p.get("house_level")):
            out.append(_Entrant(seat, len(out) + 1, None, p.get("house_level")))
    return out


def ratings_record(*, game: Game, table: Table) -> bool:
    """Move the ratings of the people who played finished ``game`` at a rated table: a
    quick-play table (``options["rated"]``) or a tournament table (whose people also get their
    tournament rating per round, docs/tournaments.md). Every
    person and every house AI (a fixed anchor, ``games.skill``) is ranked by the engine's
    ranking and rated together (openskill Plackett–Luce); bots do not count. Needs one person
    and two rated participants. Rows locked in user order; a game is rated once
    (:class:`PersonRatingEvent` is unique per person and game). Returns whether it rated."""
    if not is_rated(table):
        return False
    entrants = _entrants(game)
    people = sorted({e.user_id for e in entrants if e.user_id is not None})
    if not people or len(entrants) < 2:
        return False
    fresh = skill.RATING_MODEL.rating()
    with transaction.atomic():
        PersonRating.objects.bulk_create(
            [
                PersonRating(
                    user_id=u,
                    game=table.game,
                    mu=fresh.mu,
                    sigma=fresh.sigma,
                    ordinal=fresh.ordinal(),
                )
                for u in people
            ],
            ignore_conflicts=True,
        )
        rows = {
            r.user_id: r
            for r in PersonRating.objects.select_for_update()
            .filter(user_id__in=people, game=table.game)
            .order_by("user_id")
        }
        if PersonRatingEvent.objects.filter(played=game).exists():
            return False
        before = []
        for e in entrants:
            if e.user_id is None:
                mu, sigma = skill.anchor_skill(e.level) or (25.0, 25.0 / 3)
            else:
                mu, sigma = rows[e.user_id].mu, rows[e.user_id].sigma
            before.append(skill.RATING_MODEL.rating(mu=mu, sigma=sigma))
        after = skill.RATING_MODEL.rate(
            [[r] for r in before], ranks=[float(e.rank) for e in entrants]
        )
        now = game.ended_at or clock.now_datetime()
        events = []
        for e, old, (new,) in zip(entrants, before, after, strict=True):
            if e.user_id is None:
                continue  # an anchor: fixed
            row = rows[e.user_id]
            row.mu, row.sigma, row.ordinal = new.mu, new.sigma, new.ordinal()
            row.games += 1
            row.wins += int(e.rank == 1)
            row.save()
            events.append(
                PersonRatingEvent(
                    user_id=e.user_id,
                    game=table.game,
                    played=game,
                    rank=e.rank,
                    rated_players=len(entrants),
                    mu_before=old.mu,
                    sigma_before=old.sigma,
                    mu_after=new.mu,
                    sigma_after=new.sigma,
                    created_at=now,
                )
            )
        PersonRatingEvent.objects.bulk_create(events)
    return True
