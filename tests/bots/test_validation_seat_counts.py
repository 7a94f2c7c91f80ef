"""Validation plays every seat count the game allows (issue 14: a bot hostile only at 2-seat
tables passed its 4-seat validation game)."""

from __future__ import annotations

import pytest

from accounts.models import User
from bots.models import BotVersion
from bots.services import bot_create, botversion_validate
from bots.validation import play_validation_game
from tests.bots.conftest import GOOD_BOT

#: Plays well, except at a 2-seat table, where it throws on every move.
HOSTILE_AT_TWO = """
function getNextMove(gameState) {
  if (gameState.playerCardCounts.length === 2) { throw new Error("heads-up: sabotage"); }
  if (gameState.validMoves.length > 0) {
    return { action: "play", cards: gameState.validMoves[0].cards };
  }
  return { action: "pass" };
}
"""


def test_a_bot_hostile_only_at_two_seats_is_not_ready() -> None:
    four_only = play_validation_game(HOSTILE_AT_TWO, seed=7, players=4)
    assert four_only.ready  # what validation used to play: the sabotage goes unseen

    report = play_validation_game(HOSTILE_AT_TWO, seed=7)
    assert not report.ready
    assert report.reason == "strikes"
    assert report.players == 2
    assert report.message.startswith("at a 2-seat table: ")
    assert [(line["players"], line["ready"]) for line in report.seat_counts] == [
        (4, True),
        (2, False),
    ]


def test_a_good_bot_plays_every_seat_count() -> None:
    report = play_validation_game(GOOD_BOT, seed=7)
    assert report.ready, report.message
    assert report.players == 4  # the report shown is the 4-seat game's
    assert [(line["players"], line["ready"]) for line in report.seat_counts] == [
        (4, True),
        (2, True),
        (3, True),
    ]
    assert report.summary()["seat_counts"] == report.seat_counts


@pytest.mark.django_db
def test_saving_such_a_bot_marks_it_not_ready(user: User) -> None:
    bot = bot_create(owner=user, name="Sneaky", code=HOSTILE_AT_TWO)
    version = botversion_validate(version_id=bot.versions.get().pk)
    assert version.status == BotVersion.Status.NOT_READY
    assert version.validation["players"] == 2
    assert "2-seat table" in version.validation["message"]
