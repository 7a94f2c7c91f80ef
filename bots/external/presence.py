"""Whether an external bot's program is connected now (docs/architecture.md "Connected or offline"):
a count of its open connections — WebSockets (``consumer.BotConsumer``) and NDJSON streams
(``http.stream``) — in the cache (Redis), shown beside the bot where it is offered for a seat
(Create Table, tournaments, Evaluate).

Each connection adds one when it opens and takes one when it closes. The count expires
:data:`PRESENCE_TTL` seconds after the last opening (a process that died without closing its
connections leaves at most that long a stale "connected"); a stream refreshes it at each
keep-alive. A shown state is a hint, never a promise: a program may drop the next second.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.core.cache import cache
from django.utils.translation import gettext as _

#: Seconds a count outlives its last refresh (an opening, a stream keep-alive, a frame).
PRESENCE_TTL = 3600


def _key(bot_id: int) -> str:
    return f"bots:external:online:{bot_id}"


def opened(bot_id: int) -> None:
    """One more open connection of the bot's program."""
    key = _key(bot_id)
    cache.add(key, 0, PRESENCE_TTL)
    try:
        cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, PRESENCE_TTL)
    cache.touch(key, PRESENCE_TTL)


def refreshed(bot_id: int) -> None:
    """The connection is still there (a keep-alive): its count does not expire yet."""
    cache.touch(_key(bot_id), PRESENCE_TTL)


def closed(bot_id: int) -> None:
    """One open connection fewer (never below zero)."""
    key = _key(bot_id)
    try:
        if cache.decr(key) < 0:
            cache.set(key, 0, PRESENCE_TTL)
    except ValueError:  # no count (expired): nothing to take
        pass


def connected(bot_ids: Iterable[int]) -> set[int]:
    """Which of ``bot_ids`` have a connection open now (one cache round trip).

    An unknown bot, or one whose count expired, is offline."""
    ids = list(dict.fromkeys(bot_ids))
    found = cache.get_many([_key(i) for i in ids])
    return {i for i in ids if int(found.get(_key(i)) or 0) > 0}


def suffix(bot: object, online: set[int]) -> str:
    """What a seat choice adds to an external bot's label: " · connected" or " · offline"
    (``online``: :func:`connected` of the bots offered); nothing for a JavaScript bot."""
    if not getattr(bot, "is_external", False):
        return ""
    return " · " + (_("connected") if getattr(bot, "pk", None) in online else _("offline"))
