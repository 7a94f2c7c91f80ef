"""The leases of bot shard queues (config/shards.py) on the real Redis: a home worker takes its
shard, a standby takes a shard only once its holder and its home worker are gone, hands it back
when the home worker returns, and a worker whose lease was taken from it lets the shard go.
The whole story with real workers and ``kill -9``: tests/bots/test_shard_takeover.py."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator

import pytest
import redis

from config.shards import ShardLeases, Step, lease_key
from tests.bots.worker import wait_for

TTL = 0.3  # seconds: a dead holder's lease is gone after this
SHARDS = ["bots.0", "bots.1"]


@pytest.fixture
def client() -> redis.Redis:
    client = redis.Redis.from_url(os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"))
    return client


@pytest.fixture
def prefix(client: redis.Redis) -> Iterator[str]:
    name = f"test:{uuid.uuid4().hex}"
    yield name
    keys = client.keys(f"{name}:*")
    if keys:
        client.delete(*keys)


def leases(
    client: redis.Redis, prefix: str, me: str, home: str | None = None, *, takeover: bool = True
) -> ShardLeases:
    return ShardLeases(
        client, me, SHARDS, home=home, ttl_s=TTL, prefix=prefix, choose=min, takeover=takeover
    )


def test_home_workers_take_their_shards_and_a_standby_takes_none(
    client: redis.Redis, prefix: str
) -> None:
    a, b = leases(client, prefix, "A", "bots.0"), leases(client, prefix, "B", "bots.1")
    standby = leases(client, prefix, "C")
    assert a.tick().gained == ["bots.0"]
    assert b.tick().gained == ["bots.1"]
    assert standby.tick() == Step()
    assert a.tick() == Step()  # renewed, nothing else
    assert client.get(lease_key("bots.0", prefix)) == b"A"


def test_a_dead_worker_s_shard_goes_to_a_standby_and_back_to_its_new_home_worker(
    client: redis.Redis, prefix: str
) -> None:
    a = leases(client, prefix, "A", "bots.0")
    b = leases(client, prefix, "B", "bots.1", takeover=False)  # so that C is the one
    standby = leases(client, prefix, "C")
    a.tick(), b.tick()

    # A dies (no more ticks); B lives on: once A's lease and home mark expire, C takes bots.0
    def taken() -> Step | None:
        assert b.tick().lost == []
        step = standby.tick()
        return step if step.gained else None

    assert wait_for(taken, timeout=5, poll=0.02).gained == ["bots.0"]
    assert standby.held == {"bots.0"}
    # A comes back (a new process): it says it wants bots.0, C hands it back
    a2 = leases(client, prefix, "A2", "bots.0")
    assert a2.tick().gained == []
    step = standby.tick()
    assert step.returning == ["bots.0"]
    standby.release("bots.0")  # after it stopped consuming it
    assert a2.tick().gained == ["bots.0"]
    assert standby.tick() == Step()
    assert standby.held == set()


def test_a_standby_takes_one_free_shard_per_tick(client: redis.Redis, prefix: str) -> None:
    standby = leases(client, prefix, "C")
    # not at once: the home workers started with it get one lease time to say they are up
    assert standby.tick() == Step()
    assert wait_for(lambda: standby.tick().gained, timeout=5, poll=0.02) == ["bots.0"]
    assert standby.tick().gained == ["bots.1"]
    assert standby.held == set(SHARDS)


def test_a_lease_taken_meanwhile_is_lost(client: redis.Redis, prefix: str) -> None:
    a = leases(client, prefix, "A", "bots.0")
    a.tick()
    # A stalled past its lease and another worker took the shard: A's next tick lets it go
    client.set(lease_key("bots.0", prefix), "D")
    step = a.tick()
    assert step.lost == ["bots.0"]
    assert a.held == set()
    a.release_all()
    assert client.get(lease_key("bots.0", prefix)) == b"D"  # never someone else's lease


def test_the_tournament_queue_is_leased_by_one_of_its_workers_and_taken_over(
    client: redis.Redis, prefix: str
) -> None:
    """``bots.tournament`` (and ``bots.ladder``): every node's worker-tournament has it as home
    and leases nothing else (config/shards.py LeaseLoop); one consumes it, another takes it
    once the holder's lease lapsed; shard workers never take it."""

    def tournament(me: str) -> ShardLeases:
        return ShardLeases(client, me, [], home="bots.tournament", ttl_s=TTL, prefix=prefix)

    a, b = tournament("A"), tournament("B")
    shard_worker = leases(client, prefix, "S", "bots.0")
    assert a.tick().gained == ["bots.tournament"]
    assert b.tick() == Step()  # a holds it: b waits
    assert shard_worker.tick().gained == ["bots.0"]
    assert a.tick() == Step()  # b saying it is home too takes nothing from a
    assert client.get(lease_key("bots.tournament", prefix)) == b"A"

    # a dies (no more ticks): b takes the queue once a's lease lapsed, and never a shard
    def taken() -> Step | None:
        shard_worker.tick()
        step = b.tick()
        return step if step.gained else None

    assert wait_for(taken, timeout=5, poll=0.02).gained == ["bots.tournament"]
    assert b.held == {"bots.tournament"}
    assert "bots.tournament" not in shard_worker.held  # it took the free bots.1, not this
    a2 = tournament("A2")  # a back: it waits in turn (no hand-back between equals)
    assert a2.tick() == Step()
    assert b.tick() == Step()
    assert b.held == {"bots.tournament"}


def test_a_worker_handing_a_shard_back_counts_its_turns_waiting_for_their_countdown() -> None:
    """config/shards.py ``_busy_with``: a bot turn sent with a countdown (the bot delay) waits
    in the worker consumer's timer, not among its reserved requests, until it is due; it then
    runs in this worker whether it still consumes the queue or not. A worker handing the
    shard back keeps the lease until it has run (tests/bots/test_shard_takeover.py: it used to
    store such a turn after the home worker had rebuilt the bot, one turn behind)."""
    from celery.worker.request import Request
    from kombu.asynchronous.timer import Timer

    from config.shards import _busy_with

    def request(queue: str) -> Request:
        turn = Request.__new__(Request)  # what the worker made of a message of ``queue``
        turn._delivery_info = {"routing_key": queue}  # type: ignore[attr-defined]
        return turn

    timer = Timer()
    assert not _busy_with("bots.0", timer)
    timer.call_after(0.25, lambda turn: None, (request("bots.0"),), priority=6)
    timer.call_after(0.25, lambda: None)  # a timer entry that is no task
    assert _busy_with("bots.0", timer)
    assert not _busy_with("bots.1", timer)
    assert not _busy_with("bots.0")  # what the worker saw before: not busy, lease let go


def test_a_shard_handed_back_is_not_consumed_again_while_its_last_turns_finish(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """config/shards.py ``LeaseLoop.once``: a worker whose shard's home worker is back stops
    consuming it and keeps the lease until its last turns of it are over; meanwhile it does
    not take the shard up again (it did: every other tick it consumed and re-armed the shard
    again, took new turns and so stayed busy, the home worker waiting for seconds), then it
    lets the lease go and closes what those turns left."""
    from config import shards

    done: list[tuple[str, str]] = []

    class Leases:
        held = {"bots.0"}

        def tick(self) -> Step:
            return Step(returning=sorted(self.held))

        def release(self, queue: str) -> None:
            done.append(("release", queue))
            self.held.discard(queue)

    def control(command: str, queue: str) -> bool:
        done.append((command, queue))
        return True

    loop = shards.LeaseLoop.__new__(shards.LeaseLoop)
    loop.leases, loop.consuming, loop.timer = Leases(), {"bots.0"}, None  # type: ignore[assignment]
    for name in ("_forget", "_rebuild", "_rearm"):
        monkeypatch.setattr(loop, name, lambda queue, name=name: done.append((name, queue)))
    monkeypatch.setattr(loop, "_control", control)
    busy = [True]  # a turn of the shard still waits for its countdown here
    monkeypatch.setattr(shards, "_busy_with", lambda queue, timer=None: busy[0])
    loop.once()
    assert done == [("cancel_consumer", "bots.0"), ("_forget", "bots.0")]
    done.clear()
    loop.once()
    loop.once()
    assert done == []  # neither consumed again nor let go
    busy[0] = False
    loop.once()
    assert done == [("release", "bots.0"), ("_forget", "bots.0")]
