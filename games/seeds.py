"""The seeds new games are dealt from: one place to draw them, one seam to set them.

The services draw a new game's RNG seed through :func:`new_seed` (63 random bits from the OS, so
a seed fits PostgreSQL's ``bigint``) instead of calling :mod:`secrets` themselves. Tests replace
the source with :func:`use` (tests/conftest.py gives every test reproducible deals; the
``deal_seeds`` fixture pins particular ones), and a worker process started by the tests installs
its caller's seeds for its whole life with :func:`install` (tests/bots/worker_settings.py).

>>> with use(in_turn([7, 8])):
...     [new_seed() for _ in range(3)]
[7, 8, 7]
>>> 0 <= new_seed() < 2**63
True
"""

from __future__ import annotations

import contextlib
import itertools
import secrets
from collections.abc import Callable, Iterable, Iterator
from typing import Any

#: A source of seeds: each call gives the next game's seed (0 <= seed < 2**63).
Source = Callable[[], int]

#: The bits of a seed (it is stored in a signed 64-bit column).
BITS = 63


def system() -> int:
    """A seed from the OS's randomness (every run mode's source)."""
    return secrets.randbits(BITS)


_source: Source = system


def new_seed() -> int:
    """The next new game's seed."""
    return _source()


#: Gives the fixed seed of game ``number`` of a table (a tournament round's duplicate deal), or
#: None for a table whose seeds are not fixed: ``provider(table, number)``.
TableSeeds = Callable[[Any, int], "int | None"]
_table_seeds: list[TableSeeds] = []


def set_table_seeds(provider: TableSeeds) -> TableSeeds:
    """Register ``provider`` (once) to fix the seeds of some tables' games; returns it."""
    if provider not in _table_seeds:
        _table_seeds.append(provider)
    return provider


def game_seed(table: Any, number: int) -> int:
    """The seed of game ``number`` of ``table``: a registered provider's fixed one (every
    table of a tournament round deals the round's seeds), else :func:`new_seed`."""
    for provider in _table_seeds:
        seed = provider(table, number)
        if seed is not None:
            return int(seed)
    return new_seed()


def duplicate_set(number: int, seats: int) -> tuple[int, int]:
    """Where game ``number`` (1-based) of a session dealt in duplicate sets falls: the number of
    its set's first game (whose seed deals the whole set) and its rotation ``0 … seats-1``. A
    set is ``seats`` games in a row: games ``k·seats+1 … k·seats+seats`` (issue #16).

    >>> [duplicate_set(n, 4) for n in (1, 2, 4, 5, 8, 9)]
    [(1, 0), (1, 1), (1, 3), (5, 0), (5, 3), (9, 0)]
    >>> duplicate_set(4, 3)
    (4, 0)
    """
    if number < 1 or seats < 1:
        raise ValueError("game numbers and seat counts start at 1")
    rotation = (number - 1) % seats
    return number - rotation, rotation


def in_turn(seeds: Iterable[int]) -> Source:
    """A source giving ``seeds`` in turn, over again after the last."""
    return itertools.cycle(list(seeds)).__next__


def install(source: Source) -> Source:
    """Draw seeds from ``source`` from now on (a test's worker process); returns the previous."""
    global _source
    previous, _source = _source, source
    return previous


@contextlib.contextmanager
def use(source: Source) -> Iterator[None]:
    """Draw seeds from ``source`` inside the block (tests); the previous source after it."""
    previous = install(source)
    try:
        yield
    finally:
        install(previous)
