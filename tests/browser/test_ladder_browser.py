"""A bot's ladder placement on its rating page refreshes itself in a real Chromium: once the
ladder's JSON changes, the next refresh (every 15 s; the page's clock is moved on) shows the new
rank range, games and state, in the page's language."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bots.ladder import services
from bots.models import Bot, LadderEntrant
from tests.bots.live import example_version, new_user
from tests.browser.helpers import DESKTOP, session_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize(("language", "settled"), [("en", "Settled"), ("vi", "Đã ổn định")])
def test_the_placement_refreshes_from_the_ladder(
    browser: Any, live_server: Any, settings: Any, language: str, settled: str
) -> None:
    settings.LADDER_GAMES = ["tienlen:4"]
    settings.HOUSE_AI_BUDGET_MS = 20.0
    owner = new_user("owner")
    version = example_version(owner, "greedy", "Greedy")
    Bot.objects.filter(pk=version.bot_id).update(promoted_version=version)
    assert services.ladder_tick(rng=random.Random(4)) == 1
    entrant = LadderEntrant.objects.get(version=version)
    page = session_page(browser, live_server.url, owner, DESKTOP, language=language)
    page.clock.install()
    page.goto(f"{live_server.url}/bots/{version.bot_id}/rating/")
    row = page.locator(f"tr[data-entrant='{entrant.pk}']")
    assert row.locator("[data-cell=games]").inner_text() == "4"
    LadderEntrant.objects.filter(pk=entrant.pk).update(
        games=99, mu=40.0, sigma=0.5, state=LadderEntrant.State.SETTLED
    )
    page.clock.run_for(16_000)
    row.locator("[data-cell=games]", has_text="99").wait_for()
    assert row.locator("[data-cell=rank]").inner_text() == "1"
    assert row.locator("[data-state-label]").inner_text() == settled
    assert row.get_attribute("data-state") == "settled"
    page.context.close()
