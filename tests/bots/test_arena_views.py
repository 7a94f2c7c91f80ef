"""Pages: Bot Arena and Practice with your bot, the arena flag, Hybrid mode, rating admin."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from bots.models import Bot, BotRating, BotRatingEvent
from games.models import Game, Seat, Table
from tests.bots.live import COUNTING_BOT, example_version, new_user, ready_version

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("live_bots")]


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_arena_page_lists_own_and_open_bots_only() -> None:
    owner, rival = new_user("owner"), new_user("rival")
    mine = example_version(owner, "greedy", "Mine")
    opened = ready_version(rival, COUNTING_BOT, "Opened", arena_open=True)
    closed = ready_version(rival, COUNTING_BOT, "Closed")
    page = _client(owner).get(reverse("bots:arena")).content.decode()
    assert f'value="{mine.pk}"' in page
    assert f'value="{opened.pk}"' in page
    assert f'value="{closed.pk}"' not in page


def test_arena_form_creates_and_starts_an_arena_table() -> None:
    owner = new_user("owner")
    a, b = example_version(owner, "greedy"), example_version(owner, "random")
    response = _client(owner).post(
        reverse("bots:arena"), {"bots": [a.pk, b.pk], "session_length": 32, "public": "on"}
    )
    table = Table.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("tables:detail", args=[table.code])
    assert table.mode == "arena"
    assert table.options["session_length"] == 32
    assert table.seat_count == 2
    assert Game.objects.get(table=table, number=1).status == Game.Status.FINISHED


def test_arena_form_needs_two_to_four_players() -> None:
    owner = new_user("owner")
    a = example_version(owner, "greedy")
    example_version(owner, "random")
    response = _client(owner).post(reverse("bots:arena"), {"bots": [a.pk], "session_length": 16})
    assert response.status_code == 200
    assert "Choose 2 to 4 players in all" in response.content.decode()
    too_many = _client(owner).post(
        reverse("bots:arena"),
        {"bots": [a.pk], "house": ["easy", "medium", "hard", "expert"], "session_length": 16},
    )
    assert too_many.status_code == 200
    assert "Choose 2 to 4 players in all" in too_many.content.decode()
    assert not Table.objects.exists()


def test_practice_with_your_bot_from_the_page() -> None:
    owner = new_user("owner")
    version = example_version(owner, "greedy")
    response = _client(owner).post(reverse("bots:practice"), {"version": version.pk})
    table = Table.objects.get()
    assert response["Location"] == reverse("tables:detail", args=[table.code])
    kinds = list(Seat.objects.filter(table=table).order_by("index").values_list("kind", flat=True))
    assert kinds == ["human", "bot", "house", "house"]
    assert table.mode == "practice"


def test_only_the_owner_opens_a_bot_to_the_arena() -> None:
    owner, rival = new_user("owner"), new_user("rival")
    version = example_version(owner, "greedy")
    url = reverse("bots:arena_open", args=[version.bot_id])
    assert _client(rival).post(url, {"open": "1"}).status_code == 404
    assert not Bot.objects.get(pk=version.bot_id).arena_open
    _client(owner).post(url, {"open": "1"})
    assert Bot.objects.get(pk=version.bot_id).arena_open


def test_a_table_with_people_and_a_bot_is_hybrid() -> None:
    owner = new_user("owner")
    version = example_version(owner, "greedy")
    response = _client(owner).post(
        reverse("tables:create"),
        {
            "name": "Mixed",
            "game": "tienlen",
            "seats": 3,
            "seat_1": f"bot:{version.pk}",
            "seat_2": "open",
            "visibility": "public",
            "session_length": 16,
            "turn_seconds": 30,
        },
    )
    assert response.status_code == 302
    table = Table.objects.get()
    assert table.mode == "hybrid"
    assert Seat.objects.get(table=table, index=1).bot_version_id == version.pk


def test_rating_admin_is_owner_scoped_and_read_only() -> None:
    owner, rival = new_user("owner"), new_user("rival")
    for user in (owner, rival):
        user.is_staff = True
        user.save()
        from django.contrib.auth.models import Permission

        user.user_permissions.add(
            *Permission.objects.filter(codename__in=["view_botrating", "view_botratingevent"])
        )
    mine = example_version(owner, "greedy")
    theirs = example_version(rival, "greedy")
    for version in (mine, theirs):
        BotRating.objects.create(bot_id=version.bot_id, mu=25, sigma=8, ordinal=1, games=1)
        BotRatingEvent.objects.create(
            bot_id=version.bot_id,
            game_id=1,
            version=version,
            seat=0,
            rank=1,
            rated_bots=2,
            mu_before=25,
            sigma_before=8,
            mu_after=26,
            sigma_after=7,
            played_at="2025-01-01T00:00:00Z",
        )
    client = _client(owner)
    listing = client.get(reverse("admin:bots_botrating_changelist")).content.decode()
    assert mine.bot.name in listing
    assert theirs.bot.name not in listing
    their_rating = BotRating.objects.get(bot_id=theirs.bot_id)
    url = reverse("admin:bots_botrating_change", args=[their_rating.pk])
    assert client.get(url).status_code == 404
    own_event = BotRatingEvent.objects.get(bot_id=mine.bot_id)
    page = client.get(reverse("admin:bots_botratingevent_change", args=[own_event.pk]))
    assert page.status_code == 200
    assert client.get(reverse("admin:bots_botrating_add")).status_code == 403
