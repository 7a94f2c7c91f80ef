"""A real Celery worker in a subprocess, on a dedicated Redis database, for end-to-end bot games.

Used by tests/bots/test_arena_worker.py and benchmarks/bots.py. The calling process sends its
timers to the same broker through :class:`BrokerScheduler` (``GAMES_SCHEDULER`` accepts a dotted
factory path), so everything after the first service call runs in the worker, as in production.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any

import redis
from celery import Celery
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]
#: Redis database of the test worker's broker: nobody else's worker consumes it.
BROKER_URL = os.environ.get("BOTS_WORKER_BROKER", "redis://127.0.0.1:6379/13")
QUEUES = ("default", "bots")


def shard_queues() -> tuple[str, ...]:
    """The bot-turn shard queues of this process's settings (``bots.0`` …)."""
    from django.conf import settings

    return tuple(f"bots.{n}" for n in range(max(1, int(settings.BOTS_QUEUE_SHARDS))))


@cache
def _sender(broker_url: str) -> Celery:
    app = Celery("bots-worker-sender", broker=broker_url, set_as_current=False)
    app.conf.task_serializer = "json"
    return app


class BrokerScheduler:
    """A ``games.realtime`` scheduler that sends every task to :data:`BROKER_URL`."""

    broker_url = BROKER_URL

    def schedule(self, name: str, args: list[Any], *, delay: float, queue: str) -> None:
        _sender(self.broker_url).send_task(name, args=args, countdown=max(0.0, delay), queue=queue)


def purge(broker_url: str = BROKER_URL) -> None:
    """Empty the worker's queues (and unacked/scheduled leftovers) on the dedicated database."""
    client = redis.Redis.from_url(broker_url)
    shards = [k.decode() if isinstance(k, bytes) else str(k) for k in client.keys("bots.*")]
    client.delete(*QUEUES, *shards, "unacked", "unacked_index")


def database_url() -> str:
    """The URL of the database this process uses now (the test database under pytest)."""
    s = connection.settings_dict
    auth = s["USER"] + (f":{s['PASSWORD']}" if s.get("PASSWORD") else "")
    return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


def node_name(label: str = "bots-test") -> str:
    """The Celery node name of the worker :func:`celery_worker` starts with ``label``."""
    return f"{label}-{os.getpid()}@{socket.gethostname()}"


def worker_stats(label: str = "bots-test", *, broker_url: str = BROKER_URL) -> dict[str, Any]:
    """``celery inspect stats`` of one running worker: ``total`` (tasks run, by name),
    ``pool`` (``processes``: the pool's pids) …"""
    node = node_name(label)
    replies = _sender(broker_url).control.inspect(destination=[node], timeout=5.0).stats() or {}
    stats: dict[str, Any] = dict(replies[node])
    return stats


@contextmanager
def celery_worker(
    *,
    broker_url: str = BROKER_URL,
    env: dict[str, str] | None = None,
    ready_s: float = 60.0,
    queues: tuple[str, ...] | None = None,
    pool: str = "solo",
    concurrency: int = 1,
    label: str = "bots-test",
    clean: bool = True,
) -> Iterator[Path]:
    """Run ``celery -A config worker -Q <queues>`` with :mod:`tests.bots.worker_settings` on
    this process's database; yields the worker's log file. The worker is stopped (and waited
    for) on exit. By default one solo-pool process consumes ``default``, ``bots`` and every
    shard queue (so a game's bots keep their sandboxes); ``pool="prefork"`` with a
    ``concurrency`` and a subset of ``queues`` starts one worker of a production-like layout
    (nest several, with distinct ``label``s and ``clean=False`` for all but the outermost)."""
    if clean:
        purge(broker_url)
    queues = queues or (*QUEUES, *shard_queues())
    node = node_name(label)
    log = Path(tempfile.mkstemp(prefix=f"{label}-", suffix=".log")[1])
    environ = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.bots.worker_settings",
        "DATABASE_URL": database_url(),
        "BOTS_WORKER_BROKER": broker_url,
        # route bot turns to the same shards as this process does
        "BOTS_QUEUE_SHARDS": str(len(shard_queues())),
        "PYTHONPATH": str(ROOT),
        **(env or {}),
    }
    cmd = [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "config",
        "worker",
        "-Q",
        ",".join(queues),
        "-P",
        pool,
        *(["--concurrency", str(concurrency)] if pool != "solo" else []),
        "--without-gossip",
        "--without-mingle",
        "--without-heartbeat",
        "-l",
        "INFO",
        "-n",
        node,
    ]
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, cwd=ROOT, env=environ, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + ready_s
        # it answers once ready
        while not _sender(broker_url).control.ping(destination=[node], timeout=0.5):
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the worker did not start:\n{log.read_text()[-4000:]}")
        yield log
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if clean:
            purge(broker_url)


def wait_for(predicate: Any, *, timeout: float, log: Path | None = None, poll: float = 0.1) -> Any:
    """Poll ``predicate()`` until it returns something truthy; fail with the worker's log."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            tail = log.read_text(errors="replace")[-4000:] if log is not None else ""
            raise AssertionError(f"timed out after {timeout} s; worker log:\n{tail}")
        time.sleep(poll)
