"""The rate limit of the HTTP bot API, per bot token.

Every request to ``GET /api/bot/stream`` and ``POST /api/bot/game/<id>/move`` that carries a
bearer token counts against that token, before anything else is done with it (no database
lookup, no move checked): at most ``count`` requests per window of ``period`` seconds (setting
``BOTS_EXTERNAL_HTTP_RATE``, default :data:`DEFAULT_RATE`). A request over it is answered 429
with the error code ``rate_limited`` and ``Retry-After`` (the seconds until the window ends),
and changes nothing.

The counters are fixed windows in the Django cache (Redis, shared by every daphne process),
keyed by the token's SHA-256, never the token itself; windows are read from
:mod:`games.clock`, so tests move time instead of waiting.
"""

from __future__ import annotations

import math
import re

from django.conf import settings
from django.core.cache import cache

from games import clock

#: Requests per token per second unless the setting says otherwise.
DEFAULT_RATE = "20/s"
_UNITS = {"s": 1, "m": 60, "h": 3600}
_RATE = re.compile(r"^\s*(\d+)\s*/\s*(\d*)\s*([smh])\s*$")


def parse_rate(text: str) -> tuple[int, int]:
    """``"<count>/<period>"`` as (count, seconds).

    >>> parse_rate("20/s"), parse_rate("40/10s"), parse_rate("600/m")
    ((20, 1), (40, 10), (600, 60))
    """
    found = _RATE.match(text)
    if found is None or int(found[1]) < 1 or found[2] == "0":
        raise ValueError(f"a rate is <count>/<period> such as 20/s, not {text!r}")
    return int(found[1]), int(found[2] or 1) * _UNITS[found[3]]


def rate() -> tuple[int, int]:
    return parse_rate(str(getattr(settings, "BOTS_EXTERNAL_HTTP_RATE", None) or DEFAULT_RATE))


def hit(token_key: str) -> int | None:
    """Count one request of the token whose hash is ``token_key``: None when it is within the
    limit, else the whole seconds until its window ends (at least 1)."""
    count, period = rate()
    now = clock.now()
    window = int(now // period)
    key = f"botapi-rate:{token_key}:{period}:{window}"
    cache.add(key, 0, timeout=period + 1)
    try:
        used = cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, timeout=period + 1)
        used = 1
    if used <= count:
        return None
    return max(1, math.ceil((window + 1) * period - now))
