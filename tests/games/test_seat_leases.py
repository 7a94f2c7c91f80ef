"""Presence by lease (games/seat_leases.py): a seat counted by sockets whose process died (no
disconnect ever ran) turns disconnected once their leases lapse, and its hold starts."""

from __future__ import annotations

import pytest

from accounts.models import User
from games import seat_leases, services, tasks
from games.models import Seat
from tests.games.live import pending_seat, seat_users, started_table
from tests.scheduler import SCHEDULER, FrozenClock

pytestmark = pytest.mark.django_db(transaction=True)


def _connect(table_id: int, user: User, member: str) -> int | None:
    return services.table_presence(
        table_id=table_id, user=user, counted_seat=None, connected=True, member=member
    )


def test_a_dead_process_s_socket_lapses_and_the_hold_starts(clock: FrozenClock) -> None:
    table, _users, game = started_table(turn_seconds=60)
    seat = pending_seat(game)
    user = seat_users(table)[seat]
    assert _connect(table.pk, user, "daphne.a!1") == seat
    SCHEDULER.take()

    clock.advance(seat_leases.lease_seconds() - 1)
    assert tasks.presence_heal() == 0  # still within its lease: nothing changes
    assert Seat.objects.get(table=table, index=seat).connections == 1

    clock.advance(2)  # the lease lapsed: its process never renewed it (kill -9)
    assert tasks.presence_heal() == 1
    s = Seat.objects.get(table=table, index=seat)
    assert s.connections == 0
    assert s.away_since is not None
    [hold] = [p for p in SCHEDULER.pending if p.name == services.TASK_SEAT_HOLD]
    assert hold.args == [table.pk, seat, s.away_since.isoformat()]
    assert hold.due == clock.now + 30  # the usual disconnect hold
    assert tasks.presence_heal() == 0  # idempotent

    clock.advance(30)
    assert SCHEDULER.run_due() >= 1  # the house takes the seat over
    assert Seat.objects.get(table=table, index=seat).auto is True


def test_a_renewed_lease_keeps_the_seat_and_a_live_socket_survives_a_dead_one(
    clock: FrozenClock,
) -> None:
    table, _users, game = started_table(turn_seconds=60)
    seat = pending_seat(game)
    user = seat_users(table)[seat]
    _connect(table.pk, user, "daphne.a!1")  # on the node that dies
    _connect(table.pk, user, "daphne.b!1")  # the same person's socket on a live node
    SCHEDULER.take()
    assert Seat.objects.get(table=table, index=seat).connections == 2

    for _ in range(4):  # b's process's socket watch renews b's socket; a's is dead
        clock.advance(seat_leases.renew_every())
        seat_leases.hold_many([(table.pk, seat, user.pk, "daphne.b!1")])
    assert tasks.presence_heal() == 1
    s = Seat.objects.get(table=table, index=seat)
    assert s.connections == 1  # counted once, by the live socket
    assert s.away_since is None  # still connected: no hold
    assert not [p for p in SCHEDULER.pending if p.name == services.TASK_SEAT_HOLD]

    # the live socket closes as usual: its lease goes with it and the hold starts at once
    services.table_presence(
        table_id=table.pk, user=user, counted_seat=seat, connected=False, member="daphne.b!1"
    )
    assert seat_leases.live([(table.pk, seat, user.pk)]) == [0]
    assert Seat.objects.get(table=table, index=seat).away_since is not None
    assert tasks.presence_heal() == 0


def test_many_leases_are_held_in_one_script_call_each_with_its_lapse_and_expiry(
    clock: FrozenClock,
) -> None:
    """What the socket watch renews in one round trip (``hold_many`` / ``ahold_many``): each
    lease's sorted set gets its member scored with the time it lapses, and the key expires 5 s
    after that; the asyncio call does the same."""
    import asyncio

    from games.redis_clients import async_client

    leases = [(7001, 0, 11, "daphne.a!1"), (7001, 2, 12, "daphne.a!2"), (7002, 1, 11, "x!3")]
    r = seat_leases.client()
    keys = [seat_leases.seat_key(t, s, u) for t, s, u, _m in leases]
    r.delete(*keys)
    seat_leases.hold_many(leases)
    lapse = clock.now + seat_leases.lease_seconds()
    for key, (_t, _s, _u, member) in zip(keys, leases, strict=True):
        assert r.zrange(key, 0, -1, withscores=True) == [(member.encode(), pytest.approx(lapse))]
        assert (
            int(seat_leases.lease_seconds()) <= r.ttl(key) <= int(seat_leases.lease_seconds()) + 5
        )
    clock.advance(3)

    async def renew_first() -> None:
        await seat_leases.ahold_many(leases[:1])
        await async_client().aclose()

    asyncio.run(renew_first())
    assert r.zscore(keys[0], leases[0][3]) == pytest.approx(lapse + 3)
    assert r.zscore(keys[1], leases[1][3]) == pytest.approx(lapse)
    assert seat_leases.live([(t, s, u) for t, s, u, _m in leases]) == [1, 1, 1]
    r.delete(*keys)
