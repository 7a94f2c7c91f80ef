"""The HTTP bot API's rate limit per token (bots/external/ratelimit.py): within it requests
work; over it they get 429 ``rate_limited`` with ``Retry-After`` and change nothing (the move
is not applied, the turn stays open); other tokens are not affected; the next window (the
services' clock moved on, no waiting) lets the token in again."""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from bots.external import mailbox, ratelimit
from bots.external.matches import MatchTurns, match_resume_frames
from bots.lab.entrants import ExternalEntrant, MatchGame
from games.engine.duplicate import GameTask, PlannedGame, match_config
from games.engine.registry import find_game
from tests.bots.external.helpers import external_bot
from tests.bots.worker import wait_for
from tests.scheduler import FrozenClock

pytestmark = pytest.mark.django_db

MATCH_ID = 5151
GAME_ID = f"match-{MATCH_ID}-1"


def _post(client: Client, token: str | None, game_id: str, body: Any) -> Any:
    return client.post(
        f"/api/bot/game/{game_id}/move",
        data=json.dumps(body),
        content_type="application/json",
        headers={"Authorization": f"Bearer {token}"} if token else {},
    )


def test_over_the_limit_a_move_is_refused_with_429_and_not_applied(
    user: User, client: Client, clock: FrozenClock, settings: Any
) -> None:
    settings.BOTS_EXTERNAL_HTTP_RATE = "3/s"
    bot, _version, token = external_bot(user)
    _other, _v, other_token = external_bot(user, name="Other")
    engine = find_game("tienlen")
    config = match_config(engine, 2)
    game = MatchGame.of(MATCH_ID, 1, GameTask(engine, config, PlannedGame(0, 0, 10, (0, 1)), ()))
    entrant = ExternalEntrant("ext", bot.pk, MatchTurns(), timeout_s=20.0).for_game(game)
    state = engine.new_game(config, 10)
    seat = engine.round_status(state).pending[0]
    player = entrant.player(engine, seat=seat, seed=1)
    got: dict[str, Any] = {}
    thread = threading.Thread(target=lambda: got.update(d=player.decide(state, seat)))
    thread.start()
    try:
        turn = wait_for(lambda: mailbox.get_turn(bot_id=bot.pk, game_id=GAME_ID), timeout=10)
        assert turn["seq"] == 1
        legal = match_resume_frames(bot_id=bot.pk)[1]["gameState"]["validMoves"][0]["cards"]
        move = {"seq": 1, "move": {"action": "play", "cards": legal}}

        # within the limit (3 per second) requests reach the game: these are refused by it
        for _ in range(3):
            stale = _post(client, token, GAME_ID, {**move, "seq": 5})
            assert stale.status_code == 400
            assert stale.json()["error"]["code"] == "stale_seq"

        # the fourth in the same second: 429 (naming the move's game and seq), not applied
        limited = _post(client, token, GAME_ID, {**move, "seq": 5})
        assert limited.status_code == 429
        assert limited["Retry-After"] == "1"
        error = limited.json()["error"]
        assert (error["code"], error["retry_after"]) == ("rate_limited", 1)
        assert (error["game_id"], error["seq"]) == (GAME_ID, 5)
        assert thread.is_alive()  # the turn is still open: the bot has not moved
        assert mailbox.get_turn(bot_id=bot.pk, game_id=GAME_ID) is not None
        # the stream is refused too (the same token's budget), before it opens
        stream = client.get("/api/bot/stream", HTTP_AUTHORIZATION=f"Bearer {token}")
        assert stream.status_code == 429
        assert stream.json()["error"]["code"] == "rate_limited"
        assert stream["Retry-After"] == "1"

        # another token has its own budget; a request without a token is still a 401
        theirs = _post(client, other_token, GAME_ID, move)
        assert theirs.status_code == 400
        assert theirs.json()["error"]["code"] == "unknown_game"
        assert _post(client, None, GAME_ID, move).status_code == 401
        assert thread.is_alive()

        # over the limit still, the answer to the bot's own open turn is never refused
        done = _post(client, token, GAME_ID, move)
        assert done.status_code == 200, done.content
        assert done.json() == {"ok": True, "game_id": GAME_ID, "seq": 1}
    finally:
        thread.join(timeout=10)
    assert got["d"].action == engine.parse_bot_move(state, seat, move["move"])
    entrant.turns.end(bot_id=bot.pk, game=game, seat=seat, result=None)
    # the turn is answered: more requests are over the limit again until the next second
    assert _post(client, token, GAME_ID, move).status_code == 429
    clock.advance(1.0)
    assert _post(client, token, GAME_ID, move).json()["error"]["code"] == "unknown_game"


def test_retry_after_is_the_rest_of_the_window(
    user: User, client: Client, clock: FrozenClock, settings: Any
) -> None:
    settings.BOTS_EXTERNAL_HTTP_RATE = "1/m"
    clock.now = 1_800_000_000.0 + 15.5  # 15.5 s into a minute
    _bot, _version, token = external_bot(user)
    first = _post(client, token, "match-1-1", {"seq": 0, "move": {"action": "pass"}})
    assert first.status_code == 400  # within the limit: the game answers (no such game)
    second = _post(client, token, "match-1-1", {"seq": 0, "move": {"action": "pass"}})
    assert second.status_code == 429
    assert second["Retry-After"] == "45"
    clock.advance(44.0)
    assert _post(client, token, "match-1-1", {}).status_code == 429
    clock.advance(1.0)
    assert _post(client, token, "match-1-1", {}).status_code == 400


@pytest.mark.parametrize("rate", ["", "0/s", "5", "5/d", "5/0s", "x/s"])
def test_a_malformed_rate_is_refused(rate: str) -> None:
    with pytest.raises(ValueError, match="<count>/<period>"):
        ratelimit.parse_rate(rate)
