"""The tests' scheduler: the real Celery tasks, run in the test's thread when the clock says so.

``config/settings/test.py`` points ``GAMES_SCHEDULER`` (the seam of
:func:`games.realtime.get_scheduler`) at :data:`SCHEDULER`. A task whose delay is zero runs at
once (through ``task.apply``, as a worker would run it); a later one waits in
:attr:`TestScheduler.pending`, due at :func:`games.clock.now` + delay, until the test runs it:
:meth:`TestScheduler.run_due` runs what the clock says is due (advance it with the ``clock``
fixture of tests/conftest.py), :meth:`TestScheduler.run_pending` runs everything now. No thread,
no sleep. A task that fails fails the test (its exception propagates).
"""

from __future__ import annotations

import collections
import threading
from typing import Any, NamedTuple

from games import clock
from games.realtime import celery_task


class Entry(NamedTuple):
    """One scheduled task: due (unix seconds on :mod:`games.clock`), task name, args, queue."""

    due: float
    name: str
    args: list[Any]
    queue: str


class TestScheduler:
    """A ``games.realtime`` scheduler for tests (see the module's docstring)."""

    __test__ = False  # not a test class

    def __init__(self) -> None:
        self.pending: list[Entry] = []
        self.lock = threading.Lock()
        self.local = threading.local()

    def schedule(
        self, name: str, args: list[Any], *, delay: float, queue: str, since: float | None = None
    ) -> None:
        if delay <= 0:
            self._run([(name, args)])
            return
        # due a ``delay`` after ``since`` (when the service asked for it), as a worker runs it
        start = clock.now() if since is None else min(since, clock.now())
        with self.lock:
            self.pending.append(Entry(start + delay, name, list(args), queue))

    def take(self, name: str | None = None) -> list[Entry]:
        """Remove and return the pending entries (of one task name), soonest first."""
        with self.lock:
            out = [p for p in self.pending if name is None or p.name == name]
            self.pending = [p for p in self.pending if p not in out]
        return sorted(out, key=lambda p: p.due)

    def clear(self) -> None:
        """Forget every pending entry (a process that died loses its timers like this)."""
        self.take()

    def run_due(self) -> int:
        """Run every pending task that is due on the clock, soonest first, including those the
        tasks schedule meanwhile if they are due too; return how many ran."""
        ran = 0
        while True:
            now = clock.now()
            with self.lock:
                due = sorted((p for p in self.pending if p.due <= now), key=lambda p: p.due)
                if not due:
                    return ran
                self.pending = [p for p in self.pending if p not in due]
            self._run([(p.name, p.args) for p in due])
            ran += len(due)

    def run_pending(self, name: str | None = None) -> int:
        """Run every pending task (of one name) now, whatever its due time; return how many.
        What those tasks schedule for later stays pending."""
        entries = self.take(name)
        self._run([(p.name, p.args) for p in entries])
        return len(entries)

    def _run(self, tasks: list[tuple[str, list[Any]]]) -> None:
        """Run tasks one after another in this thread. A task scheduled (at once) by a running
        one joins the queue instead of nesting: a chain of bot turns is a loop, not a
        recursion, as it is on a worker."""
        queue: collections.deque[tuple[str, list[Any]]] | None = getattr(self.local, "queue", None)
        if queue is not None:
            queue.extend(tasks)
            return
        queue = collections.deque(tasks)
        self.local.queue = queue
        try:
            while queue:
                name, args = queue.popleft()
                celery_task(name).apply(args=args, throw=True)
        finally:
            self.local.queue = None


#: The process's test scheduler (``GAMES_SCHEDULER = "tests.scheduler.SCHEDULER"``).
SCHEDULER = TestScheduler()


class FrozenClock:
    """A clock that stands still until a test moves it (the ``clock`` fixture installs one
    as the source of :mod:`games.clock`)."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        """Move the clock ``seconds`` on; return the new time."""
        self.now += seconds
        return self.now


class RecordingScheduler:
    """A scheduler that records what it is given and runs nothing (what a worker's broker
    would receive); :meth:`install` makes it ``games.realtime``'s scheduler for one test."""

    __test__ = False  # not a test class

    def __init__(self, monkeypatch: Any) -> None:
        self.calls: list[tuple[str, list[Any], float, str]] = []
        self.monkeypatch = monkeypatch

    def install(self) -> None:
        """From now on tasks are recorded, not run (the tests' scheduler runs them at once)."""
        from games.realtime import scheduling

        self.monkeypatch.setattr(scheduling, "get_scheduler", lambda: self)

    def schedule(
        self, name: str, args: list[Any], *, delay: float, queue: str, since: float | None = None
    ) -> None:
        """Records the ``delay`` asked for (``since`` is left out: see :func:`games.realtime.
        scheduling.countdown` for what a worker's broker gets)."""
        self.calls.append((name, list(args), delay, queue))

    def turns(self) -> list[tuple[list[Any], float, str]]:
        """The recorded bot turns (``games.seat_autoplay``): (args, delay, queue)."""
        return [(a, d, q) for n, a, d, q in self.calls if n == "games.seat_autoplay"]
