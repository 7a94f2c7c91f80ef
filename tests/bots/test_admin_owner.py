"""The admin for bot owners: every signed-in user enters /admin/ for their own bots and bot
versions, and for nothing else; another user's rows never show, not even in counts, filters,
search or autocomplete."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse

from accounts.models import User
from bots import services as bots_services
from bots.models import Bot, BotVersion
from tests.factories import DEFAULT_PASSWORD, BotFactory, BotVersionFactory, UserFactory

pytestmark = pytest.mark.django_db

THEIRS = "Zebra Theirs"


@pytest.fixture
def owner() -> User:
    return UserFactory.create(username="plainowner")


@pytest.fixture
def bots(owner: User) -> dict[str, Bot]:
    stranger = UserFactory.create(username="strangeruser")
    mine = BotFactory.create(owner=owner, name="Alpha Mine", description="mine")
    theirs = BotFactory.create(owner=stranger, name=THEIRS, description="secret plan")
    BotFactory.create(owner=stranger, name="Zebra Second")
    BotVersionFactory.create(bot=mine, number=1, code="// alpha v1")
    BotVersionFactory.create(bot=theirs, number=1, code="// zebra secret code")
    return {"mine": mine, "theirs": theirs}


@pytest.fixture
def owner_client(client: Client, owner: User) -> Client:
    client.force_login(owner)
    return client


def _text(client: Client, url: str, **params: str) -> str:
    response = client.get(url, params)
    assert response.status_code == 200, (url, response.status_code)
    return response.content.decode()


def _no_stranger(page: str) -> None:
    for leak in ("Zebra", "strangeruser", "secret"):
        assert leak not in page


def test_a_plain_user_logs_in_to_the_admin(client: Client, owner: User) -> None:
    response = client.post(
        reverse("admin:login"),
        {"username": owner.username, "password": DEFAULT_PASSWORD, "next": "/admin/"},
    )
    assert response.status_code == 302
    assert response["Location"] == "/admin/"


def test_index_shows_only_bots_and_versions(owner_client: Client, bots: dict[str, Bot]) -> None:
    page = _text(owner_client, reverse("admin:index"))
    assert reverse("admin:bots_bot_changelist") in page
    assert reverse("admin:bots_botversion_changelist") in page
    for closed in ("games", "accounts", "auth", "authtoken"):
        assert f"/admin/{closed}/" not in page
    assert reverse("admin:bots_botrating_changelist") not in page


@pytest.mark.parametrize(
    "name",
    [
        "accounts_user_changelist",
        "auth_group_changelist",
        "games_table_changelist",
        "games_game_changelist",
        "games_chatmessage_changelist",
        "bots_botrating_changelist",
        "bots_botratingevent_changelist",
    ],
)
def test_every_other_model_is_closed(owner_client: Client, bots: dict[str, Bot], name: str) -> None:
    response = owner_client.get(reverse(f"admin:{name}"))
    assert response.status_code == 302
    assert "/login/" in response["Location"]


def test_bot_list_and_count_show_only_own_bots(owner_client: Client, bots: dict[str, Bot]) -> None:
    page = _text(owner_client, reverse("admin:bots_bot_changelist"))
    assert "Alpha Mine" in page
    _no_stranger(page)
    # a search that matches nothing still reports the total: only the owner's bot counts
    page = _text(owner_client, reverse("admin:bots_bot_changelist"), q="nothing-matches")
    assert "1 total" in page
    assert "3 total" not in page


def test_search_and_filters_never_reach_other_users(
    owner_client: Client, bots: dict[str, Bot]
) -> None:
    for term in ("Zebra", "strangeruser", "secret"):
        page = _text(owner_client, reverse("admin:bots_bot_changelist"), q=term)
        assert "0 results" in page  # the term is echoed back, but nothing of the stranger's
        for leak in (THEIRS, "Zebra Second", "secret plan"):
            assert leak not in page
    page = _text(owner_client, reverse("admin:bots_bot_changelist"), owner__id__exact="999999")
    _no_stranger(page)
    versions = _text(owner_client, reverse("admin:bots_botversion_changelist"))
    assert ">Alpha Mine</a>" in versions
    _no_stranger(versions)  # the "By bot" filter lists own bots only
    versions = _text(
        owner_client,
        reverse("admin:bots_botversion_changelist"),
        bot__id__exact=str(bots["theirs"].pk),
    )
    _no_stranger(versions)


def test_autocomplete_lists_own_bots_and_no_users(
    owner_client: Client, bots: dict[str, Bot]
) -> None:
    url = reverse("admin:autocomplete")
    response = owner_client.get(
        url, {"app_label": "bots", "model_name": "botversion", "field_name": "bot", "term": ""}
    )
    assert response.status_code == 200
    names = [row["text"] for row in json.loads(response.content)["results"]]
    assert names == ["Alpha Mine"]
    response = owner_client.get(
        url, {"app_label": "bots", "model_name": "bot", "field_name": "owner", "term": "s"}
    )
    assert response.status_code in (302, 403)
    assert b"strangeruser" not in response.content


def test_another_users_rows_are_missing_by_url(owner_client: Client, bots: dict[str, Bot]) -> None:
    theirs = bots["theirs"]
    version = BotVersion.objects.get(bot=theirs)
    for url in (
        reverse("admin:bots_bot_change", args=[theirs.pk]),
        reverse("admin:bots_bot_history", args=[theirs.pk]),
        reverse("admin:bots_bot_delete", args=[theirs.pk]),
        reverse("admin:bots_botversion_change", args=[version.pk]),
    ):
        response = owner_client.get(url)
        assert response.status_code in (302, 404), url
        _no_stranger(response.content.decode())
    response = owner_client.post(
        reverse("admin:bots_bot_change", args=[theirs.pk]), {"name": "Hacked", "description": ""}
    )
    assert response.status_code == 404
    theirs.refresh_from_db()
    assert theirs.name == THEIRS
    # the "view on site" redirect would tell whether a row exists: closed
    response = owner_client.get(reverse("admin:view_on_site", args=[1, theirs.pk]))
    assert response.status_code == 302
    assert "/login/" in response["Location"]


def test_version_form_offers_only_own_bots(owner_client: Client, bots: dict[str, Bot]) -> None:
    page = _text(owner_client, reverse("admin:bots_botversion_add"))
    assert "Alpha Mine" in page
    _no_stranger(page)
    before = BotVersion.objects.count()
    response = owner_client.post(
        reverse("admin:bots_botversion_add"), {"bot": bots["theirs"].pk, "code": "// evil"}
    )
    assert response.status_code == 200
    assert BotVersion.objects.count() == before


def test_adding_a_version_goes_through_the_service(
    owner_client: Client,
    bots: dict[str, Bot],
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    scheduled: list[tuple[str, list[Any]]] = []
    monkeypatch.setattr(
        bots_services, "schedule", lambda name, args, **kw: scheduled.append((name, args))
    )
    with django_capture_on_commit_callbacks(execute=True):
        response = owner_client.post(
            reverse("admin:bots_botversion_add"), {"bot": bots["mine"].pk, "code": "// v2"}
        )
    assert response.status_code == 302
    version = bots["mine"].versions.get(number=2)
    assert version.code == "// v2"
    assert scheduled == [(bots_services.VALIDATE_TASK, [version.pk])]


def test_owner_edits_and_adds_own_bots(
    owner_client: Client, owner: User, bots: dict[str, Bot]
) -> None:
    mine = bots["mine"]
    page = _text(owner_client, reverse("admin:bots_bot_change", args=[mine.pk]))
    assert 'name="owner"' not in page
    assert "Delete" not in page  # My Bots deletes a bot
    response = owner_client.post(
        reverse("admin:bots_bot_change", args=[mine.pk]),
        {"name": "Alpha Renamed", "description": "new words"},
    )
    assert response.status_code == 302
    mine.refresh_from_db()
    assert (mine.name, mine.description, mine.owner) == ("Alpha Renamed", "new words", owner)

    stranger = bots["theirs"].owner
    response = owner_client.post(
        reverse("admin:bots_bot_add"), {"name": "Gamma", "description": "", "owner": stranger.pk}
    )
    assert response.status_code == 302
    assert Bot.objects.get(name="Gamma").owner == owner

    response = owner_client.post(reverse("admin:bots_bot_add"), {"name": "Gamma"})
    assert response.status_code == 200
    assert "You already have a bot with this name." in response.content.decode()
    # another user's bot name is free for this user
    response = owner_client.post(reverse("admin:bots_bot_add"), {"name": THEIRS})
    assert response.status_code == 302


def test_inactive_and_anonymous_users_stay_out(client: Client, bots: dict[str, Bot]) -> None:
    assert client.get(reverse("admin:bots_bot_changelist")).status_code == 302
    sleeper = UserFactory.create(username="sleeper", is_active=False)
    client.force_login(sleeper)
    response = client.get(reverse("admin:bots_bot_changelist"))
    assert response.status_code == 302
    assert "/login/" in response["Location"]


def test_the_admin_speaks_vietnamese(owner_client: Client, bots: dict[str, Bot]) -> None:
    page = owner_client.get(reverse("admin:index"), HTTP_ACCEPT_LANGUAGE="vi").content.decode()
    assert "Quản trị Tiến Lên Arena" in page


def test_permissions_granted_to_a_user_who_is_not_staff_open_nothing_else(
    client: Client, owner: User, bots: dict[str, Bot]
) -> None:
    owner.user_permissions.set(Permission.objects.all())
    client.force_login(owner)
    page = _text(client, reverse("admin:index"))
    for closed in ("games", "accounts", "auth", "authtoken"):
        assert f"/admin/{closed}/" not in page
    assert client.get(reverse("admin:accounts_user_changelist")).status_code == 302
    assert client.get(reverse("admin:app_list", args=["auth"])).status_code == 302
    assert client.get(reverse("admin:app_list", args=["bots"])).status_code == 200
    response = client.get(
        reverse("admin:autocomplete"),
        {"app_label": "bots", "model_name": "bot", "field_name": "owner", "term": "s"},
    )
    assert response.status_code == 403
