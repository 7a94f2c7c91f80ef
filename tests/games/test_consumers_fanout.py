"""The single-message fan-out of a move: one channel-layer message per table, filtered per
socket so that a seat only ever receives its own cards (games.realtime.broadcast and
TableConsumer.table_frames)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from channels.layers import get_channel_layer

from games import realtime, services
from games.consumers import TableConsumer
from games.engine.registry import find_game
from games.models import Game
from games.realtime import EVERYONE, SPECTATORS, audience_frames, fanout, table_audience
from tests.games.live import pending_seat, replay_states, seat_users, started_table, state_of
from tests.games.test_consumers_live import assert_no_leak, lobby_table
from tests.ws import db, is_type, started_with_spectator, table_conns

ENGINE = find_game("tienlen")


def test_table_audience_parses_only_table_groups() -> None:
    assert table_audience(realtime.table_group(12)) == (12, EVERYONE)
    assert table_audience(realtime.seat_group(12, 3)) == (12, 3)
    assert table_audience(realtime.spectators_group(12)) == (12, SPECTATORS)
    assert table_audience(realtime.user_group(12, 5)) is None
    assert table_audience(realtime.LOBBY_GROUP) is None
    assert table_audience("table-12-seat-") is None


def test_audience_frames_keeps_only_the_sockets_own_entries() -> None:
    frames: list[list[Any]] = [
        [EVERYONE, "all"],
        [0, "seat0"],
        [1, "seat1"],
        [SPECTATORS, "spect"],
        [2, "seat2"],
        ["1", "not-an-int-seat"],  # a string is never a seat
        [True, "a-bool-is-not-seat-1"],
    ]
    assert audience_frames(frames, seat=1) == ["all", "seat1"]
    assert audience_frames(frames, seat=0) == ["all", "seat0"]
    assert audience_frames(frames, seat=None) == ["all", "spect"]
    assert audience_frames(frames, seat=3) == ["all"]


class _Spy:
    """Records the channel layer's group_send calls (and still sends them)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []
        layer = get_channel_layer()
        assert layer is not None
        original = layer.group_send

        async def group_send(group: str, message: dict[str, Any]) -> None:
            self.calls.append((group, message))
            await original(group, message)

        monkeypatch.setattr(layer, "group_send", group_send)


@pytest.mark.django_db(transaction=True)
def test_one_move_is_one_channel_layer_message(monkeypatch: pytest.MonkeyPatch) -> None:
    table, _users, game = started_table()
    seat = pending_seat(game)
    user = seat_users(table)[seat]
    action = ENGINE.legal_actions(state_of(game), seat)[0]
    spy = _Spy(monkeypatch)
    services.game_play(
        table_id=table.pk, user=user, version=0, action={"type": "play", "cards": action["cards"]}
    )
    assert [(g, m["type"]) for g, m in spy.calls] == [
        (realtime.table_group(table.pk), "table.frames")
    ]
    entries = spy.calls[0][1]["frames"]
    kinds = [(audience, json.loads(text)["type"]) for audience, text in entries]
    # every seat's and the spectators' update, then the next seat's your_turn
    updates = [a for a, kind in kinds if kind == "game_state_update"]
    assert updates == [0, 1, 2, 3, SPECTATORS]
    turns = [a for a, kind in kinds if kind == "your_turn"]
    assert turns == [pending_seat(game)]
    # each seat's entry carries that seat's hand and nobody else's
    state = state_of(game)
    for audience, text in entries:
        frame = json.loads(text)
        if frame["type"] != "game_state_update":
            continue
        if audience == SPECTATORS:
            assert frame["state"]["hand"] is None
        else:
            assert frame["state"]["hand"] == ENGINE.view(state, audience)["hand"]


class _FakeSocket(TableConsumer):
    """A TableConsumer whose ``send`` records instead of writing to a socket."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.sent: list[str] = []

    async def send(  # type: ignore[override]
        self, text_data: str | None = None, bytes_data: bytes | None = None, close: bool = False
    ) -> None:
        assert text_data is not None
        self.sent.append(text_data)


async def test_table_frames_handler_sends_only_own_seat_and_everyone() -> None:
    views = {s: {"type": "game_state_update", "state": {"hand": [f"{s}S"]}} for s in range(4)}
    message = {
        "type": "table.frames",
        "frames": [
            [EVERYONE, json.dumps({"type": "table_updated"})],
            *[[s, json.dumps(views[s])] for s in range(4)],
            [SPECTATORS, json.dumps({"type": "game_state_update", "state": {"hand": None}})],
        ],
    }
    for seat in (0, 1, 2, 3, None):
        sock = _FakeSocket(seat)
        await sock.dispatch(message)
        frames = [json.loads(t) for t in sock.sent]
        assert frames[0] == {"type": "table_updated"}
        assert len(frames) == 2
        hands = {c for f in frames for c in (f.get("state", {}).get("hand") or [])}
        assert hands == ({f"{seat}S"} if seat is not None else set())


@pytest.mark.django_db(transaction=True)
async def test_spectator_and_seats_over_websockets_never_see_other_hands() -> None:
    """A few moves end to end through the Redis layer: every socket's frames are checked
    against the replayed states (the full-game version is in test_consumers_live)."""
    table, users = await lobby_table()
    conns, spectator = await started_with_spectator(table, users)
    for version in range(6):
        turn = None
        for seat, conn in enumerate(conns):
            await conn.drain(0.02)
            found = [f for f in conn.unread if f["type"] == "your_turn"]
            if found:
                turn = (seat, found[0])
                conn.unread.remove(found[0])
        assert turn is not None
        seat, frame = turn
        assert frame["version"] == version
        if frame["legal"]:
            move = {"type": "play_cards", "version": version, "cards": frame["legal"][0]["cards"]}
        else:
            move = {"type": "pass_turn", "version": version}
        await conns[seat].send(move)
        for conn in [*conns, spectator]:
            await conn.until(is_type("game_state_update", version=version + 1))
    game = await db(lambda: Game.objects.get(table=table))
    states = await db(lambda: replay_states(game))
    for seat, conn in enumerate(conns):
        await conn.drain(0.05)
        assert_no_leak(conn.frames, seat, states)
        turns = [f["version"] for f in conn.frames if f["type"] == "your_turn"]
        assert len(turns) == len(set(turns))
    assert_no_leak(spectator.frames, None, states)
    assert not [f for f in spectator.frames if f["type"] == "your_turn"]
    for conn in [*conns, spectator]:
        await conn.close()


@pytest.mark.django_db(transaction=True)
async def test_a_socket_move_is_broadcast_from_the_event_loop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A move sent over a socket: the service's after-commit broadcast is collected in the
    worker thread and sent by the consumer on the event loop (no ``async_to_sync`` hop back
    from the thread), still as one message, and every seat gets its update."""
    import threading

    table, users = await lobby_table()
    conns = await table_conns(table, users)
    await conns[0].send({"type": "start_game"})
    for conn in conns:
        await conn.until(is_type("game_started"))
    turn = None
    for conn in conns:
        await conn.drain(0.1)
        turn = next((f for f in conn.unread if f["type"] == "your_turn"), None)
        if turn is not None:
            player = conn
            break
    assert turn is not None
    threads: list[tuple[str, str]] = []
    layer = get_channel_layer()
    assert layer is not None
    original = layer.group_send

    async def group_send(group: str, message: dict[str, Any]) -> None:
        threads.append((message["type"], threading.current_thread().name))
        await original(group, message)

    def thread_send(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("a socket's move must not be sent from the worker thread")

    monkeypatch.setattr(layer, "group_send", group_send)
    monkeypatch.setattr(fanout, "send_now", thread_send)
    version = turn["version"]
    if turn["legal"]:
        move = {"type": "play_cards", "version": version, "cards": turn["legal"][0]["cards"]}
    else:
        move = {"type": "pass_turn", "version": version}
    await player.send(move)
    for conn in conns:
        await conn.until(is_type("game_state_update", version=version + 1))
    loop_thread = threading.current_thread().name
    assert threads == [("table.frames", loop_thread)]
    for conn in conns:
        await conn.close()


async def test_db_work_sends_at_once_what_committed_before_an_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from games.consumers import db_work

    sent: list[list[realtime.Send]] = []
    monkeypatch.setattr(fanout, "send_now", lambda sends, *a: sent.append(list(sends)))

    def service(*, sink: realtime.Sink) -> None:
        realtime.broadcast([(realtime.table_group(5), {"type": "table_updated"})], sink)
        raise ValueError("boom")

    with pytest.raises(ValueError, match="boom"):
        await db_work(service)()
    assert len(sent) == 1
    assert [(g, m["type"]) for g, m in sent[0]] == [(realtime.table_group(5), "table.frames")]


def test_broadcast_without_an_outbox_sends_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    sent: list[list[realtime.Send]] = []
    monkeypatch.setattr(fanout, "send_now", lambda sends, *a: sent.append(list(sends)))
    box = realtime.Outbox()
    realtime.broadcast([(realtime.LOBBY_GROUP, {"type": "message_received"})], box)
    realtime.rebind([realtime.user_group(5, 7)], box)
    assert sent == []
    assert [(g, m["type"]) for g, m in box] == [
        (realtime.LOBBY_GROUP, "table.frame"),
        (realtime.user_group(5, 7), "table.rebind"),
    ]
    realtime.broadcast([(realtime.LOBBY_GROUP, {"type": "message_received"})])
    assert [[(g, m["type"]) for g, m in s] for s in sent] == [
        [(realtime.LOBBY_GROUP, "table.frame")]
    ]
