"""One person and three house AIs play a hand of Suijiang Diu (绥江丢) at a live table in a real
Chromium, over real WebSockets, from the Create Table form to 丢 on the result screen.

The deal is seeded so that the person plays a part and the hand ends in 丢: before daphne is
forked, the test replays candidate seeds through the engine with the same policies (the person
takes a 丢, accepts offers, passes claims and discards the rightmost card they may; the house
AIs play their deterministic medium level) and pins the first seed where the person is not D, is
asked to claim at least once, and somebody 丢s.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from playwright.sync_api import expect

from games.engine.registry import find_game
from games.models import Game, Table
from tests.browser.helpers import (
    SHOTS,
    choose_seats,
    new_table_form,
    ready_and_start,
    session_page,
    submit_table_form,
)
from tests.factories import UserFactory

DIU: Any = find_game("diu")


def _person_move(state: Any) -> dict[str, Any]:
    """What the test clicks for the person (seat 0)."""
    prompt = DIU.prompt(state)
    legal = DIU.legal_actions(state, 0)
    if "diu" in prompt["options"]:
        return next(a for a in legal if a["type"] == "diu")
    if prompt["kind"] == "offer":
        return {"type": "accept", "seat": 0}
    if prompt["kind"] == "discard":
        return {"type": "discard", "seat": 0, "card": prompt["options"][-1]}
    return {"type": "pass", "seat": 0}


def _diu_seed() -> int:
    config = DIU.session_next_config(DIU.session_start(4, 16, {}))
    for seed in range(1, 500):
        state = DIU.new_game(config, seed)
        if state.roles["D"] == 0:
            continue
        calls = 0
        seen_claim = False  # the person is asked while another seat's claim is on the table
        while not state.finished:
            prompt = DIU.prompt(state)
            if prompt["seat"] == 0:
                calls += prompt["kind"] in ("call", "diu")
                seen_claim |= (
                    any(c["seat"] != 0 for c in state.claims) and prompt["kind"] != "offer"
                )
                action = _person_move(state)
            else:
                action = DIU.house_action(state, prompt["seat"], "medium")
            state, _ = DIU.apply(state, action)
        result = DIU.result(state)
        melds = sum(len(m) for m in state.melds)
        won = bool(result and result["result"] == "win")
        if won and calls and seen_claim and melds and len(state.log) < 80:
            return seed
    raise AssertionError("no seed ends in 丢 with the person asked beside a claim and a meld")


pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.deals(found_by=_diu_seed),  # the live site deals the pinned seed
]


def test_one_person_and_three_house_ais_play_diu_to_the_result(
    browser: Any, live_asgi: str
) -> None:
    base = live_asgi
    mei = UserFactory.create(username="mei", display_name="Mei")
    page = session_page(browser, base, mei, console=False)

    new_table_form(page, base, "Diu night")
    page.locator("#id_game").select_option("diu")
    page.locator('[data-game-options="diu"]').wait_for(state="visible")
    assert page.locator("#id_seats").input_value() == "4"  # a diu table always has 4 seats
    assert page.locator('#id_seats option[value="3"]').is_disabled()
    choose_seats(page, dict.fromkeys((2, 3, 4), "house:medium"))
    page.locator("#id_t_play").fill("30")
    submit_table_form(page)
    table = Table.objects.get(name="Diu night")
    assert table.game == "diu"
    assert table.seat_count == 4
    assert table.options["t_play"] == 30
    expect(page.locator("#diu-options")).to_contain_text("30 s to discard")

    ready_and_start(page)
    page.locator("#diu-layer .diu-seat").first.wait_for(timeout=20_000)
    assert page.locator("#diu-layer .diu-seat").count() == 4
    # the board's Chinese terms load the bundled CJK subset (static/fonts/), whatever fonts
    # the machine has
    page.wait_for_function(
        "[...document.fonts].some(f => f.family.includes('Game Terms CJK')"
        " && f.status === 'loaded')"
    )
    game = Game.objects.get(table=table, number=1)
    roles = game.state["roles"]
    for role, seat in roles.items():
        box = page.locator(f'.diu-seat[data-seat="{seat}"]')
        assert box.get_attribute("data-role") == role
        assert box.locator(".diu-role").inner_text() == role
    # seats go round the table in role order A → B → C → D: your 下家 is on your right
    order = "ABCD"
    mine = order.index(next(r for r, s in roles.items() if s == 0))
    for step, side in enumerate(("bottom", "right", "top", "left")):
        seat = roles[order[(mine + step) % 4]]
        classes = page.locator(f'.diu-seat[data-seat="{seat}"]').get_attribute("class") or ""
        assert f"pos-{side}" in classes.split()
    expect(page.locator(f'.diu-seat[data-seat="{roles["D"]}"]')).to_contain_text("Sitting out")
    hand = len(DIU.state_from_json(game.state).hands[0])
    assert page.locator("#diu-hand .diu-tile").count() == hand
    assert "Stock" in page.locator("#diu-stock").inner_text()
    page.screenshot(path=f"{SHOTS}/diu-game-desktop.png")

    deadline = time.monotonic() + 150
    asked = 0
    tags: set[str] = set()  # claim tags seen on other seats while the person was asked
    melds_seen = 0
    while time.monotonic() < deadline:
        if page.locator("#result-view").is_visible():
            break
        melds_seen = max(melds_seen, page.locator("#diu-layer .diu-seat .diu-meld").count())
        if page.locator("#diu-question").count():
            question = page.locator("#diu-question").inner_text()
            assert page.locator("#diu-bar .timer").count() == 1  # the countdown
            discard = page.locator("#diu-hand button.diu-tile:enabled")
            buttons = page.locator("#diu-bar [data-action]:enabled")
            if discard.count():
                discard.last.click()
            elif buttons.count():
                names = [
                    buttons.nth(i).get_attribute("data-action") for i in range(buttons.count())
                ]
                asked += 1
                for i in range(page.locator("#diu-layer .diu-seat .diu-claim-tag").count()):
                    tags.add(
                        page.locator("#diu-layer .diu-seat .diu-claim-tag").nth(i).inner_text()
                    )
                assert "card" in question.lower() or "丢" in question or "?" in question
                assert page.locator("#diu-current .diu-tile, .diu-current .diu-tile").count() == 1
                if "diu" in names:
                    page.locator('#diu-bar [data-action="diu"]').first.click()
                elif "accept" in names:
                    page.locator('#diu-bar [data-action="accept"]').click()
                else:
                    assert names[0] == "pass"
                    page.locator('#diu-bar [data-action="pass"]').click()
        page.wait_for_timeout(60)
    else:
        page.screenshot(path=f"{SHOTS}/diu-stuck-desktop.png")
        pytest.fail("the hand did not finish in time")
    assert asked
    assert tags, "a claim tag was shown on a claiming seat"
    assert all(t.strip() for t in tags)
    assert melds_seen, "an exposed meld was shown on the felt"

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    result: dict[str, Any] = game.result or {}
    assert result["result"] == "win"
    page.locator("#diu-result").wait_for()
    winner = page.locator("#diu-result .diu-result-head").inner_text()
    assert "丢" in winner
    assert page.locator(".diu-diu-group .diu-tile").count() == 3
    assert page.locator(".diu-hand-row").count() == 4
    melds = result["melds"]
    shown = page.locator(".diu-hand-row .diu-meld")
    assert shown.count() == sum(len(m) for m in melds) > 0
    for seat, seat_melds in enumerate(melds):
        row = page.locator(f'.diu-hand-row[data-seat="{seat}"] .diu-meld')
        assert row.count() == len(seat_melds)
        for i, meld in enumerate(seat_melds):
            assert row.nth(i).locator(".diu-tile").count() == len(meld["cards"])
    if game.state["drawn"]:  # every drawn card opened the commitment pushed for it
        assert int(page.locator("#diu-stock").get_attribute("data-verified") or 0) > 0
        assert page.locator("#diu-stock").get_attribute("data-broken") == "0"
    score = result["scores"][0]
    row = page.locator('.diu-hand-row[data-seat="0"] .diu-score').inner_text()
    assert row == (f"+{score}" if score > 0 else str(score))
    assert "丢!" in page.locator("#game-log").inner_text()
    page.screenshot(path=f"{SHOTS}/diu-result-desktop.png", full_page=True)
    assert page.errors == []
    page.context.close()
