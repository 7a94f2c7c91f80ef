"""The two commands: ``services`` (./bin/test) and ``run`` (./bin/run)."""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from http.client import HTTPException
from pathlib import Path
from typing import Any

from config.launcher.common import (
    BASE_DIR,
    EMBEDDED_ENV,
    SERVICES_ENV,
    bound_cmd,
    env_int,
    free_port,
    ignoring,
    preexec_bound,
    read_env_file,
    run_lock,
    say,
    write_env_file,
)
from config.launcher.servers import Postgres, Redis
from config.launcher.supervisor import (
    ROLES,
    Program,
    site_programs,
    stop_leftover_supervisor,
    supervisord_conf,
    wait_supervisor,
)


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
                preexec_fn=preexec_bound(signal.SIGINT),
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
                preexec_fn=preexec_bound(signal.SIGTERM),
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
        with ignoring(signal.SIGINT):
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


def _embedded_services(
    env: dict[str, str], data: Path, previous: Mapping[str, str]
) -> tuple[list[Program], list[Callable[[], None]], list[str]]:
    """The embedded PostgreSQL and Redis for what ``env`` does not name (``DATABASE_URL``,
    ``REDIS_URL``, which it then sets): their programs, readiness waits and names; their ports are
    kept in ``ports.env`` so a restart finds the same ones."""
    programs: list[Program] = []
    waits: list[Callable[[], None]] = []
    embedded = []
    if not env.get("DATABASE_URL"):
        pg = Postgres(data / "postgres", free_port(env_int(previous.get("POSTGRES_PORT"))))
        pg.prepare()
        programs.append(
            Program(
                "postgres",
                pg.command() if pg.user else bound_cmd("INT", pg.command()),
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
        rd = Redis(data / "redis", free_port(env_int(previous.get("REDIS_PORT"))))
        rd.prepare()
        programs.append(
            Program(
                "redis",
                bound_cmd("TERM", rd.command()),
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
        write_env_file(data / "ports.env", ports)
    return programs, waits, embedded


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
        previous = read_env_file(data / "ports.env")
        programs, waits, embedded = _embedded_services(env, data, previous)
        programs += site_programs(env)
        _metrics_dir(env, run_dir)
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
            preexec_fn=preexec_bound(signal.SIGTERM),
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
            proxy = wait_supervisor(run_dir, proc)
            for wait in waits:
                if stopping:
                    break
                wait()
            if embedded and not stopping:
                write_env_file(
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


def _metrics_dir(env: dict[str, str], run_dir: Path) -> None:
    """Every process of this node writes its metrics to one fresh folder (prometheus-client's
    multiprocess mode; docs/cluster.md "Metrics"), summed by the node's ``/metrics``."""
    metrics = run_dir / "metrics"
    subprocess.run(["rm", "-rf", str(metrics)], check=False)
    metrics.mkdir(parents=True)
    env["PROMETHEUS_MULTIPROC_DIR"] = str(metrics)


def node(
    roles: Sequence[str],
    *,
    name: str,
    migrate: bool = False,
    env_in: Mapping[str, str] | None = None,
) -> int:
    """``./bin/node``: the programs of ``roles`` on this machine, under supervisord, against the
    shared PostgreSQL and Redis that ``DATABASE_URL`` and ``REDIS_URL`` name (a node never
    starts embedded servers). ``migrate``: migrate the database first (one node, once per
    deploy). A web role collects its static files. Ctrl-C stops the node."""
    env = dict(os.environ if env_in is None else env_in)
    missing = [key for key in ("DATABASE_URL", "REDIS_URL") if not env.get(key)]
    if missing:
        print(
            f"error: {' and '.join(missing)} must be set: a node runs against the cluster's "
            "shared PostgreSQL and Redis (docs/cluster.md); ./bin/run is the one-machine site.",
            file=sys.stderr,
        )
        return 2
    data = Path(env.get("TIENLEN_DATA_DIR") or BASE_DIR / ".data").resolve() / "nodes" / name
    env["TIENLEN_DATA_DIR"] = str(data)
    env["TIENLEN_NODE"] = name
    run_dir = data / "run"
    with run_lock(data):
        run_dir.mkdir(parents=True, exist_ok=True)
        stop_leftover_supervisor(run_dir)
        programs = site_programs(env, roles, node=name)
        _metrics_dir(env, run_dir)
        conf = run_dir / "supervisord.conf"
        conf.write_text(supervisord_conf(run_dir, programs))
        supervisord = str(Path(sys.executable).parent / "supervisord")
        say(f"Node {name}: {', '.join(roles)} ({', '.join(p.name for p in programs)})")
        proc = subprocess.Popen(
            [supervisord, "-c", str(conf)],
            env=env,
            cwd=BASE_DIR,
            preexec_fn=preexec_bound(signal.SIGTERM),
            start_new_session=True,
        )
        stopping = False

        def stop(signum: int, _frame: Any) -> None:
            nonlocal stopping
            if not stopping:
                stopping = True
                say(f"Stopping node {name}")
                with contextlib.suppress(ProcessLookupError):
                    proc.send_signal(signal.SIGTERM)

        for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(signum, stop)
        try:
            proxy = wait_supervisor(run_dir, proc)
            if migrate and not stopping:
                say("Migrating the database")
                _manage(env, "migrate", "--noinput")
            if "web" in roles and not stopping:
                _manage(env, "collectstatic", "--noinput", "--verbosity", "0")
            if not stopping:
                proxy.supervisor.startProcessGroup("site", False)
                if "web" in roles:
                    host, port = env.get("HOST", "127.0.0.1"), env.get("PORT", "8000")
                    health = _wait_healthy(f"http://{host}:{port}/healthz?scope=node", proc)
                    say(f"Node {name} serving on http://{host}:{port}/ ({_health_line(health)})")
        except (subprocess.CalledProcessError, SystemExit, OSError, HTTPException) as exc:
            if not stopping:
                print(f"error: {exc}", file=sys.stderr, flush=True)
                stop(signal.SIGTERM, None)
        code = proc.wait()
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


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m config.launcher", description=__doc__)
    sub = parser.add_subparsers(dest="what", required=True)
    sub.add_parser("run", help="./bin/run: the whole site under supervisord")
    node_parser = sub.add_parser(
        "node", help="./bin/node: chosen roles against shared PostgreSQL and Redis"
    )
    node_parser.add_argument(
        "--roles",
        default=",".join(ROLES),
        help=f"comma-separated, of: {', '.join(ROLES)} (default: all)",
    )
    node_parser.add_argument("--name", default=None, help="this node's name (default: host name)")
    node_parser.add_argument("--host", default=None, help="web: the address (HOST, 127.0.0.1)")
    node_parser.add_argument("--port", default=None, help="web: the port (PORT, 8000)")
    node_parser.add_argument(
        "--migrate", action="store_true", help="migrate the database first (one node, once)"
    )
    services_parser = sub.add_parser(
        "services", help="./bin/test: run a command with a real PostgreSQL and Redis"
    )
    services_parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args(argv)
    if args.what == "run":
        return run()
    if args.what == "node":
        roles = [r.strip() for r in args.roles.split(",") if r.strip()]
        unknown = sorted(set(roles) - set(ROLES))
        if unknown or not roles:
            parser.error(
                f"--roles: unknown {', '.join(unknown) or '(none)'}; of {', '.join(ROLES)}"
            )
        env = dict(os.environ)
        if args.host:
            env["HOST"] = args.host
        if args.port:
            env["PORT"] = str(args.port)
        name = args.name or env.get("TIENLEN_NODE") or socket.gethostname()
        return node(roles, name=name, migrate=args.migrate, env_in=env)
    command = list(args.command)
    if command and command[0] == "--":
        command = command[1:]
    if not command:
        parser.error("services needs a command after --")
    return services(command)
