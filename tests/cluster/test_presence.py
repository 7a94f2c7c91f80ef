"""Issue 27: a web node killed with ``kill -9`` runs no disconnect, yet its sockets' seats turn
disconnected: each counted socket holds a lease in Redis that its live daphne renews
(games/seat_leases.py), and beat's ``games.presence_heal`` (called here as beat would) uncounts
the seats whose leases lapsed, within ``GAMES_PRESENCE_SECONDS`` plus the heal's period."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from games import services, tasks
from games.models import Seat
from tests.cluster.conftest import Client, cluster, needs_haproxy, wait_for
from tests.cluster.test_failover import _cookie
from tests.games.live import pending_seat, seat_users, started_table
from tests.scheduler import SCHEDULER

pytestmark = [
    needs_haproxy,
    pytest.mark.live_server,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]

LEASE = 3.0  # GAMES_PRESENCE_SECONDS for the node (its default is 15)
HEAL_EVERY = 1.0  # how often this test heals (beat's default period is 5 s)


def _seat(table_id: int, index: int) -> Seat:
    return Seat.objects.get(table_id=table_id, index=index)


def test_a_killed_node_s_seat_turns_disconnected_and_its_hold_starts(
    tmp_path: Path, settings: Any
) -> None:
    table, _users, game = started_table(turn_seconds=120)
    seat = pending_seat(game)
    user = seat_users(table)[seat]
    settings.GAMES_PRESENCE_SECONDS = LEASE  # read by the node forked below
    with cluster(tmp_path, names=("a",)) as c:
        client = Client(c, f"/ws/tables/{table.code}/", _cookie(user))
        client.connect()
        wait_for(lambda: _seat(table.pk, seat).connections == 1, what="the seat counted")

        # The live node renews the socket's lease: healing for twice its length changes nothing.
        until = time.monotonic() + 2 * LEASE
        while time.monotonic() < until:
            assert tasks.presence_heal() == 0
            time.sleep(HEAL_EVERY)
        assert _seat(table.pk, seat).connections == 1
        SCHEDULER.take()

        c.kill("a")  # no disconnect runs: the seat is still counted
        killed = time.monotonic()
        assert _seat(table.pk, seat).connections == 1

        def healed() -> bool:
            tasks.presence_heal()  # as beat would, every HEAL_EVERY seconds
            if _seat(table.pk, seat).connections == 0:
                return True
            time.sleep(HEAL_EVERY)
            return False

        wait_for(healed, timeout=LEASE + 10 * HEAL_EVERY, what="the dead node's seat uncounted")
        took = time.monotonic() - killed
        assert took <= LEASE + 2 * HEAL_EVERY + 1, took

    s = _seat(table.pk, seat)
    assert s.away_since is not None  # disconnected,
    assert not s.auto  # held for the usual time
    holds = [p for p in SCHEDULER.pending if p.name == services.TASK_SEAT_HOLD]
    assert [h.args for h in holds] == [[table.pk, seat, s.away_since.isoformat()]]
    assert tasks.seat_hold_expired(*holds[0].args) is True  # the hold over: the house plays
    assert _seat(table.pk, seat).auto is True
