"""A running match holds a lease in Redis (bots/matches/leases.py) renewed by its worker: a
worker killed mid-match is resumed by the healer within seconds of its lease lapsing, not
after the 30 s stale heartbeat, and the match still ends as an uninterrupted run; a live
worker whose move outlasts the lease is never taken for a dead one (its thread renews it)."""

from __future__ import annotations

import time
from typing import Any

import pytest

from accounts.models import User
from bots.matches import leases, services
from bots.matches.services import match_create, matches_heal, stale_seconds
from bots.models import BotVersion, Match
from games.engine.duplicate import HouseEntrant
from games.leases import lease_key
from games.redis_clients import sync_client
from tests.bots.matches.conftest import without_timing
from tests.bots.matches.test_resume import DEALS, SEED, WorkerKilled, _uninterrupted

pytestmark = pytest.mark.django_db

LEASE = 1.0


@pytest.fixture(autouse=True)
def _short_lease(settings: Any) -> None:
    settings.BOTS_MATCH_LEASE_SECONDS = LEASE
    settings.BOTS_MATCH_LEASE_TICK_SECONDS = LEASE / 5


def _heal_until_resumed(timeout: float, capture: Any) -> float:
    """Run beat's healer as beat does (a tick every 0.1 s here) until it resumes a match;
    the seconds that took."""
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        with capture(execute=True):
            if matches_heal()["resumed"]:
                return time.monotonic() - start
        time.sleep(0.1)  # beat's period, scaled down
    raise AssertionError(f"no match resumed within {timeout}s")


def test_a_killed_worker_s_match_resumes_once_its_lease_lapsed(
    user: User,
    mine: list[BotVersion],
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    version = mine[0]
    real = services.run_match
    calls = {"n": 0}

    def dies_after_two_deals(*args: Any, **kwargs: Any) -> Any:
        calls["n"] += 1
        on_progress = kwargs["on_progress"]

        def progress(p: Any) -> None:
            on_progress(p)
            if calls["n"] == 1 and p.deals_done == 2:
                raise WorkerKilled  # kill -9: the lease is neither renewed nor released

        return real(*args, **{**kwargs, "on_progress": progress})

    monkeypatch.setattr(services, "run_match", dies_after_two_deals)
    match = match_create(
        owner=user,
        game="tienlen",
        entrants=[f"version:{version.pk}", "house:hard"],
        deals=DEALS,
        seed=SEED,
    )
    with pytest.raises(WorkerKilled):
        services.match_execute(match_id=match.pk)
    key = lease_key(leases.lease_name(match.pk, 0), leases.PREFIX)
    assert sync_client().exists(key)  # the dead run's lease, lapsing
    assert Match.objects.get(pk=match.pk).status == Match.Status.RUNNING
    waited = _heal_until_resumed(10 * LEASE, django_capture_on_commit_callbacks)
    assert waited <= LEASE + 1.0 < stale_seconds()  # the lease, not the 30 s heartbeat
    match.refresh_from_db()
    assert (match.status, match.resumes, match.deals_done) == (Match.Status.FINISHED, 1, DEALS)
    expected = _uninterrupted(version)
    assert without_timing(match.report) == without_timing(expected.report)
    assert match.series == expected.series
    assert not sync_client().exists(lease_key(leases.lease_name(match.pk, 1), leases.PREFIX))


class _SlowHouse(HouseEntrant):
    """A house entrant whose first move lasts three leases of real time, calling beat's healer
    all along (the worker is alive: its lease thread renews)."""

    def __init__(self, level: str, *, name: str, seen: list[dict[str, int]]) -> None:
        super().__init__(level, name=name)
        self.seen = seen

    def player(self, engine: Any, *, seat: int, seed: int) -> Any:
        inner = super().player(engine, seat=seat, seed=seed)
        seen = self.seen

        class Slow:
            def decide(self, state: Any, seat: int) -> Any:
                if not seen:
                    end = time.monotonic() + 3 * LEASE
                    while time.monotonic() < end:
                        seen.append(matches_heal())
                        time.sleep(LEASE / 10)
                return inner.decide(state, seat)

            def close(self) -> None:
                inner.close()

        return Slow()


def test_a_live_worker_s_slow_move_keeps_its_lease(
    user: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[dict[str, int]] = []
    monkeypatch.setattr(
        services, "HouseEntrant", lambda level, name: _SlowHouse(level, name=name, seen=seen)
    )
    match = match_create(
        owner=user, game="tienlen", entrants=["house:easy", "house:hard"], deals=1, seed=SEED
    )
    assert services.match_execute(match_id=match.pk) == Match.Status.FINISHED
    assert len(seen) > 10
    assert all(s == {"failed": 0, "resumed": 0, "requeued": 0} for s in seen)
    assert Match.objects.get(pk=match.pk).resumes == 0
    assert not sync_client().exists(lease_key(leases.lease_name(match.pk, 0), leases.PREFIX))
