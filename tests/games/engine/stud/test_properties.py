"""Hypothesis playouts of stud hands for 2–7 players, short stacks included (many all-ins)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine.core.errors import EngineError
from games.engine.stud import GAME
from games.engine.stud.ai import house_action
from games.engine.stud.rules import ACTIONS, compute_pots
from games.engine.stud.state import StudState
from tests.games.engine.properties import check_common, check_public_events


@st.composite
def configs(draw: st.DrawFn) -> dict[str, Any]:
    n = draw(st.integers(2, 7))
    stacks = draw(
        st.lists(st.sampled_from([0, 1, 2, 3, 4, 6, 9, 14, 25, 60, 300]), min_size=n, max_size=n)
    )
    if sum(1 for x in stacks if x) < 2:
        stacks[0] = stacks[-1] = draw(st.integers(1, 80))
    bring_in = draw(st.integers(1, 3))
    small = bring_in + draw(st.integers(1, 6))
    return {
        "players": n,
        "stacks": stacks,
        "button": draw(st.integers(0, n - 1)),
        "ante": draw(st.integers(0, 3)),
        "bring_in": bring_in,
        "small_bet": small,
        "big_bet": small * draw(st.sampled_from([1, 2, 2, 3])),
    }


def _live(state: StudState) -> list[bool]:
    return [state.active[s] and not state.folded[s] for s in range(state.players)]


def check_invariants(state: StudState, total: int) -> None:
    n = state.players
    # chips are conserved; pots are built from the contributions
    assert sum(state.stacks) + (0 if state.finished else sum(state.contrib)) == total
    assert min(state.stacks) >= 0
    pots = compute_pots(state.contrib, _live(state))
    assert sum(p["amount"] for p in pots) == sum(state.contrib)
    view_pots = GAME.view(state, None)["pots"]
    if not state.finished:
        assert sum(p["amount"] for p in view_pots) + sum(state.round_bets) == sum(state.contrib)
    # state and replays; no view leaks another seat's down cards (or any card not dealt yet)
    check_common(GAME, state)
    # a folded seat is dealt nothing more; a live seat has the street's cards
    for s in range(n):
        if not state.active[s]:
            assert state.dealt[s] == 0
        elif not state.folded[s]:
            assert state.dealt[s] == min(state.street, 7) or state.finished


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(cfg=configs(), seed=st.integers(0, 2**32), data=st.data())
def test_random_hands(cfg: dict[str, Any], seed: int, data: st.DataObject) -> None:
    state = GAME.new_game(cfg, seed)
    total = sum(cfg["stacks"])
    check_invariants(state, total)
    for _ in range(200):
        if state.finished:
            break
        seat = state.turn
        legal = GAME.legal_actions(state, seat)
        names = [a["type"] for a in legal]
        assert names
        payload = GAME.your_turn(state)
        assert payload is not None
        assert names == payload["legal_actions"]
        # only legal actions are accepted; a rejected one changes nothing
        before = GAME.state_to_json(state)
        for name in ACTIONS:
            if name not in names:
                with pytest.raises(EngineError) as err:
                    GAME.apply(state, {"type": name, "seat": seat})
                assert err.value.code in ("illegal_action", "cap_reached")
        other = (seat + data.draw(st.integers(1, state.players - 1))) % state.players
        with pytest.raises(EngineError) as err:
            GAME.apply(state, {"type": names[0], "seat": other})
        assert err.value.code == "not_your_turn"
        assert GAME.state_to_json(state) == before
        if data.draw(st.booleans()):
            action = data.draw(st.sampled_from(legal))
        else:
            level = data.draw(st.sampled_from(["easy", "medium", "hard"]))
            action = house_action(state, seat, level)
            assert action["type"] in names
        state, events = GAME.apply(state, action)
        check_public_events(GAME, state, events)
        check_invariants(state, total)
    assert state.finished
    result = GAME.result(state)
    assert result is not None
    assert sum(result["scores"]) == 0
    assert [a + b for a, b in zip(cfg["stacks"], result["scores"], strict=True)] == state.stacks
    awarded = sum(sum(p["shares"]) for p in result["pots"])
    assert awarded == sum(state.contrib)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 7), games=st.integers(1, 6), seed=st.integers(0, 2**31))
def test_sessions_conserve_chips(n: int, games: int, seed: int) -> None:
    session = GAME.session_start(n, games, {"buy_in": 30, "ante": 2})
    hands = 0
    while not GAME.session_summary(session)["finished"]:
        cfg = GAME.session_next_config(session)
        state = GAME.new_game(cfg, seed + hands)
        while not state.finished:
            state, _ = GAME.apply(state, house_action(state, state.turn, "hard"))
        session = GAME.session_record(session, GAME.result(state) or {})
        hands += 1
        summary = GAME.session_summary(session)
        assert sum(summary["stacks"]) == 30 * n
        assert sum(summary["totals"]) == 0
    assert hands == games or sum(1 for s in session["stacks"] if s > 0) == 1
