"""House AIs as fixed rating anchors, arenas with house AIs, and why a session is unrated."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from bots.anchors import ANCHOR_SKILLS, rating_status
from bots.arena import skill_band
from bots.models import BotRating, BotRatingEvent, BotVersion
from bots.services import ratings_record_game
from games import services as game_services
from games.models import Game, Mode, Seat
from tests.factories import BotVersionFactory, SeatFactory, TableFactory, UserFactory

pytestmark = pytest.mark.django_db


def ready(owner: Any = None, name: str = "Ant") -> BotVersion:
    kwargs = {"bot__owner": owner} if owner is not None else {}
    return BotVersionFactory.create(bot__name=name, status=BotVersion.Status.READY, **kwargs)


def finished(seats: list[BotVersion | str], ranking: list[int]) -> Game:
    """A finished arena game; a seat is a version or a house level."""
    table = TableFactory.create(options={"seats": len(seats), "mode": str(Mode.ARENA)})
    for index, occupant in enumerate(seats):
        if isinstance(occupant, BotVersion):
            SeatFactory.create(
                table=table, index=index, kind=Seat.Kind.BOT, user=None, bot_version=occupant
            )
        else:
            SeatFactory.create(
                table=table, index=index, kind=Seat.Kind.HOUSE, user=None, house_level=occupant
            )
    now = timezone.now()
    scores = [0] * len(seats)
    return Game.objects.create(
        table=table,
        number=Game.objects.filter(table=table).count() + 1,
        engine="tienlen",
        seed=1,
        status=Game.Status.FINISHED,
        started_at=now,
        ended_at=now,
        winner_seat=ranking[0],
        scores=scores,
        result={"finished": True, "winner": ranking[0], "ranking": ranking, "scores": scores},
    )


@pytest.mark.parametrize(
    ("bots", "anchors", "rated", "code"),
    [
        ([1, 1], [], False, "one_bot"),  # two versions of one bot
        ([1], [], False, "one_bot"),
        ([], ["easy", "hard"], False, "no_bot"),
        ([1], ["medium"], True, "rated"),
        ([1, 2], [], True, "rated"),
        ([1], ["no-such-level"], False, "one_bot"),
    ],
)
def test_rating_status(bots: list[int], anchors: list[str], rated: bool, code: str) -> None:
    status = rating_status(bots=bots, anchors=anchors)
    assert (status.rated, status.code) == (rated, code)


def test_anchors_are_ordered_by_level() -> None:
    mus = [ANCHOR_SKILLS[level][0] for level in ("easy", "medium", "hard", "expert")]
    assert mus == sorted(mus)
    assert len(set(mus)) == 4


def test_anchor_ratings_never_change_and_beating_a_stronger_anchor_gains_more() -> None:
    over_easy, over_hard = ready(name="A"), ready(name="B")
    assert ratings_record_game(game_id=finished([over_easy, "easy"], [0, 1]).pk)
    assert ratings_record_game(game_id=finished([over_hard, "hard"], [0, 1]).pk)

    gain_easy = BotRating.objects.get(bot=over_easy.bot).mu - 25.0
    gain_hard = BotRating.objects.get(bot=over_hard.bot).mu - 25.0
    assert 0 < gain_easy < gain_hard
    # anchors have no rows: nothing of theirs was stored or moved
    assert BotRating.objects.count() == 2
    assert ANCHOR_SKILLS["hard"] == (28.0, 1.0)


def test_losing_to_an_anchor_lowers_the_rating() -> None:
    ant = ready()
    assert ratings_record_game(game_id=finished(["medium", ant], [0, 1]).pk)
    event = BotRatingEvent.objects.get()
    assert event.mu_after < event.mu_before
    assert event.rank == 2


def test_two_versions_of_one_bot_alone_are_not_rated() -> None:
    v1 = ready()
    v2 = BotVersionFactory.create(bot=v1.bot, number=v1.number + 1, status="ready")
    assert ratings_record_game(game_id=finished([v1, v2], [0, 1]).pk) is False
    assert not BotRating.objects.exists()


def test_arena_seats_house_ais_and_checks_levels_and_counts() -> None:
    owner = UserFactory.create()
    ant = ready(owner)
    table = game_services.table_create_arena(
        owner=owner, bot_version_ids=[ant.pk], house_levels=["easy", "hard"], start=False
    )
    seats = list(table.seats.order_by("index").values_list("kind", "house_level"))
    assert seats == [("bot", None), ("house", "easy"), ("house", "hard")]
    assert table.mode == Mode.ARENA

    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError) as bad_level:
        game_services.table_create_arena(
            owner=owner, bot_version_ids=[ant.pk], house_levels=["godlike"], start=False
        )
    assert bad_level.value.code == "bad_level"
    with pytest.raises(ValidationError) as only_house:
        game_services.table_create_arena(
            owner=owner, bot_version_ids=[], house_levels=["easy", "hard"], start=False
        )
    assert only_house.value.code == "bad_seats"
    with pytest.raises(ValidationError):
        game_services.table_create_arena(
            owner=owner, bot_version_ids=[ant.pk], house_levels=["easy"] * 4, start=False
        )


def test_arena_form_offers_house_ais_and_the_table_says_why_it_is_unrated() -> None:
    owner = UserFactory.create()
    ant = ready(owner)
    ant2 = BotVersionFactory.create(bot=ant.bot, number=ant.number + 1, status="ready")
    client = Client()
    client.force_login(owner)

    page = client.get(reverse("bots:arena")).content.decode()
    assert 'name="house" value="hard"' in page

    rated = client.post(
        reverse("bots:arena"),
        {"bots": [str(ant.pk)], "house": ["medium", "hard"], "session_length": "16"},
    )
    assert rated.status_code == 302
    table_page = client.get(rated["Location"]).content.decode()
    assert "data-note" not in table_page

    # two versions of one bot are one program: refused (games.programs), nothing is made
    twice = client.post(
        reverse("bots:arena"), {"bots": [str(ant.pk), str(ant2.pk)], "session_length": "16"}
    )
    assert twice.status_code == 200
    assert "One program may hold only one seat" in twice.content.decode()

    lonely = client.post(reverse("bots:arena"), {"bots": [str(ant.pk)], "session_length": "16"})
    assert lonely.status_code == 200  # one player in all: the form says so, nothing is made
    assert "2 to 4 players" in lonely.content.decode()


def test_leaderboard_shows_the_skill_band_and_the_anchors() -> None:
    ant = ready()
    assert ratings_record_game(game_id=finished([ant, "hard"], [0, 1]).pk)
    rating = BotRating.objects.get()
    estimate, band = skill_band(rating.mu, rating.sigma)

    page = Client().get(reverse("bots:leaderboard")).content.decode()
    assert f"{estimate} ± {band}" in page
    for level in ("easy", "medium", "hard"):
        assert f'data-anchor="{level}"' in page
