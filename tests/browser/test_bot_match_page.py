"""A duplicate match's page (the Bot Lab report) in a real Chromium at 1366×900 (issue 25,
"Pages"): the report table shows every column, "ms / move" too, without scrolling; the
running-estimate chart has round tick values on its points axis and labelled deals on its x
axis. The match's report and series are stored as a finished run leaves them (no worker)."""

from __future__ import annotations

import itertools
import math
from typing import Any

import pytest

from bots.matches.models import Match
from bots.matches.services import match_create
from tests.browser.helpers import DESKTOP, SHOTS, session_page
from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DEALS = 37
LABELS = ["house:hard", "house:medium", "house:easy", "house:easy"]


def _entrant(i: int, deals: int) -> dict[str, Any]:
    mean = (1.5 - i) * 0.61 + 0.37 / deals
    width = 4.7 / math.sqrt(deals)
    return {
        "name": LABELS[i],
        "games": deals * 4,
        "first_rate": 0.25 + 0.05 * (1.5 - i),
        "first_ci": [0.1, 0.4],
        "mean_points": mean,
        "points_ci": [mean - width, mean + width] if deals > 1 else None,
        "last_rate": 0.25,
        "strikes": 0,
        "mean_move_ms": 1.234 + i,
    }


def _finished_match(user: Any) -> Match:
    match = match_create(owner=user, game="tienlen", entrants=LABELS, deals=DEALS, seed=7)
    series = []
    for d in range(1, DEALS + 1):
        lines = [_entrant(i, d) for i in range(4)]
        series.append(
            {
                "deals": d,
                **{k: [line[k] for line in lines] for k in ("mean_points", "points_ci")},
                **{k: [line[k] for line in lines] for k in ("first_rate", "first_ci")},
            }
        )
    report = {
        "game": "tienlen",
        "points_unit": "points",
        "seed": 7,
        "seats": 4,
        "deals": DEALS,
        "games": DEALS * 4,
        "entrants": [_entrant(i, DEALS) for i in range(4)],
    }
    Match.objects.filter(pk=match.pk).update(
        status="finished", deals_done=DEALS, report=report, series=series
    )
    return match


def nice(step: float) -> bool:
    """1, 2, 2.5 or 5 times a power of ten."""
    mantissa = step / 10 ** math.floor(math.log10(step))
    return any(abs(mantissa - m) < 1e-6 for m in (1, 2, 2.5, 5, 10))


def test_report_shows_every_column_and_the_chart_has_round_ticks_and_deal_labels(
    browser: Any, live_server: Any
) -> None:
    user = UserFactory.create(username="labber")
    match = _finished_match(user)
    page = session_page(browser, live_server.url, user, DESKTOP)
    page.goto(f"{live_server.url}/bots/matches/{match.pk}/")
    page.locator("#match-report tbody td").first.wait_for()
    page.locator("#match-chart svg").wait_for()
    page.screenshot(path=f"{SHOTS}/match-report.png", full_page=True)
    scroll = page.locator("#match-report").locator("xpath=..")
    fits = scroll.evaluate("n => n.scrollWidth <= n.clientWidth + 1")
    assert fits, scroll.evaluate("n => [n.scrollWidth, n.clientWidth]")
    last = page.locator("#match-report thead th").last
    assert last.inner_text() == "ms / move"
    box = last.bounding_box()
    assert box["x"] + box["width"] <= DESKTOP["width"]
    assert page.locator("#match-report tbody tr").first.locator("td").last.inner_text() == "1.23"

    y_ticks = [float(t) for t in page.locator("#match-chart text.tick-y").all_text_contents()]
    assert len(y_ticks) >= 3
    steps = {round(b - a, 9) for a, b in itertools.pairwise(y_ticks)}
    assert len(steps) == 1, y_ticks
    assert nice(abs(steps.pop())), y_ticks
    x_ticks = [int(t) for t in page.locator("#match-chart text.tick-x").all_text_contents()]
    assert len(x_ticks) >= 3, x_ticks
    assert x_ticks == sorted(x_ticks)
    assert x_ticks[0] >= 1
    assert x_ticks[-1] <= DEALS
    assert page.errors == []
    page.context.close()
