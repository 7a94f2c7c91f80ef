"""A game's user-bot sandboxes are started when it is dealt, before the bots' first turns
(bots/warmup.py)."""

from __future__ import annotations

from typing import Any

import pytest

from bots.runtime import registry
from bots.services import bot_seat_player
from bots.warmup import PREPARE_TASK, bot_prepare_game
from games import extensions, realtime, services
from games.models import Action, Game, Table
from tests.bots.live import COUNTING_BOT, hybrid_table, new_user, play_humans
from tests.scheduler import RecordingScheduler

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("live_bots")]


def _keys(game: Game) -> list[tuple[str, int, int]]:
    return [k for k in registry.keys() if k[0] == f"game:{game.pk}"]  # noqa: SIM118


def test_the_deal_sends_the_warm_up_to_the_shard_queue_before_the_first_turn(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    owner = new_user("owner")
    table, _version = hybrid_table(owner, COUNTING_BOT)
    recorder = RecordingScheduler(monkeypatch)
    recorder.install()
    services.table_start(table_id=table.pk, user=owner)
    begin = [c for c in recorder.calls if c[0] == services.TASK_TABLE_BEGIN]
    assert begin
    recorder.calls.clear()

    services.table_begin(table_id=begin[0][1][0], version=begin[0][1][1])

    game = Game.objects.get(table=table, number=1)
    names = [c[0] for c in recorder.calls]
    assert (PREPARE_TASK, [game.pk], 0, realtime.bot_queue(game.pk)) in recorder.calls
    if services.TASK_SEAT_AUTOPLAY in names:  # the bot leads: its turn comes after
        assert names.index(PREPARE_TASK) < names.index(services.TASK_SEAT_AUTOPLAY)
    assert _keys(game) == []  # nothing started here: the shard worker does it


def test_a_dealt_game_has_its_bots_sandbox_before_the_bot_plays(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[tuple[str, Any]] = []
    real_prepare, real_play = registry.prepare, registry.play

    def prepare(key: Any, **kwargs: Any) -> None:
        calls.append(("prepare", key))
        real_prepare(key, **kwargs)

    def play(key: Any, **kwargs: Any) -> Any:
        calls.append(("play", key))
        return real_play(key, **kwargs)

    monkeypatch.setattr(registry, "prepare", prepare)
    monkeypatch.setattr(registry, "play", play)
    owner = new_user("owner")
    table, version = hybrid_table(owner, COUNTING_BOT)
    services.table_start(table_id=table.pk, user=owner)
    game = Game.objects.get(table=table, number=1)
    key = (f"game:{game.pk}", 1, version.pk)
    assert calls[0] == ("prepare", key)
    assert key in _keys(game)

    game = play_humans(table, {0: owner})

    assert calls.count(("prepare", key)) == 1
    assert ("play", key) in calls
    # the sandbox started at the deal is the one the turns used: the bot's top-level code ran
    # once and its move counter started at 1 (tests/bots/test_live_tables.py checks it goes on)
    first = Action.objects.filter(game=game, seat=1).order_by("seq").first()
    assert first is not None
    record = first.bot_record
    assert record is not None
    assert record["console"] == ["move 1"]
    assert record["restarted"] is False
    assert _keys(game) == []  # released at the end as before


def test_nothing_is_started_for_a_house_player_or_a_game_that_is_over(
    bot_player: Any,
) -> None:
    owner = new_user("owner")
    table, _version = hybrid_table(owner, COUNTING_BOT)
    bot_player(extensions.house_bot_player)
    services.table_start(table_id=table.pk, user=owner)
    game = Game.objects.get(table=table, number=1)
    assert bot_prepare_game(game_id=game.pk) == 0
    assert _keys(game) == []

    bot_player(bot_seat_player)  # the real sandbox player again
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    assert bot_prepare_game(game_id=game.pk) == 0
    assert _keys(game) == []
    Table.objects.filter(pk=table.pk).delete()
