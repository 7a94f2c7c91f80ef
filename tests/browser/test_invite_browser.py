"""An invite link in the browser: the host makes it in the lobby and copies it; a guest who is
not signed in opens it, logs in, and comes back seated; the host revokes it."""

from __future__ import annotations

from typing import Any

import pytest

from games import services
from games.models import Table
from tests.browser.helpers import LOBBY_SEAT, SHOTS, open_table, people, session_page
from tests.factories import DEFAULT_PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: The clipboard, recorded (headless Chromium's own needs focus and permissions).
CLIPBOARD_STUB = """
Object.defineProperty(navigator, "clipboard", {
  configurable: true,
  value: { writeText: async (text) => { window.__copied = text; } },
});
"""


def test_the_host_copies_the_link_and_a_guest_logs_in_and_is_seated(
    browser: Any, live_asgi: str
) -> None:
    base = live_asgi
    host_user, guest_user = people(2)
    table = services.table_create(
        owner=host_user, name="Home", visibility=Table.Visibility.PRIVATE, options={"seats": 2}
    )
    host = session_page(browser, base, host_user)
    host.context.add_init_script(CLIPBOARD_STUB)
    open_table(host, base, table, drawn=LOBBY_SEAT)
    host.locator("#btn-make-invite").click()
    link = host.locator("#invite-link").input_value()
    assert "/tables/invite/" in link
    host.locator(LOBBY_SEAT).first.wait_for()
    host.screenshot(path=f"{SHOTS}/table-invite-lobby.png")
    host.locator("#btn-copy-invite").click()
    host.wait_for_function("(link) => window.__copied === link", arg=link)

    guest_context = browser.new_context()
    guest = guest_context.new_page()
    guest.goto(link)
    guest.wait_for_url("**/accounts/login/**")
    guest.get_by_label("Username").fill(guest_user.username)
    guest.get_by_label("Password").fill(DEFAULT_PASSWORD)
    guest.locator("form.form button[type=submit]").click()
    guest.wait_for_url(f"**/t/{table.code}/")
    guest.locator("#btn-ready").wait_for(state="visible")
    assert table.seats.filter(user=guest_user).count() == 1

    host.locator("#btn-revoke-invite").click()
    host.locator("#btn-make-invite").wait_for()
    guest.goto(link)
    assert guest.locator("#invite-problem h1").inner_text() == "This invite link was revoked"
    guest_context.close()
    host.context.close()
