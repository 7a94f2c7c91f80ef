"""A real Celery worker in a subprocess, on a dedicated Redis database, for end-to-end bot games.

Used by tests/bots/test_arena_worker.py and benchmarks/bots.py. The calling process sends its
timers to the same broker through :class:`BrokerScheduler` (``GAMES_SCHEDULER`` accepts a dotted
factory path), so everything after the first service call runs in the worker, as in production.
"""

from __future__ import annotations

import os
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
    client.delete(*QUEUES, "unacked", "unacked_index")


def database_url() -> str:
    """The URL of the database this process uses now (the test database under pytest)."""
    s = connection.settings_dict
    auth = s["USER"] + (f":{s['PASSWORD']}" if s.get("PASSWORD") else "")
    return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


@contextmanager
def celery_worker(
    *, broker_url: str = BROKER_URL, env: dict[str, str] | None = None, ready_s: float = 60.0
) -> Iterator[Path]:
    """Run ``celery -A config worker -Q default,bots`` (solo pool: one process, so a game's
    bots keep their sandboxes) with :mod:`tests.bots.worker_settings` on this process's
    database; yields the worker's log file. The worker is stopped (and waited for) on exit."""
    purge(broker_url)
    log = Path(tempfile.mkstemp(prefix="bots-worker-", suffix=".log")[1])
    environ = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.bots.worker_settings",
        "DATABASE_URL": database_url(),
        "BOTS_WORKER_BROKER": broker_url,
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
        ",".join(QUEUES),
        "-P",
        "solo",
        "--without-gossip",
        "--without-mingle",
        "--without-heartbeat",
        "-l",
        "INFO",
        "-n",
        f"bots-test-{os.getpid()}@%h",
    ]
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, cwd=ROOT, env=environ, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + ready_s
        while not _sender(broker_url).control.ping(timeout=0.5):  # it answers once ready
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
