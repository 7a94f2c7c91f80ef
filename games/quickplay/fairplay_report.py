"""The staff's fair play report (docs/quickplay.md "Fair play report"): loads the last
``FAIRPLAY_DAYS`` days of finished games with at least two people and scores the pairs with
the pure rule of :mod:`games.quickplay.fairplay`."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.urls import reverse

from games import clock
from games.models import Game, Seat
from games.quickplay.fairplay import GameRecord, PairReport, suspicious_pairs
from games.quickplay.models import QuickPlaySeat

__all__ = ["ReportRow", "fairplay_report"]


@dataclass(frozen=True)
class ReportRow:
    """A listed pair with the names and the evidence links (``(label, url)``) the page shows."""

    pair: PairReport
    gainer_name: str
    loser_name: str
    evidence: tuple[tuple[str, str], ...]


def _people(players: Any) -> dict[int, int]:
    out: dict[int, int] = {}
    for p in players if isinstance(players, list) else []:
        if (
            isinstance(p, dict)
            and p.get("kind") == Seat.Kind.HUMAN
            and isinstance(p.get("seat"), int)
            and isinstance(p.get("user_id"), int)
        ):
            out[p["seat"]] = p["user_id"]
    return out


def fairplay_report(now: datetime | None = None) -> list[ReportRow]:
    """The pairs that look like collusion or farming, most suspicious first."""
    now = now or clock.now_datetime()
    since = now - timedelta(days=settings.FAIRPLAY_DAYS)
    rows = Game.objects.filter(
        status=Game.Status.FINISHED, ended_at__gte=since, ended_at__lte=now
    ).values_list("pk", "engine", "players", "scores", "number", "table__code")
    records: list[GameRecord] = []
    links: dict[int, tuple[str, str]] = {}
    for pk, engine, players, scores, number, code in rows.iterator():
        people = _people(players)
        if len(set(people.values())) < 2 or not isinstance(scores, list):
            continue
        if not all(isinstance(s, int | float) and not isinstance(s, bool) for s in scores):
            continue
        records.append(GameRecord(pk, engine, people, [float(s) for s in scores]))
        links[pk] = (f"{code} #{number}", reverse("tables:game", args=[code, number]))
    users = {u for r in records for u in r.people.values()}
    addresses: dict[int, set[str]] = {}
    seen = QuickPlaySeat.objects.filter(user_id__in=users, created_at__gte=since).values_list(
        "user_id", "address"
    )
    for user_id, address in seen:
        addresses.setdefault(user_id, set()).add(address)
    pairs = suspicious_pairs(records, min_games=settings.FAIRPLAY_MIN_GAMES, addresses=addresses)
    listed = {u for p in pairs for u in (p.gainer, p.loser)}
    names = dict(get_user_model().objects.filter(pk__in=listed).values_list("pk", "username"))
    return [
        ReportRow(
            pair=p,
            gainer_name=str(names.get(p.gainer, p.gainer)),
            loser_name=str(names.get(p.loser, p.loser)),
            evidence=tuple(links[g] for g in p.games),
        )
        for p in pairs
    ]
