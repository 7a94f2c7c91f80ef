"""My Bots pages and REST of external bots: create, token shown once, regenerate, revoke; the
code paths (editor, versions, rollback) refuse them."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from bots.external.tokens import token_bot
from bots.models import Bot, BotVersion
from bots.services import bot_update, botversion_create
from tests.bots.external.helpers import external_bot
from tests.bots.live import new_user

pytestmark = pytest.mark.django_db

TOKEN = re.compile(r"tlb_[A-Za-z0-9_-]{40,}")


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_create_an_external_bot_and_manage_its_token_in_my_bots() -> None:
    owner = new_user("pam")
    client = _client(owner)
    response = client.post(
        reverse("bots:external_create"), {"name": "Far away", "game": "stud", "description": ""}
    )
    assert response.status_code == 200
    shown = TOKEN.findall(response.content.decode())
    assert len(set(shown)) == 1
    bot = Bot.objects.get(owner=owner, name="Far away")
    assert bot.kind == Bot.Kind.EXTERNAL
    assert bot.game == "stud"
    assert token_bot(shown[0]) == bot
    assert list(bot.versions.values_list("number", "status", "code")) == [
        (1, BotVersion.Status.READY, "")
    ]
    # the token is never shown again; the list marks the bot external and links its page
    page = client.get(reverse("bots:external", args=[bot.pk])).content.decode()
    assert shown[0] not in page
    assert bot.token_hint in page
    listing = client.get(reverse("bots:list")).content.decode()
    assert reverse("bots:external", args=[bot.pk]) in listing
    assert 'data-kind="external"' in listing
    editor = client.get(reverse("bots:editor", args=[bot.pk]))
    assert editor.status_code == 302
    assert editor["Location"] == reverse("bots:external", args=[bot.pk])
    # a new token replaces the old one
    again = client.post(reverse("bots:external_token", args=[bot.pk]), {"action": "regenerate"})
    fresh = TOKEN.findall(again.content.decode())[0]
    assert fresh != shown[0]
    assert token_bot(shown[0]) is None
    assert token_bot(fresh) == bot
    client.post(reverse("bots:external_token", args=[bot.pk]), {"action": "revoke"})
    assert token_bot(fresh) is None
    # someone else's bot is not found
    other = _client(new_user("quin"))
    assert other.get(reverse("bots:external", args=[bot.pk])).status_code == 404
    assert (
        other.post(reverse("bots:external_token", args=[bot.pk]), {"action": "revoke"}).status_code
        == 404
    )


def test_the_pages_in_vietnamese() -> None:
    owner = new_user("vu")
    bot, _, _ = external_bot(owner)
    client = _client(owner)
    page = client.get(reverse("bots:external", args=[bot.pk]) + "?lang=vi").content.decode()
    assert "Tạo token mới" in page
    assert "Thu hồi token" in page
    assert "Make a new token" not in page
    listing = client.get(reverse("bots:list") + "?lang=vi").content.decode()
    assert "Tạo bot bên ngoài" in listing
    assert "Create external bot" not in listing


def test_rest_creates_regenerates_and_revokes() -> None:
    owner = new_user("ray")
    client = _client(owner)
    created = client.post(
        "/api/bot/account/",
        {"name": "Rest bot", "game": "tienlen"},
        content_type="application/json",
    )
    assert created.status_code == 201
    body = created.json()
    assert body["kind"] == "external"
    bot = Bot.objects.get(pk=body["id"])
    assert token_bot(body["token"]) == bot
    duplicate = client.post(
        "/api/bot/account/",
        {"name": "Rest bot", "game": "tienlen"},
        content_type="application/json",
    )
    assert duplicate.status_code == 400
    renewed = client.post(f"/api/bot/account/{bot.pk}/token")
    assert renewed.status_code == 201
    assert token_bot(body["token"]) is None
    assert token_bot(renewed.json()["token"]) == bot
    assert client.delete(f"/api/bot/account/{bot.pk}/token").status_code == 204
    assert token_bot(renewed.json()["token"]) is None
    stranger = _client(new_user("sal"))
    assert stranger.post(f"/api/bot/account/{bot.pk}/token").status_code == 404
    assert Client().post("/api/bot/account/", {"name": "x", "game": "tienlen"}).status_code in {
        401,
        403,
    }


def test_external_bots_have_no_code_versions() -> None:
    owner = new_user("tod")
    bot, _, _ = external_bot(owner)
    with pytest.raises(ValidationError) as err:
        botversion_create(bot=bot, code="function getNextMove(s) { return { action: 'pass' }; }")
    assert err.value.code == "external_bot"
    client = _client(owner)
    response = client.post(
        f"/api/bots/{bot.pk}/versions/", {"code": "x"}, content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json()["code"] == "external_bot"
    assert client.post(f"/api/bots/{bot.pk}/versions/1/rollback/").status_code == 400
    assert bot.versions.count() == 1


@pytest.mark.parametrize("method", ["patch", "put"])
def test_updating_an_external_bot_with_code_is_refused_like_a_new_version(method: str) -> None:
    """``PATCH``/``PUT /api/bots/<id>/`` with ``code`` answered 500; it is 400 ``external_bot``
    (as ``POST …/versions/``) and changes nothing, not even the name sent with it."""
    owner = new_user("una")
    bot, _, _ = external_bot(owner)
    client = _client(owner)
    body = {"name": "Renamed", "description": "", "code": "function getNextMove(s) {}"}
    response = getattr(client, method)(
        f"/api/bots/{bot.pk}/", body, content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json()["code"] == "external_bot"
    bot.refresh_from_db()
    assert bot.name != "Renamed"
    assert bot.versions.count() == 1
    with pytest.raises(ValidationError) as err:
        bot_update(bot=bot, name="Renamed", code="x")
    assert err.value.code == "external_bot"
    bot.refresh_from_db()
    assert bot.name != "Renamed"
    # without code an external bot is renamed as any bot
    response = client.patch(
        f"/api/bots/{bot.pk}/", {"name": "Renamed"}, content_type="application/json"
    )
    assert response.status_code == 200
    assert response.json()["name"] == "Renamed"


def test_an_outside_program_gets_every_id_it_needs_from_the_api(settings: Any) -> None:
    """From the docs alone: the version id is in ``/api/bots/<id>/versions/`` (what
    ``POST /api/matches/`` needs), ``bot:<id>`` and ``version:<id>`` name the same version, and
    ``POST /api/bots/<id>/practice/`` makes a table where the bot plays house AIs."""
    from bots.matches.services import match_entrants
    from games.models import Seat, Table

    settings.GAMES_COUNTDOWN_SECONDS = 600.0  # the table counts down; nothing is dealt here
    owner = new_user("vic")
    bot, version, _ = external_bot(owner, "stud")
    client = _client(owner)
    listed = client.get(f"/api/bots/{bot.pk}/versions/").json()
    rows = listed["results"] if isinstance(listed, dict) else listed
    assert [(r["id"], r["number"]) for r in rows] == [(version.pk, 1)]
    detail = client.get(f"/api/bots/{bot.pk}/versions/1/").json()
    assert detail["id"] == version.pk
    for name in (f"bot:{version.pk}", f"version:{version.pk}"):  # one program: one seat each
        entrants = match_entrants(user=owner, game="stud", entrants=[name, "house:easy"])
        assert entrants[0].get("version_id") == version.pk

    made = client.post(
        f"/api/bots/{bot.pk}/practice/",
        {"seats": 3, "house_level": "easy"},
        content_type="application/json",
    )
    assert made.status_code == 201, made.content
    body = made.json()
    assert (body["game"], body["seats"], body["seat"]) == ("stud", 3, 0)
    assert (body["bot_version_id"], body["version"]) == (version.pk, 1)
    table = Table.objects.get(code=body["table"])
    assert body["url"] == f"/tables/{table.code}/"
    assert (table.mode, table.visibility, table.game) == ("practice", "private", "stud")
    seats = list(table.seats.order_by("index").values_list("kind", "bot_version_id"))
    assert seats == [(Seat.Kind.BOT, version.pk), (Seat.Kind.HOUSE, None), (Seat.Kind.HOUSE, None)]
    assert client.get(f"/api/tables/{table.code}/").status_code in {200, 404}  # private

    # refusals name their code and change nothing
    tables = Table.objects.count()
    for payload, code in [
        ({"seats": 9}, "bad_seats"),
        ({"house_level": "godlike"}, "bad_level"),
        ({"version": 2}, "no_such_version"),
    ]:
        refused = client.post(
            f"/api/bots/{bot.pk}/practice/", payload, content_type="application/json"
        )
        assert refused.status_code == 400
        assert refused.json()["code"] == code
    assert Table.objects.count() == tables
    stranger = _client(new_user("wes"))
    assert stranger.post(f"/api/bots/{bot.pk}/practice/").status_code == 404
