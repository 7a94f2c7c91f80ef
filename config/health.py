"""Infrastructure checks behind ``/healthz``: database, channel layer (Redis), Celery broker and
workers.

Each check returns a JSON-able dict with ``ok``, the service's ``mode`` (``embedded``: started
from a pip package by ``./bin/run`` or ``./bin/test``; ``external``: the one DATABASE_URL /
REDIS_URL names) and its server ``version``; none raises.
"""

from __future__ import annotations

import time
from typing import Any

import redis
from celery import Celery
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection

TIMEOUT_SECONDS = 2
#: How long ``/healthz`` waits for Celery workers to answer a ping.
WORKER_PING_SECONDS = 1.0

Check = dict[str, Any]


def _timed(started: float) -> float:
    return round((time.monotonic() - started) * 1000, 1)


def _mode(service: str) -> str:
    embedded = settings.EMBEDDED_SERVICES
    return "embedded" if service in embedded else "external"


def _redis_version(url: str) -> str:
    client = redis.Redis.from_url(
        url, socket_timeout=TIMEOUT_SECONDS, socket_connect_timeout=TIMEOUT_SECONDS
    )
    try:
        info = client.info("server")
    finally:
        client.close()
    return str(info.get("redis_version", ""))


def check_database() -> Check:
    started = time.monotonic()
    mode = _mode("postgres")
    try:
        with connection.cursor() as cursor:
            cursor.execute("SHOW server_version")
            row = cursor.fetchone()
    except Exception as exc:
        return {"ok": False, "vendor": connection.vendor, "mode": mode, "error": _describe(exc)}
    version = str(row[0]).split()[0] if row else ""
    return {
        "ok": True,
        "vendor": connection.vendor,
        "mode": mode,
        "version": version,
        "ms": _timed(started),
    }


def check_channel_layer() -> Check:
    started = time.monotonic()
    layer = get_channel_layer()
    if layer is None:
        return {"ok": False, "error": "CHANNEL_LAYERS has no default layer"}
    backend = f"{type(layer).__module__}.{type(layer).__name__}"
    mode = _mode("redis")
    hosts = settings.CHANNEL_LAYERS["default"].get("CONFIG", {}).get("hosts", [])
    version = ""
    try:
        for host in hosts:
            version = _redis_version(host if isinstance(host, str) else host["address"])
    except Exception as exc:
        return {"ok": False, "mode": mode, "backend": backend, "error": _describe(exc)}
    return {
        "ok": True,
        "mode": mode,
        "backend": backend,
        "version": version,
        "ms": _timed(started),
    }


def check_celery() -> Check:
    """The broker answers, and which workers answer a ping (a site without a worker plays no
    bot turn and fires no timer, so no worker is unhealthy)."""
    started = time.monotonic()
    url: str = settings.CELERY_BROKER_URL
    mode = _mode("redis") if url == settings.REDIS_URL else "external"
    # A separate client app: pinging through the site's own app with a connection to another
    # broker (as tests do) left that app publishing nowhere afterwards.
    probe = Celery("healthz", broker=url, set_as_current=False)
    try:
        version = _redis_version(url) if url.startswith(("redis://", "rediss://")) else ""
        with probe.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=TIMEOUT_SECONDS)
        replies = probe.control.ping(timeout=WORKER_PING_SECONDS) or []
    except Exception as exc:
        return {"ok": False, "mode": mode, "error": _describe(exc), "workers": []}
    finally:
        probe.close()
    workers = sorted(name for reply in replies for name in reply)
    check: Check = {
        "ok": bool(workers),
        "mode": mode,
        "version": version,
        "workers": workers,
        "ms": _timed(started),
    }
    if not workers:
        check["error"] = "no Celery worker answered"
    return check


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"[:300]


def run_checks(*, node: bool = False) -> dict[str, Any]:
    """Every check; ``node``: only what this web node needs to serve (the database and the
    channel layer), the proxy's health check (``/healthz?scope=node``, deploy/haproxy.py): no
    Celery worker is a trouble of the whole site, not a reason to take this node out."""
    report: dict[str, Any] = {
        "database": check_database(),
        "channel_layer": check_channel_layer(),
    }
    if not node:
        report["celery"] = check_celery()
    healthy = all(part["ok"] for part in report.values())
    return {"status": "ok" if healthy else "degraded", **report}
