"""``./bin/run`` as a newcomer gets it (issue 12): no DATABASE_URL or REDIS_URL, so it starts an
embedded PostgreSQL and Redis, daphne, the Celery workers and beat under supervisord.

One test, three start-ups of the real script on one data folder (each start costs seconds):

1. a fresh folder: ``/healthz`` reports every service embedded and both kinds of worker; twelve
   players start Practice at once and play their tables over the WebSocket for a minute (no
   5xx, no socket closed by the server, every game advances and the house AIs, whose turns the
   Celery workers run, move); Ctrl-C stops every process and frees every port;
2. the same folder again: every user, bot, table and finished game is still there; a worker and
   then daphne are killed with ``kill -9`` and supervisord restarts each while the site keeps
   answering; then the launcher itself is killed with ``kill -9``;
3. started again at once on that folder: healthy, nothing left of the killed run, the data
   still there; Ctrl-C stops it cleanly.

``EMBEDDED_PLAY_SECONDS`` shortens the minute of play while working on this file.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from config.launcher import free_port
from tests.embedded.bin_run import (
    Player,
    Run,
    assert_all_gone,
    deadline_loop,
    get,
    healthy_enough,
    play_all,
    server_errors,
)

pytestmark = pytest.mark.slow

TABLES = 12
PLAY_SECONDS = float(os.environ.get("EMBEDDED_PLAY_SECONDS") or 60)


def assert_kept(before: dict[str, list[str]], after: dict[str, list[str]]) -> None:
    """Everything of ``before`` is in ``after`` (the practice tables play on: more may exist)."""
    for key, items in before.items():
        missing = sorted(set(items) - set(after[key]))
        assert not missing, f"{key} lost: {missing[:10]}"


def assert_no_crash_recovery(data: Path) -> None:
    """PostgreSQL was always shut down cleanly, even after the launcher's ``kill -9``."""
    log = (data / "postgres.log").read_text(errors="replace")
    assert "not properly shut down" not in log, log[-3000:]
    assert "database system is shut down" in log


@pytest.fixture
def run_dir() -> Iterator[Path]:
    """A folder for the runs' data and logs, outside pytest's own temporary root: pytest
    resets that root to mode 0700 whenever a pytest process starts, which would lock the
    embedded PostgreSQL (it runs as an unprivileged user when we are root) out of its files."""
    path = Path(tempfile.mkdtemp(prefix="tienlen-bin-run-"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


def test_bin_run_plays_twelve_tables_keeps_its_data_and_survives_kill_9(run_dir: Path) -> None:
    tmp_path = run_dir
    data = tmp_path / "data"
    port = free_port()
    runs: list[Run] = []
    try:
        # ---------------------------------------------------------------- 1. a fresh folder
        first = Run(data, port, tmp_path / "run-1.log")
        runs.append(first)
        first.start()
        health = first.wait_healthy()
        assert health["database"]["vendor"] == "postgresql"
        assert health["database"]["version"].startswith("18")
        assert (
            health["channel_layer"]["backend"] == "games.realtime.layer.LocalFirstRedisChannelLayer"
        )
        assert health["channel_layer"]["version"] == health["celery"]["version"] != ""

        players = [Player(name, session) for name, session in first.create_players(TABLES)]
        asyncio.run(play_all(port, players, PLAY_SECONDS))

        assert len({p.code for p in players}) == TABLES
        for p in players:
            assert all(status < 500 for _, status in p.statuses), p
            assert p.closed is None, f"{p.username}: the server closed the socket {p.closed}"
            assert set(p.errors) <= {"stale_version"}, p
            assert p.moves > 0, p
            assert p.advanced() > 0, p
            assert p.updates > p.moves, p  # the house AIs moved between this player's turns
        activity = first.table_activity([p.code for p in players])
        for p in players:  # shown when the test fails
            print(p.code, p.moves, p.updates, p.games_ended, p.errors, activity.get(p.code))
        assert sorted(activity) == sorted(p.code for p in players)
        for code, seen in activity.items():
            assert seen["games"] >= 1, (code, seen)
            assert seen.get("actions_human", 0) > 0, (code, seen)
            assert seen.get("actions_house", 0) > 0, (code, seen)  # run by the Celery workers
        kept = first.inventory()
        assert {p.username for p in players} <= set(kept["users"])
        assert kept["finished_games"], "seed_demo's finished game is missing"

        assert first.stop(signal.SIGINT) == 0  # and every process gone, every port free
        log = first.log.read_text(errors="replace")
        assert server_errors(log) == [], server_errors(log)
        assert "ERROR/" not in log  # no Celery task failed, no task killed by the stop

        # ---------------------------------------------------------------- 2. the same folder
        second = Run(data, port, tmp_path / "run-2.log")
        runs.append(second)
        second.start()
        second.wait_healthy()
        assert_kept(kept, second.inventory())

        # A worker killed with kill -9 is restarted while the site keeps answering.
        worker = second.program("-n bots-0@")
        assert worker is not None
        worker.kill()
        for _ in deadline_loop(120, "supervisord to restart the bots-0 worker"):
            status, health = get(port, "/healthz")  # an OSError here: the site went down
            assert status in (200, 503), health
            assert health["database"]["ok"], health
            again = second.program("-n bots-0@")
            if again is not None and again.pid != worker.pid and healthy_enough(health):
                break

        # So is daphne (the site is down for the second it takes).
        daphne = second.program("daphne")
        assert daphne is not None
        daphne.kill()
        for _ in deadline_loop(120, "supervisord to restart daphne"):
            again = second.program("daphne")
            if again is None or again.pid == daphne.pid:
                continue
            try:
                status, health = get(port, "/healthz")
            except OSError:
                continue
            if status == 200 and healthy_enough(health):
                break

        # ---------------------------------------------------------------- 3. after kill -9
        killed = second.kill()
        third = Run(data, port, tmp_path / "run-3.log")
        runs.append(third)
        third.start()  # at once: what the killed run left must not block this one
        third.wait_healthy()
        assert_all_gone(killed, ports=[])  # its ports are this run's now
        assert_kept(kept, third.inventory())
        assert third.stop(signal.SIGINT) == 0
        for run in (second, third):
            errors = server_errors(run.log.read_text(errors="replace"))
            assert errors == [], (run.log, errors)
        assert "ERROR/" not in third.log.read_text(errors="replace")
        assert_no_crash_recovery(data)
    finally:
        for run in runs:
            run.close()
