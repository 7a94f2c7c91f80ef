"""House AIs as rating anchors at Bot Arena, in a real Chromium (issue #15): a user alone with
one ready bot ticks it and two house AIs, starts the arena, and the table page says nothing about
the session being unrated; once game 1 is over the bot is on the leaderboard with its skill band,
beside the house AI anchor rows. Two versions of one bot make an unrated session, and the table
page says why, in English and (after switching through the nav) in Vietnamese.

Served by ``live_asgi`` (tests/browser/conftest.py: daphne and a real Celery worker, which deals,
runs the bot's sandbox, plays the house AIs and records the rating).
"""

from __future__ import annotations

from typing import Any

import pytest

from bots.examples import example_code
from bots.models import BotRatingEvent, BotVersion
from games.models import Game
from tests.bots.live import example_version, new_user
from tests.bots.worker import wait_for
from tests.browser.helpers import session_page
from tests.factories import BotVersionFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

UNRATED_EN = "This session is unrated: only one bot plays"
UNRATED_VI = "Phiên này không tính xếp hạng: chỉ có một bot chơi"
VIEWPORT = {"width": 1280, "height": 900}


def _start_arena(page: Any, base: str, *, versions: list[int], house: list[str]) -> str:
    """Tick ``versions`` and ``house`` levels on the Bot Arena page (already open), start it;
    the table's code (the page is then the table page)."""
    form = page.locator("#arena form")
    for pk in versions:
        form.locator(f"input[name='bots'][value='{pk}']").check()
    for level in house:
        form.locator(f"input[name='house'][value='{level}']").check()
    form.locator("button[type='submit']").click()
    page.wait_for_url(lambda url: "/bots/arena/" not in url)
    page.locator("#game-counter").wait_for()
    return str(page.url.rstrip("/").rsplit("/", 1)[-1])


def _notes(page: Any) -> list[str]:
    return [str(n) for n in page.locator("[data-note]").all_inner_texts()]


def _rated_game_one(code: str) -> Game | None:
    game = Game.objects.filter(table__code=code, number=1, status=Game.Status.FINISHED).first()
    if game is None or not BotRatingEvent.objects.filter(game_id=game.pk).exists():
        return None
    return game


def test_one_bot_and_two_house_ais_are_rated_and_reach_the_leaderboard(
    browser: Any, live_asgi: str
) -> None:
    owner = new_user("loner")
    version = example_version(owner, "greedy", "Lone Greedy")
    page = session_page(browser, live_asgi, owner, VIEWPORT, timeout=20_000)
    page.goto(f"{live_asgi}/bots/arena/")
    code = _start_arena(page, live_asgi, versions=[version.pk], house=["easy", "hard"])

    # rated: the table page carries no "unrated" note
    assert not [n for n in _notes(page) if "unrated" in n], _notes(page)

    game = wait_for(lambda: _rated_game_one(code), timeout=240)
    event = BotRatingEvent.objects.get(game_id=game.pk)
    assert event.bot_id == version.bot_id

    page.goto(f"{live_asgi}/bots/leaderboard/")
    row = page.locator(f"tr[data-bot='{version.bot_id}']")
    row.wait_for()
    assert "Lone Greedy" in row.inner_text()
    assert " ± " in row.locator(".skill-band").inner_text()
    anchors = page.locator(".anchors-table tr[data-anchor]")
    levels = [anchors.nth(i).get_attribute("data-anchor") for i in range(anchors.count())]
    assert {"easy", "hard"} <= set(levels)
    assert "House AI (Hard)" in page.locator(".anchors-table tr[data-anchor='hard']").inner_text()
    assert " ± " in page.locator(".anchors-table tr[data-anchor='easy'] .skill-band").inner_text()


def test_two_versions_of_one_bot_are_refused_in_both_languages(
    browser: Any, live_asgi: str
) -> None:
    """Two versions of one bot are one program (games.programs): the arena is refused, with
    the reason on the form, in English and in Vietnamese, and no table is made."""
    owner = new_user("twins")
    v1 = example_version(owner, "greedy", "Twin")
    v2 = BotVersionFactory.create(
        bot=v1.bot,
        number=v1.number + 1,
        code=example_code("random"),
        status=BotVersion.Status.READY,
    )
    page = session_page(browser, live_asgi, owner, VIEWPORT, timeout=20_000)
    for lang, words in (
        ("en", "One program may hold only one seat of a game"),
        ("vi", "Mỗi chương trình chỉ được giữ một ghế trong một ván"),
    ):
        page.goto(f"{live_asgi}/bots/arena/?lang={lang}")
        form = page.locator("#arena form")
        for pk in (v1.pk, v2.pk):
            form.locator(f"input[name='bots'][value='{pk}']").check()
        form.locator("button[type='submit']").click()
        page.get_by_text(words).first.wait_for()
        assert "/bots/arena/" in page.url
