"""Warm pool children (bots.sandbox.pool): several bots per process, one fresh V8 isolate and
context each. Nothing leaks between the bots of one child, a slow or hostile bot does not hold
up its neighbours, and when only ending the process can stop a bot, its neighbours' moves are
re-run alone (flagged) instead of being struck. Pure Python: real children, no database."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from bots.sandbox import ErrorCode, MoveOutcome, PooledBot, SandboxPool

from .conftest import FAST, child_pids


@pytest.fixture
def pool() -> Iterator[SandboxPool]:
    pool = SandboxPool(contexts_per_child=4)
    yield pool
    pool.close()


def started(pool: SandboxPool, code: str, **kwargs: Any) -> PooledBot:
    bot = pool.bot(code, **kwargs)
    outcome = bot.start()
    assert outcome.ok, outcome
    return bot


def value(outcome: MoveOutcome) -> dict[str, Any]:
    assert outcome.ok, outcome
    assert outcome.value is not None
    return outcome.value


#: Reports what it can see of the shared world, then changes all of it.
SNOOP = """
var mine = "unset";
function getNextMove(s) {
  var seen = {
    mine: mine,
    marker: typeof globalThis.marker,
    protoHacked: typeof ({}).hacked,
    pushPatched: Array.prototype.push.patched === true,
    jsonPatched: JSON.stringify({a: 1}) !== '{"a":1}',
    symbol: Symbol.for("shared").description,
    registered: typeof globalThis.__registered,
    counter: typeof globalThis.counter === "number" ? globalThis.counter : null,
  };
  if (s.tamper) {
    mine = s.tamper;
    globalThis.marker = s.tamper;
    Object.prototype.hacked = s.tamper;
    var push = Array.prototype.push;
    Array.prototype.push = function () { return push.apply(this, arguments); };
    Array.prototype.push.patched = true;
    JSON.stringify = function () { return "{}"; };
    globalThis.__registered = Symbol.for("shared");
    globalThis.counter = 0;
    // keep work queued behind this move: it must never run in (or for) another bot
    Promise.resolve().then(function () { globalThis.counter += 1; });
  }
  return { action: "pass", seen: seen };
}
"""

CLEAN = {
    "mine": "unset",
    "marker": "undefined",
    "protoHacked": "undefined",
    "pushPatched": False,
    "jsonPatched": False,
    "symbol": "shared",
    "registered": "undefined",
    "counter": None,
}


def test_two_bots_in_one_child_share_nothing(pool: SandboxPool) -> None:
    a, b = started(pool, SNOOP), started(pool, SNOOP)
    assert a.pid == b.pid  # the same warm process
    assert pool.spawns == 1
    assert value(a.move({"tamper": "A"}))["seen"] == CLEAN
    # B sees none of A's globals, builtins' prototypes, JSON, symbols or promise callbacks
    assert value(b.move({}))["seen"] == CLEAN
    # A's own world is intact and its promise callback ran for A only
    seen = value(a.move({}))["seen"]
    assert seen["mine"] == "A"
    assert seen["marker"] == "string"
    assert seen["protoHacked"] == "string"
    assert seen["pushPatched"] is True
    assert seen["counter"] == 1
    assert value(b.move({}))["seen"] == CLEAN
    a.close()
    b.close()


def test_seeded_math_random_per_context(pool: SandboxPool) -> None:
    code = "function getNextMove() { return { r: [Math.random(), Math.random()] }; }"
    one, same, other = (started(pool, code, seed=s) for s in (1234, 1234, 99))
    first = value(one.move({}))["r"]
    assert value(same.move({}))["r"] == first  # same seed, same sequence: no shared state
    assert value(other.move({}))["r"] != first
    assert all(0 <= x < 1 for x in first)
    unseeded = started(pool, code)
    assert value(unseeded.move({}))["r"] != first


def test_a_fresh_context_per_bot_and_the_child_is_reused(pool: SandboxPool) -> None:
    code = """var n = 0; function getNextMove(s) {
      n += 1; if (s.set) globalThis.kept = s.set;
      return { action: "pass", n: n, kept: globalThis.kept || null };
    }"""
    with pool.bot(code) as game1:
        assert value(game1.move({"set": "game 1"})) == {"action": "pass", "n": 1, "kept": "game 1"}
        assert value(game1.move({})) == {"action": "pass", "n": 2, "kept": "game 1"}
        pid = game1.pid
    with pool.bot(code) as game2:  # the next game: same warm process, nothing of game 1
        assert game2.pid == pid
        assert value(game2.move({})) == {"action": "pass", "n": 1, "kept": None}
    assert pool.spawns == 1


def test_children_are_packed_and_spare_ones_retired(pool: SandboxPool) -> None:
    code = "function getNextMove() { return { action: 'pass' }; }"
    bots = [started(pool, code) for _ in range(9)]
    assert pool.spawns == 3  # 4 + 4 + 1
    assert len({b.pid for b in bots}) == 3
    for bot in bots:
        bot.close()
    assert len(pool.children()) == 1  # one warm spare stays
    again = [started(pool, code) for _ in range(4)]
    assert pool.spawns == 3
    for bot in again:
        bot.close()


def test_a_slow_bot_does_not_hold_up_its_neighbour(pool: SandboxPool) -> None:
    slow = started(pool, "function getNextMove() { while (true) {} }", limits=FAST)
    quick = started(pool, "var n = 0; function getNextMove() { n++; return { n: n }; }")
    assert slow.pid == quick.pid
    running = threading.Event()
    with ThreadPoolExecutor(1) as executor:

        def spin() -> MoveOutcome:
            running.set()
            return slow.move({})

        stuck = executor.submit(spin)
        running.wait()
        moves = [quick.move({}) for _ in range(5)]
        assert not stuck.done()  # all five answered while the other bot spun
        assert stuck.result().error_code == ErrorCode.TIMEOUT
    assert [value(m)["n"] for m in moves] == [1, 2, 3, 4, 5]
    assert max(m.wall_ms for m in moves) < 250  # not the neighbour's 500 ms budget
    assert slow.alive  # V8 stopped it: its context (and globals) stay
    assert value(quick.move({}))["n"] == 6


#: Busy for ``ms`` milliseconds, then returns its global count.
BUSY = """var n = 0; function getNextMove(s) {
  n += 1; var t = Date.now(); while (Date.now() - t < s.ms) {}
  return { action: "pass", n: n };
}"""


def _neighbour_in_flight(pool: SandboxPool, hostile: str) -> tuple[MoveOutcome, PooledBot]:
    """The hostile bot ends the shared process while its neighbour's move is running."""
    neighbour = started(pool, BUSY)
    assert value(neighbour.move({"ms": 0}))["n"] == 1
    bad = started(pool, hostile, limits=FAST)
    assert bad.pid == neighbour.pid
    with ThreadPoolExecutor(1) as executor:
        busy = executor.submit(neighbour.move, {"ms": 1500})
        outcome = bad.move({})
        assert outcome.error_code == ErrorCode.TIMEOUT
        result = busy.result()
    assert value(result) == {"action": "pass", "n": 1}  # re-run alone: fresh globals
    assert neighbour.last_move_restarted
    assert neighbour.alive
    assert not bad.alive
    return result, neighbour


def test_a_runaway_microtask_ends_the_child_and_the_neighbour_move_is_rerun(
    pool: SandboxPool,
) -> None:
    runaway = """function getNextMove() {
      Promise.resolve().then(() => { while (true) {} }); return { action: "pass" };
    }"""
    _, neighbour = _neighbour_in_flight(pool, runaway)
    assert value(neighbour.move({"ms": 0}))["n"] == 2  # and it goes on in its new context
    assert not neighbour.last_move_restarted


def test_a_parent_side_kill_reruns_the_neighbour_move() -> None:
    pool = SandboxPool(contexts_per_child=4)
    try:
        # V8 cannot interrupt this builtin: the parent's deadline (timeout + grace) kills
        uninterruptible = (
            "function getNextMove() { var a = new Array(2e8).fill(1); return { n: a.length }; }"
        )
        neighbour = started(pool, BUSY)
        assert value(neighbour.move({"ms": 0}))["n"] == 1
        fast_grace = FAST.__class__(move_timeout_s=0.2, load_timeout_s=0.5, grace_s=0.3)
        bad = started(pool, uninterruptible, limits=fast_grace)
        assert bad.pid == neighbour.pid
        with ThreadPoolExecutor(1) as executor:
            busy = executor.submit(neighbour.move, {"ms": 1500})
            outcome = bad.move({})
            result = busy.result()
        assert outcome.error_code in (ErrorCode.TIMEOUT, ErrorCode.MEMORY)
        assert value(result) == {"action": "pass", "n": 1}
        assert neighbour.last_move_restarted
    finally:
        pool.close()


def test_a_bot_not_in_flight_finds_its_context_gone_and_restarts(pool: SandboxPool) -> None:
    idle = started(pool, BUSY)
    assert value(idle.move({"ms": 0}))["n"] == 1
    runaway = started(
        pool,
        "function getNextMove() { (async () => { await null; while (true) {} })(); return {}; }",
        limits=FAST,
    )
    assert runaway.move({}).error_code == ErrorCode.TIMEOUT
    assert not idle.alive
    assert idle.move({"ms": 0}).error_code == ErrorCode.CRASHED  # as BotProcess: restart()
    assert idle.restart().ok
    assert value(idle.move({"ms": 0}))["n"] == 1


def test_memory_bombs_stay_in_their_context(pool: SandboxPool) -> None:
    from .test_sandbox_hostile import MEM

    neighbour = started(pool, BUSY)
    assert value(neighbour.move({"ms": 0}))["n"] == 1
    bombs = [
        "function getNextMove() { var h = []; while (true) h.push(new Array(1e5).fill(1.5)); }",
        "function getNextMove() { var a = new Array(3e7).fill(0.5); return { n: a.length }; }",
        "function getNextMove() { var k = []; for (;;) k.push('x'.repeat(1e3) + k.length); }",
    ]
    for code in bombs:
        bomb = started(pool, code, limits=MEM)
        assert bomb.pid == neighbour.pid
        assert bomb.move({}).error_code == ErrorCode.MEMORY
        assert not bomb.alive
        bomb.close()
    assert neighbour.alive
    assert value(neighbour.move({"ms": 0}))["n"] == 2  # globals kept: never disturbed
    assert pool.spawns == 1


def test_off_heap_failure_in_a_shared_child_is_judged_alone(pool: SandboxPool) -> None:
    neighbour = started(pool, BUSY)
    bomb = started(
        pool, "function getNextMove() { var b = new Uint8Array(2e9); return { n: b.length }; }"
    )
    outcome = bomb.move({})
    assert outcome.error_code == ErrorCode.MEMORY  # again when alone: it is this bot's
    assert bomb.last_move_restarted
    assert value(neighbour.move({"ms": 0}))["n"] == 1


def test_many_threads_many_bots(pool: SandboxPool) -> None:
    """A shard worker's thread pool drives many leases of few children at once."""
    bots = [started(pool, BUSY) for _ in range(8)]
    assert pool.spawns == 2
    barrier = threading.Barrier(8)

    def play(bot: PooledBot) -> list[int]:
        barrier.wait()
        return [value(bot.move({"ms": 5}))["n"] for _ in range(10)]

    with ThreadPoolExecutor(8) as executor:
        results = list(executor.map(play, bots))
    assert results == [list(range(1, 11))] * 8
    for bot in bots:
        bot.close()


def test_closing_the_pool_leaves_no_process() -> None:
    before = child_pids()
    pool = SandboxPool(contexts_per_child=2)
    bots = [started(pool, BUSY) for _ in range(3)]
    assert len(child_pids() - before) == 2
    del bots
    pool.close()
    assert child_pids() - before == set()


def test_a_lease_never_closed_gives_its_room_back_once_collected() -> None:
    pool = SandboxPool(contexts_per_child=2)
    try:
        kept = started(pool, BUSY)
        lost = started(pool, BUSY)
        assert pool.spawns == 1
        del lost
        gc.collect()
        again = started(pool, BUSY)  # the forgotten lease's room, not a new process
        assert again.pid == kept.pid
        assert pool.spawns == 1
    finally:
        pool.close()


def test_warm_starts_a_child_ahead_and_the_first_bot_uses_it(pool: SandboxPool) -> None:
    """``SandboxPool.warm`` (a bot shard lease worker, as it starts: docs/bot-affinity.md
    "Rebuilt ahead"): the first bot then opens its context in that child, no process start."""
    assert pool.warm()
    assert pool.spawns == 1
    [pid] = pool.children()
    assert not pool.warm()  # one with room is up
    bot = started(pool, "function getNextMove(s) { return {action: 'pass'}; }")
    try:
        assert bot.pid == pid
        assert pool.spawns == 1
        assert value(bot.move({}))["action"] == "pass"
    finally:
        bot.close()
    assert pool.children() == [pid]  # kept as the spare
