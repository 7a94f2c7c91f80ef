"""The channel layer: channels-redis, delivering a group message to this process's own sockets
without the round trip through Redis.

channels-redis already batches a group message for the sockets of one process into one Redis
entry, but each move still cost that process two more round trips (a pipeline and a Lua script
that push the entry) and one more to take it back (the process's blocking receive), with a
msgpack encode and decode between. Here :meth:`LocalFirstRedisChannelLayer.group_send` still
reads the group's members from Redis (a socket on another daphne process is a member like any
other), then puts the message straight into the receive buffer of every member channel of this
process and sends through Redis only to the others. Per channel, messages keep the order in
which they were sent; a group message to a process-local channel no longer waits behind the
Redis queue of that process.

Receiving changes with it: channels-redis lets one of the process's waiting consumers run the
blocking Redis pop for all of them, so a message put into that consumer's own buffer would
wait until Redis gave it something (up to 5 s). Here one reader task per process does the
pops and fills the buffers, and every consumer only waits on its own buffer
(:meth:`LocalFirstRedisChannelLayer.receive`).

The process's own members are known without Redis: every ``group_add`` of a local channel
goes through this layer, which notes it (``local_groups``) before telling Redis. So a group
message reaches them first, before the one script that reads the group's members from Redis
returns (0.4 ms of a move's ~4 ms in daphne with the box idle, docs/benchmarks.md "Issue 26 …
session 19"); that read still runs, for the members of other processes, and a local channel it
lists that this process did not note (none is expected) gets the message then, once.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from channels_redis.core import (  # type: ignore[import-untyped]
    ChannelLock,
    RedisChannelLayer,
)

logger = logging.getLogger(__name__)

#: A group's members, after dropping those older than the group expiry (ARGV[1]).
_MEMBERS = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], 0, ARGV[1])
return redis.call('ZRANGE', KEYS[1], 0, -1)
"""

#: channels-redis 4.3's group push: each key gets its message unless over its capacity.
_PUSH = """
local over_capacity = 0
local current_time = ARGV[#ARGV - 1]
local expiry = ARGV[#ARGV]
for i=1,#KEYS do
    if redis.call('ZCOUNT', KEYS[i], '-inf', '+inf') < tonumber(ARGV[i + #KEYS]) then
        redis.call('ZADD', KEYS[i], current_time, ARGV[i])
        redis.call('EXPIRE', KEYS[i], expiry)
    else
        over_capacity = over_capacity + 1
    end
end
return over_capacity
"""


#: How long a noted member may be missing from Redis's list of its group before this process
#: forgets it (:meth:`LocalFirstRedisChannelLayer.forget_unlisted`).
NOTED_GRACE_SECONDS = 60.0


class LocalFirstRedisChannelLayer(RedisChannelLayer):
    """``channels_redis.core.RedisChannelLayer`` whose group sends reach this process's own
    member channels directly (see the module docstring). Configured like its parent; the
    ``CHANNEL_LAYERS`` backend of config/settings (docs/benchmarks.md "Issue 26")."""

    _reader: asyncio.Task[None] | None = None
    receive_event_loop: asyncio.AbstractEventLoop | None  # set by the parent's __init__
    #: This process's own member channels of each group (channel -> ``time.monotonic()`` of
    #: its ``group_add``), noted by :meth:`group_add` before Redis is told and dropped by
    #: :meth:`group_discard`, or by :meth:`group_send` once Redis no longer lists it.
    local_groups: dict[str, dict[str, float]]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.local_groups = {}

    async def group_add(self, group: str, channel: str) -> None:
        if self.local_channel(channel):
            self.local_groups.setdefault(group, {})[channel] = time.monotonic()
        await super().group_add(group, channel)

    async def group_discard(self, group: str, channel: str) -> None:
        members = self.local_groups.get(group)
        if members is not None:
            members.pop(channel, None)
            if not members:
                del self.local_groups[group]
        await super().group_discard(group, channel)

    async def flush(self) -> None:
        self.local_groups.clear()
        await super().flush()

    async def receive(self, channel: str) -> dict[str, Any]:
        """The next message of ``channel``. A process-local channel (``specific.<prefix>!…``,
        every consumer's) waits on its own buffer, which this process's reader task
        (:meth:`read_forever`) and local group sends fill; other channels as the parent."""
        if "!" not in channel:
            message: dict[str, Any] = await super().receive(channel)
            return message
        assert self.require_valid_channel_name(channel)
        assert self.local_channel(channel), "Wrong client prefix"
        self.start_reader()
        queue = self.receive_buffer[channel]
        try:
            message = await queue.get()
        finally:
            if queue.empty() and self.receive_buffer.get(channel) is queue:
                del self.receive_buffer[channel]
        return message

    def start_reader(self) -> None:
        """Start the reader task on the running loop unless it runs there already (a test's
        new loop replaces the last one's)."""
        loop = asyncio.get_running_loop()
        task, current = self._reader, self.receive_event_loop
        if task is not None and not task.done() and current is loop:
            return
        if task is not None:  # the last loop died with its reader inside a receive: the
            # locks that reader held belong to that loop and would never be released
            self.receive_clean_locks = ChannelLock()
        self.receive_event_loop = loop
        self._reader = loop.create_task(self.read_forever())

    async def read_forever(self) -> None:
        """Take this process's messages off Redis and put each into its channels' buffers."""
        real = f"specific.{self.client_prefix}!"
        me = asyncio.current_task()
        while True:
            if me is not None and me.cancelling():  # see :meth:`_brpop_with_clean`
                raise asyncio.CancelledError
            try:
                target, message = await self.receive_single(real)
            except asyncio.CancelledError:
                raise
            except Exception:
                # a cancellation that the Redis client turned into another error (its pop was
                # interrupted) must still end the task: asked once, asyncio does not ask
                # again, and a loop closing (a test's) would wait for this task forever
                if me is not None and me.cancelling():
                    raise asyncio.CancelledError from None
                logger.warning("channel layer receive failed", exc_info=True)  # Redis away
                await asyncio.sleep(1.0)
                continue
            for channel in target if isinstance(target, list) else [target]:
                self.receive_buffer[channel].put_nowait(message)

    async def _brpop_with_clean(self, index: int, channel: str, timeout: float) -> Any:
        """The parent's blocking pop, ended by a cancellation that got lost on the way.

        redis-py may turn the cancellation of a pending ``BZPOPMIN`` into a timeout and retry
        the command, and the parent's ``receive_single`` pops again while it gets nothing:
        asyncio asks a task to cancel once, so the reader would pop forever and a loop that
        closes (each async test's) would wait for it forever. The bot-socket test that hung
        with this layer (tests/bots/external/test_tokens_and_sockets.py) was that wait. After a
        pop that returned nothing, a task asked to cancel stops (within ``brpop_timeout``, 5
        s); a message it did get is kept in the backup queue, as the parent's cancellation
        leaves it."""
        member = await super()._brpop_with_clean(index, channel, timeout)
        me = asyncio.current_task()
        if member is None and me is not None and me.cancelling():
            raise asyncio.CancelledError
        return member

    async def close_pools(self) -> None:
        if self._reader is not None and self.receive_event_loop is asyncio.get_running_loop():
            self._reader.cancel()
            self._reader = None
        await super().close_pools()

    def local_channel(self, channel: str) -> bool:
        """Whether ``channel`` is one this process receives on (``specific.<prefix>!…``)."""
        return channel.startswith(f"specific.{self.client_prefix}!")

    def deliver_locally(self, channels: list[str], message: dict[str, Any]) -> bool:
        """Put ``message`` into the receive buffer of each of ``channels`` (all local), on the
        loop the consumers receive on; False (nothing done) when nothing of this process
        receives yet, so the caller sends through Redis as the parent would."""
        loop = self.receive_event_loop
        if loop is None or loop.is_closed() or self._reader is None or self._reader.done():
            return False
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None

        def put() -> None:
            for channel in channels:
                self.receive_buffer[channel].put_nowait(dict(message))

        if running is loop:
            put()
        else:  # a sender on another loop (the sync senders' thread): hand it over in order
            loop.call_soon_threadsafe(put)
        return True

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        """Send ``message`` to every member of ``group``: this process's own channels
        directly, those it noted (:attr:`local_groups`) before asking Redis, the others
        through Redis (one script reads the members: the parent's two round trips made one).
        A process that receives nothing (a Celery worker) sends as the parent does."""
        if self._reader is None or self._reader.done():
            await super().group_send(group, message)
            return
        assert self.require_valid_group_name(group), "Group name not valid"
        noted = list(self.local_groups.get(group, ()))
        delivered = set(noted) if noted and self.deliver_locally(noted, message) else set()
        connection = self.connection(self.consistent_hash(group))
        members = await connection.eval(
            _MEMBERS, 1, self._group_key(group), int(time.time()) - self.group_expiry
        )
        listed = [m.decode("utf8") for m in members]
        present = set(listed)
        if any(c not in present for c in noted):
            self.forget_unlisted(group, present)
        names = [c for c in listed if c not in delivered]
        local = [c for c in names if self.local_channel(c)]
        if local and self.deliver_locally(local, message):
            names = [c for c in names if not self.local_channel(c)]
        if names:
            await self.push(group, names, message)

    def forget_unlisted(self, group: str, listed: set[str]) -> None:
        """Drop the noted channels of ``group`` that Redis no longer lists, noted more than
        :data:`NOTED_GRACE_SECONDS` ago: a socket whose consumer ended without its
        ``group_discard`` (daphne killing an application instance that did not close in
        time) would otherwise be delivered to, into a buffer nobody reads, for as long as the
        process lives; Redis forgets it after ``group_expiry``. The grace spares a channel
        whose ``group_add`` has not reached Redis yet."""
        noted = self.local_groups.get(group)
        if not noted:
            return
        old = time.monotonic() - NOTED_GRACE_SECONDS
        for channel in [c for c, at in noted.items() if c not in listed and at < old]:
            del noted[channel]
        if not noted:
            del self.local_groups[group]

    async def push(self, group: str, channels: list[str], message: dict[str, Any]) -> None:
        """Push ``message`` through Redis to ``channels`` (members of ``group`` in other
        processes): the second half of the parent's ``group_send``, as channels-redis 4.3
        writes it (its capacity check and expiry)."""
        by_connection, messages, capacities = self._map_channel_keys_to_connection(
            channels, message
        )
        for index, keys in by_connection.items():
            connection = self.connection(index)
            pipe = connection.pipeline()
            for key in keys:
                pipe.zremrangebyscore(key, min=0, max=int(time.time()) - int(self.expiry))
            await pipe.execute()
            args = [messages[k] for k in keys] + [capacities[k] for k in keys]
            over = await connection.eval(_PUSH, len(keys), *keys, *args, time.time(), self.expiry)
            if over > 0:
                logger.info(
                    "%s of %s channels over capacity in group %s", over, len(channels), group
                )
