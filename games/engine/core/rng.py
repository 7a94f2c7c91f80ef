"""A small deterministic PRNG (SplitMix64) whose whole state is one int.

The state lives inside a game's state, so replaying ``(config, seed, actions)`` reproduces a game
bit for bit. Engines never touch the global :mod:`random` module.

>>> state = seed_state(42)
>>> state, a = next_u64(state)
>>> state2, b = next_u64(seed_state(42))
>>> a == b
True
>>> shuffle(seed_state(7), [1, 2, 3, 4, 5])[1]
[5, 2, 4, 1, 3]
"""

from __future__ import annotations

import hashlib
import random
from typing import TypeVar

from games.engine.core.errors import ConfigError

__all__ = ["Rng", "below", "config_seed_state", "move_random", "next_u64", "seed_state", "shuffle"]

T = TypeVar("T")

_MASK64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def seed_state(seed: int | str) -> int:
    """The PRNG state for a seed: any int (taken modulo 2**64) or a string (hashed).

    >>> seed_state(1)
    1
    >>> seed_state(-1) == 2**64 - 1
    True
    >>> seed_state("table-7") == seed_state("table-7")
    True
    """
    if isinstance(seed, bool):
        raise TypeError("seed must be an int or a str")
    if isinstance(seed, int):
        return seed & _MASK64
    if isinstance(seed, str):
        digest = hashlib.sha256(seed.encode("utf-8")).digest()
        return int.from_bytes(digest[:8], "big")
    raise TypeError("seed must be an int or a str")


def config_seed_state(seed: int | str) -> int:
    """:func:`seed_state` for a new game: a seed of the wrong type is a ``bad_config``.

    >>> config_seed_state(1)
    1
    >>> config_seed_state(1.5)  # type: ignore[arg-type]
    Traceback (most recent call last):
    games.engine.core.errors.ConfigError: bad_config: seed must be an int or a string
    """
    try:
        return seed_state(seed)
    except TypeError as exc:
        raise ConfigError(detail="seed must be an int or a string") from exc


def move_random(seed: int | str, move_no: int, seat: int) -> random.Random:
    """A bot's private :class:`random.Random` for one move, seeded by game seed, move and seat.

    >>> move_random(7, 3, 1).random() == random.Random("7:3:1").random()
    True
    """
    return random.Random(f"{seed}:{move_no}:{seat}")


def next_u64(state: int) -> tuple[int, int]:
    """Advance the state; return ``(new_state, 64-bit output)`` (SplitMix64).

    >>> next_u64(0)
    (11400714819323198485, 16294208416658607535)
    """
    state = (state + _GOLDEN) & _MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """A uniform integer in ``range(n)`` (rejection sampling, no modulo bias).

    >>> below(seed_state(3), 10)[1] in range(10)
    True
    """
    if n <= 0:
        raise ValueError("n must be positive")
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        state, value = next_u64(state)
        if value < limit:
            return state, value % n


def shuffle(state: int, items: list[T]) -> tuple[int, list[T]]:
    """Fisher-Yates shuffle of a copy of ``items``; returns ``(new_state, shuffled)``.

    >>> shuffle(seed_state(7), ["a", "b", "c"])[1]
    ['b', 'c', 'a']
    """
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        state, j = below(state, i + 1)
        out[i], out[j] = out[j], out[i]
    return state, out


class Rng:
    """A mutable convenience wrapper around the pure functions (bots, benchmarks, tests).

    >>> rng = Rng(5)
    >>> x = rng.below(6)
    >>> 0 <= x < 6
    True
    >>> Rng(5).below(6) == x
    True
    >>> Rng(5)
    Rng(state=5)
    """

    __slots__ = ("state",)

    def __init__(self, seed: int | str = 0) -> None:
        self.state = seed_state(seed)

    def __repr__(self) -> str:
        return f"Rng(state={self.state})"

    def next_u64(self) -> int:
        """The next 64-bit output.

        >>> Rng(0).next_u64()
        16294208416658607535
        """
        self.state, value = next_u64(self.state)
        return value

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)``.

        >>> Rng(1).below(1)
        0
        """
        self.state, value = below(self.state, n)
        return value

    def choice(self, items: list[T]) -> T:
        """A uniformly chosen element of a non-empty list.

        >>> Rng(2).choice(["x"])
        'x'
        """
        return items[self.below(len(items))]

    def shuffle(self, items: list[T]) -> list[T]:
        """A shuffled copy of ``items``.

        >>> sorted(Rng(9).shuffle([3, 1, 2]))
        [1, 2, 3]
        """
        self.state, out = shuffle(self.state, items)
        return out
