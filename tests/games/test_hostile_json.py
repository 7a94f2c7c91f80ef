"""Deeply nested JSON at every entry point that parses user input: both WebSockets, the game
import, the REST API. Each answers its usual error and stays up (issue 14)."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from accounts.models import User
from games import history
from tests.factories import UserFactory
from tests.games.test_consumers_live import lobby_table
from tests.ws import Conn, cookie_for, db, is_type, table_conns

DEEP = "[" * 1900 + "]" * 1900  # 3.8 KB, under the 4 KB frame limit
DEEP_OBJECT = '{"type": "ping", "x": ' + "[" * 1800 + "]" * 1800 + "}"


@pytest.mark.django_db(transaction=True)
async def test_table_socket_answers_deep_json_and_stays_open() -> None:
    table, users = await lobby_table()
    (conn,) = await table_conns(table, users[:1])
    for text in (DEEP, DEEP_OBJECT):
        error = await conn.error(text)
        assert error["code"] == "bad_json"
        assert "16 levels" in error["detail"]
    await conn.send({"type": "ping"})
    assert (await conn.until(is_type("pong")))["type"] == "pong"
    await conn.close()


@pytest.mark.django_db(transaction=True)
async def test_lobby_socket_answers_deep_json_and_stays_open() -> None:
    user = await db(lambda: UserFactory.create(username="deep"))
    conn = Conn("/ws/lobby/", await cookie_for(user))
    await conn.open()
    assert (await conn.error(DEEP))["code"] == "bad_json"
    await conn.send({"type": "ping"})
    assert (await conn.until(is_type("pong")))["type"] == "pong"
    await conn.close()


def test_import_refuses_deep_json_with_bad_export() -> None:
    for data in (DEEP, DEEP.encode()):
        with pytest.raises(history.HistoryError) as err:
            history.game_import(data=data)
        assert err.value.code == "bad_export"


@pytest.mark.django_db
def test_import_page_shows_the_form_error_for_deep_json(user_client: object) -> None:
    url = reverse("tables:history_import")
    page = user_client.post(url, {"text": DEEP})  # type: ignore[attr-defined]
    assert page.status_code == 400
    body = page.content.decode()
    assert 'id="import-error"' in body
    assert "bad_export" in body


@pytest.mark.django_db
def test_rest_api_answers_deep_json_with_400(user: User) -> None:
    api = APIClient()
    api.force_authenticate(user)
    for body in (DEEP, json.dumps({"name": "x", "code": "y"})[:-1] + ', "z": ' + DEEP + "}"):
        response = api.post("/api/bots/", body, content_type="application/json")
        assert response.status_code == 400
        assert "JSON parse error" in response.json()["detail"]
