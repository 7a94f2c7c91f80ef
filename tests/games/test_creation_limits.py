"""What one user may create per hour (issue 24 item 11: 25 tables in 1.7 s, 25 tournaments in
1.0 s): tables, tournaments, bots, matches and arenas, through the web forms and the REST API
alike (games.throttles). Over the rate nothing is created: the page says so in the user's
language with HTTP 429, the API answers 429 ``rate_limited`` with ``Retry-After``."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from bots.examples import template_code
from bots.models import Bot
from games.models import Table
from games.tournaments.models import Tournament
from tests.scheduler import FrozenClock

pytestmark = pytest.mark.django_db


def _rates(settings: Any, **rates: str) -> None:
    settings.GAMES_CREATE_RATES = {**settings.GAMES_CREATE_RATES, **rates}


def test_tables_are_limited_per_user_on_the_web(
    user_client: Client, user: User, settings: Any, clock: FrozenClock
) -> None:
    _rates(settings, tables="2/h")
    for _ in range(2):
        assert user_client.post(reverse("tables:practice"), {"level": "easy"}).status_code == 302
    refused = user_client.post(reverse("tables:practice"), {"level": "easy"})
    assert refused.status_code == 429
    assert refused["Retry-After"] == "1800"  # one more table every half hour
    page = refused.content.decode()
    assert "You have created many tables in a short time." in page
    assert "Please wait 30 minutes and try again." in page
    assert Table.objects.filter(owner=user).count() == 2
    # the same count for the full form, and the message in Vietnamese
    in_vietnamese = user_client.post(reverse("tables:create") + "?lang=vi", {"name": "x"})
    assert in_vietnamese.status_code == 429
    assert "Bạn đã tạo nhiều bàn trong thời gian ngắn." in in_vietnamese.content.decode()
    # another user is not affected; half an hour later one more table is allowed
    other = Client()
    other.force_login(User.objects.create_user(username="other", password="x" * 12))
    assert other.post(reverse("tables:practice"), {"level": "easy"}).status_code == 302
    clock.advance(1800)
    assert user_client.post(reverse("tables:practice"), {"level": "easy"}).status_code == 302


def test_tournaments_are_limited_per_user(user_client: Client, user: User, settings: Any) -> None:
    _rates(settings, tournaments="1/h")
    first = user_client.post(reverse("tournaments:list"), {})
    assert first.status_code == 200  # the form with its errors: an attempt all the same
    refused = user_client.post(reverse("tournaments:list"), {})
    assert refused.status_code == 429
    assert "You have created many tournaments in a short time." in refused.content.decode()
    assert not Tournament.objects.filter(creator=user).exists()
    assert user_client.get(reverse("tournaments:list")).status_code == 200  # reading is free


def test_bots_are_limited_per_user_on_the_api(
    user_client: Client, user: User, settings: Any
) -> None:
    _rates(settings, bots="1/h")
    body = {"name": "One", "game": "tienlen", "code": template_code("tienlen")}
    created = user_client.post("/api/bots/", body, content_type="application/json")
    assert created.status_code == 201, created.content
    refused = user_client.post(
        "/api/bots/", {**body, "name": "Two"}, content_type="application/json"
    )
    assert refused.status_code == 429
    assert refused["Retry-After"] == "3600"
    assert refused.json() == {
        "code": "rate_limited",
        "detail": "You have created many bots in a short time. Retry in 3600 s.",
        "retry_after": 3600,
    }
    # the external bot API and the web form count against the same budget
    external = user_client.post(
        "/api/bot/account/", {"name": "Ext", "game": "tienlen"}, content_type="application/json"
    )
    assert external.status_code == 429
    web = user_client.post(reverse("bots:create"), {"name": "Web", "game": "tienlen"})
    assert web.status_code == 429
    assert list(Bot.objects.filter(owner=user).values_list("name", flat=True)) == ["One"]
    # reading and changing a bot are not creations
    assert user_client.get("/api/bots/").status_code == 200


def test_matches_and_arenas_are_limited_per_user(user_client: Client, settings: Any) -> None:
    _rates(settings, matches="1/h", arenas="1/h")
    assert user_client.post("/api/matches/", {}, content_type="application/json").status_code == 400
    refused = user_client.post("/api/matches/", {}, content_type="application/json")
    assert (refused.status_code, refused.json()["code"]) == (429, "rate_limited")
    assert user_client.post(reverse("bots:arena"), {}).status_code == 200
    assert user_client.post(reverse("bots:arena"), {}).status_code == 429
