"""Whether an external bot's program is connected, in Redis (the run's ``REDIS_URL``).

Each open connection of a bot (a WebSocket on ``/ws/bot/`` or an HTTP stream on
``/api/bot/stream``) is a member of the sorted set ``online:<bot>`` scored with the unix time
it lapses: :data:`PRESENCE_SECONDS` (``BOTS_EXTERNAL_PRESENCE_SECONDS``, 60) after it opened or
last showed life. The socket refreshes it on every frame and every :func:`refresh_every`
seconds (20) while it stays open, the stream at each keep-alive line (7 s); a closed connection
leaves at once, and one whose process died lapses on its own within 60 s.

A bot is online while one of its connections has not lapsed. Other users may seat only an
online external bot (``bot_offline`` otherwise, :mod:`bots.seating`): a program that is not
connected would only time out, lose and take strikes. Times are read from
:func:`games.clock.now` (tests set it).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.conf import settings
from django.utils.translation import gettext as _

from bots.external.mailbox import client, key_prefix
from games import clock

#: Seconds a connection counts as open after it last showed life (setting
#: ``BOTS_EXTERNAL_PRESENCE_SECONDS``).
PRESENCE_SECONDS = 60.0


def presence_seconds() -> float:
    return max(1.0, float(settings.BOTS_EXTERNAL_PRESENCE_SECONDS))


def refresh_every() -> float:
    """How often an open socket renews its presence: a third of :func:`presence_seconds`."""
    return presence_seconds() / 3


def online_key(bot_id: int) -> str:
    return f"{key_prefix()}online:{bot_id}"


def connection_opened(*, bot_id: int, connection: str) -> None:
    """Count ``connection`` (a channel name) as open for :func:`presence_seconds`; calling it
    again renews it."""
    key = online_key(bot_id)
    lapses = clock.now() + presence_seconds()
    pipe = client().pipeline()
    pipe.zadd(key, {connection: lapses})
    pipe.expire(key, int(presence_seconds()) + 1)
    pipe.execute()


#: An open connection renews itself the way it first counted.
connection_alive = connection_opened


def connection_closed(*, bot_id: int, connection: str) -> None:
    client().zrem(online_key(bot_id), connection)


def bot_online(*, bot_id: int) -> bool:
    """Whether a connection of the bot is open (one that has not lapsed)."""
    return bool(client().zcount(online_key(bot_id), f"({clock.now()}", "+inf"))


def bots_online(bot_ids: list[int]) -> set[int]:
    """The ids among ``bot_ids`` of bots that are online (one round trip)."""
    if not bot_ids:
        return set()
    pipe = client().pipeline()
    now = clock.now()
    for bot_id in bot_ids:
        pipe.zcount(online_key(bot_id), f"({now}", "+inf")
    return {bot_id for bot_id, n in zip(bot_ids, pipe.execute(), strict=True) if n}


def connected(bot_ids: Iterable[int]) -> set[int]:
    """Which of ``bot_ids`` have a connection open now (:func:`bots_online`, duplicates
    dropped): what the seat pickers show beside an external bot."""
    return bots_online(list(dict.fromkeys(bot_ids)))


def suffix(bot: object, online: set[int]) -> str:
    """What a seat choice adds to an external bot's label: " · connected" or " · offline"
    (``online``: :func:`connected` of the bots offered); nothing for a JavaScript bot. A shown
    state is a hint, never a promise: a program may drop the next second."""
    if not getattr(bot, "is_external", False):
        return ""
    return " · " + (_("connected") if getattr(bot, "pk", None) in online else _("offline"))
