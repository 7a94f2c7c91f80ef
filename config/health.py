"""Infrastructure checks behind ``/healthz``: database, channel layer, Celery broker.

Each check returns a JSON-able dict with ``ok`` and details; none raises.
"""

from __future__ import annotations

import time
from typing import Any

import redis
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection

TIMEOUT_SECONDS = 2

Check = dict[str, Any]


def _timed(started: float) -> float:
    return round((time.monotonic() - started) * 1000, 1)


def _ping_redis(url: str) -> None:
    client = redis.Redis.from_url(
        url, socket_timeout=TIMEOUT_SECONDS, socket_connect_timeout=TIMEOUT_SECONDS
    )
    try:
        client.ping()
    finally:
        client.close()


def check_database() -> Check:
    started = time.monotonic()
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:
        return {"ok": False, "vendor": connection.vendor, "error": _describe(exc)}
    return {"ok": True, "vendor": connection.vendor, "ms": _timed(started)}


def check_channel_layer() -> Check:
    started = time.monotonic()
    layer = get_channel_layer()
    if layer is None:
        return {"ok": False, "error": "CHANNEL_LAYERS has no default layer"}
    backend = f"{type(layer).__module__}.{type(layer).__name__}"
    if backend == "channels.layers.InMemoryChannelLayer":
        return {"ok": True, "mode": "in-memory", "backend": backend}
    hosts = settings.CHANNEL_LAYERS["default"].get("CONFIG", {}).get("hosts", [])
    try:
        for host in hosts:
            _ping_redis(host if isinstance(host, str) else host["address"])
    except Exception as exc:
        return {"ok": False, "mode": "redis", "backend": backend, "error": _describe(exc)}
    return {"ok": True, "mode": "redis", "backend": backend, "ms": _timed(started)}


def check_celery_broker() -> Check:
    started = time.monotonic()
    url: str = settings.CELERY_BROKER_URL
    eager: bool = settings.CELERY_TASK_ALWAYS_EAGER
    if url.startswith("memory://"):
        return {"ok": True, "mode": "eager", "eager": eager}
    from config.celery import app

    try:
        with app.connection_for_write(url) as conn:
            conn.ensure_connection(max_retries=1, timeout=TIMEOUT_SECONDS)
    except Exception as exc:
        return {"ok": False, "mode": "broker", "eager": eager, "error": _describe(exc)}
    return {"ok": True, "mode": "broker", "eager": eager, "ms": _timed(started)}


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"[:300]


def run_checks() -> dict[str, Any]:
    report: dict[str, Any] = {
        "database": check_database(),
        "channel_layer": check_channel_layer(),
        "celery_broker": check_celery_broker(),
    }
    healthy = all(part["ok"] for part in report.values())
    return {"status": "ok" if healthy else "degraded", **report}
