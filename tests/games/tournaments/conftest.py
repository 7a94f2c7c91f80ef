from __future__ import annotations

from datetime import timedelta
from typing import Any

from games import clock
from games.tournaments import services
from games.tournaments.models import Entry, Tournament
from tests.factories import UserFactory


def make_tournament(
    *,
    people: int = 0,
    house: int = 0,
    start_in: float = 0.0,
    creator: Any = None,
    **options: Any,
) -> tuple[Tournament, list[Any]]:
    """A tournament of Tiến Lên (``options`` override) with ``people`` people entered first,
    then ``house`` house AIs (medium), starting ``start_in`` seconds from the clock's now."""
    creator = creator or UserFactory.create()
    settings: dict[str, Any] = {
        "name": "Cup",
        "game": "tienlen",
        "format": Tournament.Format.SWISS,
        "rounds": 2,
        "table_size": 4,
        "games_per_round": 1,
        "turn_seconds": 30,
        "round_gap_seconds": 60,
        **options,
    }
    t = services.tournament_create(
        creator=creator,
        start_at=clock.now_datetime() + timedelta(seconds=start_in),
        **settings,
    )
    users = [UserFactory.create() for _ in range(people)]
    for user in users:
        services.entry_join(tournament_id=t.pk, user=user, code=t.invite_code)
    for _ in range(house):
        services.entry_add_house(tournament_id=t.pk, user=creator, level="medium")
    return t, users


def entries(t: Tournament) -> list[Entry]:
    return list(t.entries.order_by("id"))
