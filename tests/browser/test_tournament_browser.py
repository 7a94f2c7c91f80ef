"""A small tournament in real Chromium: two people and two user bots, one round of one game.

The creator makes the tournament with the form, enters their bot and joins; the second person
enters their own bot and joins from their own browser, then goes to the home page; the creator
starts it. Each person is told that their table of round 1 is ready (the creator on the
tournament page, the other by the site-wide notification on the home page: both pushed over
the sockets, with no polling request), opens it, and plays the game out (the bots play their
code in the sandbox on the real worker); the round closes, the standings show all four
entrants, and the bots' games are rated.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from bots.models import BotRatingEvent
from games.tournaments.models import Round, RoundResult, Tournament
from tests.bots.live import example_version
from tests.browser.helpers import DESKTOP, PHONE, act, session_page, wait_for_board
from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_two_people_and_two_bots_play_a_tournament_round(browser: Any, live_asgi: str) -> None:
    base = live_asgi
    lan = UserFactory.create(username="lan", display_name="Lan")
    minh = UserFactory.create(username="minh", display_name="Minh")
    lan_bot = example_version(lan, "greedy", "Lan's greedy")
    minh_bot = example_version(minh, "defensive", "Minh's defensive")
    host = session_page(browser, base, lan, DESKTOP)
    guest = session_page(browser, base, minh, PHONE)
    polls: list[str] = []  # the live updates are pushed over the sockets, never polled
    for page in (host, guest):
        page.on(
            "request",
            lambda r: polls.append(r.url) if r.url.endswith(("state.json", "mine.json")) else None,
        )

    host.goto(base + "/")
    host.get_by_role("link", name="Tournaments").first.click()
    host.wait_for_url("**/tournaments/")
    host.get_by_label("Tournament name").fill("Cúp thứ Sáu")
    host.get_by_label("Format").select_option("round_robin")
    host.get_by_label("Rounds", exact=True).fill("1")
    host.get_by_label("Players per table").fill("4")
    host.get_by_label("Games per round").fill("1")
    host.get_by_role("button", name="Create tournament").click()
    host.wait_for_url("**/tournaments/*/")
    t = Tournament.objects.get(name="Cúp thứ Sáu")
    assert (t.format, t.rounds, t.table_size, t.games_per_round) == ("round_robin", 1, 4, 1)

    host.locator("select[name=bot]").select_option(f"bot:{lan_bot.pk}")
    host.get_by_role("button", name="Enter bot").click()
    host.locator("[data-entrants] li", has_text="Lan's greedy").wait_for()
    host.locator("[data-join]").click()
    host.locator("[data-join]").wait_for(state="detached")  # entered: the join button is gone

    guest.goto(f"{base}/tournaments/{t.pk}/")
    guest.locator("select[name=bot]").select_option(f"bot:{minh_bot.pk}")
    guest.get_by_role("button", name="Enter bot").click()
    guest.locator("[data-entrants] li", has_text="Minh's defensive").wait_for()
    guest.locator("[data-join]").click()
    guest.locator("[data-join]").wait_for(state="detached")
    assert t.entries.count() == 4
    assert t.entries.filter(kind="bot").count() == 2

    guest.goto(base + "/")  # the guest waits elsewhere on the site
    host.locator("[data-start-now]").click()
    # the host is told on the tournament page that their table is ready
    host.locator("[data-your-table]").wait_for(state="visible", timeout=20_000)
    assert "Your table for round 1 is ready" in host.locator("[data-your-table]").inner_text()
    assert "round 1 is ready" in host.title()
    host.locator("[data-schedule] [data-table]").first.wait_for()
    host.locator("[data-your-table-link]").click()
    # the guest, on the home page, by the site-wide notification
    toast = guest.locator("#tournament-notify")
    toast.wait_for(state="visible", timeout=20_000)
    assert "Your table for round 1 of Cúp thứ Sáu is ready" in toast.inner_text()
    assert polls == []
    toast.locator("[data-link]").click()
    for page in (host, guest):
        page.wait_for_url("**/t/**")
        wait_for_board(page)

    deadline = time.monotonic() + 150
    while time.monotonic() < deadline:
        if Round.objects.filter(tournament=t, number=1, status="finished").exists():
            break
        for page in (host, guest):
            if not page.locator("#result-view").is_visible():
                act(page)
        host.wait_for_timeout(80)
    else:
        host.screenshot(path="/tmp/tournament-stuck-host.png")
        pytest.fail("the round did not finish in time")

    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    assert RoundResult.objects.filter(round__tournament=t).count() == 4
    assert sum(r.points for r in RoundResult.objects.filter(round__tournament=t)) == 6
    # the bots' games are rated (two bots of different owners at a tournament table); the
    # rating task runs on the worker after the game's commit, so wait for it
    wanted = {lan_bot.bot_id, minh_bot.bot_id}
    rating_deadline = time.monotonic() + 60
    while time.monotonic() < rating_deadline:
        if set(BotRatingEvent.objects.values_list("bot_id", flat=True)) == wanted:
            break
        host.wait_for_timeout(200)
    assert set(BotRatingEvent.objects.values_list("bot_id", flat=True)) == wanted

    for page in (host, guest):
        page.goto(f"{base}/tournaments/{t.pk}/")
        rows = page.locator("[data-standings] tbody tr")
        rows.nth(3).wait_for()
        assert rows.count() == 4
        text = page.locator("[data-standings]").inner_text()
        assert "Lan" in text
        assert "Minh" in text
        assert page.locator("[data-tournament-status]").inner_text() == "Finished"
        people = page.locator("[data-standings] tbody tr", has_text="Lan").filter(
            has_not_text="greedy"
        )
        assert people.locator("td").last.inner_text() != "—"  # people are rated
        assert page.locator("[data-your-table]").is_hidden()
        page.locator("[data-schedule] a", has_text="Results").first.wait_for()
    assert polls == []
    host.screenshot(path="/tmp/tournament-standings.png", full_page=True)
    assert host.errors == []
    assert guest.errors == []
    host.context.close()
    guest.context.close()


def test_the_page_fits_a_phone_and_closes_entries_live_when_the_start_comes(
    browser: Any, live_asgi: str
) -> None:
    """Issue 25: on a phone the tournament page overflowed, the standings were unstyled, and
    after Start now the entry buttons stayed (clicking said entries were closed). Here the
    creator watches the page while the start comes from elsewhere (the services, another
    thread): the buttons go over the socket, without a reload."""
    from games.tournaments import services as tournament_services
    from tests.browser.helpers import in_thread
    from tests.games.tournaments.conftest import make_tournament

    t, _ = in_thread(
        make_tournament,
        people=2,
        house=1,
        start_in=3600,
        name="Giải mùa xuân của câu lạc bộ Tiến Lên",
        visibility="invite",
    )
    page = session_page(browser, live_asgi, t.creator, PHONE)
    page.goto(f"{live_asgi}/tournaments/{t.pk}/")
    page.locator("[data-standings] tbody tr").nth(2).wait_for()
    page.screenshot(path="/tmp/tournament-phone.png", full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # One JS task finds the cell and reads its style: the socket's snapshot re-renders the
    # standings (replaceChildren), and a cell found in one call and read in the next can be
    # detached by then (its computed style is then empty).
    ruled = page.evaluate(
        "() => getComputedStyle(document.querySelector('[data-standings] tbody td'))"
        ".borderBottomStyle"
    )
    assert ruled == "solid"
    assert page.locator("[data-start-now]").is_visible()

    in_thread(tournament_services.tournament_start_now, tournament_id=t.pk, user=t.creator)
    page.locator("[data-registration]").wait_for(state="detached")
    for marker in ("[data-join]", "[data-start-now]", "[data-add-house]", "select[name=bot]"):
        assert page.locator(marker).count() == 0
    assert page.errors == []
    page.context.close()
