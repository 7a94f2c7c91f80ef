"""This process's Redis clients for the site's own keys (limits, seat leases).

One synchronous client per process and URL (never shared across a fork: a child gets its own
on first use), and one ``redis.asyncio`` client per event loop and URL, for the consumers'
calls on the loop itself (a ``redis.asyncio`` connection belongs to the loop that opened it,
and asking Redis from the loop costs no thread hop). The channel layer and Celery keep
clients of their own.
"""

from __future__ import annotations

import asyncio
import functools
import os
import weakref
from typing import Any

import redis
import redis.asyncio as aredis
from django.conf import settings


@functools.cache
def _sync(url: str, pid: int) -> redis.Redis:
    return redis.Redis.from_url(url)


def sync_client(url: str | None = None) -> redis.Redis:
    """This process's client of ``url`` (default: ``REDIS_URL``)."""
    return _sync(url or str(settings.REDIS_URL), os.getpid())


_per_loop: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, aredis.Redis]] = (
    weakref.WeakKeyDictionary()
)


def async_client(url: str | None = None) -> aredis.Redis:
    """The running loop's client of ``url`` (default: ``REDIS_URL``); call it on the loop."""
    loop = asyncio.get_running_loop()
    clients = _per_loop.setdefault(loop, {})
    key = url or str(settings.REDIS_URL)
    client = clients.get(key)
    if client is None:
        client = clients[key] = aredis.Redis.from_url(key)
    return client


_scripts: weakref.WeakKeyDictionary[Any, dict[str, Any]] = weakref.WeakKeyDictionary()


def script(client: Any, source: str) -> Any:
    """Lua ``source`` registered on ``client`` (a sync or an asyncio one: each has its own),
    once: the ``Script`` to call with ``keys=`` and ``args=``."""
    registered = _scripts.setdefault(client, {})
    found = registered.get(source)
    if found is None:
        found = registered[source] = client.register_script(source)
    return found
