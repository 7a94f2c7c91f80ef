"""The Tiến Lên table in a real Chromium (issue 15, "Tiến Lên board"): the result card fits the
screen at 1366×900 and 390×844 with its buttons in view and a "View replay" link; the top bar
shows the round (vòng); "You lead", not "You leads"; the Chat badge counts only what people
wrote; a table of people and house AIs is labelled Hybrid.

Served by ``live_asgi`` (tests/browser/conftest.py: daphne and a real worker). Moves of the
four-person game go through the services in another thread (Playwright's event loop runs in
this one); the pages follow over their sockets.
"""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from games.engine.registry import find_game
from games.models import Game, Table
from tests.browser.helpers import (
    DESKTOP,
    HAND_CARD,
    PHONE,
    SHOTS,
    create_table_by_form,
    dealt_table,
    in_thread,
    open_table,
    session_page,
)
from tests.factories import UserFactory
from tests.games.live import pending_seat, state_of
from tests.games.test_history_db import play_one

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ENGINE = find_game("tienlen")
# Next game, View replay, Back to lobby, Copy result
BUTTONS = (
    "#btn-next-game",
    "#btn-view-replay",
    ".result-actions a:not(#btn-view-replay)",
    ".result-actions button:last-of-type",
)


def _play_to_last_move(table: Table, game: Game) -> None:
    """Play through the services until the next move (the first legal one) ends the game."""
    while True:
        state = state_of(game)
        seat = pending_seat(game)
        after, _ = ENGINE.apply(state, ENGINE.legal_actions(state, seat)[0])
        if ENGINE.view(after, None)["finished"]:
            return
        play_one(table, game)


def _in_viewport(page: Any, selector: str) -> None:
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    assert box is not None, selector
    assert box["y"] >= 0, (selector, box)
    assert box["y"] + box["height"] <= size["height"], (selector, box, size)
    assert box["x"] >= 0, (selector, box)
    assert box["x"] + box["width"] <= size["width"], (selector, box, size)
    # nothing covers it: the button itself is what a tap at its centre hits
    hit = page.evaluate(
        "([s, x, y]) => document.querySelector(s).contains(document.elementFromPoint(x, y))",
        [selector, box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
    )
    assert hit, selector


def test_result_card_fits_and_opens_the_replay_round_in_the_top_bar_you_lead(
    browser: Any, live_asgi: str
) -> None:
    with ThreadPoolExecutor(max_workers=1) as pool:
        table, users, game = pool.submit(dealt_table).result()
        leader = pending_seat(game)
        other = (leader + 1) % 4
        desktop = session_page(browser, live_asgi, users[leader], DESKTOP)
        phone = session_page(browser, live_asgi, users[other], PHONE)
        for page in (desktop, phone):
            open_table(page, live_asgi, table, HAND_CARD)

        # the 3♠ holder leads the first round: second person for them, a name for the others
        assert desktop.locator("#centre-note").inner_text() == "You lead"
        assert phone.locator("#centre-note").inner_text() == f"P{leader} leads"
        # the top bar: the game and the round (vòng)
        assert desktop.locator("#game-counter").inner_text() == "Game 1 of 16"
        assert desktop.locator("#round-counter").inner_text() == "Round 1"

        pool.submit(_play_to_last_move, table, game).result()
        rounds = ENGINE.view(state_of(game), None)["round"] + 1
        assert rounds > 1
        for page in (desktop, phone):
            page.locator("#round-counter").filter(has_text=f"Round {rounds}").wait_for()
        pool.submit(play_one, table, game).result()

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    for page, name in ((desktop, "desktop"), (phone, "phone")):
        page.locator("#result-view").wait_for(state="visible")
        page.locator(".result-stats").wait_for()  # the live end carries the stats
        assert page.locator("#round-counter").is_hidden()
        page.screenshot(path=f"{SHOTS}/table-result-fit-{name}.png")
        for selector in BUTTONS:
            _in_viewport(page, selector)
        # the stats fold open inside the card; the buttons stay in view
        page.locator(".result-stats summary").click()
        page.locator(".result-stats .stats li").first.wait_for()
        _in_viewport(page, "#btn-next-game")
        _in_viewport(page, "#btn-view-replay")
        href = page.locator("#btn-view-replay").get_attribute("href")
        assert href == f"/tables/{table.code}/games/1/replay/"

    with phone.context.expect_page() as popup_info:
        phone.locator("#btn-view-replay").click()
    replay = popup_info.value
    replay.wait_for_url(f"**/tables/{table.code}/games/1/replay/")
    replay.locator("#rp-counter").wait_for()
    assert desktop.errors == []
    assert phone.errors == []
    desktop.context.close()
    phone.context.close()


def test_chat_badge_counts_people_and_people_with_house_ais_are_hybrid(
    browser: Any, live_asgi: str
) -> None:
    lan = UserFactory.create(username="lan", display_name="Lan")
    minh = UserFactory.create(username="minh", display_name="Minh")
    host = session_page(browser, live_asgi, lan, DESKTOP)
    create_table_by_form(host, live_asgi, "Hỗn hợp", {2: "open", 3: "house:easy", 4: "house:hard"})
    host.locator("#seat-list .lseat-ready").first.wait_for()  # drawn from the snapshot
    assert host.locator("#opt-mode").inner_text() == "Hybrid"

    # Lan reads the log; Minh sits down (a system line), then writes (a person's line)
    host.locator("#tab-log").click()
    system_before = host.locator("#chat-lines .chat-system").count()
    guest = session_page(browser, live_asgi, minh, PHONE)
    guest.goto(host.locator("#share-link").input_value())
    guest.get_by_role("button", name="Sit here").first.click()
    host.wait_for_function(
        f"document.querySelectorAll('#chat-lines .chat-system').length > {system_before}"
    )
    host.wait_for_timeout(300)
    assert host.locator("#chat-unread").is_hidden()
    guest.locator("#chat-input").fill("chào cả nhà")
    guest.locator("#chat-input").press("Enter")
    host.locator("#chat-unread").filter(has_text=re.compile(r"^1$")).wait_for()
    host.locator("#tab-chat").click()
    assert host.locator("#chat-unread").is_hidden()
    assert host.errors == []
    assert guest.errors == []
    host.context.close()
    guest.context.close()


def test_the_vietnamese_strings_of_these_fixes(browser: Any, live_asgi: str) -> None:
    """vi: "Bạn đánh trước", "Vòng 1", "Hỗn hợp" (the catalog carries every new string)."""
    table, users, game = in_thread(dealt_table)
    leader = pending_seat(game)
    page = session_page(browser, live_asgi, users[leader], DESKTOP, language="vi")
    open_table(page, live_asgi, table, HAND_CARD)
    assert page.locator("#centre-note").inner_text() == "Bạn đánh trước"
    assert page.locator("#round-counter").inner_text() == "Vòng 1"
    assert page.errors == []
    page.context.close()
