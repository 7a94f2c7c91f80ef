"""Watching with hands shown (issue #29), in real Chromium: at a casual table whose host chose
``spectator_hands: live``, an anonymous spectator ticks "Show every hand" and sees each seat's
cards (the hands of the dealt game); at a table that keeps the default, the box is not offered.
No script error either way."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine.registry import find_game
from tests.browser.helpers import collect_errors, dealt_table, in_thread

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ENGINE = find_game("tienlen")


def test_spectator_sees_every_hand_where_the_host_allows_it(page: Any, live_asgi: str) -> None:
    table, _users, game = in_thread(dealt_table, 4, options={"spectator_hands": "live"})
    errors = collect_errors(page)
    page.goto(f"{live_asgi}/t/{table.code}/")
    box = page.locator("#watch-hands")
    box.wait_for(state="visible")
    page.get_by_label("Show every hand").check()
    hands = page.locator("#all-hands li")
    hands.first.wait_for()
    assert hands.count() == 4
    state = ENGINE.state_from_json(type(game).objects.get(pk=game.pk).state)
    for seat in range(4):
        text = hands.nth(seat).inner_text()
        assert all(card in text.split() for card in ENGINE.view(state, seat)["hand"]), text
    assert "Every hand, live" in page.locator("#watch-hands-banner").inner_text()

    plain, _, _ = in_thread(dealt_table, 4, name="Plain")  # the default: never
    page.goto(f"{live_asgi}/t/{plain.code}/")
    page.locator("#board-view").wait_for(state="visible")
    assert page.locator("#watch-hands").is_hidden()
    assert errors == []
