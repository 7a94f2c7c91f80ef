"""Stepping through a finished game's replay in a real Chromium: buttons, keys, the move list,
round mode, play/pause, a seat's perspective, and the game page's copy buttons."""

from __future__ import annotations

from typing import Any

import pytest

from bots.models import BotVersion
from games import history, services
from games.engine.registry import find_game
from games.models import Game
from tests.browser.helpers import SHOTS, collect_errors, in_thread
from tests.factories import BotVersionFactory, UserFactory
from tests.games.live import state_of
from tests.games.test_history_db import failing_bot, finished_human_game

ENGINE = find_game("tienlen")

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _counter(page: Any) -> tuple[int, int]:
    text = page.locator("#rp-counter").inner_text()  # "Step 3 / 57"
    here, total = text.removeprefix("Step ").split(" / ")
    return int(here), int(total)


def test_step_through_a_replay(live_server: Any, page: Any) -> None:
    # played through the services in another thread: Playwright's event loop runs in this one
    table, _users, game = in_thread(finished_human_game)
    errors = collect_errors(page, console=False)
    page.goto(f"{live_server.url}/tables/{table.code}/games/1/")
    assert page.locator("#rules-version").inner_text() == game.rules_version
    assert game.result is not None
    assert page.locator("#transfers tbody tr").count() == len(game.result["transfers"])
    page.locator("#open-replay").click()
    page.wait_for_url("**/replay/")
    page.locator("#rp-counter").wait_for()
    here, last = _counter(page)
    assert (here, last) == (0, game.version)
    assert page.locator(".rp-seat").count() == 4
    # a spectator sees no hand before the end: backs only (13 per seat at the deal) …
    faces = ".rp-seat .pcard:not(.pcard-back)"
    assert page.locator(faces).count() == 0
    assert page.locator(".rp-seat").nth(2).locator(".pcard-back").count() == 13
    # … and, at the last step, every hand the game ended with
    page.keyboard.press("End")
    left = sum(len(h) for h in ENGINE.view(state_of(game), None)["hands"])
    assert left > 0
    assert page.locator(faces).count() == left
    page.keyboard.press("Home")

    page.locator("#rp-next").click()
    assert _counter(page)[0] == 1
    actor = Game.objects.get(pk=game.pk).actions.get(seq=1).seat
    assert page.locator(f".rp-seat[data-seat='{actor}']").get_attribute("class").count("rp-actor")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert _counter(page)[0] == 3
    page.keyboard.press("ArrowLeft")
    assert _counter(page)[0] == 2
    page.keyboard.press("End")
    assert _counter(page)[0] == last
    assert "Game over" in page.locator("#rp-text").inner_text()
    page.keyboard.press("Home")
    assert _counter(page)[0] == 0

    # the move list jumps anywhere and marks the current step
    page.locator("#rp-moves li[data-step='5'] button").click()
    assert _counter(page)[0] == 5
    page.screenshot(path=f"{SHOTS}/replay-desktop.png", full_page=True)
    assert page.locator("#rp-moves li[data-step='5']").get_attribute("aria-current") == "step"

    # round by round: the next stop is the end of the current round (the next one's start)
    page.locator("#rp-mode").select_option("round")
    page.keyboard.press("Home")
    page.locator("#rp-next").click()
    stop = _counter(page)[0]
    assert stop > 1
    assert "start of round 2" in page.locator("#rp-round").inner_text() or stop == last

    # play, then pause with the space bar
    page.locator("#rp-mode").select_option("action")
    page.keyboard.press("Home")
    page.locator("#rp-speed").select_option("250")
    page.locator("#rp-play").click()
    page.wait_for_function("document.querySelector('#rp-counter').textContent.startsWith('Step 3')")
    page.locator("body").press(" ")
    paused = _counter(page)[0]
    page.wait_for_timeout(600)
    assert _counter(page)[0] == paused
    assert "Play" in page.locator("#rp-play").inner_text()

    # a seat's perspective comes from the server: that seat is marked "you", and before the
    # end it shows that seat's hand only
    page.locator("#rp-perspective").select_option("1")
    page.locator(".rp-seat.rp-me[data-seat='1']").wait_for()
    assert _counter(page)[0] == paused
    page.locator("#rp-first").click()
    assert page.locator(".rp-seat[data-seat='1'] .pcard:not(.pcard-back)").count() == 13
    assert page.locator(faces).count() == 13
    assert errors == []


def _disqualified_bot_game() -> Game:
    owner = UserFactory.create(username="dqbrowser")
    version = BotVersionFactory.create(bot__owner=owner, status=BotVersion.Status.READY)
    table = services.table_create_practice(owner=owner, bot_version_id=version.pk, watch=True)
    return Game.objects.select_related("table").get(table=table, number=1)


def test_a_disqualified_bot_is_labelled_from_its_third_strike(
    live_server: Any, page: Any, bot_player: Any
) -> None:
    bot_player(failing_bot)
    game = in_thread(_disqualified_bot_game)
    seat = next(p["seat"] for p in history.players_of(game) if p["kind"] == "bot")
    third = list(game.actions.filter(seat=seat).exclude(bot_record=None).order_by("seq"))[-1].seq
    page.goto(f"{live_server.url}/tables/{game.table.code}/games/1/replay/")
    page.locator("#rp-counter").wait_for()
    label = page.locator(f".rp-seat[data-seat='{seat}'] .rp-tag-dq")
    assert label.count() == 0
    page.locator(f"#rp-moves li[data-step='{third - 1}'] button").click()
    assert label.count() == 0
    page.locator("#rp-next").click()
    assert _counter(page)[0] == third
    assert label.inner_text() == "disqualified"
    assert page.locator(".rp-tag-dq").count() == 1
