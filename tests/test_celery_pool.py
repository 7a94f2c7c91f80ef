"""The threads pool of the bot shard, tournament and ladder workers (config/celery.py
``LifoThreadsPool``): Celery's threads pool whose thread idle last runs the next task, so a quiet
worker keeps one thread and its database connection."""

from __future__ import annotations

import threading

from config.celery import LifoThreadsPool


def test_the_thread_idle_last_runs_the_next_task() -> None:
    pool = LifoThreadsPool(limit=4)
    pool.start()
    try:
        names: list[str] = []
        for _ in range(12):  # one task at a time, as on a quiet site
            done = threading.Event()

            def record(done: threading.Event = done) -> str:
                return threading.current_thread().name

            def callback(name: str, done: threading.Event = done) -> None:
                names.append(name)
                done.set()

            pool.apply_async(record, callback=callback)
            assert done.wait(10)
            for _ in range(5000):  # its thread back on the idle stack before the next task
                if pool.executor._idle_inboxes:
                    break
                threading.Event().wait(0.001)
        assert set(names) == {names[0]}  # Celery's own pool hands them round its threads
        assert names[0].startswith("task_")
        assert pool._get_info()["threads"] == 1
        assert pool._get_info()["max-concurrency"] == 4
    finally:
        pool.stop()
    assert not any(t.is_alive() for t in pool.executor._workers)


def test_a_worker_of_the_app_given_threads_runs_it() -> None:
    """``celery -A config worker -P threads`` (the launcher's shard, tournament and ladder
    workers): the command line loads the app, then resolves ``threads``."""
    from celery.concurrency import get_implementation

    assert get_implementation("threads") is LifoThreadsPool
