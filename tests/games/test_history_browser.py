"""A stud hand history imported in a real Chromium: the public turns step by step, the exporter's
own cards, the revealed hands and the result at the end (run with ``-m browser``)."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from games import history
from games.engine.registry import find_game
from games.models import Game
from tests.browser.conftest import browser, page  # noqa: F401  (the Chromium fixtures)
from tests.games.test_history_games import _passive, _stud_down_cards, human_table, play

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _stud_hand_history() -> tuple[Any, Game, str]:
    table, users, game = human_table("stud", 4, "hb")
    game = play(table, users, game, _passive({1, 2}))
    return users, game, json.dumps(history.game_export(game=game, user=users[0]))


def test_an_imported_stud_hand_history_steps_through_its_public_turns(
    live_server: Any,
    page: Any,  # noqa: F811
) -> None:
    with ThreadPoolExecutor(max_workers=1) as pool:
        users, game, raw = pool.submit(_stud_hand_history).result()
        session = pool.submit(lambda: _session_cookie(users[3], live_server.url)).result()
    data = json.loads(raw)
    final = find_game("stud").state_from_json(game.state)
    hidden = _stud_down_cards(final)[1] | _stud_down_cards(final)[2]
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.context.add_cookies([session])
    page.goto(f"{live_server.url}/tables/history/import/")
    page.locator("#import-text").fill(raw)
    page.get_by_role("button", name="Replay").click()
    page.locator("#rp-counter").wait_for()
    assert "signed by this server" in page.locator("#import-note").inner_text()
    assert "cannot recompute" in page.locator("#public-note").inner_text()
    last = len(data["turns"]) - 1
    assert page.locator("#rp-counter").inner_text() == f"Step 0 / {last}"
    assert page.locator("#rp-moves li[data-step]").count() == last + 1
    # the exporter's own cards, shown above the board
    mine = page.locator("#rp-your-hand .pcard:not(.pcard-back)")
    assert mine.count() == len(data["your_hand"]["cards"])
    page.keyboard.press("ArrowRight")
    assert page.locator("#rp-text").inner_text() == data["turns"][1]["text"]
    # the end: the showdown hands face up, the folded ones by their up cards, and the result
    page.keyboard.press("End")
    assert page.locator("#rp-text").inner_text() == data["turns"][-1]["text"]
    assert "wins" in page.locator("#rp-result").inner_text()
    for seat in (0, 3):
        shown = page.locator(f".rp-seat[data-seat='{seat}'] .pcard:not(.pcard-back)")
        assert shown.count() == 7
    for seat in (1, 2):
        assert page.locator(f".rp-seat[data-seat='{seat}'] .pcard-back").count() >= 2
    assert not {c for c in hidden if f'"{c}"' in page.content()}
    assert errors == []


def _session_cookie(user: Any, url: str) -> dict[str, Any]:
    from django.test import Client

    client = Client()
    client.force_login(user)
    cookie = client.cookies["sessionid"]
    return {"name": "sessionid", "value": cookie.value, "url": url}
