"""Matches on a REAL Celery worker consuming the ``lab`` queue: the web process only queues the
match; the worker plays it (sandboxed JavaScript included), saves progress after every deal,
obeys Stop, and its saved report equals the core's ``run_match`` for the same inputs."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from accounts.models import User
from bots.lab.entrants import BotFileEntrant
from bots.matches.services import MATCH_QUEUE, RUN_TASK
from bots.models import BotVersion, Match
from games.engine.duplicate import HouseEntrant, run_match
from games.engine.registry import find_game
from tests.bots.matches.conftest import ready_versions, without_timing
from tests.bots.worker import (
    BROKER_URL,
    BrokerScheduler,
    _own_database,
    celery_worker,
    node_name,
    wait_for,
    worker_stats,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

#: Not the shared test worker database: other real-worker tests may run meanwhile.
BROKER = _own_database(BROKER_URL, 9)


class Scheduler(BrokerScheduler):
    """The project's scheduler, on this test's broker: the match goes to the queue it names."""

    broker_url = BROKER


def _purge_lab() -> None:
    import redis

    redis.Redis.from_url(BROKER).delete(MATCH_QUEUE)


@pytest.fixture
def api(user: User, settings: Any) -> APIClient:
    settings.GAMES_SCHEDULER = f"{__name__}.Scheduler"
    client = APIClient()
    client.force_authenticate(user)
    _purge_lab()
    return client


def _get(api: APIClient, url: str) -> dict[str, Any]:
    body: dict[str, Any] = api.get(url).json()
    return body


def test_a_worker_plays_a_match_with_a_javascript_bot_to_the_end(
    api: APIClient, user: User
) -> None:
    versions = ready_versions(user, "Mine", 1)
    version: BotVersion = versions[0]
    with celery_worker(broker_url=BROKER, queues=(MATCH_QUEUE,), label="lab-test") as log:
        response = api.post(
            "/api/matches/",
            {
                "game": "tienlen",
                "entrants": [
                    {"kind": "version", "version_id": version.pk},
                    {"kind": "house", "level": "easy"},
                ],
                "deals": 3,
                "seed": 21,
            },
            format="json",
        )
        assert response.status_code == 201, response.content
        url = response.json()["url"]
        seen: set[int] = set()

        def finished() -> dict[str, Any] | None:
            match = _get(api, url)
            seen.add(match["deals_done"])
            return match if match["status"] not in ("queued", "running") else None

        match = wait_for(finished, timeout=180, log=log, poll=0.05)
        stats = worker_stats("lab-test", broker_url=BROKER)
    assert match["status"] == "finished", match["error"]
    assert stats["total"] == {RUN_TASK: 1}
    assert match["deals_done"] == 3
    expected = run_match(
        find_game("tienlen"),
        [BotFileEntrant("Mine v1", version.code), HouseEntrant("easy", name="house:easy")],
        3,
        21,
    )
    assert without_timing(match["report"]) == without_timing(expected.report)
    assert match["series"] == expected.series
    assert match["report"]["entrants"][0]["mean_move_ms"] is not None  # the sandbox's timing
    assert seen <= {0, 1, 2, 3}


def test_a_running_match_saves_progress_and_stops_when_asked(api: APIClient) -> None:
    with celery_worker(broker_url=BROKER, queues=(MATCH_QUEUE,), label="lab-test") as log:
        response = api.post(
            "/api/matches/",
            {"game": "tienlen", "entrants": [{"kind": "house", "level": "easy"}] * 4, "deals": 500},
            format="json",
        )
        assert response.status_code == 201, response.content
        url = response.json()["url"]
        first = wait_for(
            lambda: (m := _get(api, url))["deals_done"] >= 1 and m, timeout=120, log=log
        )
        later = wait_for(
            lambda: (m := _get(api, url))["deals_done"] > first["deals_done"] and m,
            timeout=60,
            log=log,
        )
        assert later["status"] == "running"
        assert len(later["series"]) == later["deals_done"]
        stop = api.post(url + "stop/")
        assert stop.status_code == 200
        assert stop.json()["stop_requested"] is True
        done = wait_for(
            lambda: (m := _get(api, url))["status"] != "running" and m, timeout=60, log=log
        )
    assert done["status"] == "stopped"
    assert done["report"]["stopped"] == "stopped"
    assert later["deals_done"] <= done["deals_done"] < 500
    assert done["report"]["deals"] == done["deals_done"] == len(done["series"])
    again = api.post(url + "stop/")
    assert again.status_code == 409
    assert again.json()["code"] == "match_not_running"
    assert Match.objects.get().finished_at is not None


def test_a_killed_lab_worker_loses_only_the_deal_in_progress(api: APIClient, user: User) -> None:
    """kill -9 of the worker mid-match: the healer requeues the match once the run's lease
    lapsed (seconds, not the 30 s stale heartbeat), a new worker resumes it from its last saved
    deal, and the report is an uninterrupted run's."""
    import os
    import signal
    import time

    from bots.matches.leases import lease_seconds
    from bots.matches.services import matches_heal, stale_seconds

    version = ready_versions(user, "Mine", 1)[0]
    deals, seed = 40, 23
    field = [{"kind": "version", "version_id": version.pk}, {"kind": "house", "level": "easy"}]
    with celery_worker(broker_url=BROKER, queues=(MATCH_QUEUE,), label="lab-test") as log:
        response = api.post(
            "/api/matches/",
            {"game": "tienlen", "entrants": field, "deals": deals, "seed": seed},
            format="json",
        )
        assert response.status_code == 201, response.content
        match_id = response.json()["id"]
        wait_for(lambda: Match.objects.get(pk=match_id).deals_done >= 2, timeout=120, log=log)
        pid = _our_worker("lab-test")  # busy with the match: it answers no inspect
        os.kill(pid, signal.SIGKILL)  # the worker this test started, mid-deal
        killed = time.monotonic()
        wait_for(lambda: not _alive(pid), timeout=20)
    lost = Match.objects.get(pk=match_id)
    assert lost.status == Match.Status.RUNNING
    assert 2 <= lost.deals_done < deals
    assert lost.stats["deals"] == lost.deals_done == len(lost.series)
    assert lost.heartbeat_at is not None
    # beat's healer, every 0.5 s here: it resumes the match once the dead run's lease lapsed
    # (its message waits on the queue for the new worker)
    wait_for(lambda: matches_heal()["resumed"] == 1, timeout=stale_seconds(), poll=0.5)
    waited = time.monotonic() - killed
    assert waited <= lease_seconds() + 3.0 < stale_seconds(), waited
    with celery_worker(broker_url=BROKER, queues=(MATCH_QUEUE,), label="lab-test") as log:
        done = wait_for(
            lambda: (m := Match.objects.get(pk=match_id)).status not in Match.IN_FLIGHT and m,
            timeout=180,
            log=log,
        )
    assert done.status == Match.Status.FINISHED, done.error
    assert (done.resumes, done.deals_done) == (1, deals)
    expected = run_match(
        find_game("tienlen"),
        [BotFileEntrant("Mine v1", version.code), HouseEntrant("easy", name="house:easy")],
        deals,
        seed,
    )
    assert without_timing(done.report) == without_timing(expected.report)
    assert done.series == expected.series


def _our_worker(label: str) -> int:
    """The pid of the worker this process started as node ``label`` (a child of ours)."""
    import os
    from pathlib import Path

    node = node_name(label).encode()
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            argv = (proc / "cmdline").read_bytes().split(b"\0")
            ppid = int((proc / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        if node in argv and ppid == os.getpid():
            return int(proc.name)
    raise AssertionError(f"no worker {node!r} of this process")


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split()[2] != "Z"
    except FileNotFoundError:
        return False
