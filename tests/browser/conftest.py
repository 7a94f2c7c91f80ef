"""Real Chromium (Debian's /usr/bin/chromium) driven by Playwright's sync API, and live tables
served as in production: daphne plus a real Celery worker.

Playwright's sync API runs an event loop in the test thread, so Django's async-safety guard
must be relaxed for the ORM calls pytest-django's live_server makes around it.

pytest-django's ``live_server`` is WSGI-only, so :func:`serve_live_tables` forks daphne
(``daphne.testing.DaphneProcess``, as ``channels.testing.ChannelsLiveServerTestCase`` does)
against the test database, and starts a real Celery worker (tests/bots/worker.py) consuming
``default``, ``bots`` and ``bots.0``: every timer (countdown, house AI turn, turn timeout) goes
through the broker to that worker, as in production; there is no in-process timer. A test pins
the deals of its live site with the ``deals`` mark (:func:`live_asgi`).

The setup the tests share (people logged in, tables seated and started, the table page opened,
the language chosen) is in tests/browser/helpers.py.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from games import seeds as games_seeds

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM_PATH = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "deals(*seeds, found_by=None): the live site (live_asgi) deals the test's games from"
        " these seeds, in turn, or from the seed found_by() returns",
    )


# Module scope: Playwright's sync API keeps an event loop running in this thread while the
# browser is open, which would break async tests that run after it.
@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    if not Path(CHROMIUM_PATH).exists():
        pytest.fail(f"Chromium not found at {CHROMIUM_PATH}; ./bin/test installs it with apt-get.")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM_PATH, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: object) -> Iterator[object]:
    context = browser.new_context(viewport={"width": 1280, "height": 800})  # type: ignore[attr-defined]
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


def _application() -> Any:
    from config.asgi import application

    return application


def serve_live_tables(
    settings: Any,
    *,
    bot_delay: float = 0.05,
    countdown: float = 1.0,
    next_game: float = 600.0,
) -> Iterator[str]:
    """Serve the site for a browser test (a generator for a fixture: yields the base URL).

    Daphne is forked from this process (it keeps this test's settings and seed source); the
    Celery worker is a fresh process with the same game settings, and it deals from the seeds
    this process would deal (the suite's reproducible or a test's pinned deals). This process
    and daphne send their timers to the worker's broker
    (``tests.bots.worker.BrokerScheduler``)."""
    from daphne.testing import DaphneProcess  # type: ignore[import-untyped]
    from django.db import connections

    from tests.bots.worker import celery_worker

    settings.GAMES_SCHEDULER = "tests.bots.worker.BrokerScheduler"
    settings.GAMES_BOT_DELAY_SECONDS = bot_delay
    settings.GAMES_COUNTDOWN_SECONDS = countdown
    settings.GAMES_NEXT_GAME_SECONDS = next_game
    env = {
        "GAMES_BOT_DELAY_SECONDS": str(bot_delay),
        "GAMES_COUNTDOWN_SECONDS": str(countdown),
        "GAMES_NEXT_GAME_SECONDS": str(next_game),
    }
    seeds = [games_seeds.new_seed() for _ in range(32)]
    with celery_worker(env=env, seeds=seeds, label="browser-test"):
        connections.close_all()  # the forked server opens its own connections
        server = DaphneProcess("127.0.0.1", _application)
        server.start()
        if not server.ready.wait(timeout=20):
            server.terminate()
            pytest.fail("daphne did not start")
        try:
            yield f"http://127.0.0.1:{server.port.value}"
        finally:
            server.terminate()
            server.join(timeout=10)


@pytest.fixture
def live_asgi(
    request: pytest.FixtureRequest, settings: Any, deal_seeds: Callable[..., None]
) -> Iterator[str]:
    """The base URL of a live site: daphne and a real worker (:func:`serve_live_tables`). A test
    (or a module, in ``pytestmark``) marked ``@pytest.mark.deals(seed, ...)`` has its games dealt
    from those seeds, and one marked ``@pytest.mark.deals(found_by=fn)`` from the seed ``fn()``
    finds (pinned here, before daphne and the worker start)."""
    marker = request.node.get_closest_marker("deals")
    if marker is not None:
        found_by = marker.kwargs.get("found_by")
        deal_seeds(*marker.args, *([found_by()] if found_by is not None else []))
    yield from serve_live_tables(settings)
