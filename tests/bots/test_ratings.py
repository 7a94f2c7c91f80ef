"""Bot ratings: rating finished arena games, the leaderboard and rating pages, the API."""

from __future__ import annotations

import doctest
from collections.abc import Sequence
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from bots import models as bot_models
from bots.models import Bot, BotRating, BotRatingEvent, BotVersion, display_rating
from bots.services import ratings_record_game, ratings_record_game_later
from bots.tasks import ratings_record_game_task
from games import charts
from games.models import Game, Mode, Seat, Table
from tests.factories import BotVersionFactory, SeatFactory, TableFactory, UserFactory

pytestmark = pytest.mark.django_db

SECRET = "SECRET_STRATEGY_MARKER"

#: A seat: a bot version, "human" or "house".
Occupant = BotVersion | str


def version(name: str) -> BotVersion:
    return BotVersionFactory.create(
        bot__name=name, code=f"// {SECRET}\nfunction getNextMove(s) {{}}"
    )


def play(
    occupants: Sequence[Occupant],
    ranking: Sequence[int],
    *,
    mode: str = Mode.ARENA,
    table: Table | None = None,
    status: str = Game.Status.FINISHED,
    minutes_ago: int = 0,
) -> Game:
    """A finished game, built with the ORM: the table (with its seats) and the game's result."""
    if table is None:
        table = TableFactory.create(options={"seats": len(occupants), "mode": str(mode)})
        for index, occupant in enumerate(occupants):
            if isinstance(occupant, BotVersion):
                SeatFactory.create(
                    table=table, index=index, kind=Seat.Kind.BOT, user=None, bot_version=occupant
                )
            elif occupant == "house":
                SeatFactory.create(
                    table=table, index=index, kind=Seat.Kind.HOUSE, user=None, house_level="easy"
                )
            else:
                SeatFactory.create(table=table, index=index, kind=Seat.Kind.HUMAN)
    number = Game.objects.filter(table=table).count() + 1
    scores = [0] * len(occupants)
    scores[ranking[0]] = 10 * (len(occupants) - 1)
    for seat in ranking[1:]:
        scores[seat] = -10
    ended = timezone.now() - timedelta(minutes=minutes_ago)
    return Game.objects.create(
        table=table,
        number=number,
        engine="tienlen",
        seed=number,
        status=status,
        started_at=ended - timedelta(minutes=5),
        ended_at=None if status == Game.Status.RUNNING else ended,
        winner_seat=ranking[0],
        scores=scores,
        result={"finished": True, "winner": ranking[0], "ranking": list(ranking), "scores": scores},
    )


def rating_of(v: BotVersion) -> BotRating:
    return BotRating.objects.get(bot=v.bot)


@pytest.fixture
def four() -> list[BotVersion]:
    return [version(name) for name in ("Ant", "Bee", "Cat", "Dog")]


# --------------------------------------------------------------------------- the service


def test_four_bot_arena_game_rates_every_bot_by_the_engine_ranking(
    four: list[BotVersion],
) -> None:
    game = play(four, ranking=[2, 0, 3, 1])  # Cat wins, Bee is last

    assert ratings_record_game(game_id=game.pk) is True

    start = display_rating(25.0, 25.0 / 3)
    winner, second, third, last = (rating_of(four[i]) for i in (2, 0, 3, 1))
    assert winner.display > start > last.display
    assert winner.mu > second.mu > third.mu > last.mu
    assert winner.mu > 25.0 > last.mu
    assert all(r.sigma < 25.0 / 3 for r in (winner, second, third, last))
    assert [r.games for r in (winner, second, third, last)] == [1, 1, 1, 1]
    assert [r.wins for r in (winner, second, third, last)] == [1, 0, 0, 0]
    assert winner.last_version_id == four[2].pk
    assert winner.last_played_at == game.ended_at

    events = {e.bot_id: e for e in BotRatingEvent.objects.filter(game_id=game.pk)}
    assert {b: (e.rank, e.seat, e.rated_bots) for b, e in events.items()} == {
        four[2].bot_id: (1, 2, 4),
        four[0].bot_id: (2, 0, 4),
        four[3].bot_id: (3, 3, 4),
        four[1].bot_id: (4, 1, 4),
    }
    cat = events[four[2].bot_id]
    assert cat.won is True
    assert (cat.mu_before, cat.mu_after) == (25.0, winner.mu)
    assert cat.version_id == four[2].pk
    assert cat.change == winner.display - start


def test_second_call_for_the_same_game_changes_nothing(four: list[BotVersion]) -> None:
    game = play(four, ranking=[0, 1, 2, 3])
    assert ratings_record_game(game_id=game.pk) is True
    before = list(BotRating.objects.order_by("bot_id").values_list("mu", "sigma", "games", "wins"))

    assert ratings_record_game(game_id=game.pk) is False
    assert ratings_record_game_task.apply(args=(game.pk,)).get() is False

    after = list(BotRating.objects.order_by("bot_id").values_list("mu", "sigma", "games", "wins"))
    assert after == before
    assert BotRatingEvent.objects.filter(game_id=game.pk).count() == 4


@pytest.mark.parametrize("mode", [Mode.CASUAL, Mode.PRACTICE, Mode.HYBRID])
def test_games_outside_the_arena_are_not_rated(four: list[BotVersion], mode: str) -> None:
    game = play(four, ranking=[0, 1, 2, 3], mode=mode)

    assert ratings_record_game(game_id=game.pk) is False
    assert not BotRating.objects.exists()
    assert not BotRatingEvent.objects.exists()


@pytest.mark.parametrize("status", [Game.Status.RUNNING, Game.Status.ABORTED])
def test_unfinished_and_missing_games_are_not_rated(four: list[BotVersion], status: str) -> None:
    game = play(four, ranking=[0, 1, 2, 3], status=status)

    assert ratings_record_game(game_id=game.pk) is False
    assert ratings_record_game(game_id=game.pk + 1000) is False
    assert not BotRatingEvent.objects.exists()


def test_people_are_left_out_and_house_ais_rank_as_anchors() -> None:
    ant, bee = version("Ant"), version("Bee")
    # A person wins, the house AI is second; then Bee (seat 3), then Ant (seat 1).
    game = play(["human", ant, "house", bee], ranking=[0, 2, 3, 1])

    assert ratings_record_game(game_id=game.pk) is True

    events = {e.bot_id: e for e in BotRatingEvent.objects.all()}
    assert set(events) == {ant.bot_id, bee.bot_id}  # the anchor has no rating row or event
    assert (events[bee.bot_id].rank, events[bee.bot_id].rated_bots) == (2, 3)
    assert (events[ant.bot_id].rank, events[ant.bot_id].rated_bots) == (3, 3)
    assert not any(e.won for e in events.values())  # the person won the game
    assert rating_of(bee).mu > rating_of(ant).mu
    assert BotRating.objects.count() == 2


def test_a_single_bot_among_people_is_not_rated() -> None:
    ant = version("Ant")
    game = play([ant, "human", "human"], ranking=[0, 1, 2])

    assert ratings_record_game(game_id=game.pk) is False
    assert not BotRating.objects.exists()


def test_a_single_bot_against_house_ais_is_rated_against_the_anchors() -> None:
    ant = version("Ant")
    game = play([ant, "house", "house", "human"], ranking=[0, 1, 2, 3])

    assert ratings_record_game(game_id=game.pk) is True
    event = BotRatingEvent.objects.get()
    assert (event.bot_id, event.rank, event.rated_bots) == (ant.bot_id, 1, 3)
    assert rating_of(ant).mu > 25.0


def test_a_bot_in_several_seats_counts_once_at_its_best_place() -> None:
    ant = version("Ant")
    ant2 = BotVersionFactory.create(bot=ant.bot, number=ant.number + 1)
    bee = version("Bee")
    game = play([ant, bee, ant2, ant], ranking=[3, 1, 2, 0])

    assert ratings_record_game(game_id=game.pk) is True

    events = {e.bot_id: e for e in BotRatingEvent.objects.all()}
    assert set(events) == {ant.bot_id, bee.bot_id}
    assert (events[ant.bot_id].rank, events[ant.bot_id].seat) == (1, 3)
    assert events[bee.bot_id].rank == 2
    assert rating_of(ant).games == 1


def test_ratings_build_up_over_a_session(four: list[BotVersion]) -> None:
    first = play(four, ranking=[0, 1, 2, 3], minutes_ago=10)
    second = play(four, ranking=[0, 2, 1, 3], table=first.table)
    assert ratings_record_game(game_id=first.pk)
    after_one = rating_of(four[0]).display
    assert ratings_record_game(game_id=second.pk)

    ant = rating_of(four[0])
    assert (ant.games, ant.wins) == (2, 2)
    assert ant.display > after_one
    history = list(BotRatingEvent.objects.filter(bot=four[0].bot).order_by("played_at"))
    assert [e.game_id for e in history] == [first.pk, second.pk]
    assert history[1].mu_before == history[0].mu_after


def test_the_task_rates_the_game(four: list[BotVersion]) -> None:
    game = play(four, ranking=[3, 2, 1, 0])

    assert ratings_record_game_task.apply(args=(game.pk,)).get() is True
    assert rating_of(four[3]).wins == 1


def test_rating_later_runs_on_commit(
    four: list[BotVersion], django_capture_on_commit_callbacks: Any
) -> None:
    game = play(four, ranking=[1, 0, 2, 3])

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        ratings_record_game_later(game_id=game.pk)
    assert not BotRating.objects.exists()  # nothing before the commit
    for callback in callbacks:
        callback()  # the test scheduler runs the task at once: rated inline

    assert rating_of(four[1]).wins == 1


# --------------------------------------------------------------------------- pages


@pytest.fixture
def rated(four: list[BotVersion]) -> list[BotVersion]:
    """Four bots after two arena games: Cat first twice, Bee last twice."""
    first = play(four, ranking=[2, 0, 3, 1], minutes_ago=30)
    second = play(four, ranking=[2, 3, 0, 1], table=first.table)
    ratings_record_game(game_id=first.pk)
    ratings_record_game(game_id=second.pk)
    return four


def test_leaderboard_page_lists_rated_bots_best_first(
    client: Client, rated: list[BotVersion]
) -> None:
    response = client.get(reverse("bots:leaderboard"))

    assert response.status_code == 200
    html = response.content.decode()
    order = [html.index(f'data-bot="{v.bot_id}"') for v in rated]
    cat, bee = order[2], order[1]
    assert cat == min(order)
    assert bee == max(order)
    assert reverse("bots:rating", args=[rated[2].bot_id]) in html
    assert rated[2].bot.owner.public_name in html
    assert str(rating_of(rated[2]).display) in html
    assert "100%" in html  # Cat's win rate
    assert SECRET not in html


def test_leaderboard_page_without_rated_bots(client: Client) -> None:
    response = client.get(reverse("bots:leaderboard"))

    assert response.status_code == 200
    assert "No bot has played a rated arena game yet." in response.content.decode()


def test_my_bots_links_to_the_leaderboard(user_client: Client) -> None:
    response = user_client.get(reverse("bots:list"))

    assert reverse("bots:leaderboard") in response.content.decode()


def test_rating_page_shows_the_rating_and_its_history_chart(
    client: Client, rated: list[BotVersion]
) -> None:
    cat = rating_of(rated[2])

    response = client.get(reverse("bots:rating", args=[cat.bot_id]))

    assert response.status_code == 200
    html = response.content.decode()
    assert cat.bot.name in html
    assert cat.bot.owner.public_name in html
    assert str(cat.display) in html
    assert "<svg" in html
    assert "<polyline" in html
    assert html.count('class="rc-dot"') == 3  # the start and two games
    # issue 25: the skill on the leaderboard's scale (rating points), not openskill's mu/sigma
    from bots.arena import skill_band

    estimate, band = skill_band(cat.mu, cat.sigma)
    assert f"{estimate} ± {band}" in html
    assert "μ" not in html
    board = client.get(reverse("bots:leaderboard")).content.decode()
    assert f"{estimate} ± {band}" in board
    assert "at a tournament table" in board
    vi = client.get(reverse("bots:leaderboard"), HTTP_ACCEPT_LANGUAGE="vi").content.decode()
    assert "ở bàn giải đấu" in vi
    assert response.context["rank"] == 1
    assert SECRET not in html
    assert "getNextMove" not in html


def test_an_unrated_bot_is_private_except_to_its_owner(client: Client) -> None:
    owner = UserFactory.create(username="carol")
    bot = Bot.objects.create(owner=owner, name="Newbie")
    url = reverse("bots:rating", args=[bot.pk])

    assert client.get(url).status_code == 404
    assert client.get(reverse("bots:rating", args=[bot.pk + 1000])).status_code == 404
    client.force_login(owner)
    response = client.get(url)
    assert response.status_code == 200
    assert "Not rated yet" in response.content.decode()


# --------------------------------------------------------------------------- API


def test_api_leaderboard_is_public_and_ordered(
    api_client: APIClient, rated: list[BotVersion]
) -> None:
    response = api_client.get("/api/bots/leaderboard/")

    assert response.status_code == 200
    body = response.json()
    rows = body["results"]
    assert body["count"] == 4
    assert [r["rank"] for r in rows] == [1, 2, 3, 4]
    assert rows[0]["bot_id"] == rated[2].bot_id
    assert rows[-1]["bot_id"] == rated[1].bot_id
    assert [r["rating"] for r in rows] == sorted((r["rating"] for r in rows), reverse=True)
    assert rows[0]["games"] == 2
    assert rows[0]["wins"] == 2
    assert rows[0]["win_rate"] == 1.0
    assert rows[0]["owner"] == rated[2].bot.owner.public_name
    assert rows[0]["last_version"] == rated[2].number
    assert all("code" not in r for r in rows)
    assert SECRET not in response.content.decode()


def test_api_leaderboard_is_read_only(api_client: APIClient) -> None:
    assert api_client.post("/api/bots/leaderboard/", {}).status_code == 405


def test_schema_documents_the_leaderboard_without_warnings(tmp_path: Path) -> None:
    out = tmp_path / "schema.yaml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(out))
    schema = out.read_text()
    assert "/api/bots/leaderboard/" in schema
    assert "LeaderboardEntry" in schema


def test_chart_and_display_doctests() -> None:
    for module in (charts, bot_models):
        failed, _ = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
        assert failed == 0, module.__name__
