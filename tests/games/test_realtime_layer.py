"""The channel layer (games.realtime.layer): a group message reaches this process's own member
channels without a trip through Redis, and the members of other processes through Redis as
before; per channel, messages keep their order."""

from __future__ import annotations

import asyncio
import uuid

from channels.layers import get_channel_layer

from games.realtime.layer import LocalFirstRedisChannelLayer


def _other_process() -> LocalFirstRedisChannelLayer:
    """A second layer with the same configuration: another daphne process (its own prefix)."""
    layer = get_channel_layer()
    assert isinstance(layer, LocalFirstRedisChannelLayer)
    return LocalFirstRedisChannelLayer(hosts=layer.hosts, prefix=layer.prefix)


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


async def test_local_members_are_not_pushed_through_redis() -> None:
    """With a consumer of this process receiving, the Redis side of a group send is asked to
    push to the other processes' members only; the local member has the message already."""
    layer = get_channel_layer()
    assert isinstance(layer, LocalFirstRedisChannelLayer)
    other = _other_process()
    mine, theirs = await layer.new_channel(), await other.new_channel()
    waiting = asyncio.ensure_future(layer.receive(mine))
    await asyncio.sleep(0)
    try:
        by_connection, messages, _capacity = layer._map_channel_keys_to_connection(
            [mine, theirs], {"type": "test.message", "n": 7}
        )
        pushed = [key for keys in by_connection.values() for key in keys]
        assert pushed == [layer.prefix + other.non_local_name(theirs)]
        assert set(messages) == set(pushed)
        assert (await asyncio.wait_for(waiting, 10))["n"] == 7
    finally:
        if not waiting.done():
            waiting.cancel()
        await other.close_pools()


async def test_without_a_local_receiver_the_message_goes_through_redis() -> None:
    layer = _other_process()  # a fresh process: nothing receives on it yet
    assert layer.receive_event_loop is None
    mine = await layer.new_channel()
    by_connection, _messages, _capacity = layer._map_channel_keys_to_connection(
        [mine], {"type": "test.message"}
    )
    assert [key for keys in by_connection.values() for key in keys] == [
        layer.prefix + layer.non_local_name(mine)
    ]
