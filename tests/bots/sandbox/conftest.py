"""Fixtures for the bot sandbox tests (pure Python: no database, no Django)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bots.sandbox import MoveOutcome, SandboxLimits, SandboxPool

# Short budgets keep the hostile suite fast; the parent's grace stays generous so that a
# loaded CI machine does not turn a V8-enforced timeout into a parent-side kill.
FAST = SandboxLimits(move_timeout_s=0.5, load_timeout_s=0.5, grace_s=2.0)


@pytest.fixture
def fast_limits() -> SandboxLimits:
    return FAST


def card(rank: str, suit: str, value: int) -> dict[str, Any]:
    return {"rank": rank, "suit": suit, "value": value}


@pytest.fixture
def game_state() -> dict[str, Any]:
    hand = [card(r, "S", i * 4) for i, r in enumerate(["3", "5", "7", "9", "J", "K", "2"])]
    return {
        "myPosition": 1,
        "myCards": hand,
        "playerCardCounts": [13, 7, 10, 12],
        "lastPlay": {"position": 0, "type": "single", "cards": [card("4", "H", 7)]},
        "validMoves": [{"type": "single", "cards": [c]} for c in hand[1:]]
        + [{"type": "pass", "cards": []}],
    }


def child_pids() -> set[int]:
    """PIDs of all children of this process, zombies included, from /proc."""
    me = os.getpid()
    pids: set[int] = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # "pid (comm) state ppid ..." - comm may contain spaces and parentheses.
        fields = stat[stat.rindex(")") + 2 :].split()
        if int(fields[1]) == me:
            pids.add(int(entry.name))
    return pids


#: A bot that shares the warm child with the hostile one in the ``pool`` mode of the hostile
#: suite: it must keep its globals, or (only where V8 cannot stop the hostile bot short of
#: ending the process) lose them and restart cleanly.
NEIGHBOUR = "let n = 0; function getNextMove(s) { n += 1; return { action: 'pass', n: n }; }"

#: Hostile cases that end their process: the neighbour's context goes with it.
PROCESS_ENDING = {
    "test_runaway_promise_callback_is_a_timeout_and_ends_the_process",
    "test_runaway_async_function_is_a_timeout",
}


@pytest.fixture(params=["process", "pool"])
def sandbox_mode(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Run a test module's ``BotProcess``/``run_once`` bots one per process, then as contexts
    of a warm pool child that already holds a neighbour bot (checked afterwards)."""
    if request.param == "process":
        yield "process"
        return
    pool = SandboxPool(contexts_per_child=4)
    neighbour = pool.bot(NEIGHBOUR)
    assert neighbour.start().ok
    assert neighbour.move({}).value == {"action": "pass", "n": 1}

    def make(code: str, *, limits: SandboxLimits | None = None, seed: int | None = None) -> Any:
        return pool.bot(code, limits=limits, seed=seed)

    def once(
        code: str,
        game_state: Any,
        *,
        limits: SandboxLimits | None = None,
        seed: int | None = None,
        timeout_s: float | None = None,
    ) -> MoveOutcome:
        with pool.bot(code, limits=limits, seed=seed) as bot:
            if not bot.load_outcome.ok:
                return bot.load_outcome
            return bot.move(game_state, timeout_s=timeout_s)

    monkeypatch.setattr(request.module, "BotProcess", make)
    monkeypatch.setattr(request.module, "run_once", once)
    try:
        yield "pool"
        name = request.node.originalname
        if name in PROCESS_ENDING:
            assert not neighbour.alive
            assert neighbour.restart().ok
            assert neighbour.move({}).value == {"action": "pass", "n": 1}
        else:
            assert neighbour.alive, f"{name} ended the neighbour's process"
            assert neighbour.move({}).value == {"action": "pass", "n": 2}
    finally:
        neighbour.close()
        pool.close()
