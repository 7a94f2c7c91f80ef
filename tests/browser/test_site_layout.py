"""The site's frame in a real Chromium (issue 25, "Pages"): the navigation stays on one line
at 1366 px when logged out (English and Vietnamese), and the home page's action cards keep
inside a phone's screen (390 px) with a margin. Checked by bounding boxes."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.helpers import DESKTOP, PHONE, SHOTS, set_language

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("language", ["en", "vi"])
def test_the_navigation_is_one_line_at_1366_when_logged_out(
    browser: Any, live_server: Any, language: str
) -> None:
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    set_language(page, live_server.url, language)
    page.goto(live_server.url + "/")
    page.screenshot(path=f"{SHOTS}/nav-{language}.png")
    items = page.locator(".nav .brand, .nav-links li, .nav-user li")
    tops = {round(items.nth(i).bounding_box()["y"]) for i in range(items.count())}
    centres = [
        (lambda b: b["y"] + b["height"] / 2)(items.nth(i).bounding_box())
        for i in range(items.count())
    ]
    assert max(centres) - min(centres) < 12, tops  # one row: every item centred on it
    links = page.locator(".nav-links a, .nav-user a, .nav-user button")
    for i in range(links.count()):  # and no label broken over two lines
        link = links.nth(i)
        assert link.bounding_box()["height"] < 40, link.inner_text()
    assert page.locator(".site-header").bounding_box()["height"] < 80
    context.close()


def test_the_home_action_cards_keep_a_margin_on_a_phone(browser: Any, live_server: Any) -> None:
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(live_server.url + "/")
    page.screenshot(path=f"{SHOTS}/home-phone.png", full_page=True)
    cards = page.locator(".quick-actions .action-card")
    assert cards.count() >= 3
    width = PHONE["width"]
    for i in range(cards.count()):
        box = cards.nth(i).bounding_box()
        assert box["x"] >= 8, (i, box)
        assert box["x"] + box["width"] <= width - 8, (i, box)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    context.close()
