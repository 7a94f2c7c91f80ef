"""The base layout, navigation (seed 002 §4.1) and the public pages."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games.models import Table
from tests.factories import GameFactory, TableFactory

pytestmark = pytest.mark.django_db

NAV = [
    ("home", "Home"),
    ("tables:create", "Create Table"),
    ("bots:list", "My Bots"),
    ("how_to_play", "How to Play"),
]


def test_navigation_links_every_main_page(client: Client) -> None:
    page = client.get(reverse("home")).content.decode()
    for name, label in NAV:
        assert f'href="{reverse(name)}"' in page
        assert label in page


def test_home_lists_public_tables_and_recent_matches(client: Client, user: User) -> None:
    TableFactory.create(owner=user, name="Open For All")
    TableFactory.create(owner=user, name="Friends Only", visibility=Table.Visibility.PRIVATE)
    finished = TableFactory.create(owner=user, name="Last Night", status=Table.Status.COMPLETED)
    GameFactory.create(
        table=finished, number=2, winner_seat=0, players=[{"seat": 0, "name": "alice"}]
    )

    page = client.get(reverse("home")).content.decode()

    assert "Open For All" in page
    assert "Friends Only" not in page
    assert "Last Night" in page
    assert "★ alice" in page


def test_how_to_play_explains_the_rules(client: Client) -> None:
    page = client.get(reverse("how_to_play")).content.decode()
    for phrase in ("3♠", "Consecutive pairs", "Cutting", "Instant wins", "Scoring"):
        assert phrase in page


@pytest.mark.parametrize("name", ["tables:create", "bots:list"])
def test_placeholders_require_login(client: Client, user: User, name: str) -> None:
    response = client.get(reverse(name))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:login"))
    client.force_login(user)
    assert client.get(reverse(name)).status_code == 200


def test_static_css_is_served(client: Client) -> None:
    response = client.get("/static/css/site.css")
    assert response.status_code == 200
    assert b"--brand" in b"".join(response.streaming_content)  # type: ignore[attr-defined]


def test_unknown_page_is_a_friendly_404(client: Client) -> None:
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    assert "Page not found" in response.content.decode()


def test_favicon_ico_is_served(client: Client) -> None:
    """Issue 25: /favicon.ico was a 404 on the admin's pages (they name no icon)."""
    response = client.get("/favicon.ico", follow=True)
    assert response.status_code == 200
    assert response.redirect_chain[-1][0].endswith("/img/favicon.svg")
    assert b"<svg" in b"".join(response.streaming_content)  # type: ignore[attr-defined]
