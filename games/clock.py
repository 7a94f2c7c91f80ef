"""The time the live tables run on: one place to read it, one seam to set it.

The services read the time through :func:`now` (unix seconds: turn deadlines, the ``at`` of
each action) and :func:`now_datetime` (the same instant as an aware UTC datetime: countdowns,
the next game, disconnect holds) instead of ``time.time()`` / ``timezone.now()``. In every run
mode the source is the system clock. Tests replace it with :func:`use` (the ``clock`` fixture
in tests/conftest.py freezes and advances it) and run the real timer tasks when the clock says
they are due (tests/scheduler.py), with no thread and no sleep.

>>> with use(lambda: 1_700_000_000.0):
...     now(), now_datetime().isoformat()
(1700000000.0, '2023-11-14T22:13:20+00:00')
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime

#: A source of time: unix seconds.
Source = Callable[[], float]

_source: Source = time.time


def now() -> float:
    """The current time in unix seconds."""
    return _source()


def now_datetime() -> datetime:
    """The current time as an aware UTC datetime (what ``timezone.now()`` gives)."""
    return datetime.fromtimestamp(_source(), tz=UTC)


@contextlib.contextmanager
def use(source: Source) -> Iterator[None]:
    """Read the time from ``source`` inside the block (tests); the previous source after it."""
    global _source
    previous = _source
    _source = source
    try:
        yield
    finally:
        _source = previous
