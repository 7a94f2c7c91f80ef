"""The Tiến Lên table's layout in a real Chromium (issue 25, "Pages"): on a phone (390×844) the
opponents' boxes do not overlap each other or the play in the centre, their names are not cut,
and the turn timer does not cover the last-play line; the Scores tab shows every player's
column inside the sidebar (1366×900 and the phone).

Boxes are compared by their bounding boxes. Moves go through the services in another thread
(Playwright's event loop runs in this one); the pages follow over their sockets.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from games.models import Game, Table
from tests.browser.helpers import (
    DESKTOP,
    HAND_CARD,
    PHONE,
    SHOTS,
    open_table,
    people,
    seated_table,
    session_page,
    start_game,
)
from tests.games.live import pending_seat
from tests.games.test_history_db import play_one

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: Names as long as the house AIs' ("AI Tùng (medium)"), which the phone cut to "AI Vy …".
NAMES = ["Lan", "AI Tùng (medium)", "AI Hòa (medium)", "AI Vy (medium)"]


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


def inside(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] >= b["x"] - 0.5
        and a["y"] >= b["y"] - 0.5
        and a["x"] + a["width"] <= b["x"] + b["width"] + 0.5
        and a["y"] + a["height"] <= b["y"] + b["height"] + 0.5
    )


def _table_where_an_opponent_is_to_act() -> tuple[Table, list[Any], Game]:
    """Four people with long names, a few moves into game 1, an opponent of seat 0 to act."""
    users = people(4, username="lay{i}", display_name=NAMES)
    table = seated_table(users, options={"seats": 4, "turn_seconds": 300})
    game = start_game(table, users[0])
    moves = 0
    while moves < 3 or pending_seat(game) == 0:
        play_one(table, game)
        moves += 1
    return table, users, game


def test_phone_opponents_do_not_overlap_and_names_and_last_plays_show(
    browser: Any, live_asgi: str
) -> None:
    with ThreadPoolExecutor(max_workers=1) as pool:
        table, users, _ = pool.submit(_table_where_an_opponent_is_to_act).result()
    page = session_page(browser, live_asgi, users[0], PHONE, reduced_motion="reduce")
    open_table(page, live_asgi, table, HAND_CARD)
    page.locator(".pod .timer").wait_for()
    page.screenshot(path=f"{SHOTS}/table-phone-pods.png")
    felt = page.locator(".felt").bounding_box()
    pods = page.locator(".pod")
    assert pods.count() == 3
    boxes = [pods.nth(i).bounding_box() for i in range(3)]
    for i, box in enumerate(boxes):
        assert inside(box, felt), (i, box, felt)
        for j in range(i + 1, 3):
            assert not overlap(box, boxes[j]), (i, j, box, boxes[j])
    for selector in (".turn-indicator", ".centre-cards", ".centre-label"):
        centre = page.locator(selector).bounding_box()
        for i, box in enumerate(boxes):
            assert not overlap(box, centre), (selector, i, box, centre)
    for i in range(3):
        name = pods.nth(i).locator(".pod-name")
        cut = name.evaluate("n => n.scrollWidth > n.clientWidth + 1")
        assert not cut, name.inner_text()
        assert name.inner_text() in NAMES
    turn = page.locator(".pod:has(.timer)")
    timer_text = turn.locator(".timer-text").bounding_box()
    last = turn.locator(".pod-last").bounding_box()
    assert not overlap(timer_text, last), (timer_text, last)
    assert page.errors == []
    page.context.close()


def _finished_game() -> tuple[Table, list[Any]]:
    users = people(4, username="sc{i}", display_name=NAMES)
    table = seated_table(users, options={"seats": 4, "turn_seconds": 300})
    game = start_game(table, users[0])
    while game.status == Game.Status.RUNNING:
        play_one(table, game)
        game.refresh_from_db()
    return table, users


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_scores_tab_shows_every_players_column(
    browser: Any, live_asgi: str, viewport: dict[str, int]
) -> None:
    with ThreadPoolExecutor(max_workers=1) as pool:
        table, users = pool.submit(_finished_game).result()
    page = session_page(browser, live_asgi, users[0], viewport, reduced_motion="reduce")
    open_table(page, live_asgi, table)
    page.locator("#result-view").wait_for()
    if page.locator("#result-view").is_visible():
        page.keyboard.press("Escape")
    page.evaluate("document.querySelector('#tab-scores').click()")
    page.locator("#score-box .scores").wait_for()
    panel = page.locator("#panel-scores").evaluate(
        "p => { const r = p.getBoundingClientRect();"
        " return {x: r.left, y: r.top, width: p.clientWidth, height: r.height}; }"
    )
    heads = page.locator("#score-box .scores thead th")
    assert heads.count() == 5
    for i in range(5):
        head = heads.nth(i).bounding_box()
        assert head["x"] >= panel["x"] - 0.5, (i, head, panel)
        assert head["x"] + head["width"] <= panel["x"] + panel["width"] + 0.5, (i, head, panel)
    page.screenshot(path=f"{SHOTS}/table-scores-{viewport['width']}.png")
    assert page.errors == []
    page.context.close()
