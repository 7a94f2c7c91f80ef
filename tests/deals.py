"""Seeds for the games the services deal in tests (the seam is :mod:`games.seeds`)."""

from __future__ import annotations

import random

from games import seeds
from games.engine.registry import find_game


def playable(rng: random.Random) -> seeds.Source:
    """Seeds drawn from ``rng``, skipping every one whose four-player Tiến Lên deal is a tới
    trắng (an instant win ends game 1 before any move), so game 1 always has turns to play."""
    tienlen = find_game("tienlen")

    def source() -> int:
        while True:
            seed = rng.getrandbits(seeds.BITS)
            if not tienlen.new_game({"players": 4}, seed).finished:
                return seed

    return source
