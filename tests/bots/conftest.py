"""Fixtures for the bots app tests (services, pages, API). The sandbox has its own."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from bots.examples import example_code
from bots.services import bot_release_game
from games import seeds
from tests import deals
from tests.bots.live import SEAT_PLAYER
from tests.scheduler import SCHEDULER

GOOD_BOT = """
function getNextMove(gameState) {
  if (gameState.validMoves.length > 0) {
    return { action: "play", cards: gameState.validMoves[0].cards };
  }
  return { action: "pass" };
}
"""

#: Throws on every move: three strikes in the validation game.
THROWING_BOT = """
function getNextMove(gameState) {
  console.log("about to fail at seat", gameState.myPosition);
  const move = gameState.validMoves[99];
  return { action: "play", cards: move.cards };
}
"""


@pytest.fixture
def good_code() -> str:
    return GOOD_BOT


@pytest.fixture(params=["random", "greedy", "defensive"])
def example(request: pytest.FixtureRequest) -> tuple[str, str]:
    return request.param, example_code(request.param)


@pytest.fixture
def game_keys() -> Iterator[list[str]]:
    """Game keys a test used with bot_play_turn; their sandboxes are closed afterwards."""
    keys: list[str] = []
    yield keys
    for key in keys:
        bot_release_game(game_key=key)


@pytest.fixture
def live_bots(bot_player: Callable[[Any], Any]) -> Iterator[None]:
    """Bot seats run their code in the sandbox; no instant-win deals; a clean scheduler."""
    bot_player(SEAT_PLAYER)
    SCHEDULER.take()
    with seeds.use(deals.playable(random.Random(2024))):
        yield
    SCHEDULER.take()
