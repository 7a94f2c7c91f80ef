"""The ``bot_record`` frame reaches the bot's owner at the live table, and nobody else."""

from __future__ import annotations

import json
from typing import Any

import pytest
from channels.db import database_sync_to_async

from games import services
from games.models import Action, Game, Seat
from tests.bots.live import COUNTING_BOT, ENGINE, Sock, cookie_for, new_user, ready_version

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("live_bots")]


@database_sync_to_async
def setup() -> tuple[Any, Any, Any, Any, Any]:
    """Seat 0: the bot's owner; seat 1: another player; seat 2: the owner's bot; seat 3: a
    bot of the other player (so they own a bot here too, just not this one)."""
    owner, rival, watcher = new_user("owner"), new_user("rival"), new_user("watcher")
    mine = ready_version(owner, COUNTING_BOT, "Mine")
    theirs = ready_version(rival, COUNTING_BOT, "Theirs")
    table = services.table_create(
        owner=owner,
        name="Hybrid",
        options={"seats": 4, "mode": "hybrid"},
        seats=[
            services.SeatSpec(),
            services.SeatSpec(),
            services.SeatSpec(Seat.Kind.BOT, bot_version_id=mine.pk),
            services.SeatSpec(Seat.Kind.BOT, bot_version_id=theirs.pk),
        ],
    )
    services.seat_join(table_id=table.pk, user=rival, seat=1)
    services.seat_ready(table_id=table.pk, user=owner)
    services.seat_ready(table_id=table.pk, user=rival)
    return table, owner, rival, watcher, (mine, theirs)


@database_sync_to_async
def play_humans_until_bots_moved(table: Any, users: dict[int, Any], moves: int) -> Game:
    for _ in range(400):
        game = Game.objects.get(table=table, number=1)
        bots_moved = Action.objects.filter(game=game, seat__in=(2, 3)).count()
        if bots_moved >= moves or game.status != Game.Status.RUNNING:
            return game
        state = ENGINE.state_from_json(game.state)
        seat = ENGINE.round_status(state).pending[0]
        action = ENGINE.legal_actions(state, seat)[0]
        move: dict[str, Any] = {"type": action["type"]}
        if action["type"] == "play":
            move["cards"] = action["cards"]
        services.game_play(table_id=table.pk, user=users[seat], version=game.version, action=move)
    raise AssertionError("the bots never moved")


@database_sync_to_async
def records_of(game: Game, seat: int) -> dict[int, Any]:
    return dict(
        Action.objects.filter(game=game, seat=seat).values_list("seq", "bot_record").order_by("seq")
    )


async def test_only_the_owner_receives_their_bots_records() -> None:
    table, owner, rival, watcher, _ = await setup()
    owner_sock = Sock(table.code, await cookie_for(owner))
    rival_sock = Sock(table.code, await cookie_for(rival))
    watcher_sock = Sock(table.code, await cookie_for(watcher))
    anon_sock = Sock(table.code, None)
    socks = [owner_sock, rival_sock, watcher_sock, anon_sock]
    for sock in socks:
        await sock.open()
    await database_sync_to_async(services.table_start)(table_id=table.pk, user=owner)
    game = await play_humans_until_bots_moved(table, {0: owner, 1: rival}, moves=6)
    for sock in socks:
        await sock.drain(0.3)

    mine, theirs = await records_of(game, 2), await records_of(game, 3)
    assert mine
    assert theirs
    got = {f["seq"]: f for f in owner_sock.of_type("bot_record")}
    assert set(got) == set(mine)  # every move of the owner's bot, and only those
    for seq, frame in got.items():
        assert frame["seat"] == 2
        assert frame["game"] == 1
        assert frame["record"] == mine[seq]
        assert frame["record"]["console"]
    rival_got = {f["seq"] for f in rival_sock.of_type("bot_record")}
    assert rival_got == set(theirs)  # the other player sees their own bot's, not the owner's
    assert watcher_sock.of_type("bot_record") == []
    assert anon_sock.of_type("bot_record") == []
    # nothing else carries a record's console either
    for sock, own in ((owner_sock, 2), (rival_sock, 3), (watcher_sock, None), (anon_sock, None)):
        for frame in sock.frames:
            if frame["type"] != "bot_record":
                assert "console" not in json.dumps(frame), frame["type"]
            else:
                assert frame["seat"] == own
    for sock in socks:
        await sock.comm.disconnect()


async def test_a_reconnecting_owner_gets_the_games_earlier_records_and_nobody_else_does() -> None:
    """A page reload: the records of moves made while the owner was not connected come again
    on connect (after the snapshot), in order; other users get only their own bots'."""
    table, owner, rival, watcher, _ = await setup()
    await database_sync_to_async(services.table_start)(table_id=table.pk, user=owner)
    game = await play_humans_until_bots_moved(table, {0: owner, 1: rival}, moves=6)
    mine, theirs = await records_of(game, 2), await records_of(game, 3)
    assert mine
    assert theirs

    owner_sock = Sock(table.code, await cookie_for(owner))
    rival_sock = Sock(table.code, await cookie_for(rival))
    watcher_sock = Sock(table.code, await cookie_for(watcher))
    anon_sock = Sock(table.code, None)
    socks = [owner_sock, rival_sock, watcher_sock, anon_sock]
    for sock in socks:
        await sock.open()

    kinds = [f["type"] for f in owner_sock.frames]
    assert kinds[0] == "snapshot"
    got = owner_sock.of_type("bot_record")
    assert [f["seq"] for f in got] == sorted(mine)  # every earlier move, oldest first
    for frame in got:
        assert frame["game"] == 1
        assert frame["seat"] == 2
        assert frame["record"] == mine[frame["seq"]]
    assert [f["seq"] for f in rival_sock.of_type("bot_record")] == sorted(theirs)
    assert watcher_sock.of_type("bot_record") == []
    assert anon_sock.of_type("bot_record") == []
    for sock in (watcher_sock, anon_sock):
        assert "console" not in json.dumps(sock.frames)
    for sock in socks:
        await sock.comm.disconnect()
