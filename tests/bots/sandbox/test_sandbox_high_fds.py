"""Sandboxes keep working when their pipes get descriptor numbers above FD_SETSIZE (1024).

A long-running worker holds many sockets and files, so every new child's pipes can be numbered
1024 or more, where ``select.select`` raises ValueError: each sandbox would look dead.
"""

from __future__ import annotations

import os
import resource
from collections.abc import Iterator

import pytest

from bots.sandbox import BotProcess, SandboxPool

COUNTER = "let n = 0; function getNextMove(s) { n += 1; return { action: 'pass', n: n }; }"
FILLER = 1100
NEEDED = FILLER + 100


@pytest.fixture
def high_fds() -> Iterator[None]:
    """Hold ~1100 descriptors so that the next ones opened are numbered 1024 or more."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < NEEDED:
        pytest.skip(f"RLIMIT_NOFILE hard limit {hard} is below {NEEDED}: cannot open fds >= 1024")
    if soft != resource.RLIM_INFINITY and soft < NEEDED:
        resource.setrlimit(resource.RLIMIT_NOFILE, (NEEDED, hard))
    held: list[int] = []
    try:
        for _ in range(FILLER):
            held.append(os.open(os.devnull, os.O_RDONLY))
        probe = os.open(os.devnull, os.O_RDONLY)
        os.close(probe)
        assert probe >= 1024, probe  # the sandboxes' pipes will be numbered at least this
        yield
    finally:
        for fd in held:
            os.close(fd)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


@pytest.mark.usefixtures("high_fds")
def test_a_bot_process_with_pipes_above_fd_setsize_plays() -> None:
    with BotProcess(COUNTER) as bot:
        first, second = bot.move({}), bot.move({})
    assert first.value == {"action": "pass", "n": 1}, first
    assert second.value == {"action": "pass", "n": 2}, second


@pytest.mark.usefixtures("high_fds")
def test_a_pooled_bot_with_pipes_above_fd_setsize_plays() -> None:
    pool = SandboxPool(contexts_per_child=2)
    try:
        bot = pool.bot(COUNTER)
        started = bot.start()
        assert started.ok, started
        first, second = bot.move({}), bot.move({})
        bot.close()
    finally:
        pool.close()
    assert first.value == {"action": "pass", "n": 1}, first
    assert second.value == {"action": "pass", "n": 2}, second
