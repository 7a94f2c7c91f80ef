"""External bots in process: tokens, socket authentication, bad frames, the seating limit,
timeouts, strikes and disqualification (no program answers: the real wait on Redis expires)."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import ValidationError

from bots.external import mailbox
from bots.external.consumer import CLOSE_UNAUTHORIZED
from bots.external.services import external_submit_move
from bots.external.tokens import token_bot, token_hash, token_issue, token_revoke
from bots.external.wire import ExternalBotError
from bots.models import Bot, BotVersion
from games import services
from games.models import Action, Game, Seat
from tests.bots.external.helpers import (
    bot_table,
    communicator,
    external_bot,
    latest_game,
    receive,
)
from tests.bots.live import new_user, play_humans, ready_version

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("live_bots")]


def test_token_is_hashed_shown_once_regenerated_and_revoked() -> None:
    bot, version, token = external_bot(new_user("ada"))
    bot.refresh_from_db()
    assert token.startswith("tlb_")
    assert len(token) > 40
    assert bot.token_hash == token_hash(token)
    assert token not in bot.token_hash
    assert bot.token_hint == token[:8]
    assert version.status == BotVersion.Status.READY
    assert version.code == ""
    assert token_bot(token) == bot
    fresh = token_issue(bot=bot)
    assert token_bot(token) is None
    assert token_bot(fresh) == bot
    token_revoke(bot=bot)
    assert token_bot(fresh) is None
    assert token_bot("") is None
    assert token_bot("tlb_nope") is None


def test_js_bots_have_no_token() -> None:
    from bots.external.tokens import NotExternalError
    from bots.services import bot_create

    bot = bot_create(owner=new_user("bea"), name="JS")
    with pytest.raises(NotExternalError):
        token_issue(bot=bot)
    assert Bot.objects.get(pk=bot.pk).token_hash == ""


@pytest.mark.parametrize(
    ("token", "code"),
    [(None, "auth_required"), ("tlb_wrong", "invalid_token"), ("garbage", "invalid_token")],
)
async def test_socket_refuses_missing_and_wrong_tokens(token: str | None, code: str) -> None:
    comm = communicator(token)
    connected, _ = await comm.connect()
    assert connected
    frame = await receive(comm)
    assert frame["type"] == "error"
    assert frame["code"] == code
    closed = await comm.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": CLOSE_UNAUTHORIZED}
    await comm.disconnect()  # the consumer ends now, not cancelled with the test's event loop


async def test_socket_refuses_a_revoked_token_and_closes_open_sockets() -> None:
    from channels.db import database_sync_to_async

    from bots.external.services import external_disconnect_all

    bot, _, token = await database_sync_to_async(external_bot)(
        await database_sync_to_async(new_user)("cat")
    )
    comm = communicator(token)
    assert (await comm.connect())[0]
    hello = await receive(comm)
    assert hello["type"] == "hello"
    assert hello["bot"]["id"] == bot.pk
    await database_sync_to_async(token_revoke)(bot=bot)
    await database_sync_to_async(external_disconnect_all)(bot_id=bot.pk)
    assert (await receive(comm))["code"] == "token_revoked"
    assert (await comm.receive_output(timeout=5))["code"] == CLOSE_UNAUTHORIZED
    # the client hangs up too, so its consumer ends before the test's event loop closes (a
    # consumer still waiting on the channel layer when the loop is torn down hung the run once)
    await comm.disconnect()
    again = communicator(token)
    assert (await again.connect())[0]
    assert (await receive(again))["code"] == "invalid_token"
    await again.disconnect()


async def test_bad_frames_get_stable_codes_and_keep_the_socket() -> None:
    from channels.db import database_sync_to_async

    _, _, token = await database_sync_to_async(external_bot)(
        await database_sync_to_async(new_user)("dan")
    )
    comm = communicator(token)
    assert (await comm.connect())[0]
    assert (await receive(comm))["type"] == "hello"
    cases: list[tuple[Any, str]] = [
        ("{not json", "bad_json"),
        ("[1, 2]", "bad_frame"),
        ('{"type": "dance"}', "unknown_type"),
        ("{}", "unknown_type"),
        ('{"type": "move", "game_id": "x", "seq": 0, "move": {}}', "bad_frame"),
        ('{"type": "move", "game_id": 1, "seq": 0, "move": "pass"}', "bad_frame"),
        (
            '{"type": "move", "game_id": 999999, "seq": 0, "move": {"action": "pass"}}',
            "unknown_game",
        ),
        ("[" * 100 + "]" * 100, "bad_json"),
        ('{"type": "move", "pad": "' + "x" * 20_000 + '"}', "frame_too_big"),
    ]
    for text, code in cases:
        await comm.send_to(text_data=text)
        frame = await receive(comm)
        assert (frame["type"], frame["code"]) == ("error", code), text[:40]
    await comm.send_to(bytes_data=b"\x00")
    assert (await receive(comm))["code"] == "bad_json"
    await comm.send_to(text_data='{"type": "ping"}')
    assert (await receive(comm))["type"] == "pong"
    await comm.disconnect()


def test_moves_for_another_bots_game_or_a_closed_turn_are_refused(settings: Any) -> None:
    settings.BOTS_MOVE_TIMEOUT_SECONDS = 0.05
    owner = new_user("eve")
    bot, version, _ = external_bot(owner)
    other, _, _ = external_bot(new_user("fay"))
    table = bot_table(owner, version, human=True)
    game = latest_game(table)
    assert game is not None
    version_before = game.version
    with pytest.raises(ExternalBotError) as err:
        external_submit_move(bot=other, game_id=game.pk, seq=game.version, move={"action": "pass"})
    assert err.value.code == "unknown_game"
    if game.status == Game.Status.RUNNING:  # the human's turn, or the bot's turn already expired
        with pytest.raises(ExternalBotError) as err:
            external_submit_move(
                bot=bot, game_id=game.pk, seq=game.version, move={"action": "pass"}
            )
        assert err.value.code == "not_your_turn"
    game.refresh_from_db()
    assert game.version == version_before
    assert mailbox.client().llen(mailbox.move_key(game.pk, game.version)) == 0


def test_no_answer_times_out_strikes_and_disqualifies(settings: Any) -> None:
    """Nobody is connected: every turn of the bot waits the per-move limit on Redis and
    strikes; the third strike disqualifies it and the table plays its seat from then on."""
    settings.BOTS_MOVE_TIMEOUT_SECONDS = 0.2
    owner = new_user("gus")
    _, version, _ = external_bot(owner)
    table = bot_table(owner, version, seats=2, human=True)
    game = play_humans(table, {0: owner})
    seat = Seat.objects.get(table=table, index=1)
    assert seat.strikes == 3
    assert seat.disqualified
    records: list[dict[str, Any]] = [
        dict(a.bot_record or {})
        for a in Action.objects.filter(game=game, seat=1, bot_record__isnull=False).order_by("seq")
    ]
    assert [r["strike"] for r in records[:3]] == ["timeout"] * 3
    assert all(r["external"] for r in records[:3])
    assert records[2]["disqualified"] is True
    assert game.status == Game.Status.FINISHED


def test_an_external_bot_sits_at_a_limited_number_of_tables(settings: Any) -> None:
    settings.BOTS_EXTERNAL_MAX_GAMES = 2
    owner = new_user("hal")
    bot, version, _ = external_bot(owner)
    for _ in range(2):
        bot_table(owner, version, start=False)
    assert not BotVersion.objects.seatable(user=owner).filter(pk=version.pk).exists()
    js = ready_version(owner, "function getNextMove(s) { return { action: 'pass' }; }")
    with pytest.raises(ValidationError) as refused:
        services.table_create_arena(owner=owner, bot_version_ids=[version.pk, js.pk])
    assert refused.value.code == "bot_busy"
    other = services.table_create(owner=owner, name="Free seat", options={"seats": 2})
    with pytest.raises(services.TableError) as err:
        services.seat_add_bot(table_id=other.pk, user=owner, seat=1, bot_version_id=version.pk)
    assert err.value.code == "bot_busy"  # the limit, not "no such bot version"
    assert Seat.objects.get(table=other, index=1).kind == Seat.Kind.EMPTY
    # a JS bot of the same owner is not limited
    bot.kind = Bot.Kind.JS
    bot.save()
    assert BotVersion.objects.seatable(user=owner).filter(pk=version.pk).exists()


def test_one_table_over_the_games_limit_is_refused_as_busy_not_unready(settings: Any) -> None:
    """A 5th table at the 4-game limit was refused "v1 is not ready": the refusal is
    ``bot_busy`` and says the limit."""
    from django.utils import translation

    settings.BOTS_EXTERNAL_MAX_GAMES = 4
    owner = new_user("ian")
    bot, version, _ = external_bot(owner)
    for _ in range(4):
        bot_table(owner, version, start=False)
    with pytest.raises(ValidationError) as err:
        services.table_create_practice(owner=owner, bot_version_id=version.pk, watch=True)
    assert err.value.code == "bot_busy"
    assert err.value.messages == [f"{bot.name} already plays 4 games, the most at once."]
    with pytest.raises(ValidationError) as err:
        services.table_create_arena(
            owner=owner, bot_version_ids=[version.pk], house_levels=["easy"]
        )
    assert err.value.code == "bot_busy"
    with translation.override("vi"), pytest.raises(ValidationError) as err:
        services.table_create_practice(owner=owner, bot_version_id=version.pk, watch=True)
    assert "đang chơi 4 ván, tối đa cùng lúc" in err.value.messages[0]
