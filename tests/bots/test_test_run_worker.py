"""Test Bot through a REAL Celery worker: the web process only queues the run; the sandboxes
start in the worker that consumes the ``bots`` queue, which writes the results where the
editor polls them."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from accounts.models import User
from bots import services as bot_services
from tests.bots.worker import (
    BROKER_URL,
    BrokerScheduler,
    _own_database,
    celery_worker,
    wait_for,
    worker_stats,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

#: Not the shared test worker database: other real-worker tests may run meanwhile.
BROKER = _own_database(BROKER_URL, 11)


class Scheduler(BrokerScheduler):
    """The project's scheduler, on this test's broker: the run goes to the queue it names."""

    broker_url = BROKER


def test_test_bot_runs_on_a_trials_worker(
    user: User, good_code: str, monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    def no_sandbox_here(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("sandboxes started in the web process")

    monkeypatch.setattr(bot_services, "run_samples", no_sandbox_here)
    settings.GAMES_SCHEDULER = f"{__name__}.Scheduler"
    api = APIClient()
    api.force_authenticate(user)
    with celery_worker(broker_url=BROKER, queues=("trials",), label="test-run") as log:
        response = api.post("/api/bots/test-run/", {"code": good_code}, format="json")
        assert response.status_code == 202
        assert response.json()["status"] == "queued"
        url = response.json()["url"]

        def finished() -> dict[str, Any] | None:
            run: dict[str, Any] = api.get(url).json()
            return run if run["status"] in ("done", "failed") else None

        run = wait_for(finished, timeout=90, log=log, poll=0.2)
        stats = worker_stats("test-run", broker_url=BROKER)
    assert run["status"] == "done"
    assert run["passed"] == run["total"] >= 10
    assert run["results"][0]["move_text"] == "Played 3♠"
    assert stats["total"] == {bot_services.TEST_RUN_TASK: 1}
