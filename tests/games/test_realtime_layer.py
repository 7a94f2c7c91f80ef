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
