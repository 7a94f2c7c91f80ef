"""The sockets' database pool (games/threads.py): the thread idle last takes the next call, so a
light load keeps one thread and its database connection (no health check, warm statements)."""

from __future__ import annotations

import threading

import pytest

from games import consumers, threads
from games.threads import LifoThreadPool


@pytest.fixture
def pool():
    pool = LifoThreadPool(max_workers=3, name="test")
    yield pool
    pool.shutdown(wait=True)


def _busy(pool: LifoThreadPool, count: int) -> tuple[list[threading.Event], list]:
    """``count`` calls that hold their threads until released; returns the releases and the
    futures (each future's result is its thread's name)."""
    started = [threading.Event() for _ in range(count)]
    release = [threading.Event() for _ in range(count)]

    def hold(i: int) -> str:
        started[i].set()
        assert release[i].wait(10)
        return threading.current_thread().name

    futures = [pool.submit(hold, i) for i in range(count)]
    for event in started:
        assert event.wait(10)
    return release, futures


def _wait_idle(pool: LifoThreadPool, count: int) -> None:
    """Until ``count`` threads are back on the idle stack (a future is done a moment before its
    thread is idle again)."""
    for _ in range(5000):
        if len(pool._idle_inboxes) >= count:
            return
        threading.Event().wait(0.001)
    raise AssertionError(f"{len(pool._idle_inboxes)} idle threads, not {count}")


def test_the_thread_idle_last_takes_the_next_call(pool: LifoThreadPool) -> None:
    release, futures = _busy(pool, 3)
    names = []
    for i in (2, 0, 1):  # they become idle in this order
        release[i].set()
        names.append(futures[i].result(10))
        _wait_idle(pool, len(names))  # idle again before the next one finishes
    # the last to become idle (futures[1]'s thread) takes the next calls, again and again
    got = set()
    for _ in range(20):
        got.add(pool.submit(lambda: threading.current_thread().name).result(10))
        _wait_idle(pool, 3)
    assert got == {names[-1]}
    # a FIFO pool (asyncio's default) would have handed them round: names[0] first


def test_at_most_max_workers_threads_and_the_rest_wait_in_order(pool: LifoThreadPool) -> None:
    release, futures = _busy(pool, 3)
    order: list[int] = []
    waiting = [pool.submit(order.append, i) for i in range(5)]
    assert len(pool._workers) == 3
    assert not any(f.done() for f in waiting)
    release[0].set()  # one thread frees: the backlog runs on it, first in first out
    for f in waiting:
        f.result(10)
    assert order == [0, 1, 2, 3, 4]
    for event in release[1:]:
        event.set()
    assert len({f.result(10) for f in futures}) == 3
    assert len(pool._workers) == 3


def test_an_exception_reaches_the_caller_and_the_thread_goes_on(pool: LifoThreadPool) -> None:
    with pytest.raises(ZeroDivisionError):
        pool.submit(lambda: 1 / 0).result(10)
    _wait_idle(pool, 1)
    assert pool.submit(sum, [1, 2, 3]).result(10) == 6
    assert len(pool._workers) == 1


def test_shutdown_cancels_waiting_calls_when_asked_and_ends_the_threads() -> None:
    pool = LifoThreadPool(max_workers=1, name="test")
    release, futures = _busy(pool, 1)
    waiting = pool.submit(lambda: "ran")
    cancelled = threading.Thread(target=pool.shutdown, kwargs={"cancel_futures": True})
    cancelled.start()
    release[0].set()
    cancelled.join(10)
    assert not cancelled.is_alive()
    assert waiting.cancelled()
    assert futures[0].result(10).startswith("test_")
    assert not any(t.is_alive() for t in pool._workers)
    with pytest.raises(RuntimeError, match="after shutdown"):
        pool.submit(print)


def test_shutdown_runs_the_waiting_calls_otherwise() -> None:
    pool = LifoThreadPool(max_workers=1, name="test")
    release, _futures = _busy(pool, 1)
    waiting = pool.submit(lambda: "ran")
    stopper = threading.Thread(target=pool.shutdown)
    stopper.start()
    release[0].set()
    stopper.join(10)
    assert waiting.result(10) == "ran"
    assert not any(t.is_alive() for t in pool._workers)


def test_max_workers_must_be_positive() -> None:
    with pytest.raises(ValueError, match="greater than 0"):
        LifoThreadPool(max_workers=0)


async def test_the_sockets_database_calls_run_on_the_pool() -> None:
    name = await consumers.db_call(lambda: threading.current_thread().name)()
    assert name.startswith("db_")
    assert threads.database_pool() is threads.database_pool()


def test_a_forked_child_makes_its_own_pool() -> None:
    """The parent's idle threads do not exist in a forked child (the tests' live daphne): a
    call queued to them there would never run."""
    import os

    parent = threads.database_pool()
    assert parent.submit(lambda: 1).result(10) == 1  # one idle thread now
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: answer through the pipe, then leave at once
        try:
            child = threads.database_pool()
            ok = child is not parent and child.submit(lambda: 2).result(5) == 2
            os.write(write, b"1" if ok else b"0")
        finally:
            os._exit(0)
    os.close(write)
    try:
        assert os.read(read, 1) == b"1"
    finally:
        os.close(read)
        os.waitpid(pid, 0)


def test_reset_ends_the_pool_and_the_next_call_makes_a_new_one() -> None:
    first = threads.database_pool()
    worker = first.submit(threading.current_thread).result(10)
    threads.reset_database_pool()
    worker.join(10)
    assert not worker.is_alive()  # its thread (and its connection) ended
    assert threads.database_pool() is not first
