"""Evaluate in a real Chromium: My Bots → Evaluate → a small duplicate match on a real Celery
worker (the ``lab`` queue) → the match page's progress bar reaches the report, and the
running-estimate chart is drawn."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from bots.matches.services import MATCH_QUEUE
from bots.models import Match
from tests.bots.matches.conftest import ready_versions
from tests.bots.worker import BROKER_URL, BrokerScheduler, _own_database, celery_worker
from tests.browser.helpers import log_in
from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: The worker's own broker database: other real-worker tests may run meanwhile.
BROKER = _own_database(BROKER_URL, 8)


class Scheduler(BrokerScheduler):
    broker_url = BROKER


@pytest.fixture
def lab_worker(settings: Any) -> Iterator[None]:
    settings.GAMES_SCHEDULER = f"{__name__}.Scheduler"
    import redis

    redis.Redis.from_url(BROKER).delete(MATCH_QUEUE)
    with celery_worker(broker_url=BROKER, queues=(MATCH_QUEUE,), label="lab-browser"):
        yield


def test_evaluate_a_version_and_watch_the_match(
    live_server: Any, page: Any, lab_worker: None
) -> None:
    base = live_server.url
    user = UserFactory.create(username="evaluator")
    older, newer = ready_versions(user, "Mine", 2)
    log_in(page, base, user)

    page.goto(base + "/bots/")
    page.get_by_role("link", name="Evaluate").click()
    page.wait_for_url(f"**/bots/{newer.bot_id}/versions/2/evaluate/")
    assert page.locator("h1").inner_text() == "Evaluate Mine v2"
    # the default field starts with the previous version
    assert page.locator("#id_seat_2").input_value() == f"version:{older.pk}"
    page.select_option("#id_seat_3", "house:easy")
    page.select_option("#id_seat_4", "")
    page.fill("#id_deals", "3")
    seed = page.locator("#id_seed").input_value()
    assert seed.isdigit()  # a random seed, shown
    page.get_by_role("button", name="Start the match").click()

    page.wait_for_url("**/bots/matches/*/")
    match = Match.objects.get()
    assert match.labels == ["Mine v2", "Mine v1", "house:easy"]
    assert match.seed == int(seed)
    page.wait_for_selector("#match[data-status='finished']", timeout=120_000)
    assert page.locator("#match-progress").get_attribute("aria-valuenow") == "3"
    assert page.locator("#match-state").inner_text() == "Finished: 3 of 3 deals"
    assert page.locator("#match-stop").is_hidden()
    rows = page.locator("#match-report tbody tr")
    assert rows.count() == 3
    first = rows.nth(0).locator("td")
    assert first.nth(0).inner_text() == "9"  # 3 deals x 3 rotations
    match.refresh_from_db()
    assert first.nth(3).inner_text() == f"{match.report['entrants'][0]['mean_points']:+.2f}"
    assert "House AI (easy)" in rows.nth(2).inner_text()
    chart = page.locator("#match-chart svg")
    assert chart.count() == 1
    assert chart.locator("polyline").count() == 3  # one running estimate per entrant
    assert chart.locator("polygon.band").count() == 3  # and its interval band (2+ deals)
    page.goto(base + "/bots/matches/")
    assert page.locator(f"tr[data-match='{match.pk}']").inner_text().count("3 / 3") == 1
