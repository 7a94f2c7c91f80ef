"""``play_cards`` / ``pass_turn`` are aliases of ``game_action``: two tables dealt the same cards,
one played with the aliases and the other with ``game_action``, answer every frame alike."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from channels.db import database_sync_to_async

from games import services
from games.consumers import GAME_ACTION_ALIASES, as_game_action
from games.engine.registry import find_game
from games.models import Action, Game, Table
from tests.factories import UserFactory
from tests.ws import Conn, Frame, db, is_type, table_conns

pytestmark = pytest.mark.django_db(transaction=True)
ENGINE = find_game("tienlen")
#: Fields that hold the time a frame was made (the two tables run a few ms apart).
TIMES = {"at", "deadline", "server_time", "turn_started_at", "started_at", "now", "expires_at"}


def test_each_alias_is_one_game_action() -> None:
    assert set(GAME_ACTION_ALIASES) == {"play_cards", "pass_turn"}
    assert as_game_action({"type": "play_cards", "version": 2, "cards": ["3S", "3C"]}) == {
        "type": "game_action",
        "version": 2,
        "action": {"type": "play", "cards": ["3S", "3C"]},
    }
    # malformed fields are carried as they are: game_action judges them
    assert as_game_action({"type": "play_cards", "version": "x", "cards": "3S"}) == {
        "type": "game_action",
        "version": "x",
        "action": {"type": "play", "cards": "3S"},
    }
    assert as_game_action({"type": "pass_turn", "version": 5, "cards": ["3S"]}) == {
        "type": "game_action",
        "version": 5,
        "action": {"type": "pass"},
    }


@database_sync_to_async
def two_tables() -> list[tuple[Table, list[Any]]]:
    out = []
    for name in ("a", "b"):
        users = [UserFactory.create(username=f"{name}{i}", display_name=f"P{i}") for i in range(4)]
        table = services.table_create(owner=users[0], name=name, options=None)
        for i, user in enumerate(users[1:], start=1):
            services.seat_join(table_id=table.pk, user=user, seat=i)
        for user in users:
            services.seat_ready(table_id=table.pk, user=user)
        out.append((table, users))
    return out


def untimed(obj: Any) -> Any:
    """``obj`` without its time fields (recursively)."""
    if isinstance(obj, dict):
        return {k: untimed(v) for k, v in obj.items() if k not in TIMES}
    if isinstance(obj, list):
        return [untimed(v) for v in obj]
    return obj


def alias_of(action: dict[str, Any]) -> dict[str, Any]:
    if action["type"] == "play":
        return {"type": "play_cards", "cards": action["cards"]}
    return {"type": "pass_turn"}


async def turn_of(conns: list[Conn]) -> tuple[int, Frame]:
    while True:
        for seat, conn in enumerate(conns):
            await conn.drain(0.01)
            for frame in list(conn.unread):
                if frame["type"] == "your_turn":
                    conn.unread.remove(frame)
                    return seat, frame


async def answers(
    a: Conn, b: Conn, action: dict[str, Any], version: Any, pick: Callable[[Frame], bool]
) -> tuple[Frame, Frame]:
    """Send ``action`` as its alias at table A and as ``game_action`` at table B; the frames
    each gets that match ``pick``."""
    await a.send({**alias_of(action), "version": version})
    await b.send({"type": "game_action", "version": version, "action": action})
    return await a.until(pick), await b.until(pick)


async def test_aliases_and_game_action_give_identical_results(
    deal_seeds: Callable[..., None],
) -> None:
    deal_seeds(4242)
    (table_a, users_a), (table_b, users_b) = await two_tables()
    conns_a = await table_conns(table_a, users_a)
    conns_b = await table_conns(table_b, users_b)
    await conns_a[0].send({"type": "start_game"})
    await conns_b[0].send({"type": "start_game"})
    for conn in [*conns_a, *conns_b]:
        await conn.until(is_type("game_started"))
    error = is_type("error")
    for move_number in range(8):
        (seat, turn_a), (seat_b, turn_b) = await turn_of(conns_a), await turn_of(conns_b)
        assert seat == seat_b
        assert untimed(turn_a) == untimed(turn_b)
        version = turn_a["version"]
        actor_a, actor_b = conns_a[seat], conns_b[seat]
        other = (seat + 1) % 4
        bad: list[tuple[Conn, Conn, dict[str, Any], Any]] = [
            (actor_a, actor_b, {"type": "play", "cards": ["ZZ"]}, version),
            (actor_a, actor_b, {"type": "play", "cards": "3S"}, version),
            (actor_a, actor_b, {"type": "play", "cards": []}, version),
            (actor_a, actor_b, {"type": "pass"}, version + 7),
            (actor_a, actor_b, {"type": "pass"}, "1"),
            (conns_a[other], conns_b[other], {"type": "pass"}, version),
        ]
        if not turn_a["can_pass"]:
            bad.append((actor_a, actor_b, {"type": "pass"}, version))
        for a, b, action, v in bad if move_number < 2 else bad[:1]:
            got_a, got_b = await answers(a, b, action, v, error)
            assert got_a["ref"] == alias_of(action)["type"]
            assert got_b["ref"] == "game_action"
            assert {**got_a, "ref": None} == {**got_b, "ref": None}, action
        legal = turn_a["legal"]
        move = {"type": "play", "cards": legal[0]["cards"]} if legal else {"type": "pass"}
        done = is_type("game_state_update", version=version + 1)
        got_a, got_b = await answers(actor_a, actor_b, move, version, done)
        assert untimed(got_a) == untimed(got_b)
        for i in range(4):
            if i != seat:
                got_a, got_b = await conns_a[i].until(done), await conns_b[i].until(done)
                assert untimed(got_a) == untimed(got_b)

    def stored() -> list[list[Any]]:
        out = []
        for table in (table_a, table_b):
            game = Game.objects.get(table=table, number=1)
            rows = Action.objects.filter(game=game).order_by("seq")
            out.append([(r.actor, untimed(r.payload)) for r in rows])
        return out

    rows_a, rows_b = await db(stored)
    assert rows_a == rows_b
    assert len(rows_a) >= 8
    assert {actor for actor, _ in rows_a} == {"human"}
    for conn in [*conns_a, *conns_b]:
        await conn.close()
