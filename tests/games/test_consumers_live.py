"""The table and lobby WebSockets, end to end through the project's ASGI application."""

from __future__ import annotations

import json
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import override_settings

from config.asgi import application
from games import services
from games.engine.registry import find_game
from games.models import Action, ChatMessage, Game, Seat, Table
from tests.factories import UserFactory
from tests.games.live import four_player_table, pending_seat, replay_states
from tests.scheduler import SCHEDULER, FrozenClock
from tests.ws import Conn, Frame, cookie_for, db, is_type, started_with_spectator, table_conns

pytestmark = pytest.mark.django_db(transaction=True)
ENGINE = find_game("tienlen")


@database_sync_to_async
def lobby_table() -> tuple[Table, list[Any]]:
    return four_player_table()


async def play_game(
    conns: list[Conn], spectator: Conn | None = None, max_moves: int = 400
) -> Frame:
    """Play the running game to its end with legal moves from ``your_turn`` frames."""
    for _ in range(max_moves):
        turn = None
        while turn is None:
            for conn in conns:
                await conn.drain(0.01)
                for frame in list(conn.unread):
                    if frame["type"] == "game_ended":
                        return frame
                    if frame["type"] == "your_turn":
                        conn.unread.remove(frame)
                        turn = (conn, frame)
        conn, frame = turn
        version = frame["version"]
        if frame["legal"]:
            cards = frame["legal"][0]["cards"]
            await conn.send({"type": "play_cards", "version": version, "cards": cards})
        else:
            assert frame["can_pass"]
            await conn.send({"type": "pass_turn", "version": version})
        for other in [*conns, *([spectator] if spectator else [])]:
            await other.until(is_type("game_state_update", version=version + 1))
    raise AssertionError("the game did not end")


def card_strings(obj: Any) -> set[str]:
    out: set[str] = set()
    if isinstance(obj, str):
        out.add(obj)
    elif isinstance(obj, dict):
        for v in obj.values():
            out |= card_strings(v)
    elif isinstance(obj, list):
        for v in obj:
            out |= card_strings(v)
    return out


def hidden_from(state: Any, seat: int | None) -> set[str]:
    """Cards another seat still holds (a spectator: every hand) at this state."""
    view = ENGINE.view(state, None)
    if view["finished"]:
        return set()
    hidden: set[str] = set()
    for s in range(4):
        if s != seat:
            hidden |= set(ENGINE.view(state, s)["hand"])
    return hidden


def assert_no_leak(frames: list[Frame], seat: int | None, states: list[Any]) -> None:
    for frame in frames:
        if frame["type"] in ("game_ended", "session_ended"):
            continue
        version = frame.get("version")
        if frame["type"] == "snapshot":
            version = frame["game"]["version"] if frame.get("game") else None
            if version is not None and frame["game"]["status"] != "running":
                continue
        if version is None:
            continue
        leaked = card_strings(frame) & hidden_from(states[version], seat)
        assert not leaked, (seat, frame["type"], leaked)


async def test_full_game_over_websockets_no_leaks_and_replay() -> None:
    table, users = await lobby_table()
    conns = await table_conns(table, users)
    spectator = Conn(f"/ws/tables/{table.code}/")
    snap = await spectator.open()
    assert snap["you"]["role"] == "spectator"
    assert snap["you"]["seat"] is None
    await conns[0].send({"type": "start_game"})
    for conn in conns:
        started = await conn.until(is_type("game_started"))
        assert started["state"]["hand"]
        assert len(started["state"]["hand"]) == 13
    started = await spectator.until(is_type("game_started"))
    assert started["state"]["hand"] is None
    ended = await play_game(conns, spectator)
    assert ended["result"]["winner"] in range(4)
    assert ended["stats"]["rounds"] >= 1
    assert sum(ended["stats"]["cards_played"]) > 0
    assert ended["session"]["played"] == 1
    assert ended["session"]["cumulative"]
    for conn in [*conns, spectator]:
        await conn.drain(0.1)
    game = await db(lambda: Game.objects.get(table=table, number=1))
    states = await db(lambda: replay_states(game))
    assert ENGINE.state_to_json(states[-1]) == game.state
    for seat, conn in enumerate(conns):
        assert_no_leak(conn.frames, seat, states)
        turns = [f["version"] for f in conn.frames if f["type"] == "your_turn"]
        assert len(turns) == len(set(turns))  # exactly one your_turn per turn
    assert_no_leak(spectator.frames, None, states)
    assert not [f for f in spectator.frames if f["type"] == "your_turn"]
    for conn in [*conns, spectator]:
        await conn.close()


async def test_every_client_frame_type_and_lobby_errors() -> None:
    table, users = await lobby_table()
    conns = await table_conns(table, users)
    host, p1 = conns[0], conns[1]
    await host.send({"type": "ping"})
    assert (await host.until(is_type("pong")))["server_time"] > 0
    await p1.send({"type": "sync"})
    snap = await p1.until(is_type("snapshot"))
    assert snap["you"] == {
        "role": "player",
        "seat": 1,
        "is_host": False,
        "user_id": users[1].pk,
        "name": "P1",
    }
    await p1.send({"type": "player_ready", "ready": False})
    upd = await host.until(
        lambda f: f["type"] == "table_updated" and f["table"]["status"] == "waiting"
    )
    assert upd["seats"][1]["ready"] is False
    assert (await host.error({"type": "start_game"}))["code"] == "not_ready"
    assert (await p1.error({"type": "kick", "seat": 2}))["code"] == "not_host"
    await p1.send({"type": "leave_table"})
    left = await host.until(is_type("player_left"))
    assert left["seat"] == 1
    assert left["reason"] == "left"
    snap = await p1.until(is_type("snapshot"))  # rebound as a spectator
    assert snap["you"]["role"] == "spectator"
    await p1.send({"type": "join_table", "seat": 1})
    assert (await host.until(is_type("player_joined")))["seat"] == 1
    assert (await p1.until(is_type("snapshot")))["you"]["seat"] == 1
    assert (await p1.error({"type": "join_table"}))["code"] == "already_seated"
    await host.send({"type": "kick", "seat": 3})
    assert (await host.until(is_type("player_left")))["reason"] == "kicked"
    assert (await conns[3].until(is_type("snapshot")))["you"]["role"] == "spectator"
    await host.send({"type": "add_bot", "seat": 3, "level": "easy"})
    joined = await host.until(is_type("player_joined"))
    assert joined["kind"] == "house"
    assert (await host.error({"type": "add_bot", "seat": 3, "level": "godlike"}))[
        "code"
    ] == "bad_frame"
    await host.send({"type": "set_option", "name": "turn_seconds", "value": 20})
    upd = await host.until(
        lambda f: f["type"] == "table_updated" and f["table"]["options"]["turn_seconds"] == 20
    )
    assert (await host.error({"type": "set_option", "name": "colour", "value": 1}))[
        "code"
    ] == "bad_frame"
    await p1.send({"type": "send_message", "text": "<script>hi</script>"})
    msg = await host.until(is_type("message_received", system=False))
    assert msg["text"] == "<script>hi</script>"
    assert msg["author"] == "P1"
    assert msg["room"] == "table"
    assert (await p1.error({"type": "send_message", "text": "x" * 501}))[
        "code"
    ] == "message_too_long"
    await p1.send({"type": "player_ready"})
    assert (await host.error({"type": "play_cards", "version": 0, "cards": ["3S"]}))[
        "code"
    ] == "no_game"
    assert (await host.error({"type": "suggest"}))["code"] == "no_game"
    assert (await host.error({"type": "next_game"}))["code"] == "bad_state"
    await host.until(lambda f: f["type"] == "table_updated" and f["table"]["status"] == "ready")
    await host.send({"type": "start_game"})
    await host.until(is_type("countdown"))
    await host.until(is_type("game_started"))
    snap_game = await db(lambda: Game.objects.get(table=table))
    # find who is to act and exercise the game frames
    state = ENGINE.state_from_json(snap_game.state)
    seat = ENGINE.round_status(state).pending[0]
    if seat == 3:  # the house AI already acted; wait for a human
        await host.until(is_type("game_state_update", version=1))
        snap_game = await db(lambda: Game.objects.get(table=table))
        state = ENGINE.state_from_json(snap_game.state)
        seat = ENGINE.round_status(state).pending[0]
    actor = conns[seat]
    turn = await actor.until(is_type("your_turn"))
    v = turn["version"]
    await actor.send({"type": "suggest"})
    sug = await actor.until(is_type("suggestion"))
    assert sug["action"]["type"] in ("play", "pass")
    await actor.send({"type": "arrange", "mode": "combos"})
    assert len((await actor.until(is_type("arranged")))["cards"]) == len(
        state.hands[seat].bit_count() * "x"
    )
    stale = await actor.error(
        {"type": "play_cards", "version": v + 7, "cards": turn["legal"][0]["cards"]}
    )
    assert stale["code"] == "stale_version"
    assert stale["version"] == v
    if not turn["can_pass"]:
        assert (await actor.error({"type": "pass_turn", "version": v}))[
            "code"
        ] == "leader_cannot_pass"
    bad = await actor.error({"type": "play_cards", "version": v, "cards": ["ZZ"]})
    assert bad["code"] == "bad_card"
    other = conns[(seat + 1) % 3] if seat != 2 else conns[0]
    assert (await other.error({"type": "pass_turn", "version": v}))["code"] in (
        "not_your_turn",
        "leader_cannot_pass",
    )
    await actor.send({"type": "play_cards", "version": v, "cards": turn["legal"][0]["cards"]})
    await actor.until(is_type("game_state_update", version=v + 1))
    dup = await actor.error(
        {"type": "play_cards", "version": v, "cards": turn["legal"][0]["cards"]}
    )
    assert dup["code"] == "stale_version"
    assert (await host.error({"type": "kick", "seat": 1}))["code"] == "bad_state"
    assert await db(lambda: Action.objects.filter(game__table=table, actor="human").count()) == 1
    for conn in conns:
        await conn.close()


async def test_garbage_frames_keep_the_socket_open() -> None:
    table, users = await lobby_table()
    (conn,) = await table_conns(table, users[:1])
    assert (await conn.error("not json"))["code"] == "bad_json"
    assert (await conn.error("[1, 2]"))["code"] == "bad_json"
    assert (await conn.error({"type": "x" * 5000}))["code"] == "frame_too_large"
    assert (await conn.error({"type": "dance"}))["code"] == "unknown_type"
    assert (await conn.error({"no": "type"}))["code"] == "unknown_type"
    assert (await conn.error({"type": "play_cards", "version": "1", "cards": ["3S"]}))[
        "code"
    ] == "bad_frame"
    assert (await conn.error({"type": "game_action", "version": 1, "action": "play"}))[
        "code"
    ] == "bad_frame"
    # an alias carries its fields to game_action as they are: no game here yet
    assert (await conn.error({"type": "play_cards", "version": 1, "cards": "3S"}))[
        "code"
    ] == "no_game"
    assert (await conn.error({"type": "player_ready", "ready": "yes"}))["code"] == "bad_frame"
    assert (await conn.error({"type": "send_message", "text": 5}))["code"] == "bad_frame"
    assert (await conn.error({"type": "send_message", "text": "hi", "room": "x"}))[
        "code"
    ] == "bad_frame"
    assert (await conn.error({"type": "set_option", "name": "turn_seconds"}))["code"] == "bad_frame"
    await conn.send({"type": "ping"})
    assert (await conn.until(is_type("pong")))["type"] == "pong"
    await conn.close()


async def test_internal_errors_are_reported_and_logged(monkeypatch: Any) -> None:
    table, users = await lobby_table()
    (conn,) = await table_conns(table, users[:1])

    def boom(**kwargs: Any) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(services, "seat_ready", boom)
    assert (await conn.error({"type": "player_ready"}))["code"] == "internal"
    await conn.send({"type": "ping"})
    await conn.until(is_type("pong"))
    await conn.close()


@override_settings(GAMES_WS_RATE=1.0, GAMES_WS_BURST=3.0)
async def test_rate_limits() -> None:
    table, users = await lobby_table()
    (conn,) = await table_conns(table, users[:1])
    for _ in range(4):
        await conn.send({"type": "ping"})
    await conn.until(is_type("error", code="rate_limited"))
    await conn.close()


async def test_chat_rate_limit_and_anonymous_rules() -> None:
    table, users = await lobby_table()
    (conn,) = await table_conns(table, users[1:2])
    for i in range(4):
        await conn.send({"type": "send_message", "text": f"line {i}"})
    assert (await conn.until(is_type("error")))["code"] == "rate_limited"
    anon = Conn(f"/ws/tables/{table.code}/")
    await anon.open()
    assert (await anon.error({"type": "send_message", "text": "hi"}))["code"] == "login_required"
    assert (await anon.error({"type": "join_table"}))["code"] == "login_required"
    await conn.close()
    await anon.close()


async def test_spectator_room_is_separate() -> None:
    table, users = await lobby_table()
    (player,) = await table_conns(table, users[:1])
    watcher = await db(lambda: UserFactory.create(username="watcher"))
    spec = Conn(f"/ws/tables/{table.code}/", await cookie_for(watcher))
    await spec.open()
    await spec.send({"type": "send_message", "text": "gg"})
    msg = await spec.until(is_type("message_received"))
    assert msg["room"] == "spectators"
    assert (await spec.error({"type": "send_message", "text": "hi", "room": "table"}))[
        "code"
    ] == "wrong_room"
    await player.drain(0.2)
    assert not [
        f for f in player.frames if f["type"] == "message_received" and f["room"] == "spectators"
    ]
    await player.close()
    await spec.close()


async def test_unknown_table_code_closes() -> None:
    comm = WebsocketCommunicator(
        application, "/ws/tables/nope/", headers=[(b"origin", b"http://testserver")]
    )
    connected, _ = await comm.connect()
    assert connected
    out = await comm.receive_output(timeout=2)
    assert out["type"] == "websocket.close"
    assert out["code"] == 4404


async def test_reconnect_gets_snapshot_and_restart_resilience() -> None:
    table, users = await lobby_table()
    conns = await table_conns(table, users)
    await conns[0].send({"type": "start_game"})
    for conn in conns:
        await conn.until(is_type("game_started"))
    # play three moves
    for _ in range(3):
        game = await db(lambda: Game.objects.get(table=table))
        state = ENGINE.state_from_json(game.state)
        seat = ENGINE.round_status(state).pending[0]
        turn = await conns[seat].until(is_type("your_turn", version=game.version))
        await conns[seat].send(
            {"type": "play_cards", "version": game.version, "cards": turn["legal"][0]["cards"]}
        )
        for conn in conns:
            await conn.until(is_type("game_state_update", version=game.version + 1))
    # "restart": every socket goes away (daphne killed), new ones connect
    for conn in conns:
        await conn.close()
    seats = await db(
        lambda: list(Seat.objects.filter(table=table).values_list("connections", flat=True))
    )
    assert seats == [0, 0, 0, 0]
    conns = await table_conns(table, users)
    game = await db(lambda: Game.objects.get(table=table))
    assert game.version == 3
    seat = ENGINE.round_status(ENGINE.state_from_json(game.state)).pending[0]
    snap = conns[seat].frames[0]
    assert snap["type"] == "snapshot"
    assert snap["game"]["version"] == 3
    assert snap["your_turn"]["version"] == 3
    assert snap["your_turn"]["legal"] is not None
    assert (
        snap["game"]["state"]["hand"]
        == ENGINE.view(ENGINE.state_from_json(game.state), seat)["hand"]
    )
    cards = snap["your_turn"]["legal"][0]["cards"]
    await conns[seat].send({"type": "play_cards", "version": 3, "cards": cards})
    for conn in conns:
        await conn.until(is_type("game_state_update", version=4))
    ended = await play_game(conns)
    assert ended["game"] == 1
    for conn in conns:
        await conn.close()


async def test_disconnect_broadcasts_and_return() -> None:
    table, users = await lobby_table()
    conns = await table_conns(table, users)
    await conns[0].send({"type": "start_game"})
    for conn in conns:
        await conn.until(is_type("game_started"))
    await conns[2].close()
    left = await conns[0].until(is_type("player_left"))
    assert left == {"type": "player_left", "seat": 2, "name": "P2", "reason": "disconnected"}
    again = Conn(f"/ws/tables/{table.code}/", await cookie_for(users[2]))
    await again.open()
    assert (await conns[0].until(is_type("player_joined")))["seat"] == 2
    for conn in [conns[0], conns[1], conns[3], again]:
        await conn.close()


@override_settings(GAMES_WS_IDLE_SECONDS=0.3)
async def test_idle_socket_is_closed() -> None:
    table, _users = await lobby_table()
    conn = Conn(f"/ws/tables/{table.code}/")
    await conn.open()
    out = await conn.comm.receive_output(timeout=3)
    assert out["type"] == "websocket.close"
    assert out["code"] == 4408


async def test_lobby_chat() -> None:
    user = await db(lambda: UserFactory.create(username="chatty", display_name="Chatty"))
    await db(lambda: ChatMessage.objects.create(room="lobby", text="earlier"))
    conn = Conn("/ws/lobby/", await cookie_for(user))
    snap = await conn.open()
    assert [m["text"] for m in snap["chat"]] == ["earlier"]
    anon = Conn("/ws/lobby/")
    await anon.open()
    await conn.send({"type": "send_message", "text": "hello <all>"})
    msg = await anon.until(is_type("message_received"))
    assert msg["text"] == "hello <all>"
    assert msg["author"] == "Chatty"
    assert msg["room"] == "lobby"
    assert (await anon.error({"type": "send_message", "text": "x"}))["code"] == "login_required"
    assert (await conn.error({"type": "send_message", "text": ""}))["code"] == "empty_message"
    assert (await conn.error({"type": "kick"}))["code"] == "unknown_type"
    await conn.close()
    await anon.close()


async def test_system_lines_arrive_with_code_and_params() -> None:
    owner = await db(lambda: UserFactory.create(username="host", display_name="Lan"))
    guest = await db(lambda: UserFactory.create(username="guest", display_name="Bo"))
    lobby = Conn("/ws/lobby/")
    await lobby.open()
    table = await db(lambda: services.table_create(owner=owner, name="Friday"))
    opened = await lobby.until(is_type("message_received"))
    assert {k: opened[k] for k in ("room", "author", "system", "code", "params")} == {
        "room": "lobby",
        "author": None,
        "system": True,
        "code": "lobby_table_opened",
        "params": {"name": "Lan", "table": "Friday", "game": "tienlen", "code": table.code},
    }
    assert opened["text"] == "Lan opened a public table Friday (tienlen)."
    host = Conn(f"/ws/tables/{table.code}/", await cookie_for(owner))
    await host.open()
    bo = Conn(f"/ws/tables/{table.code}/", await cookie_for(guest))
    await bo.open()
    await bo.send({"type": "join_table", "seat": 2})
    line = await host.until(is_type("message_received"))
    assert {k: line[k] for k in ("room", "author", "system", "code", "params", "text")} == {
        "room": "table",
        "author": None,
        "system": True,
        "code": "seat_joined",
        "params": {"name": "Bo", "seat": 3},
        "text": "Bo joined seat 3.",
    }
    await bo.send({"type": "send_message", "text": "chào"})
    said = await host.until(is_type("message_received"))
    assert (said["system"], said["code"], said["params"]) == (False, None, None)
    await host.send({"type": "sync"})
    history = (await host.until(is_type("snapshot")))["chat"]["table"]
    assert [(m["code"], m["params"]) for m in history] == [
        ("seat_joined", {"name": "Bo", "seat": 3}),
        (None, None),
    ]
    await lobby.send({"type": "sync"})
    lobby_history = (await lobby.until(is_type("snapshot")))["chat"]
    assert [m["code"] for m in lobby_history] == ["lobby_table_opened"]
    for conn in (lobby, host, bo):
        await conn.close()


async def test_practice_over_websocket() -> None:
    user = await db(lambda: UserFactory.create(username="solo"))
    table = await db(lambda: services.table_create_practice(owner=user))
    conn = Conn(f"/ws/tables/{table.code}/", await cookie_for(user))
    snap = await conn.open()
    assert snap["table"]["mode"] == "practice"
    assert snap["table"]["status"] == "in_progress"
    assert [s["kind"] for s in snap["seats"]] == ["human", "house", "house", "house"]
    if snap["game"]["status"] == "running":
        assert snap["your_turn"] is not None
    await conn.close()


def test_echo_route_only_when_enabled() -> None:
    from games.routing import websocket_urlpatterns

    assert not [p for p in websocket_urlpatterns if "echo" in str(p.pattern)]


async def test_lobby_socket_frames() -> None:
    """Every frame of /ws/lobby/ as docs/protocol.md lists it."""
    user = await db(lambda: UserFactory.create(username="lobbyist", display_name="Lobbyist"))
    conn = Conn("/ws/lobby/", await cookie_for(user))
    snap = await conn.open()
    assert snap["you"] == {"user_id": user.pk, "name": "Lobbyist"}
    assert isinstance(snap["server_time"], float)
    guest = Conn("/ws/lobby/")
    assert (await guest.open())["you"] == {"user_id": None, "name": None}
    await conn.send({"type": "ping"})
    assert isinstance((await conn.until(is_type("pong")))["server_time"], float)
    await conn.send({"type": "send_message", "text": "xin chào"})
    for sock in (conn, guest):
        line = await sock.until(is_type("message_received"))
        assert {k: line[k] for k in ("room", "author", "system", "text")} == {
            "room": "lobby",
            "author": "Lobbyist",
            "system": False,
            "text": "xin chào",
        }
    await guest.send({"type": "sync"})
    again = await guest.until(is_type("snapshot"))
    assert [m["text"] for m in again["chat"]][-1] == "xin chào"
    assert (await conn.error("not json"))["code"] == "bad_json"
    assert (await conn.error({"type": "send_message", "text": 5}))["code"] == "bad_frame"
    assert (await conn.error({"type": "send_message", "text": "x" * 501}))[
        "code"
    ] == "message_too_long"
    assert (await conn.error({"type": "play_cards"}))["code"] == "unknown_type"
    await conn.close()
    await guest.close()


async def test_a_deleted_table_answers_no_table() -> None:
    table, users = await lobby_table()
    conn = (await table_conns(table, users[1:2]))[0]
    await db(lambda: Table.objects.filter(pk=table.pk).delete())
    error = await conn.error({"type": "player_ready", "ready": False})
    assert (error["code"], error["ref"]) == ("no_table", "player_ready")
    await conn.close()


async def test_turn_timeout_auto_plays_and_hands_the_turn_on(clock: FrozenClock) -> None:
    """The seat to act times out: every socket gets ``turn_timeout`` with the house action (the
    opening 3♠), and the next seat gets exactly one ``your_turn``."""
    table, users = await lobby_table()
    conns, spectator = await started_with_spectator(table, users)
    game = await db(lambda: Game.objects.get(table=table, number=1))
    seat = await db(lambda: pending_seat(game))
    turn = await conns[seat].until(is_type("your_turn"))
    version = turn["version"]
    assert await db(lambda: SCHEDULER.run_pending("games.turn_timeout")) == 1  # early
    await conns[seat].drain(0.1)
    assert not [f for f in conns[seat].unread if f["type"] == "turn_timeout"]
    clock.advance(31)  # past the deadline
    assert await db(SCHEDULER.run_due) == 1
    expected = {
        "type": "turn_timeout",
        "game": 1,
        "version": version + 1,
        "seat": seat,
        "action": {"type": "play", "cards": ["3S"]},
        "reason": "timeout",
    }
    for conn in [*conns, spectator]:
        assert await conn.until(is_type("turn_timeout")) == expected
        await conn.until(is_type("game_state_update", version=version + 1))
    following = await db(lambda: pending_seat(game))
    assert following != seat
    for conn in [*conns, spectator]:
        await conn.drain(0.2)
    turns = {
        i: [f for f in conn.frames if f["type"] == "your_turn" and f["version"] == version + 1]
        for i, conn in enumerate(conns)
    }
    assert {i: len(frames) for i, frames in turns.items()} == {
        i: int(i == following) for i in range(4)
    }
    assert not [f for f in spectator.frames if f["type"] == "your_turn"]
    actions = await db(lambda: list(Action.objects.filter(game=game).order_by("seq")))
    assert [(a.seq, a.seat, a.actor) for a in actions] == [(version + 1, seat, "timeout")]
    for conn in [*conns, spectator]:
        await conn.close()


@override_settings(GAMES_CHAT_BURST=20.0)
async def test_chat_emoji_round_trip_and_html_stays_raw() -> None:
    """Emoji (one code point, skin tones, flags, ZWJ sequences) arrive intact; the limit counts
    code points as Python does; markup is stored and sent verbatim (clients set textContent)."""
    table, users = await lobby_table()
    conns = await table_conns(table, users[:2])
    lobby = Conn("/ws/lobby/", await cookie_for(users[2]))
    await lobby.open()
    texts = [
        "gg 👍🏽 🇻🇳 ♠♥♦♣ ❤️ 👨‍👩‍👧 🔥🎉",
        "👍🏽" * 250,  # 500 code points (1000 UTF-16 units, 2000 UTF-8 bytes)
        "<img src=x onerror=alert(1)> & <b>hi</b>",
    ]
    for text in texts:
        # as a browser sends it: UTF-8, not ASCII escapes (those would exceed the 4 KB frame limit)
        await conns[0].send(json.dumps({"type": "send_message", "text": text}, ensure_ascii=False))
        for conn in conns:
            line = await conn.until(is_type("message_received"))
            assert (line["text"], line["room"], line["author"]) == (text, "table", "P0")
        await lobby.send(json.dumps({"type": "send_message", "text": text}, ensure_ascii=False))
        assert (await lobby.until(is_type("message_received")))["text"] == text
    posted = ChatMessage.objects.filter(author__isnull=False).order_by("pk")
    stored = await db(lambda: list(posted.values_list("text", flat=True)))
    assert stored == [t for t in texts for _ in (0, 1)]
    await conns[1].send({"type": "sync"})
    snap = await conns[1].until(is_type("snapshot"))
    assert [m["text"] for m in snap["chat"]["table"]][-3:] == texts
    too_long = json.dumps({"type": "send_message", "text": "👍🏽" * 250 + "!"}, ensure_ascii=False)
    assert (await conns[0].error(too_long))["code"] == "message_too_long"
    for broken in ('"\\ud83d"', '"ok \\udc4d"', '"a\\u0000b"'):  # lone surrogates, NUL
        frame = '{"type": "send_message", "text": ' + broken + "}"
        assert (await conns[0].error(frame))["code"] == "bad_frame", broken
        assert (await lobby.error(frame))["code"] == "bad_frame", broken
    assert await db(lambda: posted.count()) == 6
    for conn in [*conns, lobby]:
        await conn.close()
