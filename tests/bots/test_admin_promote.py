"""The bot admin's "Promoted version" (issue 24, Admin): a user who is not a superuser (staff
or not) is offered only their bot's own ready versions — never another user's, whose names
would leak — and a save follows the site's Promote rule (its own version, ready)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse

from accounts.models import User
from bots.models import Bot, BotVersion
from tests.factories import BotFactory, BotVersionFactory, UserFactory

pytestmark = pytest.mark.django_db

READY = BotVersion.Status.READY


@pytest.fixture(params=["plain", "staff"])
def owner(request: pytest.FixtureRequest) -> User:
    """A user who is not a superuser: a plain one, or staff with the bots' model permissions."""
    user = UserFactory.create(username="owner", is_staff=request.param == "staff")
    if user.is_staff:
        user.user_permissions.set(Permission.objects.filter(content_type__app_label="bots"))
    return user


@pytest.fixture
def rows(owner: User) -> dict[str, Any]:
    stranger = UserFactory.create(username="stranger")
    mine = BotFactory.create(owner=owner, name="Alpha Mine")
    other_of_mine = BotFactory.create(owner=owner, name="Beta Mine")
    secret = BotFactory.create(owner=stranger, name="Zebra Secret", arena_open=False)
    return {
        "mine": mine,
        "v1": BotVersionFactory.create(bot=mine, number=1, status=READY),
        "v2": BotVersionFactory.create(bot=mine, number=2, status=BotVersion.Status.NOT_READY),
        "beta": BotVersionFactory.create(bot=other_of_mine, number=1, status=READY),
        "secret": BotVersionFactory.create(bot=secret, number=1, status=READY),
    }


@pytest.fixture
def owner_client(client: Client, owner: User) -> Client:
    client.force_login(owner)
    return client


def _change(client: Client, bot: Bot, promoted: Any) -> Any:
    return client.post(
        reverse("admin:bots_bot_change", args=[bot.pk]),
        {"name": bot.name, "description": "", "promoted_version": promoted},
    )


def test_the_promoted_version_offers_only_this_bots_ready_versions(
    owner_client: Client, rows: dict[str, Any]
) -> None:
    page = owner_client.get(reverse("admin:bots_bot_change", args=[rows["mine"].pk]))
    assert page.status_code == 200
    field = page.context["adminform"].form.fields["promoted_version"]
    assert set(field.queryset) == {rows["v1"]}
    text = page.content.decode()
    assert "Zebra" not in text  # another user's private bot is not even named
    assert "Beta Mine" not in text
    add = owner_client.get(reverse("admin:bots_bot_add"))
    assert "Zebra" not in add.content.decode()


def test_another_users_private_version_is_not_saved(
    owner_client: Client, rows: dict[str, Any]
) -> None:
    response = _change(owner_client, rows["mine"], rows["secret"].pk)
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["promoted_version"]
    rows["mine"].refresh_from_db()
    assert rows["mine"].promoted_version_id is None


def test_a_version_that_is_not_ready_is_refused_as_promote_does(
    owner_client: Client, rows: dict[str, Any], settings: Any
) -> None:
    from django import forms

    from bots.admin import promote_form

    mine = rows["mine"]
    # the check itself, with the choices opened up (as a changed status or a race would)
    base = forms.modelform_factory(Bot, fields=["promoted_version"])
    form_class = promote_form(base, mine)
    form_class.base_fields["promoted_version"].queryset = BotVersion.objects.all()  # type: ignore[attr-defined]
    form = form_class({"promoted_version": rows["v2"].pk}, instance=mine)
    assert not form.is_valid()
    assert form.errors["promoted_version"] == [
        "Only a version that passed its validation game can be promoted."
    ]
    assert form.errors.as_data()["promoted_version"][0].code == "version_not_ready"
    form = form_class({"promoted_version": rows["secret"].pk}, instance=mine)
    assert not form.is_valid()
    assert form.errors.as_data()["promoted_version"][0].code == "no_such_version"
    # and by the page
    response = _change(owner_client, mine, rows["v2"].pk)
    assert response.status_code == 200
    mine.refresh_from_db()
    assert mine.promoted_version_id is None


def test_a_ready_version_of_the_bot_is_promoted(owner_client: Client, rows: dict[str, Any]) -> None:
    mine = rows["mine"]
    response = _change(owner_client, mine, rows["v1"].pk)
    assert response.status_code == 302
    mine.refresh_from_db()
    assert mine.promoted_version_id == rows["v1"].pk
    response = _change(owner_client, mine, "")
    assert response.status_code == 302
    mine.refresh_from_db()
    assert mine.promoted_version_id is None


def test_autocomplete_and_raw_id_lookups_list_only_own_versions(
    owner_client: Client, rows: dict[str, Any]
) -> None:
    response = owner_client.get(
        reverse("admin:autocomplete"),
        {"app_label": "bots", "model_name": "bot", "field_name": "promoted_version", "term": ""},
    )
    if response.status_code == 200:
        names = [row["text"] for row in json.loads(response.content)["results"]]
        assert not any("Zebra" in n for n in names)
    else:  # not an autocomplete field: closed
        assert response.status_code in (403, 404)
    lookup = owner_client.get(
        reverse("admin:bots_botversion_changelist"), {"_popup": "1", "_to_field": "id"}
    )
    assert lookup.status_code == 200
    assert "Zebra" not in lookup.content.decode()


def test_a_superuser_still_sees_every_bot_but_promotes_by_the_rule(
    client: Client, rows: dict[str, Any]
) -> None:
    admin_user = UserFactory.create(username="root", is_staff=True, is_superuser=True)
    client.force_login(admin_user)
    page = client.get(reverse("admin:bots_bot_change", args=[rows["mine"].pk]))
    assert set(page.context["adminform"].form.fields["promoted_version"].queryset) == {rows["v1"]}
    response = _change(client, rows["mine"], rows["secret"].pk)
    assert response.status_code == 200
    rows["mine"].refresh_from_db()
    assert rows["mine"].promoted_version_id is None
