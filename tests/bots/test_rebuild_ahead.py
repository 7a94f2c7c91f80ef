"""A worker that takes a bot shard over rebuilds its bots' sandboxes ahead of their turns
(bots/runtime.py ``BotRegistry.rebuild``, bots/warmup.py ``bot_rebuild_queue``,
docs/bot-affinity.md "Rebuilt ahead"): every seat's sandbox starts and plays the bot's earlier
turns again in the background, the seats at once, and the next turn plays at once and reports
the replay (``replayed``, ``replay_diverged``) as if it had played it itself."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from bots.runtime import (
    BotRegistry,
    BotTurnResult,
    RegistryKey,
    ReplayHistory,
    TurnSupersededError,
)
from tests.bots.test_runtime import COUNTER


def _turn(reg: BotRegistry, key: RegistryKey, state: dict[str, Any], **kw: Any) -> BotTurnResult:
    return reg.play(key, load_code=lambda: COUNTER, game_state=state, timeout_s=5, **kw)


def _never() -> list[Any]:
    raise AssertionError("the turn replayed although its sandbox was rebuilt ahead")


def _uninterrupted(key: RegistryKey, states: list[dict[str, Any]]) -> list[BotTurnResult]:
    old = BotRegistry()
    try:
        return [_turn(old, key, s) for s in states]
    finally:
        old.close_all()


def test_a_rebuilt_sandbox_plays_the_next_turn_without_replaying_and_reports_the_replay() -> None:
    key: RegistryKey = ("game:21", 1, 5)
    states = [{"n": n} for n in range(1, 5)]
    played = _uninterrupted(key, states)
    earlier = [(s, r.value) for s, r in zip(states[:3], played[:3], strict=True)]
    new = BotRegistry()
    try:
        assert new.rebuild(key, load_code=lambda: COUNTER, history=lambda: earlier, timeout_s=5)
        assert not new.rebuild(key, load_code=lambda: COUNTER, history=_never, timeout_s=5)
        moved = _turn(new, key, states[3], history=_never, superseded=lambda: False)
        assert moved.console == played[3].console  # "turn 4 of 4 <the same draw>"
        assert (moved.replayed, moved.replay_diverged) == (3, False)
        assert moved.to_record()["replayed"] == 3
        again = _turn(new, key, {"n": 5}, history=_never, superseded=lambda: False)
        assert again.replayed == 0  # reported once
        assert again.value is not None
        assert again.value["turns"] == 5
    finally:
        new.close_all()


def test_a_rebuild_whose_replay_comes_out_otherwise_is_reported_by_the_next_turn() -> None:
    key: RegistryKey = ("game:22", 0, 5)
    states = [{"n": n} for n in range(1, 4)]
    played = _uninterrupted(key, states)
    wrong = [(s, {"action": "pass"}) for s in states[:2]]  # a bot that read the clock, say
    new = BotRegistry()
    try:
        new.rebuild(key, load_code=lambda: COUNTER, history=lambda: wrong, timeout_s=5)
        odd = _turn(new, key, states[2], history=_never, superseded=lambda: False)
        assert (odd.replayed, odd.replay_diverged) == (2, True)
        assert odd.to_record()["replay_diverged"] is True
        assert odd.console == played[2].console
    finally:
        new.close_all()


def test_a_second_copy_of_the_last_stored_turn_after_a_rebuild_is_dropped() -> None:
    """As for a sandbox new in the process (tests/bots/test_runtime.py): the re-armed copy of
    the bot's last stored turn would play that turn twice into the rebuilt globals."""
    key: RegistryKey = ("game:23", 2, 5)
    states = [{"n": n} for n in range(1, 4)]
    played = _uninterrupted(key, states)
    earlier = [(s, r.value) for s, r in zip(states[:2], played[:2], strict=True)]
    new = BotRegistry()
    try:
        new.rebuild(key, load_code=lambda: COUNTER, history=lambda: earlier, timeout_s=5)
        with pytest.raises(TurnSupersededError):
            _turn(new, key, states[1], history=_never, superseded=lambda: False)
        moved = _turn(new, key, states[2], history=_never, superseded=lambda: False)
        assert moved.console == played[2].console  # the copy was not played
        assert moved.replayed == 2
    finally:
        new.close_all()


def test_a_rebuilt_sandbox_that_missed_a_turn_stored_after_its_read_replays_again() -> None:
    """The shard's previous worker stored a turn of the bot after the rebuild had read the
    bot's earlier turns (a turn it had taken with a countdown and played on after the hand-
    back: tests/bots/test_shard_takeover.py). The rebuilt sandbox has not seen it: its next
    turn finds it stored (``stored_since``), and a fresh sandbox replays the turns read now,
    so the bot's globals are not one turn behind."""
    key: RegistryKey = ("game:26", 3, 5)
    states = [{"n": n} for n in range(1, 5)]
    played = _uninterrupted(key, states)
    earlier = [(s, r.value) for s, r in zip(states, played, strict=True)]
    asked: list[int] = []

    def stored_since(upto: int) -> bool:
        asked.append(upto)
        return True  # its third turn, stored at seq 13 by the previous worker

    new = BotRegistry()
    try:
        new.rebuild(
            key,
            load_code=lambda: COUNTER,
            history=lambda: ReplayHistory(earlier[:2], upto=10),  # read at version 10
            timeout_s=5,
        )
        moved = _turn(
            new,
            key,
            states[3],
            history=lambda: ReplayHistory(earlier[:3], upto=15),
            version=15,
            superseded=lambda: False,
            stored_since=stored_since,
        )
        assert asked == [10]
        assert moved.console == played[3].console  # "turn 4 of 4 <the same draw>"
        assert (moved.replayed, moved.replay_diverged) == (3, False)
        again = _turn(new, key, {"n": 5}, history=_never, version=19, stored_since=stored_since)
        assert again.value is not None
        assert again.value["turns"] == 5
        assert asked == [10]  # asked once, at the first turn after the rebuild
    finally:
        new.close_all()


def test_a_rebuilt_sandbox_that_saw_every_stored_turn_plays_at_once() -> None:
    """Nothing of the bot stored since the rebuild's read: its turn plays in the rebuilt
    sandbox; a turn at the very version the read saw asks nothing."""
    key: RegistryKey = ("game:27", 0, 5)
    states = [{"n": n} for n in range(1, 5)]
    played = _uninterrupted(key, states)
    earlier = [(s, r.value) for s, r in zip(states, played, strict=True)]
    asked: list[int] = []

    def stored_since(upto: int) -> bool:
        asked.append(upto)
        return False

    def asks_nothing(upto: int) -> bool:
        raise AssertionError("the read saw the game at this turn's version")

    other: RegistryKey = ("game:27", 1, 5)  # the same bot's states, for brevity
    new = BotRegistry()
    try:
        for seat_key, version, check in ((key, 14, stored_since), (other, 10, asks_nothing)):
            new.rebuild(
                seat_key,
                load_code=lambda: COUNTER,
                history=lambda: ReplayHistory(earlier[:3], upto=10),
                timeout_s=5,
            )
            moved = _turn(
                new,
                seat_key,
                states[3],
                history=_never,
                version=version,
                superseded=lambda: False,
                stored_since=check,
            )
            assert moved.replayed == 3
            assert moved.value is not None
            assert moved.value["turns"] == 4
        assert asked == [10]
    finally:
        new.close_all()


def test_a_turn_older_than_a_rebuilds_read_is_a_copy_and_is_dropped() -> None:
    """The rebuild read the game past this turn's version (its task a late copy): the turn is
    dropped, not played into the rebuilt globals."""
    key: RegistryKey = ("game:28", 2, 5)
    states = [{"n": n} for n in range(1, 5)]
    played = _uninterrupted(key, states)
    earlier = [(s, r.value) for s, r in zip(states, played, strict=True)]
    new = BotRegistry()
    try:
        new.rebuild(
            key,
            load_code=lambda: COUNTER,
            history=lambda: ReplayHistory(earlier[:3], upto=12),
            timeout_s=5,
        )
        with pytest.raises(TurnSupersededError):  # another state than its last turn's
            _turn(new, key, {"n": 0}, history=_never, version=9, superseded=lambda: True)
        moved = _turn(new, key, states[3], history=_never, version=12, superseded=lambda: False)
        assert moved.console == played[3].console
    finally:
        new.close_all()


def test_a_turn_that_replays_drops_a_copy_of_a_turn_older_than_its_read() -> None:
    """A sandbox new in the process reads the earlier turns in the turn; when that read saw
    the game past the turn's version (a late copy of it), nothing is played."""
    key: RegistryKey = ("game:29", 1, 5)
    states = [{"n": n} for n in range(1, 5)]
    played = _uninterrupted(key, states)
    earlier = [(s, r.value) for s, r in zip(states, played, strict=True)]
    new = BotRegistry()
    try:
        with pytest.raises(TurnSupersededError):
            _turn(
                new,
                key,
                {"n": 0},
                history=lambda: ReplayHistory(earlier[:3], upto=12),
                version=9,
                superseded=lambda: True,
            )
        moved = _turn(
            new,
            key,
            states[3],
            history=lambda: ReplayHistory(earlier[:3], upto=12),
            version=12,
            superseded=lambda: False,
        )
        assert (moved.replayed, moved.console) == (3, played[3].console)
    finally:
        new.close_all()


def test_the_seats_of_a_game_are_rebuilt_at_once_not_one_after_another() -> None:
    """Four seats' rebuilds are all under way together: each one's history waits until the
    four have started (a barrier: one after another, the first would wait alone and fail)."""
    seats = 4
    barrier = threading.Barrier(seats, timeout=30)
    met: list[int] = []
    states = [{"n": n} for n in range(1, 4)]
    keys: list[RegistryKey] = [("game:24", seat, 5) for seat in range(seats)]
    played = {key: _uninterrupted(key, states) for key in keys}
    new = BotRegistry()

    def history(key: RegistryKey) -> list[Any]:
        barrier.wait()
        met.append(key[1])
        return [(s, r.value) for s, r in zip(states[:2], played[key][:2], strict=True)]

    try:
        for key in keys:

            def of(k: RegistryKey = key) -> list[Any]:
                return history(k)

            new.rebuild(key, load_code=lambda: COUNTER, history=of, timeout_s=5)
        for key in keys:
            moved = _turn(new, key, states[2], history=_never, superseded=lambda: False)
            assert moved.replayed == 2
            assert moved.console == played[key][2].console
        assert sorted(met) == list(range(seats))
    finally:
        new.close_all()


def test_a_failed_rebuild_leaves_the_replay_to_the_turn() -> None:
    key: RegistryKey = ("game:25", 0, 5)
    states = [{"n": n} for n in range(1, 4)]
    played = _uninterrupted(key, states)
    earlier = [(s, r.value) for s, r in zip(states[:2], played[:2], strict=True)]

    def broken() -> list[Any]:
        raise ConnectionError("the database went away")

    new = BotRegistry()
    try:
        new.rebuild(key, load_code=lambda: COUNTER, history=broken, timeout_s=5)
        moved = _turn(new, key, states[2], history=lambda: earlier, superseded=lambda: False)
        assert (moved.replayed, moved.console) == (2, played[2].console)
    finally:
        new.close_all()


def _bot_moves(game: Any) -> list[Any]:
    """The stored moves of the bot's seat (1) of ``game``, in order."""
    from games.models import Action

    return list(Action.objects.filter(game=game, seat=1).order_by("seq"))


def _bot_game_under_way() -> tuple[Any, Any, Any, Any]:
    """A running game of a person (seat 0) and a counting bot (seat 1) that has moved at least
    three times, no sandbox of earlier tests' games left: ``(owner, table, version, game)``."""
    from bots.runtime import registry
    from games import services
    from games.models import Game
    from tests.bots.live import COUNTING_BOT, hybrid_table, new_user, play_humans

    registry.close_all()  # earlier tests' games: their sandboxes would take its room
    owner = new_user("owner")
    table, version = hybrid_table(owner, COUNTING_BOT)
    services.table_start(table_id=table.pk, user=owner)
    game = play_humans(table, {0: owner}, until=lambda g: len(_bot_moves(g)) >= 3)
    assert game.status == Game.Status.RUNNING
    return owner, table, version, game


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("live_bots")
def test_a_shard_taken_over_has_its_live_games_bots_rebuilt_before_their_turns(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """bots/warmup.py ``bot_rebuild_queue`` (what config/shards.py runs on gaining a shard):
    the bot's sandbox in this process is gone (the game's shard moved here); it is rebuilt
    from the stored turns before the bot's next turn, which then replays nothing itself and
    goes on with the bot's globals."""
    from bots import turns
    from bots.runtime import registry
    from bots.warmup import bot_rebuild_queue
    from games import realtime
    from tests.bots.live import play_humans

    owner, table, version, game = _bot_game_under_way()
    before = len(_bot_moves(game))
    key = f"game:{game.pk}"
    assert registry.release_game(key) == 1  # as in a worker that never played it
    asked: list[int] = []
    real = turns.earlier_turns

    def counted(**kw: Any) -> Any:
        asked.append(1)
        return real(**kw)

    monkeypatch.setattr(turns, "earlier_turns", counted)

    assert bot_rebuild_queue("bots.other") == 0
    assert registry.keys() == []
    with monkeypatch.context() as full:  # no room left in the registry: nothing set off
        full.setattr(registry, "max_processes", 0)
        assert bot_rebuild_queue(realtime.bot_queue(game.pk)) == 0
    assert bot_rebuild_queue(realtime.bot_queue(game.pk)) == 1
    assert registry.keys() == [(key, 1, version.pk)]

    game = play_humans(table, {0: owner}, until=lambda g: len(_bot_moves(g)) > before)
    after = _bot_moves(game)[before]
    record = after.bot_record or {}
    assert record["replayed"] == before
    assert record["replay_diverged"] is False
    assert record["console"] == [f"move {before + 1}"]  # its globals went on
    assert asked == []  # the turn itself read no earlier turns: they were replayed ahead


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("live_bots")
def test_a_turn_the_old_worker_stored_after_the_rebuild_read_is_not_missed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The hand-back race of tests/bots/test_shard_takeover.py, in one process: the new
    worker rebuilds the bot's sandbox from its stored turns, then the shard's previous worker
    (another registry) still plays and stores a turn of the bot (one it had taken with a
    countdown). The bot's next turn in the new worker finds that turn stored after the
    rebuild's read and replays again: its globals count every turn (before the fix, they were
    one turn behind from then on)."""
    from bots import turns
    from bots.runtime import registry
    from bots.warmup import bot_rebuild_queue
    from games import realtime
    from tests.bots.live import play_humans

    owner, table, version, game = _bot_game_under_way()
    before = len(_bot_moves(game))
    key = (f"game:{game.pk}", 1, version.pk)
    assert registry.release_game(key[0]) == 1  # the new worker never played it
    assert bot_rebuild_queue(realtime.bot_queue(game.pk)) == 1
    assert registry._entries[key].started.wait(30)  # its earlier turns read and replayed
    old = BotRegistry()  # the previous worker plays the bot's next turn and stores it
    try:
        with monkeypatch.context() as elsewhere:
            elsewhere.setattr(turns, "registry", old)
            game = play_humans(table, {0: owner}, until=lambda g: len(_bot_moves(g)) > before)
    finally:
        old.close_all()
    assert (_bot_moves(game)[before].bot_record or {})["console"] == [f"move {before + 1}"]
    game = play_humans(table, {0: owner}, until=lambda g: len(_bot_moves(g)) > before + 1)
    record = _bot_moves(game)[before + 1].bot_record or {}
    assert record["console"] == [f"move {before + 2}"]  # not "move {before + 1}"
    assert record["replayed"] == before + 1
    assert record["replay_diverged"] is False
