"""Which sockets hold a seat, as leases in Redis (the run's ``REDIS_URL``): presence that a dead
process cannot leave behind.

A seat's ``connections`` (PostgreSQL) counts the sockets a person has open at it; a socket's
disconnect takes itself off. A web node killed with ``kill -9`` runs no disconnect, so its
sockets would stay counted for ever. So every counted socket also holds a lease: it is a member
(its channel name) of the sorted set ``seat:<table>:<seat>:<user>``, scored with the unix time
it lapses, :func:`lease_seconds` (``GAMES_PRESENCE_SECONDS``, 15) after it was counted or last
renewed. The process's socket watch renews its sockets' due leases together, in one round
trip, every :func:`renew_every` seconds while they live (games/consumers.py ``LoopWatch``); a
closed socket drops its lease at once; a dead process's leases lapse on their own.

Beat's ``games.presence_heal`` (every 5 s) recounts every seat counted as connected whose live
leases are fewer than its count (games/services/presence.py ``presence_heal``): a seat left with
none turns disconnected and its disconnect hold starts, as if the sockets had closed. Counting
and recounting both happen under the table's row lock, the lease written before the count is
committed, so a recount never sees a count without its lease. Times are read from
:func:`games.clock.now` (tests set it).
"""

from __future__ import annotations

from typing import Any

import redis
from django.conf import settings

from games import clock
from games.redis_clients import async_client, script, sync_client


def lease_seconds() -> float:
    """Seconds a socket's lease lasts unless renewed (setting ``GAMES_PRESENCE_SECONDS``)."""
    return max(1.0, float(settings.GAMES_PRESENCE_SECONDS))


def renew_every() -> float:
    """How often a live socket renews its lease: a third of :func:`lease_seconds`."""
    return lease_seconds() / 3


def _prefix() -> str:
    base = str(settings.CACHES.get("default", {}).get("KEY_PREFIX", "") or "")
    return f"{base}:presence:"


def seat_key(table_id: int, seat: int, user_id: int) -> str:
    return f"{_prefix()}seat:{table_id}:{seat}:{user_id}"


def client() -> redis.Redis:
    """This process's client (one per process: never shared across a fork)."""
    return sync_client()


def hold(*, table_id: int, seat: int, user_id: int, member: str) -> None:
    """``member`` (a socket's channel name) holds the seat for :func:`lease_seconds`; calling
    it again renews the lease."""
    hold_many([(table_id, seat, user_id, member)])


def hold_many(leases: list[tuple[int, int, int, str]]) -> None:
    """:func:`hold` for many ``(table_id, seat, user_id, member)`` in one round trip (the
    process's socket watch renews every due lease of its sockets at once)."""
    if leases:
        keys, args = _hold_args(leases)
        script(client(), _HOLD)(keys=keys, args=args)


# One script call holds them all: a pipeline of ZADD and EXPIRE per lease cost the socket watch
# two commands' packing and replies per socket (docs/benchmarks.md, session 16).
_HOLD = """
local lapses, ttl = ARGV[1], ARGV[2]
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, lapses, ARGV[i + 2])
  redis.call('EXPIRE', key, ttl)
end
return #KEYS
"""


def _hold_args(leases: list[tuple[int, int, int, str]]) -> tuple[list[str], list[Any]]:
    """The keys and arguments of :data:`_HOLD` for ``leases``: each lease's sorted set gets
    its member scored with the time it lapses, and lives 5 s past that."""
    until = clock.now() + lease_seconds()
    keys = [seat_key(table_id, seat, user_id) for table_id, seat, user_id, _ in leases]
    return keys, [until, int(lease_seconds()) + 5, *(member for *_, member in leases)]


def release(*, table_id: int, seat: int, user_id: int, member: str) -> None:
    client().zrem(seat_key(table_id, seat, user_id), member)


def live(seats: list[tuple[int, int, int]]) -> list[int]:
    """For each ``(table_id, seat, user_id)``, how many of its leases have not lapsed (one
    round trip; lapsed ones are removed)."""
    if not seats:
        return []
    now = clock.now()
    pipe = client().pipeline()
    for table_id, seat, user_id in seats:
        key = seat_key(table_id, seat, user_id)
        pipe.zremrangebyscore(key, "-inf", now)
        pipe.zcard(key)
    return [int(n) for n in pipe.execute()[1::2]]


async def ahold_many(leases: list[tuple[int, int, int, str]]) -> None:
    """:func:`hold_many` on the event loop (the process's socket watch; no thread hop)."""
    if leases:
        keys, args = _hold_args(leases)
        await script(async_client(), _HOLD)(keys=keys, args=args)
