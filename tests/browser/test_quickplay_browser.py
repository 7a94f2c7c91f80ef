"""Quick play in the browser: two people press Quick play for a 2-seat Tiến Lên table, one on a
desktop in English, one on a phone in Vietnamese; both wait on the waiting page and are taken
to the same rated table (the live site: daphne and a real worker run the pairing pass)."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Seat, Table
from tests.browser.helpers import DESKTOP, PHONE, people, session_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def behind_proxy(settings: Any) -> None:
    """The live site trusts the local peer as a proxy, so each browser context's
    ``X-Forwarded-For`` is its address (two people on one address are never seated together)."""
    settings.TRUSTED_PROXIES = ["127.0.0.1/32"]


def press_quick_play(page: Any, base: str, seats: str) -> None:
    page.goto(base + "/")
    form = page.locator("#quick-play form").filter(has=page.locator('input[value="tienlen"]'))
    form.locator("select").select_option(seats)
    form.locator("button[data-quickplay=tienlen]").click()


def test_two_people_press_quick_play_and_meet_at_one_table(
    browser: Any, behind_proxy: None, live_asgi: str
) -> None:
    base = live_asgi
    first, second = people(2)
    desk = session_page(
        browser,
        base,
        first,
        DESKTOP,
        language="en",
        extra_http_headers={"X-Forwarded-For": "203.0.113.1"},
    )
    phone = session_page(
        browser,
        base,
        second,
        PHONE,
        language="vi",
        extra_http_headers={"X-Forwarded-For": "203.0.113.2"},
    )
    press_quick_play(desk, base, "2")
    desk.wait_for_url("**/quickplay/")
    assert "Waiting: 1" in desk.locator("#qp-waiting").inner_text()
    press_quick_play(phone, base, "2")
    phone.wait_for_url("**/t/*/", timeout=20_000)
    desk.wait_for_url("**/t/*/", timeout=20_000)
    assert desk.url == phone.url
    table = Table.objects.get(options__quickplay=True)
    assert table.options["rated"] is True
    users = set(Seat.objects.filter(table=table, kind="human").values_list("user_id", flat=True))
    assert users == {first.pk, second.pk}
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"]  # the table page fits the phone
    assert desk.errors == []
    assert phone.errors == []
    desk.context.close()
    phone.context.close()


def test_leave_is_one_click(browser: Any, live_asgi: str) -> None:
    base = live_asgi
    (person,) = people(1)
    page = session_page(browser, base, person, PHONE, language="vi")
    press_quick_play(page, base, "4")
    page.wait_for_url("**/quickplay/")
    assert "Đang chờ: 1" in page.locator("#qp-waiting").inner_text()
    page.locator("#qp-leave").click()
    page.wait_for_url(base + "/")
    assert page.locator("#quick-play button[data-quickplay=tienlen]").is_visible()
    assert page.errors == []
    page.context.close()
