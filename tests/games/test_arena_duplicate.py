"""Rated arena sessions deal duplicate sets (issue #16): with ``n`` seats, games ``k·n+1 …
k·n+n`` of a Bot Arena session share one deal, rotated one seat per game, so each player holds
each hand of the deal exactly once per set. Other tables deal every game afresh.

Bot seats play the house AI's move here (tests/conftest.py ``bot_player``); the games run
through the real services and tasks (tests/scheduler.py)."""

from __future__ import annotations

from typing import Any

import pytest

from bots.models import BotVersion
from games import seeds, services
from games.engine.registry import find_game
from games.models import Action, Game, Table
from tests.factories import BotVersionFactory, UserFactory
from tests.scheduler import TestScheduler

pytestmark = pytest.mark.django_db(transaction=True)

ENGINE = find_game("tienlen")


def _ready(owner: Any, name: str) -> BotVersion:
    return BotVersionFactory.create(
        bot__owner=owner, bot__name=name, status=BotVersion.Status.READY
    )


def _play(table: Table, scheduler: TestScheduler, games: int) -> list[Game]:
    """Games 1 … ``games`` of ``table``, each finished (the next is dealt by its task)."""
    for _ in range(games):
        finished = Game.objects.filter(table=table, status=Game.Status.FINISHED).count()
        if finished >= games:
            break
        scheduler.run_pending("games.next_game")
    out = list(Game.objects.filter(table=table, number__lte=games).order_by("number"))
    assert [g.number for g in out] == list(range(1, games + 1))
    assert {g.status for g in out} == {Game.Status.FINISHED}
    return out


def _dealt(game: Game) -> list[frozenset[str]]:
    """Each seat's dealt hand, rebuilt by the engine from the game's stored config and seed."""
    state = ENGINE.new_game(game.config, game.seed)
    return [frozenset(hand) for hand in ENGINE.state_to_json(state)["dealt"]]


def _player(game: Game, seat: int) -> tuple[Any, Any]:
    snapshot = game.players[seat]
    return snapshot.get("bot_version_id"), snapshot.get("house_level")


def _check_sets(games: list[Game], seats: int) -> None:
    for start in range(0, len(games) - seats + 1, seats):
        block = games[start : start + seats]
        # one deal per set: the same seed and the same four hands
        assert len({g.seed for g in block}) == 1
        deal = set(_dealt(block[0]))
        assert len(deal) == seats
        for game in block:
            assert set(_dealt(game)) == deal
        # each player holds each hand exactly once
        holders: dict[tuple[Any, Any], list[frozenset[str]]] = {}
        for game in block:
            for seat, hand in enumerate(_dealt(game)):
                holders.setdefault(_player(game, seat), []).append(hand)
        assert len(holders) == seats
        for held in holders.values():
            assert len(held) == seats
            assert set(held) == deal
        # rotation r: seat s holds what seat s+r held in the set's first game
        first = _dealt(block[0])
        for r, game in enumerate(block):
            assert _dealt(game) == [first[(s + r) % seats] for s in range(seats)]
        # the same hand leads in every game of the set (whoever holds it, wherever it sits)
        leaders = [ENGINE.new_game(g.config, g.seed).turn for g in block]
        led = {_dealt(game)[leader] for game, leader in zip(block, leaders, strict=True)}
        assert len(led) == 1, leaders


def test_four_seat_arena_deals_duplicate_sets(scheduler: TestScheduler) -> None:
    owner = UserFactory.create()
    ant, bee = _ready(owner, "Ant"), _ready(UserFactory.create(), "Bee")
    bee.bot.arena_open = True
    bee.bot.save(update_fields=["arena_open"])
    table = services.table_create_arena(
        owner=owner, bot_version_ids=[ant.pk, bee.pk], house_levels=["easy", "hard"]
    )
    games = _play(table, scheduler, 8)

    _check_sets(games, 4)
    # the second set is a new deal
    assert games[0].seed != games[4].seed
    assert set(_dealt(games[0])) != set(_dealt(games[4]))
    # the first game of a set deals from its seed; the others carry the rotated fixed deal
    assert "hands" not in games[0].config
    assert "hands" not in games[4].config
    assert all("hands" in g.config for g in games[1:4] + games[5:8])
    # a rotated game replays from its stored config, seed and moves to the stored result
    game = games[1]
    moves = list(Action.objects.filter(game=game).order_by("seq").values_list("payload", flat=True))
    result = ENGINE.result(ENGINE.replay(game.config, game.seed, moves))
    assert result is not None
    assert game.result is not None
    assert result["scores"] == game.result["scores"]


def test_three_seat_arena_sets_are_three_games_long(scheduler: TestScheduler) -> None:
    owner = UserFactory.create()
    ant = _ready(owner, "Ant")
    table = services.table_create_arena(
        owner=owner, bot_version_ids=[ant.pk], house_levels=["medium", "hard"]
    )
    games = _play(table, scheduler, 4)

    _check_sets(games[:3], 3)
    assert games[3].seed != games[0].seed
    assert "hands" not in games[3].config
    # 16 is not a multiple of 3: the last set of such a session is cut short (docs)
    assert seeds.duplicate_set(16, 3) == (16, 0)


def test_other_tables_deal_every_game_afresh(scheduler: TestScheduler) -> None:
    owner = UserFactory.create()
    ant = _ready(owner, "Ant")
    table = services.table_create_practice(owner=owner, bot_version_id=ant.pk, watch=True)
    games = _play(table, scheduler, 3)
    assert len({g.seed for g in games}) == 3
    assert all("hands" not in g.config for g in games)
