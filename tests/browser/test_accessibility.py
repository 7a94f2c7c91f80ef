"""axe-core (tests/browser/vendor/axe.min.js, 4.12.1, MPL-2.0) in a real Chromium over the pages
of issue 30's serious findings: no critical or serious WCAG 2.x A/AA violation on the page a
flash message lands on (after sign-up), the bot editor after "Bot created" (Monaco loaded, line
numbers shown), and a finished game's replay (face-down rows, the move list), in English and
Vietnamese, at 1366×900 and 390×844; then every other page a signed-in player reaches by GET
(tables, history, tournaments, bots and their versions, ratings, matches, the account pages),
and a live table of each game in play (its board: hand, melds, discards, seats)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bots.models import BotVersion
from tests.browser.helpers import (
    DESKTOP,
    PHONE,
    dealt_table,
    in_thread,
    open_table,
    session_page,
    set_language,
)
from tests.factories import BotVersionFactory, UserFactory
from tests.games.test_history_db import finished_human_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AXE = Path(__file__).parent / "vendor" / "axe.min.js"
#: WCAG 2.0 and 2.1, levels A and AA (axe's tags); best-practice rules are not asked for.
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
RUN_AXE = """
async (tags) => {
  const results = await axe.run(document, { runOnly: { type: "tag", values: tags } });
  return results.violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    nodes: v.nodes.map((n) => `${n.target.join(" ")}: ${n.failureSummary}`),
  }));
}
"""
VIEWPORTS = {"desktop": DESKTOP, "phone": PHONE}


def serious_violations(page: Any) -> list[str]:
    """axe's critical and serious violations of the page as it is now, one line per rule."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    found = page.evaluate(RUN_AXE, WCAG_TAGS)
    return [
        f"{v['id']} ({v['impact']}): " + " | ".join(v["nodes"][:5])
        for v in found
        if v["impact"] in ("critical", "serious")
    ]


def test_axe_itself_reports_the_old_message_list(live_server: Any, page: Any) -> None:
    """The check can fail: the old markup (a ul that is the live region) is a serious one."""
    page.goto(live_server.url + "/")
    page.evaluate(
        """() => document.querySelector("main").insertAdjacentHTML("afterbegin",
        '<ul class="messages" role="status"><li class="message">Welcome</li></ul>')"""
    )
    assert any(line.startswith("listitem (serious)") for line in serious_violations(page))


@pytest.mark.parametrize("language", ["en", "vi"])
def test_a_flash_message_keeps_its_list(live_server: Any, page: Any, language: str) -> None:
    base = live_server.url
    set_language(page, base, language)
    page.goto(base + "/accounts/signup/")
    page.locator("#id_username").fill("axe_an")
    page.locator("#id_email").fill("an@example.com")
    page.locator("#id_password1").fill("tr1cky-Lantern-42")
    page.locator("#id_password2").fill("tr1cky-Lantern-42")
    page.locator("form button[type=submit]").last.click()
    page.wait_for_url("**/accounts/profile/")
    # the live region is a container; the list inside it keeps its list role
    region = page.locator("[role=status]:has(ul.messages)")
    assert region.count() == 1
    assert region.locator("ul.messages > li.message").count() == 1
    assert page.get_by_role("list").filter(has=page.locator("li.message")).count() == 1
    assert serious_violations(page) == []


@pytest.mark.parametrize("viewport", VIEWPORTS)
@pytest.mark.parametrize("language", ["en", "vi"])
def test_the_bot_editor_after_create(
    live_server: Any, browser: Any, language: str, viewport: str
) -> None:
    base = live_server.url
    user = UserFactory.create(username=f"axe_{language}_{viewport}")
    page = session_page(browser, base, user, VIEWPORTS[viewport], language=language, timeout=60_000)
    try:
        page.goto(base + "/bots/")
        page.locator("#id_name").fill("Axe Bot")
        page.locator("form:has(#id_name) button[type=submit]:not([formaction])").click()
        page.wait_for_selector("[data-bot-editor][data-monaco='ready']", timeout=30_000)
        assert page.locator(".messages-region ul.messages > li.message-success").count() == 1
        assert page.locator("#monaco .line-numbers").count() > 0
        assert serious_violations(page) == []
    finally:
        page.context.close()


@pytest.mark.parametrize("viewport", VIEWPORTS)
@pytest.mark.parametrize("language", ["en", "vi"])
def test_a_replay(live_server: Any, browser: Any, language: str, viewport: str) -> None:
    table, users, _game = in_thread(finished_human_game)
    base = live_server.url
    page = session_page(
        browser, base, users[0], VIEWPORTS[viewport], language=language, timeout=60_000
    )
    try:
        page.goto(f"{base}/tables/{table.code}/games/1/replay/")
        page.locator("#rp-moves li[data-step]").first.wait_for()
        # the deal: every seat's row of backs is one image named by its count
        backs = page.locator(".rp-backs")
        assert backs.count() > 0
        assert backs.first.get_attribute("role") == "img"
        # the move list holds list items only (round heads included)
        assert page.locator("#rp-moves > :not(li)").count() == 0
        assert page.locator("#rp-moves > li[role]").count() == 0
        assert serious_violations(page) == []
        page.keyboard.press("End")  # every hand shown: rows of face-up cards
        assert page.locator(".rp-cards[role=group]").count() > 0
        assert serious_violations(page) == []
    finally:
        page.context.close()


#: The pages a signed-in player opens by GET ({table}, {bot}, {user} filled in by the test).
PAGES = [
    "/",
    "/how-to-play/",
    "/tables/new/",
    "/tables/join/",
    "/tables/history/",
    "/tables/history/mine/",
    "/tables/history/import/",
    "/tables/history/players/{user}/",
    "/tables/history/bots/{bot}/",
    "/tables/{table}/",
    "/tables/{table}/games/",
    "/tables/{table}/games/1/",
    "/tournaments/",
    "/bots/",
    "/bots/leaderboard/",
    "/bots/arena/",
    "/bots/matches/",
    "/bots/{bot}/",
    "/bots/{bot}/versions/",
    "/bots/{bot}/versions/1/",
    "/bots/{bot}/compare/?left=1&right=2",
    "/bots/{bot}/rating/",
    "/accounts/profile/",
    "/accounts/password/",
    "/accounts/token/",
]


@pytest.mark.parametrize("viewport", VIEWPORTS)
@pytest.mark.parametrize("language", ["en", "vi"])
def test_every_page(live_server: Any, browser: Any, language: str, viewport: str) -> None:
    table, users, _game = in_thread(finished_human_game)
    first = in_thread(
        lambda: BotVersionFactory.create(
            bot__owner=users[0], number=1, status=BotVersion.Status.READY
        )
    )
    in_thread(
        lambda: BotVersionFactory.create(bot=first.bot, number=2, status=BotVersion.Status.READY)
    )
    base = live_server.url
    page = session_page(
        browser, base, users[0], VIEWPORTS[viewport], language=language, timeout=60_000
    )
    found = {}
    try:
        for path in PAGES:
            url = base + path.format(table=table.code, bot=first.bot.pk, user=users[0].pk)
            response = page.goto(url, wait_until="load")
            assert response is not None
            assert response.ok, (path, response.status)
            page.wait_for_load_state("networkidle")
            if problems := serious_violations(page):
                found[path] = problems
    finally:
        page.context.close()
    assert found == {}


@pytest.mark.parametrize("game", ["tienlen", "stud", "diu"])
def test_a_live_table(browser: Any, live_asgi: str, game: str) -> None:
    table, users, _game = in_thread(dealt_table, 4, game=game)
    found = {}
    for language in ("en", "vi"):
        for viewport, size in VIEWPORTS.items():
            page = session_page(
                browser, live_asgi, users[0], size, language=language, timeout=60_000
            )
            try:
                open_table(page, live_asgi, table)
                page.locator("#board-view").wait_for(state="visible")
                page.locator("#board-view .pcard, #board-view .diu-tile").first.wait_for()
                if problems := serious_violations(page):
                    found[f"{language} {viewport}"] = problems
            finally:
                page.context.close()
    assert found == {}


#: The pages anybody opens without an account ({table}: a finished public table's code).
LOGGED_OUT = [
    "/",
    "/how-to-play/",
    "/how-to-play/stud/",
    "/how-to-play/diu/",
    "/accounts/login/",
    "/accounts/signup/",
    "/bots/leaderboard/",
    "/tournaments/",
    "/tables/history/",
    "/tables/{table}/",
    "/tables/{table}/games/1/replay/",
]


@pytest.mark.parametrize("viewport", VIEWPORTS)
@pytest.mark.parametrize("language", ["en", "vi"])
def test_every_logged_out_page(
    live_server: Any, browser: Any, language: str, viewport: str
) -> None:
    table, _users, _game = in_thread(finished_human_game)
    base = live_server.url
    context = browser.new_context(viewport=VIEWPORTS[viewport])
    page = context.new_page()
    page.set_default_timeout(60_000)
    set_language(page, base, language)
    found = {}
    try:
        for path in LOGGED_OUT:
            response = page.goto(base + path.format(table=table.code), wait_until="load")
            assert response is not None
            assert response.ok, (path, response.status)
            page.wait_for_load_state("networkidle")
            if problems := serious_violations(page):
                found[path] = problems
    finally:
        context.close()
    assert found == {}


def _tournament_and_report() -> tuple[Any, Any]:
    """A tournament open for entries (its creator, two people and a house AI entered) and a
    finished Bot Lab match of the same person (two house AIs, two deals: its report)."""
    from bots.matches import services as match_services
    from bots.models import Match
    from tests.games.tournaments.conftest import make_tournament

    tournament, _ = make_tournament(people=2, house=1, start_in=3600, name="Cúp mùa xuân")
    match = match_services.match_create(
        owner=tournament.creator,
        game="tienlen",
        entrants=["house:hard", "house:easy"],
        deals=2,
        seed=7,
    )
    assert match_services.match_execute(match_id=match.pk) == Match.Status.FINISHED
    return tournament, match


@pytest.mark.parametrize("viewport", VIEWPORTS)
@pytest.mark.parametrize("language", ["en", "vi"])
def test_a_tournament_and_a_bot_lab_report(
    live_server: Any, browser: Any, language: str, viewport: str
) -> None:
    tournament, match = in_thread(_tournament_and_report)
    base = live_server.url
    page = session_page(
        browser, base, tournament.creator, VIEWPORTS[viewport], language=language, timeout=60_000
    )
    found = {}
    try:
        for path in (f"/tournaments/{tournament.pk}/", f"/bots/matches/{match.pk}/"):
            response = page.goto(base + path, wait_until="load")
            assert response is not None
            assert response.ok, (path, response.status)
            page.wait_for_load_state("networkidle")
            if path.startswith("/bots/"):  # the report and its chart are drawn
                page.locator("#match-report tbody tr").first.wait_for()
                page.locator("#match-chart svg").wait_for()
            if problems := serious_violations(page):
                found[path] = problems
    finally:
        page.context.close()
    assert found == {}
