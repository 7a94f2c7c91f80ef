"""The table page's lobby and dialogs in a real Chromium (issue 25, "Pages"): a host alone with
house AIs starts with one click (Start implies Ready); End session asks in the site's own
dialog (never the browser's plain confirm), in English and Vietnamese; a toast never covers the
hand's action buttons."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Table
from tests.browser.helpers import (
    PHONE,
    choose_seats,
    new_table_form,
    session_page,
    set_language,
    submit_table_form,
    wait_for_board,
)
from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


@pytest.mark.parametrize(
    ("language", "cancel", "end"), [("en", "Cancel", "End session"), ("vi", "Hủy", "Kết thúc")]
)
def test_one_click_start_site_dialog_for_end_session_and_toasts_clear_of_the_buttons(
    browser: Any, live_asgi: str, language: str, cancel: str, end: str
) -> None:
    base = live_asgi
    host = UserFactory.create(username=f"solo{language}", display_name="Solo")
    page = session_page(browser, base, host, PHONE)
    native: list[str] = []

    def plain_dialog(dialog: Any) -> None:  # the browser's own confirm: must never open
        native.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", plain_dialog)

    new_table_form(page, base, "Solo")
    choose_seats(page, {2: "house:easy", 3: "house:easy", 4: "house:easy"})
    submit_table_form(page)
    set_language(page, base, language)
    page.reload()
    # one click: Start makes the host ready (everybody else is a house AI)
    assert page.locator("#btn-ready").get_attribute("aria-pressed") == "false"
    page.locator("#btn-start:enabled").click()
    wait_for_board(page)

    # a toast (here: a chat message too long) stays clear of Play, Pass, Sort and Suggestion
    page.locator("#btn-play").scroll_into_view_if_needed()
    page.evaluate("document.querySelector('#btn-play').scrollIntoView({block: 'end'})")
    page.evaluate(
        "() => { const i = document.querySelector('#chat-input'); i.value = 'x'.repeat(501);"
        " document.querySelector('#chat-form').requestSubmit(); }"
    )
    shown = page.locator("#toasts .toast").first
    shown.wait_for()
    toast_box = shown.bounding_box()
    for button in page.locator("#me-zone .actions .button").all():
        assert not overlap(toast_box, button.bounding_box()), button.inner_text()

    # End session: the site's dialog; Cancel changes nothing, then confirming ends it
    page.locator("#btn-end-session").click()
    dialog = page.locator("#confirm-dialog")
    dialog.wait_for(state="visible")
    assert dialog.locator("#confirm-cancel").inner_text() == cancel
    assert dialog.locator("#confirm-ok").inner_text().startswith(end)
    dialog.locator("#confirm-cancel").click()
    dialog.wait_for(state="hidden")
    table = Table.objects.get(name="Solo")
    assert table.status == Table.Status.IN_PROGRESS
    page.locator("#btn-end-session").click()
    dialog.locator("#confirm-ok").click()
    dialog.wait_for(state="hidden")
    for _ in range(100):  # the end_session frame reaches the server: wait on the row
        table.refresh_from_db()
        if table.status == Table.Status.COMPLETED:
            break
        page.wait_for_timeout(100)
    assert table.status == Table.Status.COMPLETED
    assert native == []
    page.context.close()
