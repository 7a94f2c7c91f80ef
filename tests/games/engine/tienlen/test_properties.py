"""Hypothesis playouts: random legal games for 2–4 players under every option setting."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine.core.errors import EngineError
from games.engine.tienlen import GAME
from games.engine.tienlen.cards import ALL_CARDS, CARD_IDS, mask_to_ids
from games.engine.tienlen.rules import legal_masks, played_cards
from games.engine.tienlen.state import TienLenState
from tests.games.engine.properties import check_common

CONFIGS = st.fixed_dictionaries(
    {
        "players": st.integers(2, 4),
        "opening": st.booleans(),
        "play_on_after_winner": st.booleans(),
        "hide_hand_counts": st.booleans(),
    }
)


def _config(cfg: dict[str, Any], leader: int) -> dict[str, Any]:
    out = dict(cfg)
    if not out["opening"]:
        out["leader"] = leader % out["players"]
    return out


def check_invariants(state: TienLenState) -> None:
    n = state.players
    dealt = 0
    for h in state.dealt:
        assert dealt & h == 0
        dealt |= h
    held = 0
    for h in state.hands:
        assert held & h == 0, "a card is in two hands"
        held |= h
    assert held | played_cards(state) == dealt, "cards are conserved"
    assert held & played_cards(state) == 0
    assert dealt.bit_count() == 13 * n
    assert dealt & ~ALL_CARDS == 0
    # JSON round trip, no view leaks another hand (shared with every game)
    check_common(GAME, state, replay=False)
    for seat in [None, *range(n)]:
        if state.finished:
            continue
        counts = GAME.view(state, seat)["hand_counts"]
        if state.config["hide_hand_counts"]:
            assert all(c is None for s, c in enumerate(counts) if s != seat)
        else:
            assert counts == [h.bit_count() for h in state.hands]


@settings(
    max_examples=50,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(cfg=CONFIGS, seed=st.integers(0, 2**32), leader=st.integers(0, 3), data=st.data())
def test_random_playouts_keep_every_invariant(
    cfg: dict[str, Any], seed: int, leader: int, data: st.DataObject
) -> None:
    config = _config(cfg, leader)
    state = GAME.new_game(config, seed)
    steps = 0
    while GAME.result(state) is None:
        check_invariants(state)
        seat = state.turn
        actions = GAME.legal_actions(state, seat)
        assert actions, "the seat to act always has a legal action"
        for other in range(state.players):
            if other != seat:
                assert GAME.legal_actions(state, other) == []
        # the house policy and the suggestion are legal here too
        GAME.check(state, GAME.timeout_action(state, seat))
        GAME.check(state, GAME.suggest(state, seat))
        # every enumerated play is accepted (sampled to keep the test fast)
        sample = actions if len(actions) <= 12 else actions[:6] + actions[-6:]
        for action in sample:
            GAME.apply(state, action)
        # random card sets that are not legal are rejected with a code and change nothing
        legal = {frozenset(a["cards"]) for a in actions if a["type"] == "play"}
        before = GAME.state_to_json(state)
        for _ in range(3):
            cards = data.draw(st.lists(st.sampled_from(CARD_IDS), min_size=1, max_size=6))
            if frozenset(cards) in legal and len(set(cards)) == len(cards):
                continue
            with pytest.raises(EngineError) as info:
                GAME.apply(state, {"type": "play", "seat": seat, "cards": cards})
            assert info.value.code
        other = (seat + 1) % state.players
        with pytest.raises(EngineError) as info:
            GAME.apply(state, {"type": "pass", "seat": other})
        assert info.value.code in {"not_your_turn", "already_passed"}
        assert GAME.state_to_json(state) == before
        choice = data.draw(st.integers(0, len(actions) - 1))
        state, events = GAME.apply(state, actions[choice])
        assert all(e.to is None or 0 <= e.to < state.players for e in events)
        steps += 1
        assert steps < 500
    check_invariants(state)
    check_common(GAME, state)  # replaying the seed and the action list reproduces the game
    result = GAME.result(state)
    assert result is not None
    assert sum(result["scores"]) == 0
    assert sorted(result["ranking"]) == list(range(state.players))
    assert all(t["points"] > 0 for t in result["transfers"])
    # after the game, every hand is revealed to everyone
    assert GAME.view(state, None)["hands"] == [mask_to_ids(h) for h in state.hands]
    with pytest.raises(EngineError) as info:
        GAME.apply(state, {"type": "pass", "seat": 0})
    assert info.value.code == "game_over"


@settings(max_examples=30, deadline=None)
@given(cfg=CONFIGS, seed=st.integers(0, 2**32), data=st.data())
def test_bot_moves_round_trip(cfg: dict[str, Any], seed: int, data: st.DataObject) -> None:
    state = GAME.new_game(_config(cfg, 0), seed)
    for _ in range(20):
        if GAME.result(state) is not None:
            break
        seat = state.turn
        g = GAME.bot_view(state, seat)
        assert len(g["validMoves"]) == len(legal_masks(state, seat))
        if g["canPass"] and (not g["validMoves"] or data.draw(st.booleans())):
            move: dict[str, Any] = {"action": "pass"}
        else:
            move = {"action": "play", "cards": data.draw(st.sampled_from(g["validMoves"]))["cards"]}
        action = GAME.parse_bot_move(state, seat, move)
        state, _ = GAME.apply(state, action)
