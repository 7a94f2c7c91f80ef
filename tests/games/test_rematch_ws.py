"""Rematch over real WebSockets (docs/protocol.md "Rematch"): the offer reaches every player and
spectator, a reconnecting socket finds it in its snapshot, spectators cannot answer, bad frames
get stable codes, and when everyone accepts the next game of the table is dealt to all."""

from __future__ import annotations

from typing import Any

import pytest

from games import services
from games.models import Game, Table
from tests.factories import UserFactory
from tests.games.live import started_table
from tests.games.test_rematch import play_out
from tests.ws import Conn, cookie_for, db, is_type, table_conns, table_path

pytestmark = pytest.mark.django_db(transaction=True)


def session_over() -> tuple[Table, list[Any]]:
    """Four people whose session is over (game 1 played out, the host ended the session)."""
    table, users, _game = started_table(turn_seconds=60)
    play_out(table)
    services.table_end(table_id=table.pk, user=users[0])
    return table, users


async def test_the_offer_reaches_everyone_and_everyone_accepting_deals_the_next_game() -> None:
    table, users = await db(session_over)
    conns = await table_conns(table, users)
    watcher = Conn(table_path(table.code))
    assert (await watcher.open())["rematch"] is None

    error = await watcher.error({"type": "rematch"})
    assert (error["code"], error["ref"]) == ("login_required", "rematch")
    await conns[1].send({"type": "rematch"})
    for conn in [*conns, watcher]:
        offer = (await conn.until(is_type("rematch_offer")))["rematch"]
        assert offer["by"] == 1
        assert offer["name"] == "P1"
        assert offer["people"] == [0, 1, 2, 3]
        assert offer["answers"] == {"1": True}
        assert offer["deadline"] > 0
        line = await conn.until(is_type("message_received", code="rematch_offered"))
        assert line["params"] == {"name": "P1"}

    # a spectator sees the offer but cannot answer; bad frames change nothing
    error = await watcher.error({"type": "rematch_answer", "accept": True})
    assert (error["code"], error["ref"]) == ("login_required", "rematch_answer")
    stranger = await db(lambda: UserFactory.create(username="stranger"))
    fan = Conn(table_path(table.code), await cookie_for(stranger))
    assert (await fan.open())["rematch"]["by"] == 1  # a signed-in spectator sees it too
    for frame in ({"type": "rematch_answer", "accept": True}, {"type": "rematch"}):
        assert (await fan.error(frame))["code"] == "not_seated"
    await fan.close()
    error = await conns[2].error({"type": "rematch_answer"})
    assert (error["code"], error["ref"]) == ("bad_frame", "rematch_answer")
    error = await conns[2].error({"type": "rematch_answer", "accept": "yes"})
    assert error["code"] == "bad_frame"
    error = await conns[1].error({"type": "rematch"})
    assert error["code"] == "already_answered"

    # a socket that reconnects finds the open offer in its snapshot
    late = Conn(table_path(table.code), await cookie_for(users[3]))
    snap = await late.open()
    assert snap["rematch"]["answers"] == {"1": True}

    await conns[0].send({"type": "rematch_answer", "accept": True})
    await conns[2].send({"type": "rematch_answer", "accept": True})
    for conn in [*conns, watcher]:
        offer = await conn.until(
            lambda f: f["type"] == "rematch_offer" and len(f["rematch"]["answers"]) == 3
        )
        assert offer["rematch"]["answers"] == {"0": True, "1": True, "2": True}
    await late.send({"type": "rematch_answer", "accept": True})
    for conn in [*conns, watcher, late]:
        ended = await conn.until(is_type("rematch_ended"))
        assert ended["outcome"] == "started"
        assert ended["accepted"] == [0, 1, 2, 3]
        started = await conn.until(is_type("game_started"))
        assert (started["game"], started["position"], started["games"]) == (2, 1, 16)
    status = await db(lambda: Table.objects.get(pk=table.pk).status)
    assert status == Table.Status.IN_PROGRESS
    assert await db(lambda: Game.objects.filter(table=table).count()) == 2
    error = await conns[0].error({"type": "rematch"})
    assert error["code"] == "no_session_over"
    error = await conns[0].error({"type": "rematch_answer", "accept": False})
    assert error["code"] == "rematch_closed"  # a late click once the rematch started
    for conn in [*conns, watcher, late]:
        await conn.close()


async def test_an_answer_without_an_open_offer_is_rematch_closed() -> None:
    table, users = await db(session_over)
    conns = await table_conns(table, users[:1])
    error = await conns[0].error({"type": "rematch_answer", "accept": True})
    assert error["code"] == "rematch_closed"
    assert await db(lambda: Table.objects.get(pk=table.pk).rematch) is None
    await conns[0].close()
