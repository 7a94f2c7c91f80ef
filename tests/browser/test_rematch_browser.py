"""Rematch in the browser (issue #29): two people at a private two-seat table finish a short
session (game 1 played, then the host ends it); one clicks Rematch on the session panel, the
other — on a phone, in Vietnamese — sees the offer with its countdown and accepts, and the new
session's first game is dealt to both at the same table."""

from __future__ import annotations

from typing import Any

import pytest

from games import services
from games.engine.registry import find_game
from games.models import Game, Seat, Table
from tests.browser.helpers import (
    HAND_CARD,
    PHONE,
    in_thread,
    open_table,
    people,
    seated_table,
    session_page,
    start_game,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
ENGINE = find_game("tienlen")
#: Generous waits (milliseconds) on conditions: the machine the suite shares may be busy, and
#: every deal goes through the real worker.
WAIT = 45_000


def play_game_out(table: Table) -> None:
    """The table's running game played to its end by its people (each plays the house AI's
    choice)."""
    for _ in range(500):
        game = Game.objects.filter(table=table).order_by("-number")[0]
        if game.status != Game.Status.RUNNING:
            break
        state = ENGINE.state_from_json(game.state)
        seat = ENGINE.round_status(state).pending[0]
        row = Seat.objects.select_related("user").get(table=table, index=seat)
        move = {k: v for k, v in ENGINE.house_action(state, seat, "medium").items() if k != "seat"}
        services.game_play(table_id=table.pk, user=row.user, version=game.version, action=move)
    else:
        raise AssertionError("the game did not end")


def finish_short_session(table: Table, host: Any) -> None:
    """Game 1 played out, then the host ends the session: the table is completed after one
    game."""
    play_game_out(table)
    services.table_end(table_id=table.pk, user=host)


def test_two_people_rematch_and_the_new_session_is_dealt(browser: Any, live_asgi: str) -> None:
    base = live_asgi
    users = people(2, display_name=["Lan", "Bo"])
    table = seated_table(
        users, name="Two", visibility=Table.Visibility.PRIVATE, options={"seats": 2}
    )
    in_thread(start_game, table, users[0], timeout=WAIT / 1000)
    in_thread(finish_short_session, table, users[0])

    lan = session_page(browser, base, users[0], timeout=WAIT)
    bo = session_page(browser, base, users[1], PHONE, language="vi", timeout=WAIT)
    for page in (lan, bo):
        open_table(page, base, table)
        page.locator("#session-view #btn-rematch").wait_for(state="visible")
    assert bo.locator("#btn-rematch").inner_text() == "Đấu lại"
    watcher_context = browser.new_context()
    watcher = watcher_context.new_page()
    watcher.set_default_timeout(WAIT)
    open_table(watcher, base, table)
    watcher.locator("#session-view").wait_for(state="visible")
    assert watcher.locator("#btn-rematch").count() == 0  # a spectator offers nothing

    lan.locator("#btn-rematch").click()
    bo.locator("#rematch-title").wait_for()
    assert bo.locator("#rematch-title").inner_text() == "Lan mời đấu lại"
    assert "Chưa trả lời: Bạn" in bo.locator("#rematch").inner_text()
    bo.wait_for_function(
        "() => /Còn \\d+ giây để trả lời/.test(document.querySelector('.rematch-left').textContent)"
    )
    accept = bo.locator("#btn-rematch-accept")
    assert accept.inner_text() == "Đồng ý"
    box = accept.bounding_box()  # on the phone's screen, not cut off at its edge
    assert box is not None
    assert box["x"] >= 0
    assert box["x"] + box["width"] <= PHONE["width"]
    lan.locator("#rematch [data-answer=waiting]").wait_for()
    assert lan.locator("#rematch-title").inner_text() == "You offer a rematch"
    assert "Bo" in lan.locator("#rematch [data-answer=waiting]").inner_text()
    assert lan.locator("#btn-rematch-accept").is_disabled()  # the offerer has accepted
    watcher.locator("#rematch-title").wait_for()  # a spectator sees the offer, no buttons
    assert watcher.locator("#rematch-title").inner_text() == "Lan offers a rematch"
    assert watcher.locator("#rematch button").count() == 0

    accept.click()
    for page in (lan, bo):
        page.locator("#board-view").wait_for(state="visible")
        page.locator(HAND_CARD).first.wait_for()
    assert lan.locator("#game-counter").inner_text() == "Game 1 of 16"
    table.refresh_from_db()
    assert table.status == Table.Status.IN_PROGRESS
    game = Game.objects.filter(table=table).order_by("-number")[0]
    assert (game.number, game.position) == (2, 1)
    assert [p["user_id"] for p in game.players] == [users[0].pk, users[1].pk]
    assert lan.url == bo.url == f"{base}/t/{table.code}/"

    # the new session's first game ends: its result says game 1, its replay is the table's 2nd
    in_thread(play_game_out, table)
    lan.locator("#btn-view-replay").wait_for()
    assert "/games/2/" in (lan.locator("#btn-view-replay").get_attribute("href") or "")
    assert "Game 1 of 16" in lan.locator("#result-body").inner_text()
    assert not lan.errors, lan.errors
    assert not bo.errors, bo.errors
    lan.context.close()
    bo.context.close()
    watcher_context.close()
