"""The fixed Test Bot samples: real engine states, deterministic, covering seed §7.2's cases."""

from __future__ import annotations

import json
from typing import Any

from bots.samples import sample_cases
from games.engine.tienlen import GAME


def views() -> dict[str, dict[str, Any]]:
    return {case.key: case.view() for case in sample_cases()}


def test_at_least_ten_samples_with_unique_keys_in_a_fixed_order() -> None:
    keys = [case.key for case in sample_cases()]
    assert len(keys) >= 10
    assert len(set(keys)) == len(keys)
    assert keys == [case.key for case in sample_cases()]  # same order every time
    assert keys[0] == "opening_lead"


def test_every_sample_is_the_bots_turn_in_a_running_game() -> None:
    for case in sample_cases():
        view = case.view()
        assert not case.state.finished, case.key
        assert view["currentTurn"] == case.seat == view["myPosition"], case.key
        assert view["canPass"] or view["validMoves"], case.key
        json.dumps(view)  # plain JSON, as the sandbox receives it


def test_samples_are_deterministic() -> None:
    first = [json.dumps(case.view(), sort_keys=True) for case in sample_cases()]
    rebuilt = [json.dumps(GAME.bot_view(c.state, c.seat), sort_keys=True) for c in sample_cases()]
    assert first == rebuilt


def test_the_samples_cover_the_situations_of_the_issue() -> None:
    v = views()
    opening = v["opening_lead"]
    assert opening["metadata"]["isFirstTurn"]
    assert opening["mustInclude"]["id"] == "3S"
    assert not opening["canPass"]
    assert all(any(c["id"] == "3S" for c in m["cards"]) for m in opening["validMoves"])
    assert v["follow_single"]["lastPlay"]["type"] == "single"
    assert v["follow_pair"]["lastPlay"]["type"] == "pair"
    assert v["follow_straight"]["lastPlay"]["type"] == "straight"
    cut = v["cut_a_two"]
    assert cut["lastPlay"]["cards"][0]["rank"] == "2"
    assert cut["hasVong"]
    assert {m["type"] for m in cut["validMoves"]} >= {"pairs_run", "four"}
    must_pass = v["must_pass"]
    assert must_pass["validMoves"] == []
    assert must_pass["canPass"]
    leader = v["new_round_leader"]
    assert leader["lastPlay"] is None
    assert not leader["canPass"]
    assert not leader["metadata"]["isFirstTurn"]
    assert v["opponent_one_card"]["playerCardCounts"][0] == 1
    assert len(v["last_two_cards"]["myCards"]) == 2
    hidden = v["hidden_counts"]["playerCardCounts"]
    assert hidden.count(None) == 3
    assert hidden[v["hidden_counts"]["myPosition"]] == 13
    assert v["two_players"]["metadata"]["players"] == 2
    assert v["three_players"]["metadata"]["players"] == 3
