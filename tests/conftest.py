from __future__ import annotations

import contextlib
import os
import random
import time
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import User
from games import clock as games_clock
from games import seeds as games_seeds
from games.extensions import BotPlayer
from tests import deals
from tests.factories import DEFAULT_PASSWORD, UserFactory
from tests.scheduler import SCHEDULER, FrozenClock, TestScheduler

#: Fixtures that fork a live daphne from the test process (``daphne.testing.DaphneProcess``).
LIVE_SERVER_FIXTURES = frozenset({"live_site", "lab_site", "live_asgi"})


def _fresh_sync_thread() -> None:
    """In a forked daphne (``daphne.testing.DaphneProcess`` of tests/browser and tests/cluster):
    asgiref's one thread for thread-sensitive calls is the parent's, a ``ThreadPoolExecutor``
    whose thread the fork did not copy yet whose idle count says it waits. Every database call
    of the forked daphne would queue behind a thread that does not exist, so its sockets never
    finished their handshake (HAProxy answered 502) whenever an earlier test of the same
    process had run a consumer in-process. The child gets a new, empty executor."""
    from concurrent.futures import ThreadPoolExecutor

    from asgiref.sync import SyncToAsync

    SyncToAsync.single_thread_executor = ThreadPoolExecutor(max_workers=1)


os.register_at_fork(after_in_child=_fresh_sync_thread)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Browser tests (tests/browser/) are marked ``browser``, and tests that fork a live daphne
    ``live_server``; both run last. ``./bin/test`` runs them in a second pytest process, after
    the rest: a fork copies only the forking thread, so a lock that another thread of a long
    test process held at that moment (an earlier test's sandbox pool, channel layer, logging)
    would stay locked in the server for good."""
    browser_dir = Path(__file__).parent / "browser"
    for item in items:
        if browser_dir in Path(str(item.path)).parents:
            item.add_marker(pytest.mark.browser)
        if LIVE_SERVER_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.live_server)
    items.sort(
        key=lambda item: (
            item.get_closest_marker("browser") is not None
            or item.get_closest_marker("live_server") is not None
        )
    )


@pytest.fixture(autouse=True)
def _scheduler_cleared() -> Iterator[None]:
    """Timers a test left pending in the test scheduler never reach the next test."""
    SCHEDULER.clear()
    yield
    SCHEDULER.clear()


@pytest.fixture
def scheduler() -> TestScheduler:
    """The test scheduler (tests/scheduler.py): timers that are not due yet wait in it until
    the test runs them (``run_due()`` by the clock, ``run_pending()`` all at once)."""
    return SCHEDULER


@pytest.fixture
def clock() -> Iterator[FrozenClock]:
    """Freeze the services' clock (:mod:`games.clock`) at the current time; the test moves it
    with ``clock.advance(seconds)`` and runs what fell due with ``scheduler.run_due()``."""
    frozen = FrozenClock(time.time())
    with games_clock.use(frozen):
        yield frozen


@pytest.fixture(autouse=True)
def _reproducible_deals(request: pytest.FixtureRequest) -> Iterator[None]:
    """Games dealt by the services get seeds (:mod:`games.seeds`) from a generator seeded by the
    test's id, so a test sees the same deals on every run while different tests see different
    ones, and never a Tiến Lên deal with a tới trắng (an instant win ends game 1 before any move,
    which once made a browser test fail about once in fifty runs). A test that wants particular
    deals asks for them with the ``deal_seeds`` fixture."""
    rng = random.Random(zlib.crc32(request.node.nodeid.encode()))
    with games_seeds.use(deals.playable(rng)):
        yield


@pytest.fixture
def deal_seeds() -> Iterator[Callable[..., None]]:
    """``deal_seeds(s1, s2, ...)``: the services deal the rest of the test's games from these
    seeds, in turn (over again after the last); the test's reproducible deals come back after."""
    with contextlib.ExitStack() as stack:

        def pin(*seeds: int) -> None:
            stack.enter_context(games_seeds.use(games_seeds.in_turn(seeds)))

        yield pin


@pytest.fixture(autouse=True)
def bot_player() -> Iterator[Callable[[BotPlayer | None], BotPlayer | None]]:
    """Bot seats at live tables play the house AI's move (``games.extensions.house_bot_player``)
    unless the test installs another player by calling this fixture (``bot_player(fn)``; tests/bots
    install the real sandbox player, ``bots.turns.bot_seat_player``). The player the bots app
    registered comes back after the test."""
    from games import extensions

    previous = extensions.set_bot_player(extensions.house_bot_player)
    yield extensions.set_bot_player
    extensions.set_bot_player(previous)


@pytest.fixture
def password() -> str:
    return DEFAULT_PASSWORD


@pytest.fixture
def user(db: None) -> User:
    return UserFactory.create(username="alice", display_name="Alice")


@pytest.fixture
def other_user(db: None) -> User:
    return UserFactory.create(username="bob")


@pytest.fixture
def user_client(client: Client, user: User) -> Client:
    client.force_login(user)
    return client


@pytest.fixture
def api_client() -> APIClient:
    return APIClient()


@pytest.fixture(autouse=True)
def _fresh_channel_layer() -> Iterator[None]:
    """A new channel layer per test, in every directory: each async test runs on its own event
    loop, and a channels-redis layer keeps locks bound to the loop that first used it (a bots
    test once failed with "Lock ... is bound to a different event loop")."""
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@pytest.fixture(autouse=True)
def _fresh_database_pool() -> Iterator[None]:
    """The sockets' database pool (games/threads.py) ends with each test, as asyncio's default
    pool ended with each test's event loop: its threads' connections do not outlive the test."""
    yield
    from games import threads

    threads.reset_database_pool()
