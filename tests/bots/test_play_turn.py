"""bot_play_turn: one sandbox per (game, seat, version) in this worker process."""

from __future__ import annotations

from typing import Any

import pytest

from accounts.models import User
from bots.models import BotVersion
from bots.runtime import BotRegistry
from bots.samples import sample_cases
from bots.services import (
    BotMoveError,
    bot_create,
    bot_play_turn,
    bot_release_game,
    bot_seat_player,
)
from games.engine.tienlen import GAME

pytestmark = pytest.mark.django_db

COUNTER = """
let turns = 0;
function getNextMove(gameState) {
  turns += 1;
  console.log("turn", turns);
  return { action: "pass", turns: turns };
}
"""

MEMORY_BOMB_ON_SECOND = """
let turns = 0;
function getNextMove(gameState) {
  turns += 1;
  if (turns === 2) {
    const hog = [];
    while (true) hog.push(new Array(100000).fill(turns));
  }
  return { action: "pass", turns: turns };
}
"""


def version_of(user: User, name: str, code: str) -> BotVersion:
    return bot_create(owner=user, name=name, code=code).versions.get()


def state() -> dict[str, Any]:
    return sample_cases()[1].view()


def test_globals_persist_across_turns_of_one_game(user: User, game_keys: list[str]) -> None:
    version = version_of(user, "Counter", COUNTER)
    game_keys.append("g-persist")
    turns = [
        bot_play_turn(bot_version_id=version.pk, game_key="g-persist", seat=1, game_state=state())
        for _ in range(3)
    ]
    assert [t.value["turns"] for t in turns if t.value] == [1, 2, 3]
    assert turns[2].ok
    assert turns[2].console == ["turn 3"]
    assert turns[2].elapsed_ms >= 0
    assert not any(t.restarted for t in turns)


def test_games_and_seats_are_isolated(user: User, game_keys: list[str]) -> None:
    version = version_of(user, "Counter", COUNTER)
    game_keys += ["g-a", "g-b"]

    def turn(key: str, seat: int) -> int:
        result = bot_play_turn(bot_version_id=version.pk, game_key=key, seat=seat, game_state={})
        assert result.value is not None
        return int(result.value["turns"])

    assert [turn("g-a", 0), turn("g-a", 0), turn("g-b", 0), turn("g-a", 2), turn("g-a", 0)] == [
        1,
        2,
        1,
        1,
        3,
    ]


def test_a_crash_is_a_failure_and_the_next_call_restarts(user: User, game_keys: list[str]) -> None:
    version = version_of(user, "Bomb", MEMORY_BOMB_ON_SECOND)
    game_keys.append("g-crash")

    def turn() -> Any:
        return bot_play_turn(
            bot_version_id=version.pk, game_key="g-crash", seat=0, game_state={}, timeout_s=3.0
        )

    assert turn().ok
    crashed = turn()
    assert not crashed.ok
    assert crashed.error_code in {"memory", "crashed"}
    again = turn()
    assert again.ok
    assert again.restarted
    assert again.value == {"action": "pass", "turns": 1}  # fresh globals


def test_release_game_closes_its_sandboxes(user: User) -> None:
    version = version_of(user, "Counter", COUNTER)
    for seat in (0, 1):
        bot_play_turn(bot_version_id=version.pk, game_key="g-release", seat=seat, game_state={})
    assert bot_release_game(game_key="g-release") == 2
    assert bot_release_game(game_key="g-release") == 0
    result = bot_play_turn(bot_version_id=version.pk, game_key="g-release", seat=0, game_state={})
    assert result.value == {"action": "pass", "turns": 1}
    bot_release_game(game_key="g-release")


def test_a_version_that_does_not_load_fails_every_turn(user: User, game_keys: list[str]) -> None:
    version = version_of(user, "Broken", "function getNextMove( {")
    game_keys.append("g-broken")
    for _ in range(2):
        result = bot_play_turn(
            bot_version_id=version.pk, game_key="g-broken", seat=0, game_state={}
        )
        assert result.error_code == "syntax"
        assert not result.restarted


def test_registry_evicts_least_recently_used_and_idle_processes() -> None:
    now = [0.0]
    registry = BotRegistry(max_processes=2, idle_seconds=100, clock=lambda: now[0])
    code = COUNTER
    try:
        for key in (("a", 0, 1), ("b", 0, 1)):
            registry.play(key, load_code=lambda: code, game_state={}, timeout_s=2)
        registry.play(("a", 0, 1), load_code=lambda: code, game_state={}, timeout_s=2)
        registry.play(("c", 0, 1), load_code=lambda: code, game_state={}, timeout_s=2)
        assert set(registry.keys()) == {("a", 0, 1), ("c", 0, 1)}  # "b" was least recent
        now[0] = 500.0
        registry.play(("d", 0, 1), load_code=lambda: code, game_state={}, timeout_s=2)
        assert registry.keys() == [("d", 0, 1)]  # the idle ones went
    finally:
        registry.close_all()
    assert len(registry) == 0


def test_seat_player_adapter_for_live_tables(user: User, good_code: str) -> None:
    version = version_of(user, "Seated", good_code)
    case = sample_cases()[0]

    class FakeSeat:
        index = case.seat
        bot_version_id = version.pk

    class FakeGame:
        pk = 4242

    try:
        action = bot_seat_player(seat=FakeSeat(), game=FakeGame(), engine=GAME, state=case.state)
        assert action["type"] == "play"
        assert action["cards"] == ["3S"]
        assert action["bot_record"]["ok"] is True

        passer = version_of(user, "Passer", "function getNextMove(s) { return {action:'pass'}; }")
        FakeSeat.bot_version_id = passer.pk
        with pytest.raises(BotMoveError) as info:
            bot_seat_player(seat=FakeSeat(), game=FakeGame(), engine=GAME, state=case.state)
        assert info.value.code == "illegal:leader_cannot_pass"
        assert info.value.record["error_code"] == "illegal:leader_cannot_pass"
    finally:
        bot_release_game(game_key="game:4242")


def test_a_seats_first_turn_asks_for_no_earlier_turns(monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot-turn task's read of the game says which seats have a stored move
    (``Game.moved_seats``, games.services.sql.game_seats): a seat without one gets no
    ``history`` to read (its sandbox has nothing to replay); a seat with one, or a game read
    otherwise (None), gets the read of its earlier turns."""
    from bots import turns

    asked: list[Any] = []

    class Asked(Exception):
        pass

    def fake_turn(**kw: Any) -> Any:
        asked.append(kw["history"])
        raise Asked

    monkeypatch.setattr(turns, "bot_play_turn", fake_turn)
    case = sample_cases()[0]

    class FakeSeat:
        index = case.seat
        bot_version_id = 1

    class FakeGame:
        pk = 4243
        version = 7
        moved_seats: frozenset[int] | None = frozenset({case.seat + 1})

    for moved in (frozenset({case.seat + 1}), frozenset({case.seat}), None):
        FakeGame.moved_seats = moved
        with pytest.raises(Asked):
            bot_seat_player(seat=FakeSeat(), game=FakeGame(), engine=GAME, state=case.state)
    first, moved_before, read_otherwise = asked
    assert first is None
    assert callable(moved_before)
    assert callable(read_otherwise)
