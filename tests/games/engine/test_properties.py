"""Hypothesis playouts of every registered game, through the table's own path: a session with
random table options deals the game, and random legal, timeout, suggested and house AI moves
play it out.

Each step: only the pending seats have legal actions; every candidate move passes ``check``;
the state survives JSON and ``replay(record)``; no view shows another seat's hidden cards
(``properties.check_common``); events go to seats of the table. At the end: the scores sum to
zero, nothing more is accepted, the end reveal has one entry per seat, history serves round 0,
and the session records the result. Each game's own ``test_properties.py`` adds its specific
invariants (cards conserved, chips, hand counts, stock commitments …).
"""

from __future__ import annotations

import inspect
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine.core.errors import EngineError
from games.engine.core.protocol import Game
from games.engine.registry import GAMES
from tests.games.engine.properties import check_common, check_public_events

NAMES = sorted(GAMES)
MAX_STEPS = 2000


@st.composite
def tables(draw: st.DrawFn, game: Game) -> tuple[int, dict[str, Any]]:
    """Seats and table options: the game's own options, switches and words drawn at random."""
    n = draw(st.integers(game.min_players, game.max_players))
    options: dict[str, Any] = {}
    for key, default in game.table_options.items():
        choices = game.table_option_choices.get(key)
        if isinstance(default, bool):
            options[key] = draw(st.booleans())
        elif choices:
            options[key] = draw(st.sampled_from(choices))
        else:
            options[key] = default
    return n, options


def _candidates(game: Game, state: Any, seat: int) -> list[dict[str, Any]]:
    """The moves the table makes for a seat: timeout, suggestion, the house AI at each level."""
    moves = [game.timeout_action(state, seat), game.suggest(state, seat)]
    moves += [_house(game, state, seat, level) for level in game.house_levels]
    return moves


def _house(game: Game, state: Any, seat: int, level: str) -> dict[str, Any]:
    """The house AI's move; a searching level (Tiến Lên's expert) on a small fixed budget of
    rollouts instead of its 300 ms, so that the playouts stay quick and reproducible."""
    house: Any = game.house_action  # the keywords are not part of the Game protocol
    params = inspect.signature(house).parameters
    if "budget_ms" in params and "iterations" in params:
        return dict(house(state, seat, level, budget_ms=None, iterations=8))
    return dict(game.house_action(state, seat, level))


@pytest.mark.parametrize("name", NAMES)
@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_random_playouts_stay_legal(name: str, data: st.DataObject) -> None:
    game = GAMES[name]
    n, options = data.draw(tables(game))
    session = game.session_start(n, 16, options)
    config = game.session_next_config(session)
    state = game.new_game(config, data.draw(st.integers(0, 2**32)))
    check_public_events(game, state, game.initial_events(state))
    late: list[dict[str, Any]] = [{"type": "pass", "seat": 0}]  # tried once the game is over
    for _ in range(MAX_STEPS):
        if game.result(state) is not None:
            break
        check_common(game, state, replay=data.draw(st.integers(0, 9)) == 0)
        pending = game.round_status(state).pending
        assert pending, "a game that is on always waits for a seat"
        for other in range(n):
            if other not in pending:
                assert game.legal_actions(state, other) == []
        seat = pending[0]
        legal = game.legal_actions(state, seat)
        assert legal, "the pending seat always has a legal action"
        late[1:] = [legal[0]]
        moves = _candidates(game, state, seat)
        for move in moves:
            game.check(state, move)
        before = game.state_to_json(state)
        action = data.draw(st.sampled_from(legal + moves))
        state, events = game.apply(state, action)
        check_public_events(game, state, events)
        assert game.state_to_json(state) != before, "an accepted move changes the state"
    else:
        pytest.fail(f"no end after {MAX_STEPS} moves")
    check_common(game, state)
    result = game.result(state)
    assert result is not None
    assert sum(result["scores"]) == 0
    assert game.round_status(state).pending == ()
    for action in late:
        with pytest.raises(EngineError):
            game.apply(state, action)
    hands = game.final_hands(state)
    assert hands is not None
    assert len(hands) == n
    assert game.history(state, 0, None)["start"] is not None
    session = game.session_record(session, result)
    summary = game.session_summary(session)
    assert summary["totals"] == list(result["scores"])
    assert summary["played"] == 1
    json.dumps(summary)


@pytest.mark.parametrize("name", NAMES)
def test_registered_games_fulfil_the_protocol(name: str) -> None:
    game = GAMES[name]
    assert isinstance(game, Game)
    assert game.name == name
    assert game.title
    assert game.min_players <= game.max_players
    assert game.house_levels
    assert set(game.table_option_choices) <= set(game.table_options)
    assert game.state_from_json(game.state_to_json(game.new_game(game.default_config(), 1)))
