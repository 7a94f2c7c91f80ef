"""Issue 25: on Create Table, "Read the rules" follows the game chosen in the select, and Diu's
rarely-changed options stay folded under "Advanced" until opened (a real Chromium)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.helpers import collect_errors, in_thread, session_page
from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_read_the_rules_follows_the_chosen_game_and_advanced_is_folded(
    browser: Any, live_server: Any
) -> None:
    base = live_server.url
    user = in_thread(lambda: UserFactory.create(username="an", display_name="An"))
    page = session_page(browser, base, user, language="vi")
    errors = collect_errors(page)
    page.goto(base + "/tables/new/")
    link = page.locator("[data-rules-link]")
    assert link.get_attribute("href") == "/how-to-play/"
    page.locator("#id_game").select_option("diu")
    assert link.get_attribute("href") == "/how-to-play/diu/"
    assert page.locator("#id_rotation").is_visible()
    assert not page.locator("#id_shuffle_mode").is_visible()  # under "Advanced", folded
    page.locator('[data-advanced-options="diu"] summary').click()
    assert page.locator("#id_shuffle_mode").is_visible()
    page.locator("#id_game").select_option("stud")
    assert link.get_attribute("href") == "/how-to-play/stud/"
    link.click()
    page.wait_for_url("**/how-to-play/stud/")
    assert "Cách chơi Stud 7 lá" in page.locator("h1").inner_text()
    assert not errors
