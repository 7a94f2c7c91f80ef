"""Rate and connection limits shared by every daphne process: counters in Redis.

Two kinds of counter, each one Lua script run atomically by Redis (no counter lives in a
process, so several daphne processes share every limit):

- :func:`take`: a token bucket. A rate ``"<count>/<period>"`` (``"30/h"``, ``"20/s"``,
  ``"10/15m"``) allows a burst of ``count`` and refills ``count`` per ``period``. Frames of all
  of one user's sockets, chat lines, creations, failed log-ins per account and bad tokens per
  address are buckets.
- :func:`slot_acquire` / :func:`slot_release`: leases of open connections (a sorted set of
  channel names scored by their expiry): at most ``cap`` live at once. An open socket renews
  its lease (:data:`LEASE_SECONDS`) while it lives, so the slots of a process that died free
  themselves within a minute.

Time is read from :mod:`games.clock` (tests move it instead of waiting). Keys go through the
cache's key prefix (``cache.make_key``), so a test run never sees another's counters. Where each
limit applies, with its numbers and codes: docs/protocol.md "Limits".
"""

from __future__ import annotations

import ipaddress
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache

from games import clock
from games.redis_clients import async_client, script, sync_client

#: Seconds a connection's slot lives unless the connection renews it.
LEASE_SECONDS = 60.0
_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
_RATE = re.compile(r"^\s*(\d+)\s*/\s*(\d*)\s*([smhd])\w*\s*$")

_BUCKET = """
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
local cost = tonumber(ARGV[4])
local state = redis.call('HMGET', KEYS[1], 't', 's')
local tokens = tonumber(state[1])
local stamp = tonumber(state[2])
if tokens == nil or stamp == nil then
  tokens = burst
  stamp = now
end
if now > stamp then
  tokens = math.min(burst, tokens + (now - stamp) * rate)
  stamp = now
end
local need = math.max(cost, 1)
local wait = 0
if tokens + 1e-9 >= need then  -- a refill that lands exactly on a token is one
  tokens = math.max(0, tokens - cost)
else
  wait = (need - tokens) / rate
end
-- %.17g: tostring keeps only 14 digits, which would cut a unix time to 0.1 ms
redis.call('HSET', KEYS[1], 't', string.format('%.17g', tokens), 's', string.format('%.17g', stamp))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst / rate * 1000) + 1000)
return string.format('%.17g', wait)
"""

_SLOT = """
local now = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local mine = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not mine and redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then
  return 0
end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
redis.call('PEXPIRE', KEYS[1], math.ceil((tonumber(ARGV[3]) - now) * 1000) + 1000)
return 1
"""


@dataclass(frozen=True)
class Rate:
    """``count`` per ``period`` seconds: a burst of ``count``, refilled evenly.

    >>> Rate.parse("30/h"), Rate.parse("10/15m").per_second
    (Rate(count=30, period=3600), 0.0111...)
    """

    count: int
    period: int

    @classmethod
    def parse(cls, text: str) -> Rate:
        found = _RATE.match(text)
        if found is None or int(found[1]) < 1 or found[2] == "0":
            raise ValueError(f"a rate is <count>/<period> such as 20/s or 10/15m, not {text!r}")
        return cls(int(found[1]), int(found[2] or 1) * _UNITS[found[3]])

    @property
    def per_second(self) -> float:
        return self.count / self.period


def setting_rate(name: str) -> Rate:
    """The rate of setting ``name`` (declared in config/settings; read on each call: tests
    change it)."""
    return Rate.parse(str(getattr(settings, name)))


def _scripts(client: Any) -> tuple[Any, Any]:
    """The two scripts registered on ``client`` (a sync or an asyncio one: each has its own)."""
    return script(client, _BUCKET), script(client, _SLOT)


def _bucket_args(name: str, rate: Rate, cost: int) -> tuple[list[str], list[Any]]:
    key = cache.make_key(f"limit:{name}")
    return [key], [rate.per_second, rate.count, clock.now(), cost]


def _slot_args(name: str, member: str, cap: int) -> tuple[list[str], list[Any]]:
    now = clock.now()
    return [cache.make_key(f"slots:{name}")], [member, now, now + LEASE_SECONDS, cap]


def _wait(answer: Any) -> float | None:
    wait = float(answer)
    return None if wait <= 0 else wait


def take(name: str, rate: Rate, *, cost: int = 1) -> float | None:
    """Take ``cost`` from the bucket ``name`` of ``rate``: None when allowed, else the seconds
    until it would be (nothing is taken then). ``cost=0`` only asks (is one left?)."""
    bucket, _slot = _scripts(sync_client())
    keys, args = _bucket_args(name, rate, cost)
    return _wait(bucket(keys=keys, args=args))


async def atake(name: str, rate: Rate, *, cost: int = 1) -> float | None:
    """:func:`take` on the event loop (no thread hop)."""
    bucket, _slot = _scripts(async_client())
    keys, args = _bucket_args(name, rate, cost)
    return _wait(await bucket(keys=keys, args=args))


def retry_after(wait: float) -> int:
    """Whole seconds for a ``Retry-After`` header (at least 1).

    >>> retry_after(0.2), retry_after(2.5)
    (1, 3)
    """
    return max(1, math.ceil(wait))


def slot_acquire(name: str, member: str, *, cap: int) -> bool:
    """Hold one of the ``cap`` slots of ``name`` for ``member`` (a channel name) for
    :data:`LEASE_SECONDS`; True when held (a member that holds one renews it)."""
    _bucket, slot = _scripts(sync_client())
    keys, args = _slot_args(name, member, cap)
    return bool(slot(keys=keys, args=args))


def slot_release(name: str, member: str) -> None:
    sync_client().zrem(cache.make_key(f"slots:{name}"), member)


# The same calls for consumers, on the event loop itself (the process's asyncio client of
# games.redis_clients: no thread hop).


async def aslot_acquire(name: str, member: str, *, cap: int) -> bool:
    """:func:`slot_acquire` on the event loop."""
    _bucket, slot = _scripts(async_client())
    keys, args = _slot_args(name, member, cap)
    return bool(await slot(keys=keys, args=args))


async def aslots_renew(held: Sequence[tuple[str, str]]) -> None:
    """Renew every ``(name, member)`` slot of ``held`` for :data:`LEASE_SECONDS` with one
    Redis script call (:data:`_RENEW`; no cap: a held slot is renewed, one that lapsed is
    taken again). A process renews all its sockets' slots with one call
    (``games.consumers.SocketWatch``): a pipeline of :func:`slot_acquire`'s script per socket
    cost the event loop each socket's packing and reply (docs/benchmarks.md, session 17)."""
    if not held:
        return
    now = clock.now()
    keys = [cache.make_key(f"slots:{name}") for name, _member in held]
    args = [now, now + LEASE_SECONDS, *(member for _name, member in held)]
    await script(async_client(), _RENEW)(keys=keys, args=args)


#: :data:`_SLOT` without its cap, for many slots at once: KEYS[i] gets ARGV[i + 2].
_RENEW = """
local now, lapses = tonumber(ARGV[1]), tonumber(ARGV[2])
local ttl = math.ceil((lapses - now) * 1000) + 1000
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
  redis.call('ZADD', key, ARGV[2], ARGV[i + 2])
  redis.call('PEXPIRE', key, ttl)
end
return #KEYS
"""


async def aslot_release(name: str, member: str) -> None:
    """:func:`slot_release` on the event loop."""
    await async_client().zrem(cache.make_key(f"slots:{name}"), member)


#: Seconds a process keeps the unused tokens of a lease on a shared bucket (:class:`Leases`).
FRAME_LEASE_SECONDS = 60.0


def lease_size(rate: Rate) -> int:
    """How many tokens of a shared bucket one process takes at once (:class:`Leases`): a
    quarter of the burst, so a user's frames ask Redis once per that many.

    >>> lease_size(Rate.parse("40/2s")), lease_size(Rate.parse("4/m"))
    (10, 1)
    """
    return max(1, rate.count // 4)


@dataclass
class _Lease:
    tokens: int
    until: float  # clock time after which the unused tokens are dropped


class Leases:
    """A process's leases on shared buckets: the frames of one user's sockets.

    Asking Redis for every frame cost each move a round trip on the event loop (about a tenth
    of a paced move's daphne CPU, docs/benchmarks.md "Issue 26"). Instead the first frame
    takes :func:`lease_size` tokens from the shared bucket at once and the next frames of that
    user on this process spend them locally, until they run out or :data:`FRAME_LEASE_SECONDS`
    have passed (then the rest is dropped). When the bucket cannot give a whole lease the
    frame asks for its one token, as without leases; with a lease of 1 (a burst under 8)
    every frame asks Redis.

    Every token a lease spends was taken from the shared bucket, so the limit still holds
    across every socket of the user on every daphne process, with one bounded slack: tokens
    leased before a burst may be spent in it, on top of what the bucket gives then. In any
    window a user's frames are at most the bucket's (burst plus refill) plus, per daphne
    process, one lease less the frame that took it (``GAMES_WS_USER_RATE`` 40/2s: 40 + 9 per
    process). Leases kept only as long as the bucket takes to refill them would remove that
    slack, but a person's frames (a move every few seconds, a ping every 15 s) would then
    find every lease expired and ask Redis each time. Near the limit a user may also be
    refused slightly early (tokens leased by one process are not used by another)."""

    def __init__(self) -> None:
        self._leases: dict[tuple[str, Rate], _Lease] = {}

    async def take(self, name: str, rate: Rate) -> bool:
        """One token of bucket ``name`` of ``rate``: True when allowed."""
        now = clock.now()
        key = (name, rate)  # a changed setting starts afresh
        lease = self._leases.get(key)
        if lease is not None and lease.tokens > 0 and now < lease.until:
            lease.tokens -= 1
            return True
        self._leases.pop(key, None)
        size = lease_size(rate)
        if size > 1 and await atake(name, rate, cost=size) is None:
            if len(self._leases) > 10_000:  # forget the users who went quiet
                self._leases = {k: v for k, v in self._leases.items() if v.until > now}
            self._leases[key] = _Lease(size - 1, now + FRAME_LEASE_SECONDS)
            return True
        return await atake(name, rate) is None


#: The leases of the frames of every socket of this process (:class:`Leases`).
frame_leases = Leases()


def address_key(address: str | None) -> str | None:
    """The counter key of a client address: IPv4 as it is, IPv6 by its /64 (one subscriber
    holds a whole /64); None for no or an unreadable address.

    >>> address_key("203.0.113.9"), address_key("2001:db8:1:2:3:4:5:6"), address_key("x")
    ('203.0.113.9', '2001:db8:1:2::/64', None)
    """
    try:
        ip = ipaddress.ip_address((address or "").strip())
    except ValueError:
        return None
    if ip.version == 6:
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def scope_address(scope: Any) -> str | None:
    """The client address of an ASGI scope (config.proxy sets it from a trusted proxy)."""
    client = scope.get("client") if hasattr(scope, "get") else None
    return address_key(str(client[0])) if client else None


# --------------------------------------------------------------------------- bad tokens
# Failed token lookups one client address may make (bot tokens and REST API tokens):
# ACCOUNTS_BAD_TOKEN_RATE, 30/m.


def _bad_token_rate() -> Rate:
    return setting_rate("ACCOUNTS_BAD_TOKEN_RATE")


def bad_token_wait(address: str | None) -> float | None:
    """The seconds address ``address`` must wait before its next token lookup (it made too
    many failed ones), None when it may look one up."""
    if address is None:
        return None
    return take(f"badtoken:{address}", _bad_token_rate(), cost=0)


def bad_token_seen(address: str | None) -> None:
    """Count one failed token lookup of ``address``."""
    if address is not None:
        take(f"badtoken:{address}", _bad_token_rate())


async def abad_token_wait(address: str | None) -> float | None:
    """:func:`bad_token_wait` on the event loop."""
    if address is None:
        return None
    return await atake(f"badtoken:{address}", _bad_token_rate(), cost=0)


async def abad_token_seen(address: str | None) -> None:
    """:func:`bad_token_seen` on the event loop."""
    if address is not None:
        await atake(f"badtoken:{address}", _bad_token_rate())
