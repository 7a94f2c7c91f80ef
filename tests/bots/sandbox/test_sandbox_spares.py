"""A pool child makes contexts ahead (spares: isolate, heap limit and harness, no bot code and
no seed), so that a bot's context opens in the time its code takes to load. A spare has never
run anything: the bot gets the globals and the ``Math.random`` sequence a context made for it
would give, and bot code cannot reseed it."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from bots.sandbox import PooledBot, SandboxPool

#: Its own globals' state and the first numbers of its seeded ``Math.random``.
FIRST_DRAWS = """
var seen = typeof leftover === 'undefined' ? 'fresh' : 'dirty';
var leftover = 1;
const draws = [Math.random(), Math.random(), Math.random()];
function getNextMove() { return { action: 'pass', seen: seen, draws: draws }; }
"""


@pytest.fixture
def spare_pool() -> Iterator[SandboxPool]:
    pool = SandboxPool(contexts_per_child=8, spare_contexts=2)
    yield pool
    pool.close()


def _bot_from_a_spare(pool: SandboxPool, code: str, seed: int) -> PooledBot:
    """Start bots until one opened in a spare (the child makes them in the background once
    its first bot came); the others are closed."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        bot = pool.bot(code, seed=seed)
        assert bot.start().ok
        if bot.from_spare:
            return bot
        bot.close()
        time.sleep(0.02)
    raise AssertionError("no bot was given a spare context")


def test_a_bot_in_a_spare_context_is_as_fresh_and_seeded_as_one_made_for_it(
    spare_pool: SandboxPool,
) -> None:
    plain = SandboxPool(contexts_per_child=8, spare_contexts=0)
    try:
        made = plain.bot(FIRST_DRAWS, seed=42)
        assert made.start().ok
        assert not made.from_spare
        expected = made.move({}).value
    finally:
        plain.close()
    assert expected is not None
    assert expected["seen"] == "fresh"

    spare = _bot_from_a_spare(spare_pool, FIRST_DRAWS, seed=42)
    try:
        assert spare.move({}).value == expected
        other = _bot_from_a_spare(spare_pool, FIRST_DRAWS, seed=43)
        value = other.move({}).value
        assert value is not None
        assert value["seen"] == "fresh"
        assert value["draws"] != expected["draws"]
        other.close()
    finally:
        spare.close()


def test_bot_code_cannot_reseed_its_random_numbers(spare_pool: SandboxPool) -> None:
    reseeding = "__sandbox__.beginLoad(1);\n" + FIRST_DRAWS
    honest = _bot_from_a_spare(spare_pool, FIRST_DRAWS, seed=42)
    cheat = _bot_from_a_spare(spare_pool, reseeding, seed=42)
    cheat_with_other_seed = _bot_from_a_spare(spare_pool, reseeding, seed=1)
    try:
        assert cheat.move({}).value == honest.move({}).value
        assert cheat_with_other_seed.move({}).value != honest.move({}).value
    finally:
        for bot in (honest, cheat, cheat_with_other_seed):
            bot.close()
