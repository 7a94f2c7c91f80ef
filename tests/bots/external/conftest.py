"""A live site for the external bot tests: daphne (forked from the test process, as the
browser tests do) and a real Celery worker that plays the bot turns (tests/bots/worker.py)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

from games import seeds as games_seeds

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

#: Seconds per move on the live site (short: the timeout test waits it out three times).
LIVE_MOVE_SECONDS = 3.0


def _application() -> Any:
    from config.asgi import application

    return application


@pytest.fixture
def live_site(settings: Any) -> Iterator[str]:
    """``http://127.0.0.1:<port>``: daphne plus a worker; every timer goes to the worker."""
    from daphne.testing import DaphneProcess  # type: ignore[import-untyped]
    from django.db import connections

    from tests.bots.worker import celery_worker

    settings.GAMES_SCHEDULER = "tests.bots.worker.BrokerScheduler"
    settings.GAMES_BOT_DELAY_SECONDS = 0.02
    settings.GAMES_COUNTDOWN_SECONDS = 0.0
    settings.GAMES_NEXT_GAME_SECONDS = 600.0
    settings.BOTS_MOVE_TIMEOUT_SECONDS = LIVE_MOVE_SECONDS
    # the house AIs here move every 0.02 s, far faster than a real table: the HTTP API's rate
    # limit (tests/bots/external/test_ratelimit.py) must not be what these tests meet
    settings.BOTS_EXTERNAL_HTTP_RATE = "200/s"
    env = {
        "GAMES_BOT_DELAY_SECONDS": "0.02",
        "GAMES_COUNTDOWN_SECONDS": "0",
        "GAMES_NEXT_GAME_SECONDS": "600",
        "BOTS_MOVE_TIMEOUT_SECONDS": str(LIVE_MOVE_SECONDS),
    }
    seeds = [games_seeds.new_seed() for _ in range(32)]
    with celery_worker(env=env, seeds=seeds, label="external-test") as log:
        connections.close_all()  # the forked server opens its own connections
        server = DaphneProcess("127.0.0.1", _application)
        server.start()
        if not server.ready.wait(timeout=20):
            server.terminate()
            pytest.fail("daphne did not start")
        try:
            settings.EXTERNAL_TEST_WORKER_LOG = str(log)
            yield f"http://127.0.0.1:{server.port.value}"
        finally:
            server.terminate()
            server.join(timeout=10)
