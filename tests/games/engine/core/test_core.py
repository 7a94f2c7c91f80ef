"""Core: cards, RNG, errors, registry, history."""

from __future__ import annotations

import pytest

from games.engine.core import Card, EngineError, Rng, standard_deck
from games.engine.core.errors import IllegalActionError
from games.engine.core.history import round_history, rounds_played
from games.engine.core.protocol import Event, Game, RoundStatus
from games.engine.core.rng import below, next_u64, seed_state, shuffle
from games.engine.registry import GAMES, error_codes, find_game
from games.engine.tienlen import GAME
from games.engine.tienlen.state import TienLenState


@pytest.mark.parametrize("text", ["10H", "TH", "10♥", "th", "T♥"])
def test_card_parse_aliases(text: str) -> None:
    card = Card.parse(text)
    assert str(card) == "10H"
    assert eval(repr(card)) == card


@pytest.mark.parametrize("text", ["", "1H", "10X", "HH", "100H", "3"])
def test_card_parse_rejects(text: str) -> None:
    with pytest.raises(EngineError) as info:
        Card.parse(text)
    assert info.value.code == "bad_card"


def test_deck() -> None:
    deck = standard_deck()
    assert len({str(c) for c in deck}) == 52


def test_rng_is_deterministic_and_uniform_enough() -> None:
    assert next_u64(seed_state(5)) == next_u64(seed_state(5))
    assert shuffle(seed_state(5), list(range(10))) == shuffle(seed_state(5), list(range(10)))
    rng = Rng("x")
    counts = [0] * 4
    for _ in range(4000):
        counts[rng.below(4)] += 1
    assert all(800 < c < 1200 for c in counts)
    with pytest.raises(ValueError, match="positive"):
        below(0, 0)
    with pytest.raises(TypeError):
        seed_state(1.5)  # type: ignore[arg-type]


def test_errors_are_value_errors_with_codes() -> None:
    err = IllegalActionError("does_not_beat", "x")
    assert isinstance(err, ValueError)
    assert err.code in error_codes()
    assert err.to_json() == {"error": "does_not_beat", "detail": "x"}


def test_registry() -> None:
    assert find_game("tienlen") is GAME
    assert isinstance(GAME, Game)
    assert {"tienlen", "stud"} <= set(GAMES)
    with pytest.raises(EngineError) as info:
        find_game("poker")
    assert info.value.code == "unknown_game"


def test_event_and_round_status() -> None:
    e = Event("hand", {"cards": ["3S"]}, to=2)
    assert not e.public
    assert e.to_json() == {"type": "hand", "cards": ["3S"]}
    assert RoundStatus(1, (0,), None).check_at is None


def _play_some(n: int) -> TienLenState:
    state = GAME.new_game({"players": 3, "opening": True}, 21)
    for _ in range(n):
        if GAME.result(state) is not None:
            break
        state, _ = GAME.apply(state, GAME.suggest(state, state.turn))
    return state


def test_history_rounds_start_turns_end() -> None:
    state = _play_some(200)
    record = GAME.record(state)
    total = rounds_played(GAME, record)
    assert total == GAME.round_status(state).round_index + 1
    previous_end = None
    for r in range(total):
        h = round_history(GAME, record, r, 0)
        assert h["round"] == r
        assert h["start"]["round"] == r
        assert h["turns"], "every round has at least one public turn"
        assert h["complete"]
        if previous_end is not None and not previous_end["finished"]:
            assert h["start"]["hand"] == previous_end["hand"]
        previous_end = h["end"]
        spectator = round_history(GAME, record, r, None)
        assert spectator["start"]["hand"] is None
    assert previous_end is not None
    assert previous_end["finished"]
    with pytest.raises(EngineError) as info:
        round_history(GAME, record, total + 1, None)
    assert info.value.code == "bad_round"
    with pytest.raises(EngineError):
        round_history(GAME, {"config": 3}, 0, None)


def test_history_of_the_current_round_is_incomplete() -> None:
    state = _play_some(3)
    h = GAME.history(state, GAME.round_status(state).round_index, 1)
    assert h["complete"] is False
    assert h["end"] is None
