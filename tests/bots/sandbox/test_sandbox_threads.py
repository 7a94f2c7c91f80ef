"""Sandboxes started from threads that come and go (a Celery thread pool, Test Bot's sample
pool, a daphne request thread) live until they are closed, not until that thread exits: every
child is started from one long-lived thread (its parent-death signal is tied to it)."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

from bots.sandbox import BotProcess

CODE = "let n = 0; function getNextMove(s) { n += 1; return { action: 'pass', n: n }; }"


def test_a_sandbox_outlives_the_thread_that_started_it(game_state: dict[str, Any]) -> None:
    bot = BotProcess(CODE)
    try:
        starter = threading.Thread(target=bot.start)
        starter.start()
        starter.join()
        assert bot.load_outcome.ok
        task = Path(f"/proc/self/task/{starter.native_id}")
        deadline = time.monotonic() + 10
        while task.exists():  # the thread is gone for the kernel too
            assert time.monotonic() < deadline
            time.sleep(0.01)
        first, second = bot.move(game_state), bot.move(game_state)
        assert first.ok, first.error_message
        assert second.value == {"action": "pass", "n": 2}
        assert bot.alive
    finally:
        bot.close()
