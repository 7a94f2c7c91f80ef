"""Connected or offline (issue 25): where an external bot is offered for a seat — Create Table
and tournaments (``bot_seat_choices``), Evaluate (``match_field_choices``) — its label says
whether its program has a connection open now; a JavaScript bot's label is unchanged."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.utils import translation

from bots.external import presence
from bots.matches.services import match_field_choices
from bots.selectors import bot_seat_choices
from tests.bots.external.helpers import communicator, external_bot, receive
from tests.bots.live import new_user, ready_version

pytestmark = pytest.mark.django_db(transaction=True)


def _labels(user: object) -> tuple[dict[str, str], dict[str, str]]:
    # English on purpose: an earlier test's request may have left the worker thread in Vietnamese
    with translation.override("en"):
        seats = dict(bot_seat_choices(user, game="tienlen"))
        evaluate = {c.value: c.label for c in match_field_choices(user=user, game="tienlen")}
    return seats, evaluate


async def test_an_external_bot_is_shown_connected_while_its_socket_is_open() -> None:
    owner = await database_sync_to_async(new_user)("presence")
    bot, version, token = await database_sync_to_async(external_bot)(owner, name="Far")
    js = await database_sync_to_async(ready_version)(owner, "// js", "Near")
    seats, evaluate = await database_sync_to_async(_labels)(owner)
    assert seats[f"bot:{version.pk}"] == "Far v1 · offline"
    assert evaluate[f"version:{version.pk}"].endswith(" · offline")
    assert seats[f"bot:{js.pk}"] == f"Near v{js.number}"  # a JS bot: no state

    comm = communicator(token)
    assert (await comm.connect())[0]
    assert (await receive(comm))["type"] == "hello"
    seats, evaluate = await database_sync_to_async(_labels)(owner)
    assert seats[f"bot:{version.pk}"] == "Far v1 · connected"
    assert evaluate[f"version:{version.pk}"].endswith(" · connected")

    await comm.disconnect()
    assert await database_sync_to_async(presence.connected)([bot.pk]) == set()
    seats, _ = await database_sync_to_async(_labels)(owner)
    assert seats[f"bot:{version.pk}"] == "Far v1 · offline"


def test_a_bot_is_connected_while_one_of_its_connections_is_open() -> None:
    presence.connection_closed(bot_id=987654, connection="a")  # closing what was never opened
    assert presence.connected([987654]) == set()
    presence.connection_opened(bot_id=987654, connection="a")
    presence.connection_opened(bot_id=987654, connection="b")
    presence.connection_closed(bot_id=987654, connection="a")
    assert presence.connected([987654, 987654]) == {987654}
    presence.connection_closed(bot_id=987654, connection="b")
    assert presence.connected([987654]) == set()
