"""Issue 27: the Prometheus endpoint counts a move once it is played and answers only whom it
may (config/metrics.py); celery-redbeat lets one beat hold the lock while a second waits, and
hands it over when the first is killed."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
import redis
from django.conf import settings as django_settings
from django.test import Client

from games import services
from games.engine.registry import find_game
from games.metrics import NODE
from tests.games.live import pending_seat, started_table, state_of

BASE = Path(__file__).resolve().parents[2]


def _moves(text: str, actor: str) -> float:
    labels = rf'[^}}]*actor="{actor}"[^}}]*node="{re.escape(NODE)}"[^}}]*'
    pattern = rf"^tienlen_moves_total\{{{labels}\}} (\S+)$"
    found = re.search(pattern, text, re.M)
    return float(found.group(1)) if found else 0.0


@pytest.mark.django_db(transaction=True)
def test_metrics_count_a_played_move_and_answer_only_loopback_or_the_token(settings: Any) -> None:
    client = Client(REMOTE_ADDR="127.0.0.1")
    before = _moves(client.get("/metrics").content.decode(), "human")
    table, users, game = started_table()
    seat = pending_seat(game)
    move = dict(find_game(game.engine).house_action(state_of(game), seat, "easy"))
    move.pop("seat", None)
    services.game_play(table_id=table.pk, user=users[seat], version=game.version, action=move)

    response = client.get("/metrics")
    assert response.status_code == 200
    text = response.content.decode()
    assert _moves(text, "human") == before + 1
    assert re.search(r"^tienlen_move_seconds_count\{[^}]*\} [1-9]", text, re.M)
    assert re.search(r'^tienlen_queue_length\{[^}]*queue="default"[^}]*\} \d', text, re.M)

    assert Client(REMOTE_ADDR="203.0.113.9").get("/metrics").status_code == 404
    through_proxy = client.get("/metrics", HTTP_X_FORWARDED_FOR="203.0.113.9")
    assert through_proxy.status_code == 404
    settings.METRICS_TOKEN = "s3cret"
    assert client.get("/metrics").status_code == 404
    outside = Client(REMOTE_ADDR="203.0.113.9")
    assert outside.get("/metrics", HTTP_AUTHORIZATION="Bearer wrong").status_code == 404
    assert outside.get("/metrics", HTTP_AUTHORIZATION="Bearer s3cret").status_code == 200


def _beat(prefix: str, log: Path) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "REDBEAT_KEY_PREFIX": prefix,
        "BEAT_LOCK_TIMEOUT": "3",
    }
    celery = str(Path(sys.executable).parent / "celery")
    out = open(log, "wb")  # noqa: SIM115 - the child keeps it
    return subprocess.Popen(
        [celery, "-A", "config", "beat", "--loglevel", "INFO", "--pidfile="],
        cwd=BASE,
        env=env,
        stdout=out,
        stderr=subprocess.STDOUT,
    )


def _wait(cond: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}")
        time.sleep(0.1)


@pytest.mark.slow
def test_redbeat_one_beat_holds_the_lock_a_second_waits_and_takes_over(tmp_path: Path) -> None:
    prefix = f"test-redbeat-{uuid.uuid4().hex[:8]}:"
    client = redis.Redis.from_url(django_settings.REDIS_URL)
    lock = f"{prefix}:lock"
    logs = [tmp_path / "beat1.log", tmp_path / "beat2.log"]
    first = _beat(prefix, logs[0])
    second: subprocess.Popen[bytes] | None = None
    try:
        _wait(lambda: client.get(lock) is not None, 60, "the first beat's lock")
        holder = client.get(lock)
        second = _beat(prefix, logs[1])
        # the second beat is up (its banner) and asking for the lock (it has loaded the
        # schedule), while the first renews it (the lock's TTL goes back up) and keeps it
        _wait(
            lambda: "beat" in logs[1].read_text() and "is starting" in logs[1].read_text(),
            60,
            "the second beat to start",
        )
        # the lock lives 3 s unless renewed: held by the same token for three times that
        # long (checked every 0.1 s), the holder has renewed it, and the second has not taken
        # it. (Waiting for the TTL to read higher than one sample was flaky: a sample taken
        # just after a renewal reads ~2,995 ms, and the next renewal sets exactly 3,000.)
        watched_until = time.monotonic() + 9
        while time.monotonic() < watched_until:
            assert client.get(lock) == holder, [log.read_text()[-3000:] for log in logs]
            time.sleep(0.1)
        assert first.poll() is None
        assert second.poll() is None  # the second one waits
        os.kill(first.pid, signal.SIGKILL)
        first.wait(10)
        # it takes over once the dead one's lock expired (BEAT_LOCK_TIMEOUT 3 s here)
        _wait(lambda: client.get(lock) not in (None, holder), 15, "the second beat to take over")
    finally:
        for proc in (first, second):
            if proc is not None and proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
                proc.wait(15)
        keys = list(client.scan_iter(f"{prefix}*"))
        if keys:
            client.delete(*keys)


def test_a_dead_process_s_open_sockets_leave_the_node_s_sum(tmp_path: Path) -> None:
    """Multiprocess mode (the launcher's PROMETHEUS_MULTIPROC_DIR): a daphne killed with
    ``kill -9`` never closed its sockets' gauge; the endpoint drops its live gauge file."""
    from prometheus_client import values
    from prometheus_client.multiprocess import MultiProcessCollector
    from prometheus_client.registry import CollectorRegistry

    from config.metrics import forget_dead_processes

    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    dead_pid = int(dead.stdout)
    old = values.ValueClass
    try:
        for pid in (dead_pid, os.getpid()):
            os.environ["PROMETHEUS_MULTIPROC_DIR"] = str(tmp_path)
            values.ValueClass = values.MultiProcessValue(lambda pid=pid: pid)
            from prometheus_client import Gauge

            gauge = Gauge(
                "tienlen_open_sockets",
                "x",
                ["node", "kind"],
                multiprocess_mode="livesum",
                registry=None,
            )
            gauge.labels("n", "table").inc(2)
    finally:
        values.ValueClass = old
        os.environ.pop("PROMETHEUS_MULTIPROC_DIR", None)

    def total() -> float:
        registry = CollectorRegistry()
        MultiProcessCollector(registry, path=str(tmp_path))
        value = registry.get_sample_value("tienlen_open_sockets", {"node": "n", "kind": "table"})
        return float(value or 0)

    assert total() == 4
    assert forget_dead_processes(tmp_path) == [dead_pid]
    assert total() == 2


def test_what_a_dead_worker_s_tasks_become() -> None:
    """docs/cluster.md "Celery: what a dead worker loses": server tasks go back to their
    queue when their process dies (the lab's matches too), user code off the tables does not;
    a waiting countdown is never delivered twice (the visibility timeout outlasts the longest
    one)."""
    from celery import current_app
    from django import forms

    from games.tournaments.forms import TournamentCreateForm

    current_app.loader.import_default_modules()
    tasks = current_app.tasks
    assert tasks["games.turn_timeout"].acks_late
    assert tasks["games.turn_timeout"].reject_on_worker_lost
    assert tasks["games.timers_heal"].reject_on_worker_lost
    for name in ("bots.tasks.botversion_validate", "bots.tasks.bot_test_run_task"):
        assert tasks[name].reject_on_worker_lost is False
    assert tasks["bots.tasks.match_run"].reject_on_worker_lost is True  # resumes from slices
    field = TournamentCreateForm.base_fields["round_gap_seconds"]
    assert isinstance(field, forms.IntegerField)
    longest = field.max_value
    assert longest is not None
    assert current_app.conf.broker_transport_options["visibility_timeout"] > longest
    assert current_app.conf.beat_scheduler == "redbeat.RedBeatScheduler"
    assert current_app.conf.redbeat_lock_timeout < 30
