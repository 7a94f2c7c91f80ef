"""Limits per bot token and per client address (issue 24 item 10: one token held 150 sockets
and 50 streams, and the 20 frames/s limit was per socket): a token's sockets and streams are
capped, its frames are limited across all its sockets (a ``move`` answering its own open turn
is never refused), and an address that sends unknown tokens is refused before the lookup. The
counters live in Redis (games.limits), shared by every daphne process."""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import AsyncClient, Client

from bots.external.consumer import CLOSE_UNAUTHORIZED
from bots.external.matches import MatchTurns
from bots.lab.entrants import ExternalEntrant, MatchGame
from games.consumers import CLOSE_TOO_MANY
from games.engine.duplicate import GameTask, PlannedGame, match_config
from games.engine.registry import find_game
from games.limits import LEASE_SECONDS
from tests.bots.external.helpers import communicator, external_bot, receive
from tests.bots.live import new_user
from tests.scheduler import FrozenClock

pytestmark = pytest.mark.django_db(transaction=True)


async def _bot(name: str) -> tuple[Any, str]:
    user = await database_sync_to_async(new_user)(name)
    bot, _version, token = await database_sync_to_async(external_bot)(user)
    return bot, token


async def _open(token: str | None, address: str = "") -> tuple[WebsocketCommunicator, Any]:
    comm = communicator(token)
    if address:
        comm.scope["client"] = (address, 40000)
    assert (await comm.connect())[0]
    return comm, await receive(comm)


async def _closed_with(comm: WebsocketCommunicator) -> int:
    closed = await comm.receive_output(timeout=5)
    assert closed["type"] == "websocket.close"
    return int(closed["code"])


async def test_a_token_holds_a_limited_number_of_sockets(settings: Any) -> None:
    settings.BOTS_EXTERNAL_MAX_SOCKETS = 2
    _bot_row, token = await _bot("erin")
    _other, other_token = await _bot("fay")
    first, hello = await _open(token)
    second, _ = await _open(token)
    assert hello["type"] == "hello"
    third, refused = await _open(token)
    assert (refused["type"], refused["code"], refused["limit"]) == (
        "error",
        "too_many_connections",
        2,
    )
    assert await _closed_with(third) == CLOSE_TOO_MANY
    # another token is not affected; closing one socket frees its slot at once
    mine, theirs = await _open(other_token)
    assert theirs["type"] == "hello"
    await first.disconnect()
    again, hello_again = await _open(token)
    assert hello_again["type"] == "hello"
    for comm in (second, mine, again):
        await comm.disconnect()


async def test_a_token_holds_a_limited_number_of_streams(settings: Any, clock: FrozenClock) -> None:
    settings.BOTS_EXTERNAL_MAX_STREAMS = 2
    _bot_row, token = await _bot("gus")
    client = AsyncClient()
    auth = {"Authorization": f"Bearer {token}"}
    open_streams = [await client.get("/api/bot/stream", headers=auth) for _ in range(2)]
    assert [r.status_code for r in open_streams] == [200, 200]
    lines: Any = getattr(open_streams[0], "streaming_content")  # noqa: B009
    assert json.loads(await anext(lines))["type"] == "hello"
    refused = await client.get("/api/bot/stream", headers=auth)
    assert refused.status_code == 429
    assert refused["Retry-After"] == "1"
    error = refused.json()["error"]
    assert (error["code"], error["limit"]) == ("too_many_connections", 2)
    # streams that stopped renewing their slots (their process died) free them in a minute
    clock.advance(LEASE_SECONDS + 1)
    assert (await client.get("/api/bot/stream", headers=auth)).status_code == 200


async def test_frames_are_limited_per_token_across_its_sockets(
    settings: Any, clock: FrozenClock
) -> None:
    settings.BOTS_EXTERNAL_TOKEN_RATE = "4/m"  # the per-socket limit (20/s) is far off
    _bot_row, token = await _bot("hal")
    socks = [(await _open(token))[0] for _ in range(3)]
    answers = []
    for comm in socks:
        for _ in range(2):
            await comm.send_to(text_data='{"type": "ping"}')
            frame = await receive(comm)
            answers.append(frame.get("code", frame["type"]))
    assert answers == ["pong"] * 4 + ["rate_limited"] * 2
    clock.advance(15.0)  # one frame back (4 a minute)
    await socks[2].send_to(text_data='{"type": "ping"}')
    assert (await receive(socks[2]))["type"] == "pong"
    for comm in socks:
        await comm.disconnect()


async def test_a_move_answering_the_bots_own_turn_is_never_refused(
    settings: Any, clock: FrozenClock
) -> None:
    settings.BOTS_EXTERNAL_TOKEN_RATE = "1/m"
    bot, token = await _bot("ivy")
    comm, _hello = await _open(token)
    await comm.send_to(text_data='{"type": "ping"}')
    assert (await receive(comm))["type"] == "pong"
    await comm.send_to(text_data='{"type": "ping"}')
    assert (await receive(comm))["code"] == "rate_limited"  # the token's budget is spent

    engine = find_game("tienlen")
    config = match_config(engine, 2)
    game = MatchGame.of(6161, 1, GameTask(engine, config, PlannedGame(0, 0, 10, (0, 1)), ()))
    entrant = ExternalEntrant("ext", bot.pk, MatchTurns(), timeout_s=20.0).for_game(game)
    state = engine.new_game(config, 10)
    seat = engine.round_status(state).pending[0]
    player = entrant.player(engine, seat=seat, seed=1)
    got: dict[str, Any] = {}
    thread = threading.Thread(target=lambda: got.update(d=player.decide(state, seat)))
    thread.start()
    try:
        turn = await receive(comm)
        while turn["type"] != "turn":
            turn = await receive(comm)
        cards = turn["gameState"]["validMoves"][0]["cards"]
        move = {"action": "play", "cards": cards}
        await comm.send_to(
            text_data=json.dumps(
                {"type": "move", "game_id": turn["game_id"], "seq": turn["seq"], "move": move}
            )
        )
        # frames are handled in order: the ping's refusal comes after the move was handled
        await comm.send_to(text_data='{"type": "ping"}')
        assert (await receive(comm))["code"] == "rate_limited"
        thread.join(timeout=10)
        assert not thread.is_alive()
        assert got["d"].action == engine.parse_bot_move(state, seat, move)
        # the answer is free once: the same frame again is an ordinary (limited) frame
        await comm.send_to(
            text_data=json.dumps(
                {"type": "move", "game_id": turn["game_id"], "seq": turn["seq"], "move": move}
            )
        )
        assert (await receive(comm))["code"] == "rate_limited"
    finally:
        thread.join(timeout=10)
        entrant.turns.end(bot_id=bot.pk, game=game, seat=seat, result=None)
        await comm.disconnect()


async def test_unknown_tokens_are_throttled_per_address_on_the_socket(settings: Any) -> None:
    settings.ACCOUNTS_BAD_TOKEN_RATE = "3/m"
    _bot_row, token = await _bot("jay")
    for n in range(3):
        comm, frame = await _open(f"tlb_guess{n}", address="198.51.100.7")
        assert frame["code"] == "invalid_token"
        assert await _closed_with(comm) == CLOSE_UNAUTHORIZED
    # the fourth is refused before any lookup, even with a good token
    comm, frame = await _open(token, address="198.51.100.7")
    assert (frame["code"], frame["retry_after"]) == ("rate_limited", 20)
    assert await _closed_with(comm) == CLOSE_TOO_MANY
    # another address is not affected
    ok, hello = await _open(token, address="198.51.100.8")
    assert hello["type"] == "hello"
    await ok.disconnect()


def test_unknown_tokens_are_throttled_per_address_over_http(settings: Any) -> None:
    settings.ACCOUNTS_BAD_TOKEN_RATE = "3/m"
    guesser = Client(REMOTE_ADDR="198.51.100.9")

    def move(client: Client, token: str) -> Any:
        return client.post(
            "/api/bot/game/1/move",
            data="{}",
            content_type="application/json",
            headers={"Authorization": f"Bearer {token}"},
        )

    assert [move(guesser, f"tlb_guess{n}").status_code for n in range(3)] == [401] * 3
    refused = move(guesser, "tlb_guess3")
    assert refused.status_code == 429
    assert refused.json()["error"]["code"] == "rate_limited"
    assert int(refused["Retry-After"]) > 0
    stream = guesser.get("/api/bot/stream", headers={"Authorization": "Bearer tlb_x"})
    assert stream.status_code == 429
    # the REST API's tokens count against the same address
    api = guesser.get("/api/me/", headers={"Authorization": "Token wrong"})
    assert api.status_code == 429
    assert api.json()["code"] == "rate_limited"
    assert int(api["Retry-After"]) > 0
    # another address still gets its 401
    assert move(Client(REMOTE_ADDR="198.51.100.10"), "tlb_guess").status_code == 401


def test_unknown_rest_api_tokens_are_throttled_per_address(settings: Any) -> None:
    settings.ACCOUNTS_BAD_TOKEN_RATE = "2/m"
    guesser = Client(REMOTE_ADDR="198.51.100.11")
    for n in range(2):
        answer = guesser.get("/api/tables/", headers={"Authorization": f"Token bad{n}"})
        assert answer.status_code == 401
    refused = guesser.get("/api/tables/", headers={"Authorization": "Token bad2"})
    assert refused.status_code == 429
    body = refused.json()
    assert (body["code"], body["retry_after"]) == ("rate_limited", 30)
    assert refused["Retry-After"] == "30"
    # no token at all is not a lookup: never counted, never refused here
    assert guesser.get("/api/tables/").status_code in (200, 401, 403)
