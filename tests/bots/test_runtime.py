"""bots.runtime.BotRegistry under a thread pool (the shard workers run ``-P threads``): the
turns of different games run at once, those of one game never overlap, and a sandbox in use
is never evicted. Pure Python: real sandboxes, no database."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from bots.runtime import BotRegistry, BotTurnResult, RegistryKey

#: Busy for ``gameState.ms`` milliseconds; returns its wall-clock interval and a global count.
SLOW = """
let turns = 0;
function getNextMove(gameState) {
  turns += 1;
  const start = Date.now();
  while (Date.now() - start < gameState.ms) {}
  return { action: "pass", start: start, end: Date.now(), turns: turns };
}
"""


@pytest.fixture
def registry() -> Iterator[BotRegistry]:
    registry = BotRegistry()
    yield registry
    registry.close_all()


def play(registry: BotRegistry, key: RegistryKey, ms: int) -> BotTurnResult:
    return registry.play(key, load_code=lambda: SLOW, game_state={"ms": ms}, timeout_s=10)


def interval(result: BotTurnResult) -> tuple[int, int]:
    assert result.ok, result.error_message
    assert result.value is not None
    return int(result.value["start"]), int(result.value["end"])


def overlap(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return a[0] < b[1] and b[0] < a[1]


def test_turns_of_one_game_never_overlap_while_other_games_go_on(registry: BotRegistry) -> None:
    keys = [("game:1", 0, 7), ("game:1", 1, 7), ("game:2", 0, 7)]
    start = threading.Barrier(len(keys))

    def turn(key: RegistryKey) -> BotTurnResult:
        start.wait()
        return play(registry, key, 400)

    with ThreadPoolExecutor(len(keys)) as pool:
        first, second, other = (interval(r) for r in pool.map(turn, keys))
    assert not overlap(first, second)  # one game: one turn at a time, even at two seats
    assert overlap(other, first) or overlap(other, second)  # the other game did not wait


def test_a_sandbox_in_use_is_never_evicted(registry: BotRegistry) -> None:
    """Over the cap while a long turn runs: the other game's new sandbox does not evict the
    busy one (its bot keeps its globals); once idle, it is the other one that goes."""
    registry.max_processes = 1
    busy, other = ("game:1", 0, 7), ("game:2", 0, 7)
    with ThreadPoolExecutor(1) as pool:
        long_turn = pool.submit(play, registry, busy, 2000)
        deadline = time.monotonic() + 30
        while registry.process_for(busy) is None:  # its sandbox is up: the move follows
            assert time.monotonic() < deadline
            assert not long_turn.done()
            time.sleep(0.01)
        assert play(registry, other, 1).ok
        assert long_turn.result().ok
    again = play(registry, busy, 1)
    assert again.ok
    assert not again.restarted
    assert again.value is not None
    assert again.value["turns"] == 2  # the same sandbox
    assert registry.keys() == [busy]


def test_release_waits_for_the_games_turn_in_progress(registry: BotRegistry) -> None:
    key = ("game:1", 0, 7)
    ended: list[float] = []

    def turn() -> Any:
        result = play(registry, key, 600)
        ended.append(time.monotonic())
        return result

    with ThreadPoolExecutor(1) as pool:
        running = pool.submit(turn)
        deadline = time.monotonic() + 30
        while registry.process_for(key) is None:
            assert time.monotonic() < deadline
            assert not running.done()
            time.sleep(0.01)
        assert registry.release_game("game:1") == 1
        released = time.monotonic()
        assert running.result().ok  # the turn finished; its sandbox was closed after it
    assert ended
    assert ended[0] <= released
    assert registry.keys() == []
