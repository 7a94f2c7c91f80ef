"""Sandboxed bot entrants of the local runner (bots/lab/entrants.py): one sandbox per game and
seat (globals live for one game), strikes for failures, a bot that fails to load."""

from __future__ import annotations

from pathlib import Path

import pytest

from bots.lab.entrants import BotFileEntrant, EntrantSpecError, parse_entrants
from games.engine.duplicate import (
    STRIKES_TO_DISQUALIFY,
    GameOutcome,
    GameTask,
    HouseEntrant,
    match_config,
    plan_match,
    play_task,
)
from games.engine.registry import find_game

#: Plays a legal move on its first call of a game only; throws on every later call. Its
#: counter is a global: fresh in every game, kept from move to move within one.
FIRST_MOVE_ONLY = """
var calls = 0;
function getNextMove(gameState) {
  calls += 1;
  if (calls > 1) throw new Error("call " + calls);
  if (gameState.validMoves.length > 0) {
    return { action: "play", cards: gameState.validMoves[0].cards };
  }
  return { action: "pass" };
}
"""

#: Throws while loading: every move of it is the load's error.
LOAD_FAILS = """
throw new Error("not today");
function getNextMove(gameState) { return { action: "pass" }; }
"""

#: Returns a move the rules refuse.
ILLEGAL = """
function getNextMove(gameState) { return { action: "play", cards: ["3S", "3S"] }; }
"""


def _games(code: str, *, deals: int = 2) -> list[GameOutcome]:
    engine = find_game("tienlen")
    field = (BotFileEntrant("bot", code), HouseEntrant("easy"))
    config = match_config(engine, 2)
    return [play_task(GameTask(engine, config, g, field)) for g in plan_match(2, deals, 7)]


def test_globals_live_for_one_game() -> None:
    outcomes = _games(FIRST_MOVE_ONLY)
    played = 0
    for out in outcomes:
        seat = out.order.index(0)
        asked = out.moves[seat]
        if out.record["actions"] == [] or asked == 0:
            continue  # an instant win: nobody was asked
        played += 1
        # the first move of every game is good (a fresh counter), every later one a strike
        assert out.strikes[seat] == min(asked - 1, STRIKES_TO_DISQUALIFY)
        assert out.strike_codes[seat] in ({}, {"exception": out.strikes[seat]})
    assert played >= 3
    assert any(out.disqualified[out.order.index(0)] for out in outcomes)


@pytest.mark.parametrize(("code", "strike"), [(LOAD_FAILS, "exception"), (ILLEGAL, None)])
def test_a_bot_that_never_moves_is_disqualified_in_every_game(
    code: str, strike: str | None
) -> None:
    for out in _games(code, deals=1):
        seat = out.order.index(0)
        assert out.moves[seat] == STRIKES_TO_DISQUALIFY
        assert out.strikes[seat] == STRIKES_TO_DISQUALIFY
        assert out.disqualified[seat]
        (reason,) = out.strike_codes[seat]
        if strike is not None:
            assert reason == strike
        else:
            assert reason.startswith("illegal:")
        assert out.strikes[1 - seat] == 0


def test_entrant_specs(tmp_path: Path) -> None:
    bot = tmp_path / "mine.js"
    bot.write_text(FIRST_MOVE_ONLY)
    entrants = parse_entrants([str(bot), "house:hard", str(bot)], find_game("tienlen"))
    assert [e.name for e in entrants] == ["mine", "house:hard", "mine#2"]
    assert isinstance(entrants[0], BotFileEntrant)
    assert entrants[0].code == FIRST_MOVE_ONLY
    not_text = tmp_path / "blob.js"
    not_text.write_bytes(b"\xff\xfe\x00bad")
    with pytest.raises(EntrantSpecError, match="not_a_bot_file"):
        parse_entrants([str(not_text)], find_game("tienlen"))
    with pytest.raises(EntrantSpecError, match="no_such_file"):
        parse_entrants([str(tmp_path)], find_game("tienlen"))
