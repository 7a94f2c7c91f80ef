"""Quick play's pages and REST endpoints in both languages (docs/quickplay.md)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from games.models import Game, Table
from games.quickplay import services
from games.quickplay.models import PersonRating, PersonRatingEvent, PoolEntry
from tests.factories import TableFactory, UserFactory
from tests.scheduler import FrozenClock

pytestmark = pytest.mark.django_db(transaction=True)


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.parametrize(
    ("language", "button", "waiting"),
    [("en", "Quick play", "Waiting: 1"), ("vi", "Chơi nhanh", "Đang chờ: 1")],
)
def test_button_joins_the_pool_and_shows_the_waiting_page(
    clock: FrozenClock, language: str, button: str, waiting: str
) -> None:
    person = UserFactory.create()
    client = logged_in(person)
    home = client.get("/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert button in home
    assert 'data-quickplay="tienlen"' in home
    response = client.post(
        "/quickplay/join/", {"game": "tienlen", "seats": "4"}, HTTP_ACCEPT_LANGUAGE=language
    )
    assert response.status_code == 302
    assert response["Location"] == "/quickplay/"
    page = client.get("/quickplay/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert waiting in page
    assert PoolEntry.objects.get(user=person).seats == 4
    assert client.post("/quickplay/leave/").status_code == 302
    assert not PoolEntry.objects.exists()
    assert client.get("/quickplay/")["Location"] == "/"


def test_bad_join_from_the_page_says_why_and_changes_nothing() -> None:
    client = logged_in(UserFactory.create())
    response = client.post("/quickplay/join/", {"game": "tienlen", "seats": "x"}, follow=True)
    assert "This game is played by 2 to 4 players." in response.content.decode()
    assert not PoolEntry.objects.exists()


def test_rest_join_status_leave_and_errors(clock: FrozenClock) -> None:
    person = UserFactory.create()
    api = APIClient()
    assert api.get("/api/quickplay/").status_code in (401, 403)
    api.force_authenticate(person)
    assert api.get("/api/quickplay/").json()["state"] == "idle"
    made = api.post("/api/quickplay/", {"game": "stud", "seats": 3}, format="json")
    assert made.status_code == 201
    assert (made.json()["state"], made.json()["waiting"]) == ("waiting", 1)
    again = api.post("/api/quickplay/", {"game": "stud", "seats": 3}, format="json")
    assert (again.status_code, again.json()["error"]) == (409, "already_waiting")
    assert api.delete("/api/quickplay/").status_code == 204
    bad = api.post("/api/quickplay/", {"game": "chess", "seats": 2}, format="json")
    assert (bad.status_code, bad.json()["error"]) == (400, "unknown_game")
    seats = api.post("/api/quickplay/", {"game": "tienlen", "seats": 1}, format="json")
    assert (seats.status_code, seats.json()["error"]) == (400, "bad_seats")
    shape = api.post("/api/quickplay/", {"game": "tienlen"}, format="json")
    assert (shape.status_code, shape.json()["error"]) == (400, "bad_request")
    assert not PoolEntry.objects.exists()


def test_rest_status_names_the_table_once_seated(clock: FrozenClock, settings: Any) -> None:
    person = UserFactory.create()
    api = APIClient()
    api.force_authenticate(person)
    api.post("/api/quickplay/", {"game": "tienlen", "seats": 4}, format="json")
    clock.advance(settings.QUICKPLAY_COUNTDOWN_SECONDS)
    (table_id,) = services.pool_pair()
    status = api.get("/api/quickplay/").json()
    code = Table.objects.get(pk=table_id).code
    assert status == {"state": "seated", "pools": {}, "table": code, "url": f"/t/{code}/"}


def rated(person: Any, game: str, mu: float, sigma: float, events: int = 2) -> None:
    PersonRating.objects.create(
        user=person, game=game, mu=mu, sigma=sigma, ordinal=mu - 3 * sigma, games=events
    )
    table = TableFactory.create(owner=person, game=game)
    for n in range(events):
        played = Game.objects.create(table=table, number=n + 1, status="finished", seed=n)
        PersonRatingEvent.objects.create(
            user=person,
            game=game,
            played=played,
            rank=1,
            rated_players=4,
            mu_before=mu - 1 - n,
            sigma_before=sigma + 1,
            mu_after=mu - n,
            sigma_after=sigma,
            created_at=played.started_at,
        )


@pytest.mark.parametrize(
    ("language", "title"), [("en", "People leaderboard"), ("vi", "Bảng xếp hạng người chơi")]
)
def test_leaderboard_lists_people_best_first(client: Client, language: str, title: str) -> None:
    strong = UserFactory.create(display_name="Strong")
    weak = UserFactory.create(display_name="Weak")
    rated(strong, "tienlen", 30.0, 2.0)
    rated(weak, "tienlen", 24.0, 2.0)
    rated(weak, "stud", 40.0, 1.0)
    html = client.get("/players/?game=tienlen", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert title in html
    assert html.index("Strong") < html.index("Weak")
    assert "<strong>2076</strong>" in html  # 1500 + 24 * (30 - 3 * 2)
    assert "2220 ± 94" in html  # the estimate 1500 + 24 * 30, and 24 * 1.96 * 2
    stud = client.get("/players/?game=stud").content.decode()
    assert "Weak" in stud
    assert "Strong" not in stud


@pytest.mark.parametrize(
    ("language", "words"), [("en", "Rating history"), ("vi", "Lịch sử điểm xếp hạng")]
)
def test_player_page_shows_rating_interval_and_chart(
    client: Client, language: str, words: str
) -> None:
    person = UserFactory.create(username="lan")
    rated(person, "tienlen", 30.0, 2.0, events=3)
    html = client.get("/players/lan/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert words in html
    assert "2220 ± 94" in html
    assert html.count('class="rc-dot"') == 4  # the start and three games
    assert client.get("/players/nobody/").status_code == 404
    assert client.get("/players/lan/?game=chess").status_code == 404
    unrated = UserFactory.create(username="new")
    assert "Not rated yet" in client.get(f"/players/{unrated.username}/").content.decode()


def test_admin_lists_quick_play_rows(client: Client) -> None:
    root = UserFactory.create(is_staff=True, is_superuser=True)
    client.force_login(root)
    rated(root, "tienlen", 26.0, 3.0)
    for name in ("poolentry", "quickplayseat", "personrating", "personratingevent"):
        response = client.get(f"/admin/games/{name}/", {"q": root.username})
        assert response.status_code == 200, name
    assert root.username in client.get("/admin/games/personrating/").content.decode()


def test_own_profile_links_to_the_public_rating_page() -> None:
    person = UserFactory.create(username="mai")
    html = logged_in(person).get("/accounts/profile/").content.decode()
    assert 'href="/players/mai/"' in html


def test_the_leaderboard_pages_keep_the_game(settings: Any) -> None:
    """51 rated people: page 1 shows 50 and a pager to page 2 of the same game (the shared
    templates/_pager.html)."""
    for n in range(51):
        PersonRating.objects.create(
            user=UserFactory.create(),
            game="stud",
            mu=25.0 + n / 10,
            sigma=2.0,
            ordinal=20.0,
            games=3,
            wins=1,
        )
    first = Client().get("/players/?game=stud", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert first.count('<tr data-user="') == 50
    assert "Page 1 of 2" in first
    assert 'href="?game=stud&amp;page=2"' in first
    second = Client().get("/players/?game=stud&page=2", HTTP_ACCEPT_LANGUAGE="vi")
    html = second.content.decode()
    assert html.count('<tr data-user="') == 1
    assert "Trang 2/2" in html
    assert 'href="?game=stud&amp;page=1"' in html
