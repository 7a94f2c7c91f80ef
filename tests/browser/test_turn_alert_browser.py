"""The "your turn" alert while the tab is hidden (static/js/table/notify.js): the title and the
favicon change and, for a player who chose "Notify me on my turn", a browser Notification
shows; all of it reverts when the tab is shown again or the turn passes.

The tab's hiding is emulated (``document.hidden`` / ``visibilityState`` overridden, then a
``visibilitychange`` event), and ``window.Notification`` is a stub that records its calls.
"""

from __future__ import annotations

from typing import Any

import pytest

from accounts.models import User
from games import services
from games.models import Game, Table
from tests.browser.helpers import (
    act,
    game_one,
    in_thread,
    open_table,
    people,
    seated_table,
    session_page,
    wait_for_board,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NOTIFICATION_STUB = """
window.__notes = [];
window.__closed = 0;
class StubNotification {
  constructor(title, options) { window.__notes.push({ title, body: (options || {}).body }); }
  close() { window.__closed += 1; }
  static get permission() { return "granted"; }
  static requestPermission() { return Promise.resolve("granted"); }
}
window.Notification = StubNotification;
"""

SET_HIDDEN = """(hidden) => {
  Object.defineProperty(document, "hidden", { configurable: true, get: () => hidden });
  Object.defineProperty(document, "visibilityState", {
    configurable: true, get: () => (hidden ? "hidden" : "visible"),
  });
  document.dispatchEvent(new Event("visibilitychange"));
}"""

ALERTED = "() => document.title.startsWith('● ')"
CALM = "() => !document.title.startsWith('● ')"


def _icon(page: Any) -> str:
    return str(page.evaluate("document.querySelector(\"link[rel~='icon']\").href"))


def test_your_turn_in_a_hidden_tab_changes_title_icon_and_notifies(
    browser: Any, live_asgi: str
) -> None:
    base = live_asgi
    users = people(2)
    table = seated_table(users, options={"seats": 2})
    pages = []
    for user in users:
        page = session_page(browser, base, user)
        page.context.grant_permissions(["notifications"], origin=base)
        page.context.add_init_script(NOTIFICATION_STUB)
        open_table(page, base, table, drawn="#seat-list .lseat")
        # the toggle asks for permission and is remembered
        page.locator("#lobby-notify").check()
        assert page.evaluate("localStorage.getItem('tienlen.notifyTurn')") == "1"
        page.reload()
        page.locator("#seat-list .lseat").first.wait_for()
        assert page.locator("#lobby-notify").is_checked()
        page.evaluate(SET_HIDDEN, True)
        pages.append(page)

    game = in_thread(_deal, table, users[0])
    on_turn = pages[game.state["turn"]]
    other = pages[1 - game.state["turn"]]

    on_turn.wait_for_function(ALERTED)
    assert on_turn.title().startswith("● Your turn! — ")
    assert _icon(on_turn).endswith("/img/favicon-turn.svg")
    assert on_turn.evaluate("window.__notes") == [
        {"title": "Your turn!", "body": on_turn.evaluate("window.__notes[0].body")}
    ]
    assert not other.title().startswith("● ")
    assert other.evaluate("window.__notes") == []

    # the turn passes (the player moves): the alert goes, and the other player's comes
    wait_for_board(on_turn)
    act(on_turn)
    on_turn.wait_for_function(CALM)
    assert _icon(on_turn).endswith("/img/favicon.svg")
    assert on_turn.evaluate("window.__closed") == 1
    other.wait_for_function(ALERTED)
    assert _icon(other).endswith("/img/favicon-turn.svg")
    assert len(other.evaluate("window.__notes")) == 1

    # showing the tab again reverts it all
    other.evaluate(SET_HIDDEN, False)
    other.wait_for_function(CALM)
    assert _icon(other).endswith("/img/favicon.svg")
    assert other.evaluate("window.__closed") == 1
    for page in pages:
        assert page.errors == []
        page.context.close()


def _deal(table: Table, host: User) -> Game:
    """The host starts the table; game 1 once dealt (run in another thread: :func:`in_thread`)."""
    services.table_start(table_id=table.pk, user=host)
    return game_one(table)


def test_no_notification_unless_the_player_asked(browser: Any, live_asgi: str) -> None:
    base = live_asgi
    users = people(2)
    table = seated_table(users, options={"seats": 2})
    pages = []
    for user in users:
        page = session_page(browser, base, user)
        page.context.grant_permissions(["notifications"], origin=base)
        page.context.add_init_script(NOTIFICATION_STUB)
        open_table(page, base, table, drawn="#seat-list .lseat")
        assert not page.locator("#lobby-notify").is_checked()
        page.evaluate(SET_HIDDEN, True)
        pages.append(page)
    game = in_thread(_deal, table, users[0])
    on_turn = pages[game.state["turn"]]
    on_turn.wait_for_function(ALERTED)  # the title and the icon still say so
    assert _icon(on_turn).endswith("/img/favicon-turn.svg")
    assert on_turn.evaluate("window.__notes") == []
    for page in pages:
        page.context.close()
