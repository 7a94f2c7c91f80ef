"""Leases in Redis: a key that names its holder and lapses unless the holder renews it.

:class:`ShardLeases` is the bot workers' (config/shards.py, docs/bot-affinity.md): a worker
holds the leases of the shard queues it consumes, renews them every tick, hands a shard back
to its home worker and takes over the shards of a dead one. A running Bot Lab match holds one
lease the same way (bots/matches/leases.py): its worker renews it, and beat's healer resumes
a match whose lease lapsed. Apps import this; the project package (``config``) re-exports it.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import redis

__all__ = ["PREFIX", "ShardLeases", "Step", "home_key", "lease_key"]

PREFIX = "tienlen:bots"

_RENEW = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('pexpire', KEYS[1], ARGV[2])
end
return 0
"""
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('del', KEYS[1])
end
return 0
"""


def lease_key(queue: str, prefix: str = PREFIX) -> str:
    return f"{prefix}:lease:{queue}"


def home_key(queue: str, prefix: str = PREFIX) -> str:
    return f"{prefix}:home:{queue}"


@dataclass
class Step:
    """What one :meth:`ShardLeases.tick` changed: shards ``gained`` (consume them), ``lost``
    (stop consuming at once: someone else may hold them) and ``returning`` (stop consuming,
    then :meth:`ShardLeases.release`: their home worker is back)."""

    gained: list[str] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)
    returning: list[str] = field(default_factory=list)


class ShardLeases:
    """The leases of one worker on ``shards`` (queue names), in ``client`` (a Redis)."""

    def __init__(
        self,
        client: redis.Redis,
        me: str,
        shards: Iterable[str],
        *,
        home: str | None = None,
        ttl_s: float = 4.0,
        takeover: bool = True,
        choose: Callable[[list[str]], str] = random.choice,
        prefix: str = PREFIX,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.client, self.me, self.shards = client, me, list(shards)
        self.home, self.ttl_ms, self.takeover = home, int(ttl_s * 1000), takeover
        self.held: set[str] = set()
        self.prefix, self._clock = prefix, clock
        #: No takeover before this: the other home workers started with this one have said
        #: they are alive by then (otherwise the first one up takes every shard for a tick).
        self._takeover_from = clock() + ttl_s
        self._choose = choose
        self._renew = client.register_script(_RENEW)
        self._release = client.register_script(_RELEASE)

    def tick(self) -> Step:
        """Renew, hand back, take (see the module's docstring)."""
        step = Step()
        for queue in sorted(self.held):
            if not self._renew(keys=[lease_key(queue, self.prefix)], args=[self.me, self.ttl_ms]):
                self.held.discard(queue)
                step.lost.append(queue)
        if self.home is not None:
            self.client.set(home_key(self.home, self.prefix), self.me, px=self.ttl_ms)
        for queue in sorted(self.held - {self.home}):
            owner = self.client.get(home_key(queue, self.prefix))
            if owner is not None and _text(owner) != self.me:
                step.returning.append(queue)  # still held until release()
        if self.home is not None and self.home not in self.held and self.take(self.home):
            step.gained.append(self.home)
        if self.takeover and self._clock() >= self._takeover_from:
            free = [
                q
                for q in self.shards
                if q not in self.held
                and q != self.home
                and not self.client.exists(home_key(q, self.prefix), lease_key(q, self.prefix))
            ]
            if free and self.take(queue := self._choose(free)):
                step.gained.append(queue)
        return step

    def take(self, queue: str) -> bool:
        """Take ``queue``'s lease if nobody holds it (then it is renewed by :meth:`tick`)."""
        if self.client.set(lease_key(queue, self.prefix), self.me, nx=True, px=self.ttl_ms):
            self.held.add(queue)
            return True
        return False

    def release(self, queue: str) -> None:
        """Let ``queue`` go now (this worker no longer consumes it)."""
        self.held.discard(queue)
        self._release(keys=[lease_key(queue, self.prefix)], args=[self.me])

    def release_all(self) -> None:
        for queue in sorted(self.held):
            self.release(queue)
        if self.home is not None:
            self.client.delete(home_key(self.home, self.prefix))


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
