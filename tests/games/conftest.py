from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def _no_instant_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    """Deal from seeds without a tới trắng, so a test's game 1 always has turns to play."""
    import random

    from games import services
    from games.engine.registry import find_game

    engine = find_game("tienlen")
    rng = random.Random(2024)

    def randbits(k: int) -> int:
        while True:
            seed = rng.getrandbits(k)
            if not engine.new_game({"players": 4}, seed).finished:
                return seed

    monkeypatch.setattr(services.secrets, "randbits", randbits)


@pytest.fixture(autouse=True)
def _fresh_channel_layer() -> Iterator[None]:
    """A new channel layer per test: each async test runs on its own event loop."""
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()
