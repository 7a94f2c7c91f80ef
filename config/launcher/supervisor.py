"""The supervisord layout of ./bin/run: programs, configuration, its XML-RPC socket."""

from __future__ import annotations

import shlex
import signal
import subprocess
import sys
import time
import xmlrpc.client
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from http.client import HTTPException
from pathlib import Path
from typing import Any

from config.launcher.common import (
    BASE_DIR,
    bound_cmd,
    pid_alive,
    say,
    stop_leftover,
)
from config.shards import IDLE_QUEUE


def stop_leftover_supervisor(run_dir: Path, *, timeout: float = 120.0) -> None:
    """Wait for the supervisord of a run killed with ``kill -9``: it receives SIGTERM when the
    run dies and then stops the site and the servers in order, which takes a few seconds, while
    it still holds its socket, the site's port and the servers' data. Killed after ``timeout``
    (its programs then die with it, ``bin/_bound.py``)."""
    pidfile = run_dir / "supervisord.pid"
    if not pidfile.exists():
        return
    text = pidfile.read_text().strip()
    pid = int(text) if text.isdigit() else 0
    if pid and pid_alive(pid, "supervisord", str(run_dir)):
        say(f"Waiting for the supervisord of a killed run to stop its programs (pid {pid})")
        stop_leftover(pid, signal.SIGTERM, timeout=timeout)
    pidfile.unlink(missing_ok=True)


@dataclass
class Program:
    """One supervisord program."""

    name: str
    command: list[str]
    priority: int
    stopsignal: str = "TERM"
    stopwaitsecs: int = 15
    autostart: bool = False
    user: str | None = None
    log: Path | None = None  # None: the terminal
    #: Kill the whole process group (a worker's pool processes) when the program does not stop
    #: in ``stopwaitsecs``. The stop signal itself goes to the program alone: a Celery worker's
    #: warm shutdown lets its pool finish the running tasks, while a SIGTERM to the group killed
    #: them mid-task.
    group: bool = True

    def section(self) -> str:
        lines = [
            f"[program:{self.name}]",
            "command=" + " ".join(shlex.quote(part) for part in self.command).replace("%", "%%"),
            f"directory={BASE_DIR}",
            f"priority={self.priority}",
            f"autostart={'true' if self.autostart else 'false'}",
            "autorestart=true",
            "startsecs=1",
            "startretries=100",
            f"stopsignal={self.stopsignal}",
            f"stopwaitsecs={self.stopwaitsecs}",
            "stopasgroup=false",
            f"killasgroup={'true' if self.group else 'false'}",
            "redirect_stderr=true",
        ]
        if self.user:
            lines.append(f"user={self.user}")
        if self.log is None:
            lines += ["stdout_logfile=/dev/stdout", "stdout_logfile_maxbytes=0"]
        else:
            lines += [f"stdout_logfile={self.log}", "stdout_logfile_maxbytes=10MB"]
        return "\n".join(lines) + "\n"


def supervisord_conf(run_dir: Path, programs: Sequence[Program]) -> str:
    sock = run_dir / "supervisor.sock"
    site = ",".join(p.name for p in programs if not p.autostart)
    head = f"""[supervisord]
nodaemon=true
logfile={run_dir / "supervisord.log"}
logfile_maxbytes=10MB
loglevel=info
pidfile={run_dir / "supervisord.pid"}
childlogdir={run_dir}

[unix_http_server]
file={sock}
chmod=0700

[rpcinterface:supervisor]
supervisor.rpcinterface_factory = supervisor.rpcinterface:make_main_rpcinterface

[supervisorctl]
serverurl=unix://{sock}

[group:site]
programs={site}

"""
    return head + "\n".join(p.section() for p in programs)


def _rpc(run_dir: Path) -> Any:
    from supervisor.xmlrpc import SupervisorTransport

    transport = SupervisorTransport(None, None, f"unix://{run_dir / 'supervisor.sock'}")
    return xmlrpc.client.ServerProxy("http://127.0.0.1", transport=transport)


def wait_supervisor(run_dir: Path, proc: subprocess.Popen[bytes], timeout: float = 30.0) -> Any:
    """Wait until supervisord answers on its socket; return a proxy to it."""
    deadline = time.monotonic() + timeout
    while True:
        if proc.poll() is not None:
            raise SystemExit(f"error: supervisord exited with {proc.returncode}")
        proxy = _rpc(run_dir)  # a fresh one: a failed request leaves the transport unusable
        try:
            if proxy.supervisor.getState()["statename"] == "RUNNING":
                return _rpc(run_dir)
        except (OSError, HTTPException, xmlrpc.client.Fault):
            pass
        if time.monotonic() > deadline:
            raise SystemExit("error: supervisord did not start")
        time.sleep(0.1)


def _celery_worker(
    name: str,
    queues: str,
    node: str,
    concurrency: str,
    *,
    celery: str,
    pool: str | None = None,
    nice: int = 0,
    extra: Sequence[str] = (),
) -> Program:
    """A Celery worker program: ``queues`` (comma-separated), node ``node`` (``%h`` is the
    host name), ``concurrency`` pool slots, the default (prefork) pool unless ``pool`` names
    another, at CPU priority ``nice`` (``nice -n``; 0: as every other program). Stopped with a
    warm shutdown that gets 30 s to finish the running tasks."""
    command = [celery, "-A", "config", "worker", "--loglevel", "INFO", "-Q", queues, "-n", node]
    if pool is not None:
        command += ["-P", pool]
    command += ["--concurrency", concurrency, *extra]
    if nice:
        command = ["nice", "-n", str(nice), *command]
    return Program(name, bound_cmd("TERM", command), priority=200, stopwaitsecs=30)


#: CPU priority (``nice``) of the worker of tournament tables' turns: under load the kernel
#: gives people's tables' shard workers (nice 0) about nine times its share of the CPU.
TOURNAMENT_NICE = 10

#: CPU priority of the bot ladder's worker (its scheduler and its tables' turns): below the
#: tournaments', so under load people's tables, then tournaments, come first.
LADDER_NICE = 15


#: The roles a node may run (``./bin/node --roles``, docs/cluster.md), each a set of programs:
#: web (daphne), worker (the default and trials workers: timers, healers, validation games),
#: bots (one worker per bot shard and the tournament tables' worker), lab (duplicate matches),
#: ladder (the bot ladder's worker) and beat. ``./bin/run`` runs them all.
ROLES = ("web", "worker", "bots", "lab", "ladder", "beat")


def site_programs(
    env: Mapping[str, str], roles: Sequence[str] = ROLES, *, node: str = "%h"
) -> list[Program]:
    """daphne, the default worker (timers, server code only), the trials worker (validation
    games, Test Bot runs), the lab (matches) worker, one worker per bot shard, the tournament
    tables' worker and beat: production's layout (docs/architecture.md "Queues and
    workers"), or the programs of ``roles`` only. ``node`` ends every Celery worker's name
    (``default@<node>``; ``%h``: the host name)."""
    unknown = sorted(set(roles) - set(ROLES))
    if unknown:
        raise ValueError(f"unknown roles: {', '.join(unknown)} (roles: {', '.join(ROLES)})")
    venv_bin = Path(sys.executable).parent
    celery = str(venv_bin / "celery")
    shards = max(1, int(env.get("BOTS_QUEUE_SHARDS") or 1))
    host, port = env.get("HOST", "127.0.0.1"), env.get("PORT", "8000")
    daphne = [str(venv_bin / "daphne"), "--bind", host, "--port", port, "config.asgi:application"]
    programs: list[tuple[str, Program]] = [
        ("web", Program("daphne", bound_cmd("TERM", daphne), priority=300)),
        # Timers and server code: no user's bot code ever runs here.
        (
            "worker",
            _celery_worker(
                "worker-default",
                "default,bots",
                f"default@{node}",
                env.get("CELERY_CONCURRENCY") or "2",
                celery=celery,
            ),
        ),
        # Untrusted code off the tables (validation games, Test Bot runs).
        (
            "worker",
            _celery_worker(
                "worker-trials",
                "trials",
                f"trials@{node}",
                env.get("BOTS_TRIALS_CONCURRENCY") or "2",
                celery=celery,
            ),
        ),
        # Duplicate matches (bots/matches/): long tasks on a queue of their own.
        (
            "lab",
            _celery_worker(
                "worker-lab",
                "lab",
                f"lab@{node}",
                env.get("BOTS_LAB_CONCURRENCY") or "1",
                celery=celery,
            ),
        ),
    ]
    # One process per shard (the game's sandboxes live there), several games at once in
    # threads: a slow bot costs only its own table. Each consumes its home shard through a
    # lease (config/shards.py): while it is down (supervisord restarts it) a live one takes
    # the shard over, and gives it back once it is up again (docs/bot-affinity.md).
    threads = env.get("BOTS_SHARD_THREADS") or "8"
    programs += [
        (
            "bots",
            _celery_worker(
                f"worker-bots-{n}",
                IDLE_QUEUE,
                f"bots-{n}@{node}",
                threads,
                celery=celery,
                pool="threads",
                extra=("--bot-shards", "lease", "--bot-shard-home", f"bots.{n}"),
            ),
        )
        for n in range(shards)
    ]
    # Tournament tables' turns: one process too (their sandboxes), at a lower CPU priority.
    # Consumed through a lease like a shard's (config/shards.py): of the nodes running this
    # worker one consumes bots.tournament, another takes it over when that one dies.
    programs.append(
        (
            "bots",
            _celery_worker(
                "worker-tournament",
                IDLE_QUEUE,
                f"tournament@{node}",
                threads,
                celery=celery,
                pool="threads",
                extra=("--bot-shards", "lease", "--bot-shard-home", "bots.tournament"),
                nice=TOURNAMENT_NICE,
            ),
        )
    )
    # The bot ladder (docs/bot-ladder.md): its tasks and its tables' turns, one process (the
    # sandboxes of a game stay in it), at the lowest CPU priority of all. ``ladder`` (its
    # scheduler's tasks) is consumed everywhere, ``bots.ladder`` through a lease (as above).
    programs.append(
        (
            "ladder",
            _celery_worker(
                "worker-ladder",
                "ladder",
                f"ladder@{node}",
                env.get("LADDER_THREADS") or "4",
                celery=celery,
                pool="threads",
                extra=("--bot-shards", "lease", "--bot-shard-home", "bots.ladder"),
                nice=LADDER_NICE,
            ),
        )
    )
    # Beat's schedule and its lock live in Redis (celery-redbeat, CELERY_BEAT_SCHEDULER): any
    # number of nodes may run it, one sends the jobs, another takes over when it dies.
    beat = [celery, "-A", "config", "beat", "--loglevel", "INFO", "--pidfile="]
    programs.append(("beat", Program("beat", bound_cmd("TERM", beat), priority=200)))
    return [program for role, program in programs if role in roles]


def _manage(env: Mapping[str, str], *args: str) -> None:
    subprocess.run([sys.executable, "manage.py", *args], cwd=BASE_DIR, env=dict(env), check=True)
