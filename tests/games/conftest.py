from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from games import seeds
from tests import deals


@pytest.fixture(autouse=True)
def _no_instant_wins() -> Iterator[None]:
    """Deal from seeds without a tới trắng, so a test's game 1 always has turns to play."""
    with seeds.use(deals.playable(random.Random(2024))):
        yield
