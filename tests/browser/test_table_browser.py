"""Two people (two browser contexts, one of them phone-sized) and two house AIs play a whole game
of Tiến Lên at a live table, over real WebSockets, to the result screen.

The ``live_asgi`` fixture (tests/browser/conftest.py) serves the site as in production: a
forked daphne against the test database and a real Celery worker that runs every timer and the
near-instant house AIs.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from games.models import Game, Seat, Table
from tests.browser.helpers import (
    DESKTOP,
    PHONE,
    SHOTS,
    act,
    create_table_by_form,
    open_table,
    ready_and_start,
    session_page,
    wait_for_board,
)
from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_two_people_and_two_house_ais_play_a_game(browser: Any, live_asgi: str) -> None:
    base = live_asgi
    lan = UserFactory.create(username="lan", display_name="Lan")
    minh = UserFactory.create(username="minh", display_name="Minh")
    host = session_page(browser, base, lan, DESKTOP)
    guest = session_page(browser, base, minh, PHONE)

    # The host creates a table with the form: seat 2 open, seats 3–4 house AIs.
    create_table_by_form(host, base, "Bàn thử", {2: "open", 3: "house:easy", 4: "house:hard"})
    table = Table.objects.get(name="Bàn thử")
    assert host.locator("#share-link").input_value().endswith(f"/t/{table.code}/")
    host.locator(".lseat.kind-house").first.wait_for()
    host.screenshot(path=f"{SHOTS}/table-lobby-desktop.png")

    # The guest opens the shared link (phone-sized), sits down; both get ready; the host starts.
    guest.goto(host.locator("#share-link").input_value())
    guest.get_by_role("button", name="Sit here").first.click()
    guest.locator("#btn-ready").wait_for(state="visible")
    guest.screenshot(path=f"{SHOTS}/table-lobby-phone.png", full_page=True)
    guest.locator("#btn-ready").click()
    ready_and_start(host)

    for page in (host, guest):
        wait_for_board(page)
    assert host.locator("#hand .pcard").count() == 13
    assert guest.locator("#game-counter").inner_text().startswith("Game 1 of 16")
    host.screenshot(path=f"{SHOTS}/table-game-desktop.png")
    guest.screenshot(path=f"{SHOTS}/table-game-phone.png")

    deadline = time.monotonic() + 150
    shot_mid = False
    while time.monotonic() < deadline:
        if all(p.locator("#result-view").is_visible() for p in (host, guest)):
            break
        for page in (host, guest):
            if not page.locator("#result-view").is_visible():
                act(page)
        if not shot_mid and host.locator("#centre-cards .pcard").count() >= 2:
            host.screenshot(path=f"{SHOTS}/table-midgame-desktop.png")
            guest.screenshot(path=f"{SHOTS}/table-midgame-phone.png")
            shot_mid = True
        host.wait_for_timeout(80)
    else:
        host.screenshot(path=f"{SHOTS}/table-stuck-desktop.png")
        guest.screenshot(path=f"{SHOTS}/table-stuck-phone.png")
        pytest.fail("the game did not finish in time")

    game = Game.objects.get(table=table, number=1)
    assert game.status == Game.Status.FINISHED
    assert game.result is not None
    winner_name = {0: "Lan", 1: "Minh"}.get(game.result["winner"])
    for page in (host, guest):
        title = page.locator("#result-title").inner_text()
        assert title.endswith("wins!")
        if winner_name:
            assert winner_name in title
        assert page.locator(".transfers tbody tr").count() >= 1
        assert page.locator("#btn-next-game").is_visible()
    host.screenshot(path=f"{SHOTS}/table-result-desktop.png")
    guest.screenshot(path=f"{SHOTS}/table-result-phone.png", full_page=True)
    assert Seat.objects.filter(table=table, kind=Seat.Kind.HOUSE).count() == 2
    assert host.errors == []
    assert guest.errors == []
    host.context.close()
    guest.context.close()


def test_a_disqualified_bot_is_marked_in_the_seat_list_and_on_the_table(
    browser: Any, live_asgi: str
) -> None:
    """A bot struck out (3 strikes) shows "disqualified — house plays" instead of "auto"."""
    from tests.bots.conftest import GOOD_BOT
    from tests.bots.live import hybrid_table

    owner = UserFactory.create(username="lan", display_name="Lan")
    table, _ = hybrid_table(owner, GOOD_BOT, seats=3)  # Lan, her bot, a house AI
    Seat.objects.filter(table=table, index=1).update(strikes=3, disqualified=True, auto=True)
    page = session_page(browser, live_asgi, owner, DESKTOP)
    open_table(page, live_asgi, table)
    badge = page.locator('#seat-list .lseat[data-seat="1"] .badge-dq')
    badge.wait_for()
    assert badge.inner_text() == "disqualified — house plays"
    assert "3 strikes" in (badge.get_attribute("title") or "")
    assert page.locator("#seat-list .badge-dq").count() == 1

    page.locator("#btn-start:enabled").click()
    page.locator("#board-view").wait_for(state="visible", timeout=20_000)
    pod = page.locator('.pod[data-seat="1"]')
    pod.locator(".badge-dq").wait_for()
    assert pod.locator(".badge-dq").inner_text() == "disqualified — house plays"
    assert "is-disqualified" in (pod.get_attribute("class") or "")
    assert page.locator('.pod[data-seat="2"] .badge-auto').count() == 0  # the house AI
    page.screenshot(path=f"{SHOTS}/table-disqualified-desktop.png")
    assert page.errors == []
    page.context.close()


def test_chat_emoji_picker_on_the_table_and_in_the_lobby(browser: Any, live_asgi: str) -> None:
    """The picker opens, closes on Escape, works from the keyboard, inserts at the caret; the
    line arrives intact, and a line of markup shows as text (phone-sized table page)."""
    from games import services

    lan = UserFactory.create(username="lan", display_name="Lan")
    table = services.table_create(owner=lan, name="Emoji")
    page = session_page(browser, live_asgi, lan, PHONE)
    open_table(page, live_asgi, table)
    chat = page.locator("#chat-input")
    toggle = page.locator("#chat-form [data-emoji-toggle]")
    grid = page.locator("#chat-input-emoji")
    chat.fill("gg !")
    chat.press("End")
    chat.press("ArrowLeft")  # the caret before "!"
    toggle.click()
    grid.wait_for(state="visible")
    assert toggle.get_attribute("aria-expanded") == "true"
    assert grid.get_by_role("button").count() == 24
    page.keyboard.press("Escape")
    grid.wait_for(state="hidden")
    assert page.evaluate("document.activeElement.dataset.emojiToggle") == ""
    toggle.click()
    page.screenshot(path=f"{SHOTS}/chat-emoji-picker-phone.png")
    grid.get_by_role("button", name="👍").click()
    grid.wait_for(state="hidden")
    assert chat.input_value() == "gg 👍!"
    assert page.evaluate("document.activeElement.id") == "chat-input"
    chat.press("Enter")
    line = page.locator("#chat-lines .chat-line:not(.chat-system) .chat-text")
    line.filter(has_text="gg 👍!").wait_for()
    markup = "<img src=x onerror=window.pwned=1> <b>hi</b> 👍🏽🇻🇳"
    chat.fill(markup)
    page.locator("#chat-form button[type=submit]").click()
    line.filter(has_text="<b>hi</b>").wait_for()
    assert line.last.inner_text() == markup
    assert page.locator("#chat-lines img, #chat-lines b").count() == 0
    assert page.evaluate("window.pwned") is None
    page.screenshot(path=f"{SHOTS}/chat-emoji-phone.png")

    # The lobby: keyboard only, the emoji goes to the caret (the start of the line).
    page.goto(f"{live_asgi}/")
    lobby = page.locator("#lobby-chat-input")
    lobby.fill("xin chào")
    lobby.press("Home")
    lobby.press("Tab")
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.dataset.emoji") == "♠"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    assert lobby.input_value() == "♥xin chào"
    lobby.press("Enter")
    page.locator("#lobby-chat .chat-text", has_text="♥xin chào").wait_for()
    assert page.errors == []
    page.context.close()
