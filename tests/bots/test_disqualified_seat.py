"""A disqualified bot is marked on every screen: the ``table_updated`` frame everyone at the
table receives (players and spectators) and every later ``snapshot`` carry
``seats[].disqualified``, and the table page has the translated "disqualified — house plays"
badge (the boards draw it from those frames; the lobby list is also rendered on the server)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from games import selectors, services
from games.models import Seat, Table
from tests.bots.live import ENDLESS_BOT, Sock, cookie_for, hybrid_table, new_user, play_humans

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("live_bots")]


@database_sync_to_async
def _setup() -> tuple[Table, Any, Any]:
    owner, watcher = new_user("owner"), new_user("watcher")
    table, _ = hybrid_table(owner, ENDLESS_BOT, seats=3)
    return table, owner, watcher


@database_sync_to_async
def _play_until_disqualified(table: Table, owner: Any) -> None:
    services.table_start(table_id=table.pk, user=owner)
    play_humans(
        table, {0: owner}, until=lambda g: Seat.objects.get(table=table, index=1).disqualified
    )


async def test_every_socket_at_the_table_is_told_the_bot_is_disqualified(settings: Any) -> None:
    settings.BOTS_MOVE_TIMEOUT_SECONDS = 0.3
    table, owner, watcher = await _setup()
    player = Sock(table.code, await cookie_for(owner))
    spectator = Sock(table.code, await cookie_for(watcher))
    guest = Sock(table.code, None)
    for sock in (player, spectator, guest):
        await sock.open()
        assert sock.of_type("snapshot")[0]["seats"][1]["disqualified"] is False
    await _play_until_disqualified(table, owner)
    for sock in (player, spectator, guest):
        await sock.drain(0.3)
        updates = [f["seats"][1] for f in sock.of_type("table_updated")]
        strikes = [s["strikes"] for s in updates]
        assert strikes == sorted(strikes)
        assert strikes[-1] == 3
        last = updates[-1]
        assert last["disqualified"] is True
        assert last["auto"] is True  # the house policy plays it
        assert last["kind"] == "bot"
        # before the third strike it was a bot with strikes, not disqualified
        assert not any(s["disqualified"] for s in updates if s["strikes"] < 3)
    for sock in (player, spectator, guest):
        await sock.comm.disconnect()

    # a (re)loaded page: the snapshot of a player and of a spectator says so too
    for user in (owner, watcher, None):
        snapshot = await database_sync_to_async(selectors.table_snapshot)(
            table_id=table.pk, user=user
        )
        seat = snapshot["seats"][1]
        assert (seat["disqualified"], seat["auto"], seat["strikes"]) == (True, True, 3)


def _strings(html: str) -> dict[str, Any]:
    marker = '<script type="application/json" id="table-i18n">'
    start = html.index(marker) + len(marker)
    strings: dict[str, Any] = json.loads(html[start : html.index("</script>", start)])
    return strings


def test_the_table_page_has_the_translated_disqualified_badge(settings: Any) -> None:
    settings.BOTS_MOVE_TIMEOUT_SECONDS = 0.3
    owner = new_user("owner")
    table, _ = hybrid_table(owner, ENDLESS_BOT, seats=3)
    client = Client()
    html = client.get(f"/t/{table.code}/").content.decode()
    assert _strings(html)["disqualified"] == "disqualified — house plays"  # the boards' string
    assert "3 strikes" in _strings(html)["disqualified_title"]
    assert 'data-badge="disqualified"' not in html  # not yet

    services.table_start(table_id=table.pk, user=owner)
    play_humans(
        table, {0: owner}, until=lambda g: Seat.objects.get(table=table, index=1).disqualified
    )
    html = client.get(f"/t/{table.code}/").content.decode()
    assert 'data-badge="disqualified"' in html  # the server-rendered seat list
    assert "disqualified — house plays</span>" in html
    vietnamese = client.get(f"/t/{table.code}/", HTTP_ACCEPT_LANGUAGE="vi").content.decode()
    assert "bị loại — AI nhà chơi thay</span>" in vietnamese
    assert _strings(vietnamese)["disqualified"] == "bị loại — AI nhà chơi thay"
