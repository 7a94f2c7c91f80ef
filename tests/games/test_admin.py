"""Admin scoping: a staff user manages only their own bots; a superuser sees everything."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse

from accounts.models import User
from bots.models import Bot, BotVersion
from tests.factories import BotFactory, BotVersionFactory, TableFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_a() -> User:
    user = UserFactory.create(username="staff_a", is_staff=True)
    user.user_permissions.set(
        Permission.objects.filter(
            content_type__app_label="bots", content_type__model__in=["bot", "botversion"]
        )
    )
    return user


@pytest.fixture
def bots(staff_a: User) -> dict[str, Bot]:
    b = UserFactory.create(username="user_b")
    mine = BotFactory.create(owner=staff_a, name="Alpha Mine")
    theirs = BotFactory.create(owner=b, name="Beta Theirs")
    BotVersionFactory.create(bot=mine, number=1, code="// alpha v1")
    BotVersionFactory.create(bot=theirs, number=1, code="// beta v1")
    return {"mine": mine, "theirs": theirs}


@pytest.fixture
def client_a(client: Client, staff_a: User) -> Client:
    client.force_login(staff_a)
    return client


def test_staff_changelist_shows_only_own_bots(client_a: Client, bots: dict[str, Bot]) -> None:
    page = client_a.get(reverse("admin:bots_bot_changelist")).content.decode()
    assert "Alpha Mine" in page
    assert "Beta Theirs" not in page
    assert "user_b" not in page  # not even in the owner filter


def test_staff_cannot_view_or_edit_another_users_bot(
    client_a: Client, bots: dict[str, Bot]
) -> None:
    theirs = bots["theirs"]
    change_url = reverse("admin:bots_bot_change", args=[theirs.pk])

    assert client_a.get(change_url).status_code == 404
    response = client_a.post(change_url, {"name": "Hacked", "description": "pwned"})
    assert response.status_code == 404
    assert client_a.get(reverse("admin:bots_bot_delete", args=[theirs.pk])).status_code == 404
    assert (
        client_a.post(
            reverse("admin:bots_bot_delete", args=[theirs.pk]), {"post": "yes"}
        ).status_code
        == 404
    )
    assert client_a.get(reverse("admin:bots_bot_history", args=[theirs.pk])).status_code == 404

    theirs.refresh_from_db()
    assert theirs.name == "Beta Theirs"


def test_staff_can_edit_own_bot(client_a: Client, bots: dict[str, Bot], staff_a: User) -> None:
    mine = bots["mine"]
    url = reverse("admin:bots_bot_change", args=[mine.pk])
    assert client_a.get(url).status_code == 200
    response = client_a.post(url, {"name": "Alpha Renamed", "description": ""})
    assert response.status_code == 302
    mine.refresh_from_db()
    assert mine.name == "Alpha Renamed"
    assert mine.owner == staff_a


def test_staff_adding_a_bot_owns_it(client_a: Client, staff_a: User, bots: dict[str, Bot]) -> None:
    other = bots["theirs"].owner
    response = client_a.post(
        reverse("admin:bots_bot_add"),
        {"name": "Gamma", "description": "", "owner": other.pk},
    )
    assert response.status_code == 302
    assert Bot.objects.get(name="Gamma").owner == staff_a


def test_staff_versions_are_scoped_and_cannot_target_foreign_bots(
    client_a: Client, bots: dict[str, Bot]
) -> None:
    page = client_a.get(reverse("admin:bots_botversion_changelist")).content.decode()
    assert "Alpha Mine v1" in page
    assert "Beta Theirs" not in page

    theirs_version = BotVersion.objects.get(bot=bots["theirs"])
    url = reverse("admin:bots_botversion_change", args=[theirs_version.pk])
    assert client_a.get(url).status_code == 404

    add_page = client_a.get(reverse("admin:bots_botversion_add")).content.decode()
    assert "Alpha Mine" in add_page
    assert "Beta Theirs" not in add_page

    before = BotVersion.objects.count()
    response = client_a.post(
        reverse("admin:bots_botversion_add"), {"bot": bots["theirs"].pk, "code": "// evil"}
    )
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    assert BotVersion.objects.count() == before


def test_staff_adds_numbered_version_to_own_bot(client_a: Client, bots: dict[str, Bot]) -> None:
    response = client_a.post(
        reverse("admin:bots_botversion_add"), {"bot": bots["mine"].pk, "code": "// alpha v2"}
    )
    assert response.status_code == 302
    assert bots["mine"].versions.get(number=2).code == "// alpha v2"


def test_staff_without_table_permissions_cannot_open_tables(
    client_a: Client, bots: dict[str, Bot]
) -> None:
    TableFactory.create()
    assert client_a.get(reverse("admin:games_table_changelist")).status_code == 403


def test_superuser_sees_every_bot_and_every_model(client: Client, bots: dict[str, Bot]) -> None:
    admin = UserFactory.create(username="root", is_staff=True, is_superuser=True)
    client.force_login(admin)

    page = client.get(reverse("admin:bots_bot_changelist")).content.decode()
    assert "Alpha Mine" in page
    assert "Beta Theirs" in page
    assert client.get(reverse("admin:bots_bot_change", args=[bots["theirs"].pk])).status_code == 200

    TableFactory.create(name="Admin Visible Table")
    for name in (
        "accounts_user",
        "games_table",
        "games_game",
        "games_seat",
        "games_action",
        "games_chatmessage",
        "bots_botversion",
    ):
        response = client.get(reverse(f"admin:{name}_changelist"), {"q": "a"})
        assert response.status_code == 200, name
    assert (
        "Admin Visible Table"
        in client.get(reverse("admin:games_table_changelist")).content.decode()
    )
