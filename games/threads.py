"""The thread pool the sockets' database calls run on: the most recently idle thread takes the
next call.

Each thread keeps its own database connection (Django's connections are per thread). asyncio's
default pool (``concurrent.futures.ThreadPoolExecutor``) hands a call to whichever idle thread
waits on its shared queue, and its idle threads take turns: on a quiet site every thread, and so
every connection, was used once in six calls. A connection is trusted without Django's health
check (a ``SELECT 1`` round trip) for a second after its last commit
(``DB_HEALTH_CHECK_GRACE_SECONDS``, config/postgresql/base.py): taking turns, a table playing a
move a second paid that check on nearly every move (0.36 ms of the ~4.7 ms a move spends in
daphne with the box idle, docs/benchmarks.md "Issue 26 … session 19"). Here the idle threads are
a stack: the thread that finished last takes the next call, so a light load keeps using one
connection (checked, prepared statements warm) and a heavy one spreads over as many threads as it
needs, up to ``max_workers``; calls beyond that wait in order.

Threads are daemons: a call still running when the process exits is cut off with it, and its
transaction, never committed, is rolled back by PostgreSQL, as after ``kill -9``.
"""

from __future__ import annotations

import os
import queue
import threading
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any


class _Call:
    __slots__ = ("args", "fn", "future", "kwargs")

    def __init__(self, future: Future[Any], fn: Callable[..., Any], args: Any, kwargs: Any) -> None:
        self.future, self.fn, self.args, self.kwargs = future, fn, args, kwargs

    def run(self) -> None:
        if not self.future.set_running_or_notify_cancel():
            return
        try:
            result = self.fn(*self.args, **self.kwargs)
        except BaseException as exc:  # as ThreadPoolExecutor: the caller gets it
            self.future.set_exception(exc)
            self = None  # type: ignore[assignment]  # no reference cycle through the traceback
        else:
            self.future.set_result(result)


class LifoThreadPool(ThreadPoolExecutor):
    """An executor of at most ``max_workers`` daemon threads whose idle threads form a stack:
    a call goes to the thread that became idle last (a new thread only when none is idle and
    fewer than ``max_workers`` run; otherwise it waits, first in first out). A
    ``ThreadPoolExecutor`` by type (asgiref's ``executor`` argument asks for one) whose
    ``submit`` and ``shutdown`` are its own: none of the parent's queue or threads is used.

    >>> pool = LifoThreadPool(max_workers=2, name="doc")
    >>> pool.submit(pow, 2, 10).result()
    1024
    >>> first = pool.submit(threading.get_ident).result()
    >>> all(pool.submit(threading.get_ident).result() == first for _ in range(20))
    True
    >>> pool.shutdown()
    >>> pool.submit(pow, 2, 2)
    Traceback (most recent call last):
    ...
    RuntimeError: cannot schedule new futures after shutdown
    """

    def __init__(self, max_workers: int | None = None, name: str = "pool") -> None:
        if max_workers is None:
            max_workers = min(32, (os.cpu_count() or 1) + 4)  # ThreadPoolExecutor's default
        if max_workers <= 0:
            raise ValueError("max_workers must be greater than 0")
        super().__init__(max_workers=max_workers, thread_name_prefix=name)
        self.max_workers = max_workers
        self.name = name
        self._mutex = threading.Lock()
        #: The idle threads' inboxes; the last one appended became idle last.
        self._idle_inboxes: list[queue.SimpleQueue[_Call | None]] = []
        self._backlog: deque[_Call] = deque()
        self._workers: list[threading.Thread] = []
        self._closed = False

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        call = _Call(future, fn, args, kwargs)
        with self._mutex:
            if self._closed:
                raise RuntimeError("cannot schedule new futures after shutdown")
            if self._idle_inboxes:
                self._idle_inboxes.pop().put(call)
            elif len(self._workers) < self.max_workers:
                inbox: queue.SimpleQueue[_Call | None] = queue.SimpleQueue()
                inbox.put(call)
                thread = threading.Thread(
                    target=self._work,
                    args=(inbox,),
                    name=f"{self.name}_{len(self._workers)}",
                    daemon=True,
                )
                self._workers.append(thread)
                thread.start()
            else:
                self._backlog.append(call)
        return future

    def _work(self, inbox: queue.SimpleQueue[_Call | None]) -> None:
        call = inbox.get()
        while call is not None:
            call.run()
            with self._mutex:
                if self._backlog:
                    call = self._backlog.popleft()
                    continue
                if self._closed:
                    return
                self._idle_inboxes.append(inbox)
            call = inbox.get()

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """No new calls; the waiting ones still run (or are cancelled: ``cancel_futures``);
        idle threads end; ``wait``: until every thread has ended."""
        with self._mutex:
            self._closed = True
            if cancel_futures:
                while self._backlog:
                    self._backlog.popleft().future.cancel()
            for inbox in self._idle_inboxes:
                inbox.put(None)
            self._idle_inboxes.clear()
            threads = list(self._workers)
        if wait:
            for thread in threads:
                if thread is not threading.current_thread():
                    thread.join()


_pool: LifoThreadPool | None = None
_pool_lock = threading.Lock()


def database_pool() -> LifoThreadPool:
    """The process's pool for the sockets' database calls (``games.consumers.db_call``)."""
    global _pool
    pool = _pool
    if pool is not None:  # every socket call asks: no lock once the pool exists
        return pool
    with _pool_lock:
        if _pool is None:
            _pool = LifoThreadPool(name="db")
        return _pool


def reset_database_pool() -> None:
    """End the process's pool (its idle threads stop, and with them their database
    connections) and let the next call make a new one. For the tests, after each test: asyncio's
    default pool, which the sockets' calls used before, belonged to the test's event loop and
    ended with it; a pool thread that outlived its test would take its connection, open on
    that test's database state, into the next one (where pytest-django may forbid it)."""
    global _pool
    with _pool_lock:
        pool, _pool = _pool, None
    if pool is not None:
        pool.shutdown(wait=True)


def _forget_after_fork() -> None:
    """A forked child (the tests' live daphne, ``daphne.testing.DaphneProcess``) does not get
    the parent's threads, only their inboxes on the idle stack: a call put there would never
    run. The child makes its own pool at its first call."""
    global _pool, _pool_lock
    _pool, _pool_lock = None, threading.Lock()


os.register_at_fork(after_in_child=_forget_after_fork)
