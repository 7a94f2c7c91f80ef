"""The channel layer (games.realtime.layer): a group message reaches this process's own member
channels without a trip through Redis, and the members of other processes through Redis as
before; per channel, messages keep their order."""

from __future__ import annotations

import asyncio
import uuid

from django.conf import settings

from games.realtime.layer import LocalFirstRedisChannelLayer


def _other_process() -> LocalFirstRedisChannelLayer:
    """A layer with the site's channel-layer configuration (its own client prefix: another
    process). The site does not use this layer yet (docs/benchmarks.md "Issue 26")."""
    config = settings.CHANNEL_LAYERS["default"]["CONFIG"]
    return LocalFirstRedisChannelLayer(hosts=config["hosts"], prefix=config["prefix"])


def get_channel_layer() -> LocalFirstRedisChannelLayer:
    return _other_process()


async def test_group_send_delivers_locally_and_remotely_in_order() -> None:
    layer = get_channel_layer()
    assert isinstance(layer, LocalFirstRedisChannelLayer)
    other = _other_process()
    group = f"layer-test-{uuid.uuid4().hex[:8]}"
    mine, theirs = await layer.new_channel(), await other.new_channel()
    assert layer.local_channel(mine)
    assert not layer.local_channel(theirs)
    await layer.group_add(group, mine)
    await layer.group_add(group, theirs)
    try:
        first = asyncio.ensure_future(layer.receive(mine))
        await asyncio.sleep(0)  # the receiver waits: the layer knows its loop
        for n in range(3):
            await layer.group_send(group, {"type": "test.message", "n": n})
        rest = [await asyncio.wait_for(layer.receive(mine), 10) for _ in range(2)]
        assert [m["n"] for m in [await asyncio.wait_for(first, 10), *rest]] == [0, 1, 2]
        got = [await asyncio.wait_for(other.receive(theirs), 10) for _ in range(3)]
        assert [m["n"] for m in got] == [0, 1, 2]
    finally:
        await layer.group_discard(group, mine)
        await layer.group_discard(group, theirs)
        await other.close_pools()


async def test_local_members_get_the_message_itself_others_through_redis() -> None:
    """With a consumer of this process receiving, its channel gets the message object as sent
    (no msgpack round trip through Redis, which turns a tuple into a list); another process's
    member gets it through Redis."""
    layer = get_channel_layer()
    assert isinstance(layer, LocalFirstRedisChannelLayer)
    other = _other_process()
    group = f"layer-test-{uuid.uuid4().hex[:8]}"
    mine, theirs = await layer.new_channel(), await other.new_channel()
    await layer.group_add(group, mine)
    await layer.group_add(group, theirs)
    try:
        waiting = asyncio.ensure_future(layer.receive(mine))
        await asyncio.sleep(0)
        await layer.group_send(group, {"type": "test.message", "pair": (1, 2)})
        assert (await asyncio.wait_for(waiting, 10))["pair"] == (1, 2)
        assert (await asyncio.wait_for(other.receive(theirs), 10))["pair"] == [1, 2]
    finally:
        await layer.group_discard(group, mine)
        await layer.group_discard(group, theirs)
        await other.close_pools()


async def test_a_process_that_receives_nothing_sends_through_redis() -> None:
    """A Celery worker's layer (no reader task) sends like channels-redis: this process's
    receiver, had it one, would get the message through Redis."""
    sender = _other_process()
    layer = get_channel_layer()
    assert isinstance(layer, LocalFirstRedisChannelLayer)
    group = f"layer-test-{uuid.uuid4().hex[:8]}"
    mine = await layer.new_channel()
    await layer.group_add(group, mine)
    try:
        waiting = asyncio.ensure_future(layer.receive(mine))
        await sender.group_send(group, {"type": "test.message", "pair": (3, 4)})
        assert (await asyncio.wait_for(waiting, 10))["pair"] == [3, 4]
        assert sender.receive_event_loop is None
    finally:
        await layer.group_discard(group, mine)
        await sender.close_pools()


class _SlowMembers:
    """A Redis connection whose group-members script waits until ``answer`` is set: what a
    socket of this process got before Redis answered, it got without Redis."""

    def __init__(self, real) -> None:
        self.real = real
        self.asked = asyncio.Event()
        self.answer = asyncio.Event()

    async def eval(self, *args):
        self.asked.set()
        await self.answer.wait()
        return await self.real.eval(*args)

    def __getattr__(self, name):
        return getattr(self.real, name)


async def test_noted_local_members_get_the_message_before_redis_answers() -> None:
    layer = get_channel_layer()
    other = _other_process()
    group = f"layer-test-{uuid.uuid4().hex[:8]}"
    mine, theirs = await layer.new_channel(), await other.new_channel()
    await layer.group_add(group, mine)
    await layer.group_add(group, theirs)
    assert list(layer.local_groups[group]) == [mine]  # only this process's own channel
    slow = _SlowMembers(layer.connection(layer.consistent_hash(group)))
    real_connection = layer.connection
    layer.connection = lambda index: slow
    try:
        waiting = asyncio.ensure_future(layer.receive(mine))
        await asyncio.sleep(0)  # the receiver waits: the layer knows its loop
        sending = asyncio.ensure_future(layer.group_send(group, {"type": "test.message"}))
        await asyncio.wait_for(slow.asked.wait(), 10)
        assert (await asyncio.wait_for(waiting, 10))["type"] == "test.message"
        assert not sending.done()  # Redis has not answered yet
        slow.answer.set()
        await asyncio.wait_for(sending, 10)
        # the other process's member got it through Redis, and this one got it only once
        assert (await asyncio.wait_for(other.receive(theirs), 10))["type"] == "test.message"
        assert mine not in layer.receive_buffer or layer.receive_buffer[mine].empty()
    finally:
        layer.connection = real_connection
        await layer.group_discard(group, mine)
        await layer.group_discard(group, theirs)
        await other.close_pools()
    assert group not in layer.local_groups
    await layer.close_pools()


async def test_a_local_member_redis_lists_but_this_process_did_not_note_gets_it_once() -> None:
    """Every local channel joins through this layer, so none is expected: if Redis lists one
    anyway (joined through a plain channels-redis layer of the same process), it still gets
    the message, once, after the members are read; a discarded channel gets nothing."""
    from channels_redis.core import RedisChannelLayer  # type: ignore[import-untyped]

    layer = get_channel_layer()
    group = f"layer-test-{uuid.uuid4().hex[:8]}"
    noted, unnoted, gone = [await layer.new_channel() for _ in range(3)]
    await layer.group_add(group, noted)
    await RedisChannelLayer.group_add(layer, group, unnoted)
    await layer.group_add(group, gone)
    await layer.group_discard(group, gone)
    assert list(layer.local_groups[group]) == [noted]
    try:
        waiting = asyncio.ensure_future(layer.receive(noted))
        await asyncio.sleep(0)
        await layer.group_send(group, {"type": "test.message", "n": 1})
        assert (await asyncio.wait_for(waiting, 10))["n"] == 1
        assert (await asyncio.wait_for(layer.receive(unnoted), 10))["n"] == 1
        for channel in (noted, unnoted, gone):  # delivered locally: nothing more will come
            assert channel not in layer.receive_buffer or layer.receive_buffer[channel].empty()
    finally:
        await layer.group_discard(group, noted)
        await layer.group_discard(group, unnoted)
        await layer.close_pools()


async def test_a_noted_member_redis_no_longer_lists_is_forgotten_after_the_grace(
    monkeypatch,
) -> None:
    """A consumer that ended without its ``group_discard`` (daphne killed it) stays in Redis
    only until the group expiry; its note here goes once Redis stops listing it and the note
    is older than the grace, so nothing is put into a buffer nobody reads any more. A channel
    whose ``group_add`` has not reached Redis yet keeps its note."""
    from channels_redis.core import RedisChannelLayer

    from games.realtime import layer as layer_module

    layer = get_channel_layer()
    group = f"layer-test-{uuid.uuid4().hex[:8]}"
    live, dead, joining = [await layer.new_channel() for _ in range(3)]
    for channel in (live, dead, joining):
        await layer.group_add(group, channel)
    await RedisChannelLayer.group_discard(layer, group, dead)  # Redis forgot it (its expiry)
    await RedisChannelLayer.group_discard(layer, group, joining)  # not in Redis yet
    layer.local_groups[group][dead] -= layer_module.NOTED_GRACE_SECONDS + 1
    try:
        waiting = asyncio.ensure_future(layer.receive(live))
        await asyncio.sleep(0)
        await layer.group_send(group, {"type": "test.message", "n": 1})
        assert (await asyncio.wait_for(waiting, 10))["n"] == 1
        assert list(layer.local_groups[group]) == [live, joining]
        await layer.group_send(group, {"type": "test.message", "n": 2})
        assert layer.receive_buffer[dead].qsize() == 1  # the first message only
        assert layer.receive_buffer[joining].qsize() == 2
    finally:
        await layer.group_discard(group, live)
        await layer.group_discard(group, joining)
        await layer.close_pools()
