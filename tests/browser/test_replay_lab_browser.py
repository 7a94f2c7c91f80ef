"""The Replay lab in a real Chromium: a bot's owner opens the replay of a game their bot played,
sees the Bot lab panel at its moves, opens the editor on one move, runs Test Bot on that exact
state and sees the new answer beside the original; another user sees no panel."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from bots.examples import example_code
from bots.models import BotVersion
from bots.services import bot_seat_player
from games import seeds, services
from games.history.bot_lab import bot_moves
from games.models import Game
from tests import deals
from tests.bots.live import hybrid_table, new_user, play_humans
from tests.browser.helpers import log_in
from tests.factories import BotVersionFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: The bot's newer code, in the editor: passes whenever it may.
PASSING = """
function getNextMove(gameState) {
  console.log("lab says pass");
  if (gameState.canPass) return { action: "pass" };
  return { action: "play", cards: gameState.validMoves[0].cards };
}
"""


def test_owner_opens_a_move_in_the_editor_and_sees_both_answers(
    live_server: Any, page: Any, bot_player: Callable[[Any], Any]
) -> None:
    base = live_server.url
    bot_player(bot_seat_player)  # bot seats run their code in the sandbox
    owner, stranger = new_user("labowner"), new_user("stranger")
    with seeds.use(deals.playable(random.Random(2024))):
        table, version = hybrid_table(owner, example_code("greedy"))
        services.table_start(table_id=table.pk, user=owner)
        game = play_humans(table, {0: owner})
    assert game.status == Game.Status.FINISHED
    # a newer version: the editor opens with it, the game was played by v1
    BotVersionFactory.create(
        bot=version.bot, number=version.number + 1, code=PASSING, status=BotVersion.Status.READY
    )
    moves = bot_moves(game=game, user=owner)["moves"]
    move = next(
        m for m in moves if m["move"]["type"] == "play" and m["game_state"]["canPass"] is True
    )
    replay = f"{base}/tables/{table.code}/games/{game.number}/replay/"

    # a stranger: no lab on the page
    log_in(page, base, stranger)
    page.goto(replay)
    page.wait_for_selector("#rp-moves li[data-step]")
    assert page.locator("#rp-lab").count() == 0

    page.context.clear_cookies()
    log_in(page, base, owner)
    page.goto(replay)
    page.wait_for_selector("#rp-moves .rp-lab-tag")  # the bot's moves are tagged
    assert page.locator("#rp-moves .rp-lab-tag").count() == len(moves)
    page.locator(f"#rp-moves li[data-step='{move['seq']}'] button").click()
    lab = page.locator("#rp-lab")
    lab.locator("#rp-lab-move").wait_for(state="visible")
    assert lab.get_attribute("data-step") == str(move["seq"])
    returned = lab.locator("[data-fact='returned']").inner_text()
    assert json.loads(returned) == move["returned"]
    assert lab.locator("[data-fact='strike']").inner_text() == "none"
    assert "ms" in lab.locator("[data-fact='time']").inner_text()
    lab.locator("#rp-lab-state-box summary").click()
    shown = json.loads(lab.locator("#rp-lab-state").inner_text())
    assert shown == move["game_state"]
    assert shown["myPosition"] == 1

    # open the editor on this move
    lab.get_by_role("link", name="Open in editor on this move").click()
    page.wait_for_url(f"**/bots/{version.bot_id}/?game={game.pk}&seq={move['seq']}&seat=1")
    page.wait_for_selector("[data-bot-editor][data-monaco='ready']", timeout=30_000)
    panel = page.locator("#panel-lab")
    assert panel.is_visible()
    assert f"Played by v{version.number}." in panel.inner_text()
    state_text = page.locator("#lab-state").text_content()
    assert json.loads(state_text or "null") == move["game_state"]
    original = json.loads(page.locator("#lab-original-facts [data-fact='returned']").inner_text())
    assert original == move["returned"]

    # Test Bot runs the editor's code (v2: passes) on that exact state
    page.get_by_role("button", name="Test Bot").click()
    page.wait_for_selector("#panel-lab[data-changed]", timeout=30_000)
    assert panel.get_attribute("data-changed") == "true"
    assert panel.get_attribute("data-legal") == "true"
    new = json.loads(page.locator("#lab-new-facts [data-fact='returned']").inner_text())
    assert new == {"action": "pass"}
    assert page.locator("#lab-new-facts [data-fact='legal']").inner_text() == "yes"
    assert page.locator("#lab-new-console").inner_text() == "lab says pass"
    assert "Changed" in page.locator("#lab-verdict").inner_text()
    # the original stays beside it
    assert page.locator("#lab-original").is_visible()
    assert page.locator("#lab-new").is_visible()
