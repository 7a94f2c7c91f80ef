"""The rate limit of the HTTP bot API, per bot token.

Every request to ``GET /api/bot/stream`` and ``POST /api/bot/game/<id>/move`` that carries a
bearer token counts against that token, before anything else is done with it (no move
checked): at most ``count`` requests per window of ``period`` seconds (setting
``BOTS_EXTERNAL_HTTP_RATE``, default ``20/s``). A request over it is answered 429
with the error code ``rate_limited`` and ``Retry-After`` (the seconds until the window ends),
and changes nothing.

The counters are fixed windows in the Django cache (Redis, shared by every daphne process),
keyed by the token's SHA-256, never the token itself; windows are read from
:mod:`games.clock`, so tests move time instead of waiting.

One exemption, for the HTTP limit and the socket's frame limit alike
(:func:`exempt_from_rate_limit`): a move that answers the bot's own open turn is never refused
for the rate, since the server, not the bot, sets the pace of turns (a match with house AIs
sends a turn every few milliseconds).
"""

from __future__ import annotations

import math
import re
from typing import Any

from django.conf import settings
from django.core.cache import cache

from bots.external import mailbox
from games import clock

#: Answers to one open turn that are exempt from the rate limits (a first move and two
#: corrections of a refused one); more go through the limits as any request.
EXEMPT_ANSWERS_PER_TURN = 3
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
    return parse_rate(str(settings.BOTS_EXTERNAL_HTTP_RATE))


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


def exempt_from_rate_limit(*, bot_id: int, game_id: Any, seq: Any) -> bool:
    """**The** exemption from the bot API's rate limits (the HTTP requests' and the socket's
    frames'): a ``move`` of external bot ``bot_id`` for game ``game_id`` that answers its own
    open turn ``seq`` (the turn is open in the mailbox and no move was accepted for it yet),
    up to :data:`EXEMPT_ANSWERS_PER_TURN` answers per turn. A bot that answers each of its
    turns, however fast they come, is therefore never refused ``rate_limited``."""
    if isinstance(game_id, bool) or not isinstance(game_id, int | str):
        return False
    if isinstance(seq, bool) or not isinstance(seq, int):
        return False
    turn = mailbox.get_turn(bot_id=bot_id, game_id=game_id)
    if turn is None or turn.get("seq") != seq:
        return False
    if mailbox.outcome(game_id=game_id, seq=seq) is not None:
        return False
    key = f"botapi-exempt:{bot_id}:{game_id}:{seq}"
    cache.add(key, 0, timeout=60)
    try:
        used = cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, timeout=60)
        used = 1
    return bool(used <= EXEMPT_ANSWERS_PER_TURN)
