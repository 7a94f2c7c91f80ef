"""Check that the PostgreSQL and Redis named by DATABASE_URL and REDIS_URL are reachable.

``./bin/run`` and ``./bin/test`` call it when the URLs are set (without them they start embedded
servers instead). Prints one clear line naming what is down and how to start it (or to unset the
URL and let the command start an embedded server), and exits 1.
"""

from __future__ import annotations

import os
import sys
from urllib.parse import urlsplit

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/tienlen"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"
START_POSTGRES = "pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start"
START_REDIS = (
    'redis-server --daemonize yes --bind 127.0.0.1 --port {port} --save "" --appendonly no'
)


def _where(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.hostname or 'localhost'}:{parts.port or ''}".rstrip(":")


def check_postgres(url: str) -> str | None:
    import psycopg

    parts = urlsplit(url)
    try:
        # Connect to the maintenance database: pytest-django creates test_<name> itself.
        psycopg.connect(
            host=parts.hostname or "127.0.0.1",
            port=parts.port or 5432,
            user=parts.username or "postgres",
            password=parts.password,
            dbname="postgres",
            connect_timeout=3,
        ).close()
    except Exception as exc:
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return f"PostgreSQL at {_where(url)} ({reason})"
    return None


def check_redis(url: str) -> str | None:
    import redis

    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=3, socket_timeout=3)
        client.ping()
        client.close()
    except Exception as exc:
        return f"Redis at {_where(url)} ({type(exc).__name__})"
    return None


def main() -> int:
    database_url = os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL
    redis_url = os.environ.get("REDIS_URL") or DEFAULT_REDIS_URL
    scheme = urlsplit(database_url).scheme
    if scheme not in {"postgres", "postgresql", "pgsql"}:
        print(f"error: DATABASE_URL must name PostgreSQL, got '{scheme}://...'", file=sys.stderr)
        return 1
    down: list[tuple[str, str]] = []
    if problem := check_postgres(database_url):
        down.append((problem, START_POSTGRES))
    if problem := check_redis(redis_url):
        down.append((problem, START_REDIS.format(port=urlsplit(redis_url).port or 6379)))
    if not down:
        return 0
    what = " and ".join(problem for problem, _ in down)
    how = " && ".join(command for _, command in down)
    verb = "is" if len(down) == 1 else "are"
    print(
        f"error: {what} {verb} not reachable; start with: {how} "
        "(or unset DATABASE_URL / REDIS_URL to use embedded servers)",
        file=sys.stderr,
    )
    return 1


if __name__ == "__main__":
    sys.exit(main())
