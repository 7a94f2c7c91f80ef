"""A real Celery worker in a subprocess, on a dedicated Redis database, for end-to-end games.

Used by tests/bots/test_arena_worker.py, the browser tests (tests/browser/conftest.py) and
benchmarks/bots.py. The calling process (and a daphne it forks) sends its timers to the same
broker through :class:`BrokerScheduler` (``GAMES_SCHEDULER`` names it), so everything after the
first service call runs in the worker, as in production. The worker shares the caller's
database, channel-layer and cache prefixes, so its broadcasts reach the caller's sockets.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import redis
from celery import Celery
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]


def _own_database(url: str, number: int = 13) -> str:
    """``url`` (a Redis URL) with its database number replaced."""
    return urlsplit(url)._replace(path=f"/{number}").geturl()


#: Redis database of the test worker's broker: nobody else's worker consumes it. The Redis is
#: the run's (REDIS_URL: an embedded one under ./bin/test when none is given).
BROKER_URL = os.environ.get("BOTS_WORKER_BROKER") or _own_database(
    os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
)
QUEUES = ("default", "bots", "trials")


def shard_queues() -> tuple[str, ...]:
    """The bot-turn queues of this process's settings (``bots.0`` …, ``bots.tournament``)."""
    from django.conf import settings

    shards = tuple(f"bots.{n}" for n in range(max(1, int(settings.BOTS_QUEUE_SHARDS))))
    return (*shards, "bots.tournament")


def _sender(broker_url: str) -> Celery:
    """This process's client of the worker's broker (one per process: a forked daphne must
    not share its parent's broker connections)."""
    return _sender_of(broker_url, os.getpid())


@cache
def _sender_of(broker_url: str, pid: int) -> Celery:
    app = Celery("bots-worker-sender", broker=broker_url, set_as_current=False)
    app.conf.task_serializer = "json"
    return app


class BrokerScheduler:
    """A ``games.realtime`` scheduler that sends every task to :data:`BROKER_URL`."""

    broker_url = BROKER_URL

    def schedule(
        self, name: str, args: list[Any], *, delay: float, queue: str, since: float | None = None
    ) -> None:
        from games.realtime.scheduling import countdown

        _sender(self.broker_url).send_task(
            name, args=args, countdown=countdown(delay, since), queue=queue
        )


def purge(broker_url: str = BROKER_URL) -> None:
    """Empty the worker's queues (and unacked/scheduled leftovers) on the dedicated database."""
    client = redis.Redis.from_url(broker_url)
    shards = [k.decode() if isinstance(k, bytes) else str(k) for k in client.keys("bots.*")]
    leases = [k.decode() if isinstance(k, bytes) else str(k) for k in client.keys("tienlen:bots:*")]
    client.delete(*QUEUES, *shards, *leases, "unacked", "unacked_index")


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
    seeds: Sequence[int] | None = None,
    beat: float | None = None,
    args: Sequence[str] = (),
) -> Iterator[Path]:
    """Run ``celery -A config worker -Q <queues>`` with :mod:`tests.bots.worker_settings` on
    this process's database; yields the worker's log file. The worker is stopped (and waited
    for) on exit. By default one solo-pool process consumes ``default``, ``bots`` and every
    shard queue (so a game's bots keep their sandboxes); ``pool="prefork"`` with a
    ``concurrency`` and a subset of ``queues`` starts one worker of a production-like layout
    (nest several, with distinct ``label``s and ``clean=False`` for all but the outermost).

    ``seeds``: the worker deals games from these seeds, in turn (default: the OS's
    randomness); pass what this process would deal (``[seeds.new_seed() for ...]`` under
    the suite's reproducible or pinned deals) to get the same deals in the worker. ``beat``:
    also run beat inside the worker (``-B``), with only ``games.timers_heal``, every ``beat``
    seconds. ``args``: more worker options (``--bot-shards lease``, config/shards.py)."""
    from django.conf import settings

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
        "BOTS_QUEUE_SHARDS": str(max(1, int(settings.BOTS_QUEUE_SHARDS))),
        "PYTHONPATH": str(ROOT),
        # the same channel-layer and cache prefixes: the worker's frames reach our sockets
        "TEST_RUN_ID": str(getattr(settings, "TEST_RUN_ID", "")),
        **({"TEST_WORKER_SEEDS": ",".join(map(str, seeds))} if seeds else {}),
        **({"TEST_WORKER_HEAL_SECONDS": str(beat)} if beat else {}),
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
        *(["-B", "-s", str(log.with_suffix(".beat"))] if beat else []),
        *args,
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
        for beat_file in log.parent.glob(log.with_suffix(".beat").name + "*"):
            beat_file.unlink(missing_ok=True)  # beat's schedule (a shelve of several files)


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
