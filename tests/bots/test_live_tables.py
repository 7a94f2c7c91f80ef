"""User bots at live tables: real sandboxed moves, per-move records, strikes, release, arena."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import ValidationError

from bots.models import BotRating, BotRatingEvent
from bots.runtime import registry
from games import services
from games.models import Action, ChatMessage, Game, Mode, Seat, Table
from tests.bots.live import (
    COUNTING_BOT,
    ENDLESS_BOT,
    ILLEGAL_BOT,
    example_version,
    hybrid_table,
    new_user,
    play_humans,
    ready_version,
)
from tests.scheduler import SCHEDULER

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("live_bots")]


def _game_keys() -> set[str]:
    keys = registry.keys()
    return {key[0] for key in keys}


def test_the_bots_app_seats_real_bots_and_hooks_finished_games() -> None:
    from django.apps import apps

    from bots.services import bot_game_finished, bot_seat_player
    from games import extensions

    extensions.set_bot_player(None)  # the autouse bot_player fixture puts it back
    apps.get_app_config("bots").ready()
    assert extensions.bot_player() is bot_seat_player
    assert extensions.game_finished_hooks().count(bot_game_finished) == 1


def test_bot_seat_plays_its_code_with_globals_kept_and_records_each_move() -> None:
    owner = new_user("owner")
    table, version = hybrid_table(owner, COUNTING_BOT)
    services.table_start(table_id=table.pk, user=owner)
    game = play_humans(table, {0: owner})
    assert game.status == Game.Status.FINISHED
    bot_moves = list(Action.objects.filter(game=game, seat=1).order_by("seq"))
    assert bot_moves
    assert all(a.actor == Action.Actor.BOT for a in bot_moves)
    for n, action in enumerate(bot_moves, start=1):
        record = action.bot_record
        assert record is not None
        assert record["strike"] is None
        assert record["move"] == {k: v for k, v in action.payload.items() if k in ("type", "cards")}
        assert record["bot_version_id"] == version.pk
        assert isinstance(record["elapsed_ms"], float)
        assert record["elapsed_ms"] >= 0
        # one sandbox for the whole game: the global counter goes on
        assert record["console"] == [f"move {n}"]
    # the human's moves carry no record
    assert not Action.objects.filter(game=game, seat=0).exclude(bot_record=None).exists()
    # the game ended: its sandboxes were closed (bot_release_game on commit)
    assert f"game:{game.pk}" not in _game_keys()


def test_release_hook_calls_bot_release_game_once_the_game_is_over(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    released: list[str] = []
    real = registry.release_game

    def spy(key: str) -> int:
        released.append(key)
        return real(key)

    monkeypatch.setattr(registry, "release_game", spy)
    owner = new_user("owner")
    table, _ = hybrid_table(owner, COUNTING_BOT)
    services.table_start(table_id=table.pk, user=owner)
    game = play_humans(table, {0: owner}, until=lambda g: g.version >= 4)
    assert released == []  # not while the game runs
    game = play_humans(table, {0: owner})
    assert released == [f"game:{game.pk}"]


def test_endless_loop_strikes_on_timeout_and_three_disqualify(settings: Any) -> None:
    settings.BOTS_MOVE_TIMEOUT_SECONDS = 0.3
    owner = new_user("owner")
    table, _ = hybrid_table(owner, ENDLESS_BOT)
    services.table_start(table_id=table.pk, user=owner)
    seat = Seat.objects.get(table=table, index=1)
    game = play_humans(table, {0: owner}, until=lambda g: Seat.objects.get(pk=seat.pk).disqualified)
    seat.refresh_from_db()
    assert seat.strikes == 3
    assert seat.disqualified
    assert seat.auto
    struck = list(Action.objects.filter(game=game, seat=1).order_by("seq"))
    assert len(struck) == 3
    records: list[dict[str, Any]] = [a.bot_record for a in struck if a.bot_record is not None]
    assert len(records) == 3
    for n, (action, record) in enumerate(zip(struck, records, strict=True), start=1):
        assert action.actor == Action.Actor.TIMEOUT  # an auto-pass (or forced lead)
        assert record["strike"] == "timeout"
        assert record["strikes"] == n
        assert record["console"] == ["thinking"]
    assert records[-1]["disqualified"] is True
    notice = ChatMessage.objects.filter(table=table, is_system=True, text__contains="disqual")
    assert "timeout" in notice.get().text
    # the house policy plays the seat from now on: the game goes on, no more records
    game = play_humans(table, {0: owner})
    assert game.status == Game.Status.FINISHED
    later = Action.objects.filter(game=game, seat=1, seq__gt=struck[-1].seq)
    assert later.exists()
    assert not later.exclude(bot_record=None).exists()


def test_illegal_return_is_a_strike_with_the_engine_code() -> None:
    owner = new_user("owner")
    table, _ = hybrid_table(owner, ILLEGAL_BOT)
    services.table_start(table_id=table.pk, user=owner)
    game = play_humans(table, {0: owner}, until=lambda g: g.actions.filter(seat=1).exists())
    action = Action.objects.filter(game=game, seat=1).order_by("seq").first()
    assert action is not None
    assert action.actor == Action.Actor.TIMEOUT
    record: dict[str, Any] | None = action.bot_record
    assert record is not None
    assert record["strike"].startswith("illegal:")
    assert record["error_message"]
    assert Seat.objects.get(table=table, index=1).strikes == 1


def test_arena_of_four_example_bots_plays_and_rates_each_game() -> None:
    owner, rival = new_user("owner"), new_user("rival")
    versions = [
        example_version(owner, "greedy"),
        example_version(owner, "random"),
        example_version(owner, "defensive"),
        ready_version(rival, COUNTING_BOT, "Open", arena_open=True),
    ]
    table = services.table_create_arena(
        owner=owner, bot_version_ids=[v.pk for v in versions], session_length=16
    )
    assert table.mode == Mode.ARENA
    assert table.options["session_length"] == 16
    assert not Seat.objects.filter(table=table, kind=Seat.Kind.HUMAN).exists()
    # countdown 0 and bot delay 0 in tests: game 1 was played inline
    game = Game.objects.get(table=table, number=1)
    assert game.status == Game.Status.FINISHED
    assert {p["bot_version_id"] for p in game.players} == {v.pk for v in versions}
    records = Action.objects.filter(game=game).exclude(bot_record=None)
    assert records.count() == Action.objects.filter(game=game).count()
    assert BotRatingEvent.objects.filter(game_id=game.pk).count() == 4
    assert BotRating.objects.filter(games=1).count() == 4
    # the next game is dealt automatically (the arena's short delay)
    table.refresh_from_db()
    assert table.next_game_at is not None
    assert SCHEDULER.run_pending("games.next_game") == 1
    assert Game.objects.get(table=table, number=2).status == Game.Status.FINISHED
    assert BotRating.objects.filter(games=2).count() == 4


def test_arena_refuses_closed_bots_of_others_unready_versions_and_bad_counts() -> None:
    owner, rival = new_user("owner"), new_user("rival")
    mine = [example_version(owner, "greedy"), example_version(owner, "random")]
    closed = ready_version(rival, COUNTING_BOT, "Closed")
    with pytest.raises(ValidationError) as exc:
        services.table_create_arena(owner=owner, bot_version_ids=[mine[0].pk, closed.pk])
    assert exc.value.code == "unknown_bot"
    pending = ready_version(owner, COUNTING_BOT, "Pending")
    pending.status = "pending"
    pending.save()
    with pytest.raises(ValidationError) as exc:
        services.table_create_arena(owner=owner, bot_version_ids=[mine[0].pk, pending.pk])
    assert exc.value.code == "not_ready"
    with pytest.raises(ValidationError):
        services.table_create_arena(owner=owner, bot_version_ids=[mine[0].pk])
    assert not Table.objects.exists()


def test_practice_with_your_bot_is_never_rated() -> None:
    owner = new_user("owner")
    version = example_version(owner, "greedy")
    table = services.table_create_practice(owner=owner, bot_version_id=version.pk, watch=True)
    seats = list(Seat.objects.filter(table=table).order_by("index"))
    assert [s.kind for s in seats] == ["bot", "house", "house", "house"]
    assert table.mode == Mode.PRACTICE
    game = Game.objects.get(table=table, number=1)
    assert game.status == Game.Status.FINISHED
    assert Action.objects.filter(game=game, seat=0).exclude(bot_record=None).exists()
    assert not BotRatingEvent.objects.exists()

    with_me = services.table_create_practice(owner=owner, bot_version_id=version.pk)
    kinds = [s.kind for s in Seat.objects.filter(table=with_me).order_by("index")]
    assert kinds == ["human", "bot", "house", "house"]


def test_practice_refuses_someone_elses_bot() -> None:
    owner, rival = new_user("owner"), new_user("rival")
    theirs = ready_version(rival, COUNTING_BOT, "Theirs", arena_open=True)
    with pytest.raises(ValidationError):
        services.table_create_practice(owner=owner, bot_version_id=theirs.pk, watch=True)
