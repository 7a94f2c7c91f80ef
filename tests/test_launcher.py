"""config/launcher/ and bin/_bound.py: embedded servers for a command, and children that die
with their parent (the whole ./bin/run is exercised in tests/embedded/)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from config import launcher

ROOT = Path(__file__).resolve().parent.parent


def _wait(predicate: object, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise AssertionError("timed out")
        time.sleep(0.05)


def _listening(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) == 0


def test_a_bound_child_dies_with_its_parent_even_of_kill_9() -> None:
    parent_code = (
        "import subprocess, sys, time;"
        f"p = subprocess.Popen([sys.executable, {str(ROOT / 'bin' / '_bound.py')!r}, 'TERM', '--',"
        " 'sleep', '300']);"
        "print(p.pid, flush=True); time.sleep(300)"
    )
    parent = subprocess.Popen(
        [sys.executable, "-c", parent_code], stdout=subprocess.PIPE, text=True
    )
    assert parent.stdout is not None
    child = psutil.Process(int(parent.stdout.readline()))
    _wait(lambda: child.name() == "sleep")  # exec'd: the wrapper became the command
    parent.kill()
    parent.wait()
    child.wait(timeout=20)
    assert not child.is_running()


def test_services_runs_a_command_with_embedded_servers_and_stops_them() -> None:
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env.pop(launcher.EMBEDDED_ENV, None)
    probe = (
        "import json, os, psycopg, redis;"
        "c = psycopg.connect(os.environ['DATABASE_URL']);"
        "v = c.execute('SHOW server_version').fetchone()[0]; c.close();"
        "r = redis.Redis.from_url(os.environ['REDIS_URL']); r.set('k', 'v');"
        "print(json.dumps({'pg': v, 'redis': r.info('server')['redis_version'],"
        " 'db': os.environ['DATABASE_URL'], 'redis_url': os.environ['REDIS_URL'],"
        " 'embedded': os.environ['TIENLEN_EMBEDDED']}))"
    )
    done = subprocess.run(
        [sys.executable, "-m", "config.launcher", "services", "--", sys.executable, "-c", probe],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["pg"].startswith("18.")
    assert report["redis"].count(".") == 2
    assert report["embedded"] == "postgres,redis"
    assert report["db"].endswith("/tienlen")
    pg_port = int(report["db"].rsplit(":", 1)[1].split("/")[0])
    redis_port = int(report["redis_url"].rsplit(":", 1)[1].split("/")[0])
    assert {pg_port, redis_port}.isdisjoint({5432, 6379})
    assert not _listening(pg_port)
    assert not _listening(redis_port)


def test_services_passes_the_exit_code_and_uses_given_urls_as_they_are() -> None:
    env = dict(os.environ)
    env.pop(launcher.EMBEDDED_ENV, None)
    code = "import os, sys; sys.exit(7 if os.environ.get('TIENLEN_EMBEDDED') is None else 1)"
    done = subprocess.run(
        [sys.executable, "-m", "config.launcher", "services", "--", sys.executable, "-c", code],
        cwd=ROOT,
        env=env,  # DATABASE_URL and REDIS_URL of this run: nothing is started
        timeout=60,
        check=False,
    )
    assert done.returncode == 7


def test_supervisord_configuration_restarts_every_program_and_stops_servers_last(
    tmp_path: Path,
) -> None:
    env = {"TIENLEN_DATA_DIR": str(tmp_path), "BOTS_QUEUE_SHARDS": "2", "PORT": "8111"}
    servers = [
        launcher.Program("postgres", ["postgres"], priority=10, autostart=True, group=False),
        launcher.Program("redis", ["redis-server"], priority=10, autostart=True, group=False),
    ]
    site = launcher.site_programs(env)
    assert [p.name for p in site] == [
        "daphne",
        "worker-default",
        "worker-trials",
        "worker-lab",
        "worker-bots-0",
        "worker-bots-1",
        "worker-tournament",
        "worker-ladder",
        "beat",
    ]
    conf = launcher.supervisord_conf(tmp_path, [*servers, *site])
    assert (
        "programs=daphne,worker-default,worker-trials,worker-lab,worker-bots-0,worker-bots-1,"
        "worker-tournament,worker-ladder,beat" in conf
    )
    assert conf.count("autorestart=true") == 11
    assert "-Q trials -n trials@%%h" in conf  # untrusted test code: never on the timers' worker
    assert "--bot-shard-home bots.tournament" in conf  # through its lease (config/shards.py)
    assert "--bot-shard-home bots.ladder" in conf
    assert "-Q lab -n lab@%%h" in conf  # duplicate matches: a worker of their own
    assert min(p.priority for p in site) > max(p.priority for p in servers)
    assert "-n bots-1@%%h" in conf  # supervisord expands %(...)s: a bare % would break it
    assert "--bot-shards lease --bot-shard-home bots.1" in conf  # its shard, through a lease
    assert "-P threads --concurrency 8" in conf  # one process per shard, several games at once
    assert "--port 8111" in conf or "-p 8111" in conf
    assert all(str(launcher.BOUND) in p.command for p in site)  # each dies with supervisord


def test_a_second_run_on_the_same_data_is_refused_while_the_first_holds_the_lock(
    tmp_path: Path,
) -> None:
    with (
        launcher.run_lock(tmp_path),
        pytest.raises(SystemExit, match=r"another \./bin/run"),
        launcher.run_lock(tmp_path),
    ):
        pass
    with launcher.run_lock(tmp_path):  # released: free again
        pass


def test_the_run_lock_dies_with_a_killed_holder(tmp_path: Path) -> None:
    code = (
        "import sys, time; from pathlib import Path; from config import launcher;"
        f"cm = launcher.run_lock(Path({str(tmp_path)!r})); cm.__enter__();"
        "print('locked', flush=True); time.sleep(300)"
    )
    holder = subprocess.Popen(
        [sys.executable, "-c", code], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    assert holder.stdout is not None
    assert holder.stdout.readline().strip() == "locked"
    with pytest.raises(SystemExit), launcher.run_lock(tmp_path):
        pass
    holder.send_signal(signal.SIGKILL)
    holder.wait()
    with launcher.run_lock(tmp_path):
        pass
