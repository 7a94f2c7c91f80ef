from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from pytest_django import DjangoAssertNumQueries

from accounts.models import User
from games.models import Seat
from tests.factories import BotFactory, BotVersionFactory, GameFactory, TableFactory

pytestmark = pytest.mark.django_db


def test_profile_requires_login(client: Client) -> None:
    response = client.get(reverse("accounts:profile"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:login"))


def test_profile_lists_own_tables_games_and_bots_only(
    user_client: Client, user: User, other_user: User
) -> None:
    hosted = TableFactory.create(owner=user, name="Alice hosts")
    seated = TableFactory.create(owner=other_user, name="Alice sits")
    Seat.objects.create(table=seated, index=1, kind=Seat.Kind.HUMAN, user=user)
    TableFactory.create(owner=other_user, name="Not Alice's")
    GameFactory.create(table=hosted, number=3)
    bot = BotFactory.create(owner=user, name="Alice Bot")
    BotVersionFactory.create(bot=bot, number=1)
    BotFactory.create(owner=other_user, name="Bob Bot")

    page = user_client.get(reverse("accounts:profile")).content.decode()

    assert "Alice hosts" in page
    assert "Alice sits" in page
    assert "Not Alice&#x27;s" not in page
    assert "Not Alice's" not in page
    assert "#3" in page
    assert "Alice Bot" in page
    assert "v1" in page
    assert "Bob Bot" not in page


def test_profile_query_count_is_flat(
    user_client: Client, user: User, django_assert_max_num_queries: DjangoAssertNumQueries
) -> None:
    for n in range(5):
        table = TableFactory.create(owner=user)
        GameFactory.create(table=table, number=n + 1)
        BotFactory.create(owner=user)
    with django_assert_max_num_queries(12):
        assert user_client.get(reverse("accounts:profile")).status_code == 200
