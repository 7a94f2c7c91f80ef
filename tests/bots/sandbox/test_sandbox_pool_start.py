"""Starting warm pool children (bots.sandbox.pool): the start handshake, a retry with a fresh
child when it fails, a ``crashed`` outcome (never an exception) when the retry fails too, and
the pipes of a killed child never handed to the next one while its reader still reads them.
Pure Python: real and fake children, no database."""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from bots.sandbox import ErrorCode, PooledBot, SandboxLimits, SandboxPool
from bots.sandbox import pool as pool_module

from .conftest import child_pids
from .test_sandbox_api import fake_python

CODE = "var n = 0; function getNextMove() { n += 1; return { action: 'pass', n: n }; }"
#: Fake children never answer: keep the wait for their handshake short.
QUICK_START = SandboxLimits(startup_timeout_s=0.5)


def readers() -> set[threading.Thread]:
    return {t for t in threading.enumerate() if t.name == "sandbox-pool-reader"}


@pytest.fixture
def pools() -> Iterator[list[SandboxPool]]:
    made: list[SandboxPool] = []
    yield made
    for pool in made:
        pool.close()


def test_a_killed_childs_pipes_are_not_handed_to_the_next_child(
    pools: list[SandboxPool], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The CI flake: the reader thread of a child just killed was still between select() and
    read() when the next child's pipes were made. They got the freed descriptor numbers, and
    the old reader read (and dropped) the new child's "ready": it 'did not start in time'."""
    first = SandboxPool(contexts_per_child=1)
    pools.append(first)
    before = readers()
    old = first.bot(CODE)
    assert old.start().ok
    (old_reader,) = readers() - before
    old_child = old._child
    assert old_child is not None
    old_fds = {fd: os.fstat(fd).st_ino for fd in (old_child._out_fd, old_child._err_fd)}

    # Hold the old child's reader at its next read: a reader thread the OS has not run yet.
    real_read = pool_module._read
    armed, reached, release = threading.Event(), threading.Event(), threading.Event()

    def read(fd: int) -> bytes:
        if armed.is_set() and threading.current_thread() is old_reader:
            reached.set()
            release.wait()
        return real_read(fd)

    monkeypatch.setattr(pool_module, "_read", read)
    armed.set()
    try:
        first.close()  # kills the child: its reader wakes up for the end of its output
        assert reached.wait(timeout=30)
        second = SandboxPool(contexts_per_child=1)
        pools.append(second)
        new = second.bot(CODE)
        assert new.start().ok
        new_child = new._child
        assert new_child is not None
        # the old reader's descriptors are still the old child's pipes, not the new child's
        assert {fd: os.fstat(fd).st_ino for fd in old_fds} == old_fds
        assert {new_child._out_fd, new_child._err_fd}.isdisjoint(old_fds)
    finally:
        release.set()
    old_reader.join(timeout=30)
    assert not old_reader.is_alive()  # it read the old child's end and closed its pipes
    assert new.move({}).value == {"action": "pass", "n": 1}
    assert new.move({}).value == {"action": "pass", "n": 2}
    new.close()


def test_a_child_that_never_answers_is_retried_then_the_bot_is_crashed(
    tmp_path: Path, pools: list[SandboxPool]
) -> None:
    before = child_pids()
    pool = SandboxPool(python=fake_python(tmp_path, "exec sleep 60"))
    pools.append(pool)
    bot = pool.bot(CODE, limits=QUICK_START)
    outcome = bot.start()  # no exception: an outcome, as for any bot that cannot load
    assert outcome.error_code == ErrorCode.CRASHED
    assert "could not start" in (outcome.error_message or "")
    assert pool.start_failures == 2  # the first child and one fresh retry
    assert pool.spawns == 0
    assert not bot.alive
    assert child_pids() == before  # both were killed
    again = bot.move({})
    assert again.error_code == ErrorCode.CRASHED
    assert "could not be loaded" in (again.error_message or "")
    bot.close()


def test_a_failed_restart_is_an_outcome_too(tmp_path: Path, pools: list[SandboxPool]) -> None:
    pool = SandboxPool(python=fake_python(tmp_path, "exit 7"))
    pools.append(pool)
    with PooledBot(CODE, limits=QUICK_START, pool=pool) as bot:
        assert bot.load_outcome.error_code == ErrorCode.CRASHED
        assert "status 7" in (bot.load_outcome.error_message or "")
        assert bot.restart().error_code == ErrorCode.CRASHED
    assert pool.start_failures == 4


def test_a_child_killed_before_it_is_ready_is_replaced_by_a_fresh_one(
    tmp_path: Path, pools: list[SandboxPool]
) -> None:
    # The first child is SIGKILLed before its handshake; the retry is a real worker.
    marker = tmp_path / "first-start-done"
    body = (
        f'if [ ! -e "{marker}" ]; then : > "{marker}"; kill -KILL $$; fi\n'
        f'exec "{sys.executable}" "$@"'
    )
    pool = SandboxPool(python=fake_python(tmp_path, body))
    pools.append(pool)
    bot = pool.bot(CODE)
    outcome = bot.start()
    assert outcome.ok, outcome
    assert marker.exists()
    assert pool.start_failures == 1
    assert pool.spawns == 1
    assert bot.move({}).value == {"action": "pass", "n": 1}
    assert bot.move({}).value == {"action": "pass", "n": 2}
    bot.close()


def test_the_registry_starts_again_a_bot_whose_sandbox_could_not_start(
    tmp_path: Path, pools: list[SandboxPool]
) -> None:
    """A live turn whose sandbox could not start is a ``crashed`` turn (a strike), and the
    next turn tries a fresh start instead of repeating "could not be loaded" for the rest of
    the game (bots.runtime.BotRegistry)."""
    from bots.runtime import BotRegistry

    # the first two children (a start and its retry) exit at once; later ones are real
    count = tmp_path / "starts"
    body = (
        f'n=$(cat "{count}" 2>/dev/null || echo 0); echo $((n + 1)) > "{count}"\n'
        f'if [ "$n" -lt 2 ]; then exit 7; fi\n'
        f'exec "{sys.executable}" "$@"'
    )
    pool = SandboxPool(python=fake_python(tmp_path, body))
    pools.append(pool)
    registry = BotRegistry(pool=pool, limits=QUICK_START)
    key = ("game:1", 0, 1)
    try:
        first = registry.play(key, load_code=lambda: CODE, game_state={}, timeout_s=5)
        assert first.error_code == ErrorCode.CRASHED
        assert "could not start" in (first.error_message or "")
        second = registry.play(key, load_code=lambda: CODE, game_state={}, timeout_s=5)
        assert second.ok, second.error_message
        assert second.value == {"action": "pass", "n": 1}
        assert second.restarted
        third = registry.play(key, load_code=lambda: CODE, game_state={}, timeout_s=5)
        assert third.value == {"action": "pass", "n": 2}  # the same sandbox from then on
        assert not third.restarted
    finally:
        registry.close_all()
