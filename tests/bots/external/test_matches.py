"""External bots in duplicate-deal matches: an absent program times out and is struck (the
core's rules); a turn of a match game is checked like a table's turn and a reconnecting
program gets it again; a match counts as one of the bot's games while in flight; and, against
a real daphne and a real ``lab`` worker, the example client plays a whole match."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.test import Client

from accounts.models import User
from bots.external import mailbox
from bots.external.matches import MatchTurns, match_resume_frames
from bots.external.services import external_submit_move
from bots.external.wire import ExternalBotError, bot_group
from bots.lab.entrants import ExternalEntrant, MatchGame
from bots.matches import services as matches
from bots.matches.services import MATCH_QUEUE, MatchError, match_create, match_stop
from bots.models import BotVersion, Match
from games.engine.duplicate import GameTask, PlannedGame, match_config
from games.engine.registry import find_game
from tests.bots.external.conftest import _application
from tests.bots.external.helpers import bot_table, external_bot
from tests.bots.worker import (
    BROKER_URL,
    ROOT,
    BrokerScheduler,
    _own_database,
    celery_worker,
    wait_for,
)

#: The service tests run in a transaction: a match created there is not run on commit.
pytestmark = pytest.mark.django_db

CLIENT = ROOT / "bots" / "examples" / "external_client.py"
#: The lab worker's broker in the live test: not another real-worker test's database.
BROKER = _own_database(BROKER_URL, 10)


class Scheduler(BrokerScheduler):
    broker_url = BROKER


@pytest.fixture
def frames_of() -> Iterator[Any]:
    """``frames_of(bot)`` joins the bot's channel-layer group (as its socket does) and returns
    a function that drains the frames received so far."""
    layer = get_channel_layer()
    assert layer is not None
    joined: list[tuple[str, str]] = []

    def join(bot: Any) -> Any:
        channel = async_to_sync(layer.new_channel)()
        async_to_sync(layer.group_add)(bot_group(bot.pk), channel)
        joined.append((bot_group(bot.pk), channel))

        def drain(timeout: float = 0.5) -> list[dict[str, Any]]:
            out: list[dict[str, Any]] = []

            async def take() -> None:
                import asyncio

                while True:
                    try:
                        message = await asyncio.wait_for(layer.receive(channel), timeout)
                    except TimeoutError:
                        return
                    out.append(message["frame"])

            async_to_sync(take)()
            return out

        return drain

    yield join
    for group, channel in joined:
        async_to_sync(layer.group_discard)(group, channel)


def test_an_absent_program_times_out_and_is_struck_by_the_cores_rules(
    user: User, settings: Any, frames_of: Any
) -> None:
    settings.BOTS_MOVE_TIMEOUT_SECONDS = 0.2
    bot, version, _token = external_bot(user)
    drain = frames_of(bot)
    match = match_create(
        owner=user,
        game="tienlen",
        entrants=[f"version:{version.pk}", "house:easy"],
        deals=1,
        seed=5,
    )
    assert match.entrants[0] == {
        "kind": "version",
        "version_id": version.pk,
        "label": f"{bot.name} v1",
        "external": True,
        "bot_id": bot.pk,
    }
    assert matches.match_execute(match_id=match.pk) == Match.Status.FINISHED
    match.refresh_from_db()
    me, house = match.report["entrants"]
    assert (me["games"], house["games"], match.report["games"]) == (2, 2, 2)
    # three timeouts a game, then the seat is disqualified and no longer asked
    assert (me["strikes"], me["strike_codes"], me["disqualified"], me["moves"]) == (
        6,
        {"timeout": 6},
        2,
        6,
    )
    assert house["strikes"] == 0
    frames = drain()
    ids = [f"match-{match.pk}-1", f"match-{match.pk}-2"]
    assert [f["type"] for f in frames] == [
        *["game_start", *["turn", "error"] * 3, "game_end"],
        *["game_start", *["turn", "error"] * 3, "game_end"],
    ]
    assert {f["game_id"] for f in frames} == set(ids)
    starts = [f for f in frames if f["type"] == "game_start"]
    assert [(f["game_id"], f["game"], f["players"]) for f in starts] == [
        (ids[0], "tienlen", 2),
        (ids[1], "tienlen", 2),
    ]
    assert [f["match"] for f in starts] == [
        {"id": match.pk, "game": 1, "games": 2, "deal": 0, "rotation": 0},
        {"id": match.pk, "game": 2, "games": 2, "deal": 0, "rotation": 1},
    ]
    assert [f["seat"] for f in starts] == [0, 1]  # the field rotates over the seats
    turns = [f for f in frames if f["type"] == "turn"]
    assert all(f["deadline_ms"] == 200 and f["gameState"]["myPosition"] == f["seat"] for f in turns)
    errors = [f for f in frames if f["type"] == "error"]
    assert {(f["code"], f["game_id"]) for f in errors} == {("timeout", i) for i in ids}
    ends = [f for f in frames if f["type"] == "game_end"]
    assert all(f["result"] and "scores" in f["result"] for f in ends)
    assert match_resume_frames(bot_id=bot.pk) == []  # nothing left in progress


def _one_game(bot_id: int, match_id: int) -> tuple[Any, MatchGame, Any]:
    engine = find_game("tienlen")
    config = match_config(engine, 2)
    task = GameTask(engine, config, PlannedGame(0, 0, 10, (0, 1)), ())
    game = MatchGame.of(match_id, 1, task)
    entrant = ExternalEntrant("ext", bot_id, MatchTurns(), timeout_s=20.0).for_game(game)
    return engine, game, (entrant, engine.new_game(config, 10))


def test_a_match_turn_is_checked_like_a_tables_and_resent_on_reconnecting(
    user: User, client: Client
) -> None:
    bot, _version, token = external_bot(user)
    other, _v, _t = external_bot(user, name="Other")
    engine, game, (entrant, state) = _one_game(bot.pk, 4242)
    seat = engine.round_status(state).pending[0]
    player = entrant.player(engine, seat=seat, seed=1)
    got: dict[str, Any] = {}
    thread = threading.Thread(target=lambda: got.update(d=player.decide(state, seat)))
    thread.start()
    try:
        turn = wait_for(lambda: mailbox.get_turn(bot_id=bot.pk, game_id=game.game_id), timeout=10)
        assert (turn["seq"], turn["seat"]) == (1, seat)  # the game's first move
        # a reconnecting program: the game and its open turn, with the time left
        resumed = match_resume_frames(bot_id=bot.pk)
        assert [f["type"] for f in resumed] == ["game_start", "turn"]
        assert resumed[0]["game_id"] == resumed[1]["game_id"] == "match-4242-1"
        assert 0 < resumed[1]["deadline_ms"] <= 20_000
        legal = resumed[1]["gameState"]["validMoves"][0]["cards"]
        bad: list[tuple[Any, Any, Any, str]] = [
            (bot, "match-4242-1", 1, "illegal_move"),  # a card it does not hold
            (bot, "match-4242-1", 3, "stale_seq"),
            (bot, "match-4242-9", 1, "unknown_game"),
            (other, "match-4242-1", 1, "unknown_game"),  # another bot's game
            (bot, "match-4242-1", "1", "bad_frame"),
        ]
        mine = {c["id"] for c in resumed[1]["gameState"]["myCards"]}
        foreign = next(c for c in ("2H", "2D", "2C", "2S", "AH", "AD") if c not in mine)
        for who, game_id, seq, code in bad:
            move = {"action": "play", "cards": [foreign] if code == "illegal_move" else legal}
            with pytest.raises(ExternalBotError) as info:
                external_submit_move(bot=who, game_id=game_id, seq=seq, move=move)
            assert info.value.code == code

        # the HTTP form of the API: POST /api/bot/game/match-<id>-<n>/move
        def post(move: Any) -> Any:
            return client.post(
                "/api/bot/game/match-4242-1/move",
                data=json.dumps({"seq": 1, "move": move}),
                content_type="application/json",
                HTTP_AUTHORIZATION=f"Bearer {token}",
            )

        refused = post({"action": "play", "cards": [foreign]})
        assert refused.status_code == 400
        assert refused.json()["error"]["code"] == "illegal_move"
        assert thread.is_alive()  # a refused move changes nothing: the turn is still open
        done = post({"action": "play", "cards": legal})
        assert done.status_code == 200, done.content
        assert done.json() == {"ok": True, "game_id": "match-4242-1", "seq": 1}
    finally:
        thread.join(timeout=10)
    assert got["d"].action == engine.parse_bot_move(state, seat, {"action": "play", "cards": legal})
    assert mailbox.get_turn(bot_id=bot.pk, game_id=game.game_id) is None
    with pytest.raises(ExternalBotError) as info:  # the turn is closed, the game goes on
        external_submit_move(bot=bot, game_id="match-4242-1", seq=1, move={"action": "pass"})
    assert info.value.code == "not_your_turn"
    entrant.turns.end(bot_id=bot.pk, game=game, seat=seat, result=None)
    assert match_resume_frames(bot_id=bot.pk) == []


def test_a_match_in_flight_counts_as_one_of_the_bots_games(user: User, settings: Any) -> None:
    settings.BOTS_EXTERNAL_MAX_GAMES = 2
    _bot, version, _token = external_bot(user)

    def seatable() -> bool:
        return BotVersion.objects.seatable(user=user, game="tienlen").filter(pk=version.pk).exists()

    entrants = [f"version:{version.pk}", "house:easy"]
    first = match_create(owner=user, game="tienlen", entrants=entrants, deals=1, seed=1)
    assert seatable()  # one game of two
    bot_table(user, version, start=False)  # a table: the second
    assert not seatable()
    with pytest.raises(MatchError) as info:
        match_create(owner=user, game="tienlen", entrants=entrants, deals=1, seed=2)
    assert info.value.code == "bot_busy"  # says it is the limit (issue 25), not "not seatable"
    assert "already plays 2 games, the most at once" in info.value.message
    choices = [c.value for c in matches.match_field_choices(user=user, game="tienlen")]
    assert f"version:{version.pk}" not in choices
    match_stop(owner=user, match_id=first.pk)  # it ended: a game free again
    assert seatable()
    choices = [c.value for c in matches.match_field_choices(user=user, game="tienlen")]
    assert f"version:{version.pk}" in choices


# --------------------------------------------------------------------------- a live site


@pytest.fixture
def lab_site(settings: Any) -> Iterator[str]:
    """``http://127.0.0.1:<port>``: daphne (forked from this process) and a real worker of the
    ``lab`` queue; the matches this process creates go to that worker."""
    import redis
    from daphne.testing import DaphneProcess  # type: ignore[import-untyped]
    from django.db import connections

    settings.GAMES_SCHEDULER = f"{__name__}.Scheduler"
    settings.BOTS_MOVE_TIMEOUT_SECONDS = 3.0
    redis.Redis.from_url(BROKER).delete(MATCH_QUEUE)
    env = {"BOTS_MOVE_TIMEOUT_SECONDS": "3.0"}
    with celery_worker(broker_url=BROKER, queues=(MATCH_QUEUE,), env=env, label="lab-ext") as log:
        connections.close_all()  # the forked server opens its own connections
        server = DaphneProcess("127.0.0.1", _application)
        server.start()
        if not server.ready.wait(timeout=20):
            server.terminate()
            pytest.fail("daphne did not start")
        try:
            settings.LAB_TEST_WORKER_LOG = str(log)
            yield f"http://127.0.0.1:{server.port.value}"
        finally:
            server.terminate()
            server.join(timeout=10)


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_example_client_plays_a_whole_match_on_a_lab_worker(
    lab_site: str, user: User, settings: Any, tmp_path: Path
) -> None:
    settings.BOTS_EXTERNAL_MAX_GAMES = 1
    _bot, version, token = external_bot(user, "stud")
    log = tmp_path / "frames.jsonl"
    deals, seats = 2, 2
    games = deals * seats
    url = lab_site.replace("http://", "ws://") + "/ws/bot/"
    proc = subprocess.Popen(
        [sys.executable, str(CLIENT), "--url", url, "--games", str(games), "--log", str(log)],
        env={**os.environ, "TLA_BOT_TOKEN": token},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    worker_log = Path(settings.LAB_TEST_WORKER_LOG)
    try:
        wait_for(lambda: log.exists() and "hello" in log.read_text(), timeout=20)
        match = match_create(
            owner=user,
            game="stud",
            entrants=[f"version:{version.pk}", "house:medium"],
            deals=deals,
            seed=31,
        )
        # in flight, the match is the bot's one game: it cannot be seated anywhere else
        assert not BotVersion.objects.seatable(user=user).filter(pk=version.pk).exists()
        done = wait_for(
            lambda: (m := Match.objects.get(pk=match.pk)).status not in Match.IN_FLIGHT and m,
            timeout=240,
            log=worker_log,
        )
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    output = proc.stdout.read().decode() if proc.stdout else ""
    assert done.status == Match.Status.FINISHED, (done.error, output)
    assert proc.returncode == 0, output
    me, house = done.report["entrants"]
    assert (done.report["games"], me["games"], house["games"]) == (games, games, games)
    assert (me["strikes"], me["disqualified"]) == (0, 0), (me, output)
    frames = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
    kinds = [f["type"] for f in frames]
    assert kinds[0] == "hello"
    assert "error" not in kinds, output
    ids = {f"match-{match.pk}-{n}" for n in range(1, games + 1)}
    assert {f["game_id"] for f in frames if f["type"] == "game_start"} == ids
    ends = [f for f in frames if f["type"] == "game_end"]
    assert {f["game_id"] for f in ends} == ids
    assert all(f["result"] is not None for f in ends)
    turns = [f for f in frames if f["type"] == "turn"]
    assert len(turns) == me["moves"] > 0
    assert all(f["match"]["id"] == match.pk and f["gameState"] for f in turns)
    assert BotVersion.objects.seatable(user=user).filter(pk=version.pk).exists()  # free again
