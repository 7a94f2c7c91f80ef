"""People who leave, over real WebSockets: a closed socket at a practice table ends the
session after the hold and the current game; the host's ``end_session`` frame."""

from __future__ import annotations

import pytest

from games import services
from games.models import Game, Table
from tests.factories import UserFactory
from tests.games.live import four_player_table
from tests.scheduler import SCHEDULER, FrozenClock
from tests.ws import Conn, cookie_for, db, is_type, table_conns

pytestmark = pytest.mark.django_db(transaction=True)


async def test_closing_the_tab_at_a_practice_table_ends_the_session(clock: FrozenClock) -> None:
    user = await db(lambda: UserFactory.create(username="solo", display_name="Solo"))
    table = await db(lambda: services.table_create_practice(owner=user))
    player = Conn(f"/ws/tables/{table.code}/", await cookie_for(user))
    watcher = Conn(f"/ws/tables/{table.code}/")
    assert (await player.open())["you"]["seat"] == 0
    await watcher.open()
    await player.close()  # the tab is closed: a real disconnect
    left = await watcher.until(is_type("player_left"))
    assert (left["seat"], left["reason"]) == (0, "disconnected")
    clock.advance(services.hold_seconds())
    await db(SCHEDULER.run_due)  # the hold is over: the house AI plays seat 0 to the end
    ended = await watcher.until(is_type("game_ended"))
    assert ended["game"] == 1
    clock.advance(services.next_game_seconds() + 1)
    await db(SCHEDULER.run_due)  # no game 2 for nobody: the session ends
    over = await watcher.until(is_type("session_ended"))
    assert over["reason"] == "abandoned"
    assert over["finished"] is True
    assert over["played"] == 1
    status = await db(lambda: Table.objects.get(pk=table.pk).status)
    assert status == Table.Status.COMPLETED
    game = await db(lambda: Game.objects.get(table=table, number=1))
    assert game.players[0]["absent"] == "abandoned"
    await watcher.close()


async def test_end_session_frame_is_the_hosts() -> None:
    table, users = await db(four_player_table)
    conns = await table_conns(table, users)
    await conns[0].send({"type": "start_game"})
    for conn in conns:
        await conn.until(is_type("game_started"))
    error = await conns[1].error({"type": "end_session"})
    assert (error["code"], error["ref"]) == ("not_host", "end_session")
    await conns[0].send({"type": "end_session"})
    for conn in conns:
        over = await conn.until(is_type("session_ended"))
        assert over["reason"] == "host"
        assert over["played"] == 0
        updated = await conn.until(is_done)
        assert updated["table"]["status"] == "completed"
    game = await db(lambda: Game.objects.get(table=table, number=1))
    assert game.status == Game.Status.ABORTED
    error = await conns[0].error({"type": "end_session"})
    assert error["code"] == "bad_state"
    for conn in conns:
        await conn.close()


def is_done(frame: dict[str, object]) -> bool:
    table = frame.get("table")
    return (
        frame["type"] == "table_updated"
        and isinstance(table, dict)
        and table.get("status") == "completed"
    )
