"""The Tiến Lên table in a real Chromium (issue 15, "Tiến Lên board"): the result card fits the
screen at 1366×900 and 390×844 with its buttons in view and a "View replay" link; the top bar
shows the round (vòng); "You lead", not "You leads"; the Chat badge counts only what people
wrote; a table of people and house AIs is labelled Hybrid.

Served by ``live_asgi`` (tests/browser/conftest.py: daphne and a real worker). Moves of the
four-person game go through the services in another thread (Playwright's event loop runs in
this one); the pages follow over their sockets.
"""

from __future__ import annotations

import os
import re
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from games import services
from games.engine.registry import find_game
from games.models import Game, Table
from tests.factories import UserFactory
from tests.games.live import four_player_table, pending_seat, state_of
from tests.games.test_history_db import play_one

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ENGINE = find_game("tienlen")
SHOTS = os.environ.get("TABLE_SCREENSHOTS", "/tmp")
# Next game, View replay, Back to lobby, Copy result
BUTTONS = (
    "#btn-next-game",
    "#btn-view-replay",
    ".result-actions a:not(#btn-view-replay)",
    ".result-actions button:last-of-type",
)
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}


def _login(browser: Any, base: str, user: User, viewport: dict[str, int]) -> Any:
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport=viewport)
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": base}]
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.errors = errors
    return page


def started_table() -> tuple[Table, list[Any], Game]:
    """Four seated people; the host starts and the worker deals game 1 after the countdown."""
    table, users = four_player_table()
    services.table_start(table_id=table.pk, user=users[0])
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        game = Game.objects.filter(table=table, number=1).first()
        if game is not None:
            return table, users, game
        time.sleep(0.1)
    raise AssertionError("game 1 was not dealt")


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
        table, users, game = pool.submit(started_table).result()
        leader = pending_seat(game)
        other = (leader + 1) % 4
        desktop = _login(browser, live_asgi, users[leader], DESKTOP)
        phone = _login(browser, live_asgi, users[other], PHONE)
        for page in (desktop, phone):
            page.goto(f"{live_asgi}/t/{table.code}/")
            page.locator("#hand .pcard").first.wait_for()

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
    host = _login(browser, live_asgi, lan, DESKTOP)
    host.goto(live_asgi + "/tables/new/")
    host.get_by_label("Table name").fill("Hỗn hợp")
    host.get_by_label("Seat 2").select_option("open")
    host.get_by_label("Seat 3").select_option("house:easy")
    host.get_by_label("Seat 4").select_option("house:hard")
    host.get_by_role("button", name="Create table").click()
    host.wait_for_url("**/t/**")
    host.locator("#seat-list .lseat-ready").first.wait_for()  # drawn from the snapshot
    assert host.locator("#opt-mode").inner_text() == "Hybrid"

    # Lan reads the log; Minh sits down (a system line), then writes (a person's line)
    host.locator("#tab-log").click()
    system_before = host.locator("#chat-lines .chat-system").count()
    guest = _login(browser, live_asgi, minh, PHONE)
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
    with ThreadPoolExecutor(max_workers=1) as pool:
        table, users, game = pool.submit(started_table).result()
        leader = pending_seat(game)
    page = _login(browser, live_asgi, users[leader], DESKTOP)
    page.context.add_cookies([{"name": "django_language", "value": "vi", "url": live_asgi}])
    page.goto(f"{live_asgi}/t/{table.code}/")
    page.locator("#hand .pcard").first.wait_for()
    assert page.locator("#centre-note").inner_text() == "Bạn đánh trước"
    assert page.locator("#round-counter").inner_text() == "Vòng 1"
    assert page.errors == []
    page.context.close()
