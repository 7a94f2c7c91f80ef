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
from bots.sandbox import BotProcess, PooledBot, SandboxPool

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


# --------------------------------------------------------------------------- warm pool

#: Counts its moves; remembers what it was told to keep in a global.
KEEPER = """
let moves = 0;
function getNextMove(gameState) {
  moves += 1;
  if (gameState.keep) globalThis.kept = gameState.keep;
  return { action: "pass", moves: moves, kept: globalThis.kept || null };
}
"""


@pytest.fixture
def pool() -> Iterator[SandboxPool]:
    pool = SandboxPool(contexts_per_child=4)
    yield pool
    pool.close()


def keeper(registry: BotRegistry, key: RegistryKey, keep: str | None = None) -> dict[str, Any]:
    result = registry.play(key, load_code=lambda: KEEPER, game_state={"keep": keep}, timeout_s=5)
    assert result.ok, result.error_message
    assert not result.restarted
    assert result.value is not None
    return result.value


def test_a_fresh_context_per_game_in_a_reused_process(pool: SandboxPool) -> None:
    registry = BotRegistry(pool=pool)
    try:
        assert keeper(registry, ("game:1", 0, 7), keep="game 1") == {
            "action": "pass",
            "moves": 1,
            "kept": "game 1",
        }
        assert keeper(registry, ("game:1", 0, 7))["kept"] == "game 1"  # globals last a game
        process = registry.process_for(("game:1", 0, 7))
        assert isinstance(process, PooledBot)
        pid = process.pid
        assert registry.release_game("game:1") == 1
        # the same version in the next game: a new context, in the same warm process
        assert keeper(registry, ("game:2", 0, 7)) == {"action": "pass", "moves": 1, "kept": None}
        again = registry.process_for(("game:2", 0, 7))
        assert again is not None
        assert again.pid == pid
        assert pool.spawns == 1
    finally:
        registry.close_all()


def test_arena_games_reuse_warm_processes(pool: SandboxPool) -> None:
    """Six 4-bot games one after the other: one process in all, against one per seat and game
    with ``mode="process"``."""
    pooled, per_process = BotRegistry(pool=pool), BotRegistry(mode="process")
    pids: set[int] = set()
    try:
        for game in range(6):
            for registry in (pooled, per_process):
                for seat in range(4):
                    key = (f"game:{game}", seat, 10 + seat)
                    assert keeper(registry, key)["moves"] == 1
                    assert keeper(registry, key)["moves"] == 2
                    process = registry.process_for(key)
                    assert process is not None
                    if registry is per_process:
                        assert isinstance(process, BotProcess)
                        assert process.pid is not None
                        pids.add(process.pid)
                assert registry.release_game(f"game:{game}") == 4
        assert pool.spawns == 1
        assert len(pids) == 24
    finally:
        pooled.close_all()
        per_process.close_all()


def test_many_games_on_a_thread_pool_share_few_processes(pool: SandboxPool) -> None:
    """A shard worker's threads play eight games' turns at once: each bot keeps its own globals,
    no move is lost or doubled, and the bots pack into two processes (four contexts each)."""
    registry = BotRegistry(pool=pool)
    keys = [(f"game:{g}", seat, 7) for g in range(4) for seat in range(2)]
    try:

        def game(g: int) -> list[int]:
            counts = []
            for _ in range(10):
                for seat in range(2):
                    counts.append(keeper(registry, (f"game:{g}", seat, 7))["moves"])
            return counts

        with ThreadPoolExecutor(4) as executor:
            results = list(executor.map(game, range(4)))
        assert results == [[n for n in range(1, 11) for _ in range(2)]] * 4
        pids = {p.pid for k in keys if (p := registry.process_for(k)) is not None}
        assert len(pids) == 2
        assert pool.spawns == 2
    finally:
        registry.close_all()


def test_unknown_mode_is_refused() -> None:
    with pytest.raises(ValueError, match="sandbox mode"):
        BotRegistry(mode="threads")  # type: ignore[arg-type]


def test_the_worker_mode_comes_from_the_settings(settings: Any) -> None:
    from bots.runtime import _mode_from_settings

    settings.BOTS_SANDBOX_MODE = "pool"
    assert _mode_from_settings() == "pool"
    settings.BOTS_SANDBOX_MODE = "process"
    assert _mode_from_settings() == "process"


class _SlowStart:
    """A sandbox whose start waits for ``gate`` (a pool child busy making contexts)."""

    def __init__(self, gate: threading.Event, starts: list[str]) -> None:
        self.gate, self.starts = gate, starts
        self.pid = 1
        self.alive = True
        self.last_move_restarted = False
        self.load_outcome: Any = None

    def start(self) -> Any:
        from bots.sandbox import MoveOutcome

        self.starts.append("start")
        assert self.gate.wait(10)
        self.load_outcome = MoveOutcome(ok=True)
        return self.load_outcome

    def move(self, game_state: Any, timeout_s: float | None = None) -> Any:
        from bots.sandbox import MoveOutcome

        return MoveOutcome(ok=True, value={"action": "pass"}, elapsed_ms=0.1)

    def close(self) -> None:
        self.alive = False


def test_prepare_starts_in_the_background_and_the_first_turn_waits_for_that_start(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    registry = BotRegistry()
    gate, starts = threading.Event(), list[str]()
    made: list[_SlowStart] = []

    def sandbox(code: str, seed: int) -> _SlowStart:
        made.append(_SlowStart(gate, starts))
        return made[-1]

    monkeypatch.setattr(registry, "_sandbox", sandbox)
    key = ("game:1", 0, 7)
    registry.prepare(key, load_code=lambda: SLOW)  # returns while the start waits
    assert registry.keys() == [key]
    with ThreadPoolExecutor(1) as turns:
        turn = turns.submit(registry.play, key, load_code=lambda: SLOW, game_state={}, timeout_s=1)
        time.sleep(0.05)
        assert not turn.done()  # the turn waits for the prepared start, not a start of its own
        gate.set()
        result = turn.result(timeout=10)
    assert result.ok
    assert starts == ["start"]
    assert registry.process_for(key) is made[0]  # type: ignore[comparison-overlap]
    registry.close_all()


#: A global count and its seeded random stream, printed each turn.
COUNTER = """
let turns = 0;
function getNextMove(gameState) {
  turns += 1;
  const draw = Math.random();
  console.log("turn " + turns + " of " + gameState.n + " " + draw);
  return { action: "pass", turns: turns, draw: draw };
}
"""


def test_a_new_sandbox_replays_the_history_so_its_globals_are_the_old_ones() -> None:
    """docs/bot-affinity.md: a turn in a process without the bot's sandbox (its shard moved)
    plays the bot's earlier turns again first, discarding their output: the turn that follows
    prints what the old sandbox would have printed."""
    key: RegistryKey = ("game:9", 2, 5)
    states = [{"n": n} for n in range(1, 5)]

    def turn(reg: BotRegistry, state: dict[str, Any], history: Any = None) -> BotTurnResult:
        return reg.play(
            key, load_code=lambda: COUNTER, game_state=state, timeout_s=5, history=history
        )

    old, new, blank = BotRegistry(), BotRegistry(), BotRegistry()
    asked: list[int] = []
    try:
        played = [turn(old, s) for s in states]  # the uninterrupted sandbox
        earlier = [(s, r.value) for s, r in zip(states[:3], played[:3], strict=True)]

        def history() -> list[Any]:
            asked.append(1)
            return earlier

        moved = turn(new, states[3], history)
        assert moved.console == played[3].console  # "turn 4 of 4 <the same draw>"
        assert moved.value == played[3].value
        assert (moved.replayed, moved.replay_diverged) == (3, False)
        assert moved.to_record()["replayed"] == 3
        again = turn(new, {"n": 5}, history)  # its sandbox has seen the game: no replay
        assert (again.replayed, len(asked)) == (0, 1)
        assert "replayed" not in again.to_record()
        # a history whose returns differ (a bot that reads the clock): said, not hidden
        wrong = [(s, {"action": "pass"}) for s, _ in earlier]
        odd = turn(blank, states[3], lambda: wrong)
        assert (odd.replayed, odd.replay_diverged) == (3, True)
        assert odd.console == played[3].console
    finally:
        for reg in (old, new, blank):
            reg.close_all()


def test_a_second_copy_of_a_turn_is_never_played_into_the_globals() -> None:
    """A sandbox that already played the game's version ``v`` is asked for ``v`` again: a
    duplicate of the turn's task when the game moved on (refused, nothing played), otherwise
    moves it played were never stored (it is rebuilt from the stored turns)."""
    from bots.runtime import TurnSupersededError

    key: RegistryKey = ("game:11", 0, 5)
    reg = BotRegistry()

    def turn(n: int, version: int, *, moved_on: bool, history: Any = None) -> BotTurnResult:
        return reg.play(
            key,
            load_code=lambda: COUNTER,
            game_state={"n": n},
            timeout_s=5,
            history=history,
            version=version,
            superseded=lambda: moved_on,
        )

    try:
        first = turn(1, 10, moved_on=False)
        with pytest.raises(TurnSupersededError):
            turn(1, 10, moved_on=True)  # the copy: the game is past version 10
        second = turn(2, 12, moved_on=False)
        assert second.value is not None
        assert second.value["turns"] == 2  # the copy was not played
        # version 12 again, still the game's: what the sandbox played at 12 was never stored
        stored = [({"n": 1}, first.value)]
        again = turn(2, 12, moved_on=False, history=lambda: stored)
        assert again.replayed == 1
        assert again.console == second.console  # rebuilt: "turn 2 of 2", the same draw
    finally:
        reg.close_all()
