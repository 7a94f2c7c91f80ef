"""Diu engine: the riffle, the seeded deal, prefetch counts, deadlines, views, bots, sessions."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.core.errors import EngineError
from games.engine.core.protocol import Game, SessionOps
from games.engine.core.rng import seed_state
from games.engine.diu import GAME
from games.engine.diu.ai import LEVELS, house_action
from games.engine.diu.cards import build_deck, riffle_once, riffle_with, sort_key
from games.engine.diu.commit import commitment, nonce, verify
from games.engine.diu.game import TABLE_OPTIONS
from games.engine.diu.rules import DEFAULT_CONFIG, SHAPE_PRESETS, is_complete
from games.engine.registry import find_game

ROLES = {"A": 0, "B": 1, "C": 2, "D": 3}


def test_registered_and_fulfils_the_protocols() -> None:
    assert find_game("diu") is GAME
    assert isinstance(GAME, Game)
    assert isinstance(GAME, SessionOps)


# §14.1 riffle
def test_riffle_alternating_flips_interleave_the_halves() -> None:
    assert riffle_with(list(range(1, 11)), 5, [0, 1] * 5) == [1, 6, 2, 7, 3, 8, 4, 9, 5, 10]


@given(st.integers(min_value=0, max_value=2**64 - 1))
@settings(max_examples=60, deadline=None)
def test_riffle_is_a_permutation_with_a_cut_near_the_middle(seed: int) -> None:
    deck = build_deck(4, 4)
    state = seed_state(seed)
    for _ in range(3):
        state, out, cut = riffle_once(state, deck)
        assert sorted(out) == sorted(deck)
        assert abs(cut - len(deck) // 2) <= 9
        deck = out


# §14.2 deal and roles
@pytest.mark.parametrize("seed", [0, 1, 99, "table-7"])
def test_deal_sizes_roles_and_first_prompt(seed: int | str) -> None:
    state = GAME.new_game({"started_at": 1000.0}, seed)
    roles = state.roles
    assert sorted(roles.values()) == [0, 1, 2, 3]
    sizes = {r: len(state.hands[roles[r]]) for r in "ABCD"}
    assert sizes == {"A": 18, "B": 17, "C": 17, "D": 0}
    assert len(state.stock) == 36
    assert GAME.prompt(state) == {
        "seat": roles["A"],
        "kind": "discard",
        "options": sorted(set(state.hands[roles["A"]]) - {"W"}, key=sort_key),
    }
    status = GAME.round_status(state)
    assert status.pending == (roles["A"],)
    assert status.check_at == 1020.0
    assert GAME.new_game({"started_at": 1000.0}, seed) == state  # deterministic from the seed


def test_seeds_give_different_deals_and_roles() -> None:
    deals = {tuple(GAME.new_game({}, s).stock) for s in range(20)}
    roles = {tuple(GAME.new_game({}, s).roles.values()) for s in range(20)}
    assert len(deals) == 20
    assert len(roles) > 1


def test_shuffle_modes_and_deck_options() -> None:
    for mode in ("fisher_yates", "riffle3", "both"):
        state = GAME.new_game({"shuffle_mode": mode, "copies_per_kind": 5, "wild_count": 10}, 3)
        cards = [c for h in state.hands for c in h] + state.stock
        assert sorted(cards) == sorted(build_deck(5, 10))
    with pytest.raises(EngineError) as err:
        GAME.new_game({"hand_size_lead": 40, "hand_size_other": 30}, 1)
    assert err.value.code == "bad_config"


# §9 and §14.9 deadlines
def test_deadlines_follow_the_prompt_kind() -> None:
    cfg = {
        "roles": ROLES,
        "hands": {"A": ["66", "13"], "B": ["11", "22"], "C": ["55", "35"]},
        "stock": ["44"],
    }
    state = GAME.new_game(cfg, 0)
    state, events = GAME.apply(state, {"type": "discard", "seat": 0, "card": "66", "at": 100.0})
    assert GAME.round_status(state) == (1, (1,), 115.0)
    prompts = [e for e in events if e.type == "prompt"]
    assert [(e.to, e.data["kind"], e.data["deadline"]) for e in prompts] == [(1, "call", 115.0)]
    state, _ = GAME.apply(
        state, {"type": "claim", "seat": 1, "claim": "chi", "cards": ["11"], "at": 101.0}
    )
    assert GAME.round_status(state).check_at == 116.0  # the offer: 15 s
    state, _ = GAME.apply(state, {"type": "accept", "seat": 1, "at": 102.0})
    assert GAME.round_status(state).check_at == 122.0  # the discard: 20 s
    timed = GAME.new_game({**cfg, "t_call": 5, "t_play": 7, "started_at": 0.0}, 0)
    assert GAME.round_status(timed).check_at == 7.0


# §14.12 prefetch batches, as counts only
def test_prefetch_batches_of_ten_refill_at_three_never_past_the_end() -> None:
    state = GAME.new_game({"roles": ROLES}, 5)
    total = len(state.stock)
    assert state.delivered == 10
    history: list[tuple[int, int]] = []
    while not state.finished:
        before = state.delivered
        state, events = GAME.apply(state, GAME.timeout_action(state, state.turn))
        for e in events:
            if e.type == "stock_batch":
                assert set(e.data) == {"count", "delivered", "first", "commitments"}
                assert len(e.data["commitments"]) == e.data["count"]
        history.append((state.drawn, state.delivered))
        assert state.delivered >= before
        assert state.delivered <= total
        assert state.delivered - state.drawn > 3 or state.delivered == total
        view = GAME.view(state, 1)
        assert view["stock"] == {
            "count": len(state.stock),
            "delivered": state.delivered,
            "buffer": state.delivered - state.drawn,
            "drawn": state.drawn,
            "commitments": [
                commitment(state.stock[i], nonce(5, state.drawn + i))
                for i in range(state.delivered - state.drawn)
            ],
        }
    assert {d for _, d in history} <= {10, 20, 30, total}
    assert all(delivered == 20 for drawn, delivered in history if 7 <= drawn < 17)


def test_view_shows_counts_and_commitments_not_the_stock() -> None:
    state = GAME.new_game({"roles": ROLES}, 5)
    other = state.copy()
    other.stock = list(reversed(other.stock))
    for seat in (0, 1, 2, 3, None):
        mine, theirs = GAME.view(state, seat), GAME.view(other, seat)
        assert mine["stock"].pop("commitments") != theirs["stock"].pop("commitments")
        assert mine == theirs


# §5.3 commitments: pushed with the batch, opened by the card_open that flips the card
def test_stock_commitments_are_opened_only_by_the_draw() -> None:
    cfg = {"roles": ROLES, "hands": {"A": ["12", "11"], "B": ["13"], "C": ["22"]}}
    stock = ["14", "23", "W", "15", "24", "33", "16", "25", "34", "26", "35", "44"]
    state = GAME.new_game({**cfg, "stock": stock}, "secret-seed")
    first = [e for e in GAME.initial_events(state) if e.type == "stock_batch"]
    assert [(e.to, e.data["first"], e.data["count"]) for e in first] == [(None, 0, 10)]
    pushed = dict(enumerate(first[0].data["commitments"]))
    state, events = GAME.apply(state, {"type": "discard", "seat": 0, "card": "12"})
    opened = [e for e in events if e.type == "card_open"]
    assert [(e.to, e.data["index"], e.data["card"]) for e in opened] == [
        (None, 0, "14"),
        (None, 1, "23"),
        (None, 2, "W"),
    ]
    for e in opened:
        assert e.data["nonce"] == nonce("secret-seed", e.data["index"])
        assert verify(e.data["card"], e.data["nonce"], pushed[e.data["index"]])
        assert not verify("66", e.data["nonce"], pushed[e.data["index"]])
    # after 3 draws the buffer is 7: nothing more pushed yet; no later nonce anywhere
    assert not [e for e in events if e.type == "stock_batch"]
    text = json.dumps([e.data for e in events] + [GAME.view(state, s) for s in (0, 1, 2, 3, None)])
    assert not any(nonce("secret-seed", i) in text for i in range(3, len(stock)))


# D sits out
def test_d_has_no_hand_no_prompt_no_private_event() -> None:
    state = GAME.new_game({}, 11)
    d_seat = state.roles["D"]
    view = GAME.view(state, d_seat)
    assert view["hand"] is None
    assert view["role"] == "D"
    assert view["prompt"] is not None
    assert "options" not in view["prompt"]
    assert view["hand_counts"][d_seat] is None
    assert GAME.legal_actions(state, d_seat) == []
    assert all(e.to != d_seat for e in GAME.initial_events(state))


def test_spectator_and_others_never_see_options() -> None:
    state = GAME.new_game({"roles": ROLES}, 2)
    assert "options" in GAME.view(state, 0)["prompt"]
    assert "options" not in GAME.view(state, 1)["prompt"]
    spectator = GAME.view(state, None)
    assert spectator["hand"] is None
    assert spectator["hands"] is None


# bots
def test_bot_view_and_reply_shape() -> None:
    cfg = {
        "roles": ROLES,
        "hands": {"A": ["66", "13"], "B": ["66", "11", "22"], "C": ["55", "35"]},
        "stock": [],
    }
    state, _ = GAME.apply(GAME.new_game(cfg, 0), {"type": "discard", "seat": 0, "card": "66"})
    game_state = GAME.bot_view(state, 1)
    assert game_state["myCards"] == ["11", "22", "66"]
    assert game_state["card"] == {"card": "66", "source": "discard", "seat": 0}
    options = game_state["prompt"]["options"]
    assert {"action": "claim", "type": "hard_pair", "cards": ["66"]} in options
    assert {"action": "claim", "type": "chi", "cards": ["11"]} in options
    assert {"action": "pass"} in options
    move = GAME.parse_bot_move(state, 1, {"action": "claim", "type": "hard_pair", "cards": ["66"]})
    assert move == {"type": "claim", "seat": 1, "claim": "hard_pair", "cards": ["66"]}
    for bad, code in [
        ({"action": "claim", "type": "pong", "cards": ["66"]}, "bad_bot_move"),
        ({"action": "claim", "type": "chi"}, "bad_bot_move"),
        ({"action": "claim", "type": "chi", "cards": ["22"]}, "invalid_claim"),
        ({"action": "discard", "card": "66"}, "illegal_action"),
    ]:
        with pytest.raises(EngineError) as err:
            GAME.parse_bot_move(state, 1, bad)
        assert err.value.code == code
    assert GAME.bot_view(state, 2)["prompt"] is None
    assert GAME.bot_view(state, 3)["myCards"] == []


@pytest.mark.parametrize("level", LEVELS)
def test_house_ai_plays_whole_hands(level: str) -> None:
    for seed in range(4):
        state = GAME.new_game({}, seed)
        steps = 0
        while not state.finished:
            action = house_action(state, state.turn, level)
            state, _ = GAME.apply(state, action)
            steps += 1
            assert steps < 500
        res = GAME.result(state)
        assert res is not None
        assert sum(res["scores"]) == 0


def test_house_ai_takes_a_diu() -> None:
    cfg = {
        "roles": ROLES,
        "hands": {"A": ["26", "13"], "B": ["26", "26", "11", "66"], "C": ["12", "35"]},
        "stock": [],
    }
    state, _ = GAME.apply(GAME.new_game(cfg, 0), {"type": "discard", "seat": 0, "card": "26"})
    assert house_action(state, 1, "medium") == {"type": "diu", "seat": 1, "cards": ["26", "26"]}


# §8 complete hands
@pytest.mark.parametrize(
    ("cards", "complete"),
    [
        (["11", "66", "34", "34"], True),
        (["16", "25", "34", "W"], True),
        (["55", "55", "55"], True),
        (["13", "22"], False),
        (["W"], False),
        (["46", "46", "55"], False),
    ],
)
def test_complete_hands(cards: list[str], complete: bool) -> None:
    assert is_complete(cards) is complete


def test_same_kind_points_makes_equal_points_a_pair() -> None:
    assert is_complete(["46", "55"], "points")
    assert not is_complete(["46", "55"], "pips")


# sessions and role rotation (§4, §14.10)
def _result(state: Any) -> dict[str, Any]:
    while not state.finished:
        state, _ = GAME.apply(state, GAME.timeout_action(state, state.turn))
    res = GAME.result(state)
    assert res is not None
    return res


def test_session_rotates_roles_after_an_exhausted_hand() -> None:
    sess = GAME.session_start(4, 3, {"turn_seconds": 30, "hide_hand_counts": False})
    cfg = GAME.session_next_config(sess)
    assert cfg["roles"] is None
    res = _result(GAME.new_game(cfg, 42))
    assert res["result"] == "exhausted"
    assert res["scores"] == [0, 0, 0, 0]
    sess = GAME.session_record(sess, res)
    old = res["roles"]
    new = GAME.session_next_config(sess)["roles"]
    assert new == {"A": old["B"], "B": old["C"], "C": old["D"], "D": old["A"]}
    state = GAME.new_game(GAME.session_next_config(sess), 43)
    assert state.roles == new
    summary = GAME.session_summary(sess)
    assert summary["played"] == 1
    assert summary["totals"] == [0, 0, 0, 0]
    assert not summary["finished"]


def test_session_winner_becomes_a() -> None:
    sess = GAME.session_start(4, 2, {"rotation": "winner_becomes_a"})
    roles = {"A": 3, "B": 0, "C": 1, "D": 2}
    sess = GAME.session_record(sess, {"winner": 1, "scores": [-1, 2, 0, -1], "roles": roles})
    assert GAME.session_next_config(sess)["roles"] == {"A": 1, "B": 2, "C": 3, "D": 0}
    sess = GAME.session_record(sess, {"winner": 1, "scores": [-1, 2, -1, 0], "roles": roles})
    assert GAME.session_summary(sess)["finished"]
    assert GAME.session_summary(sess)["ranking"][0] == 1
    with pytest.raises(EngineError):
        GAME.session_next_config(sess)


def test_session_rejects_bad_options() -> None:
    with pytest.raises(EngineError):
        GAME.session_start(4, 16, {"colour": "red"})
    with pytest.raises(EngineError):
        GAME.session_start(3)


def test_history_of_the_lead_discard_round() -> None:
    state = GAME.new_game({"roles": ROLES}, 8)
    state, _ = GAME.apply(state, GAME.timeout_action(state, 0))
    h = GAME.history(state, 0, 1)
    assert h["complete"]
    assert h["turns"][0]["type"] == "discarded"
    assert h["start"]["hand"] == GAME.new_game({"roles": ROLES}, 8).hands[1]


# every §13 switch is a table option, accepted with good values and refused with bad ones
SECTION_13 = {k for k in DEFAULT_CONFIG if k not in ("players", "roles", "games")}
GOOD: dict[str, list[Any]] = {
    "copies_per_kind": [5],
    "wild_count": [0, 10],
    "hand_size_lead": [10],
    "hand_size_other": [9],
    "shuffle_mode": ["fisher_yates", "riffle3", "BOTH"],
    "riffle_count": [0, 7],
    "same_kind": ["points"],
    "claim_shapes": ["pong", ["chi", "hard_pair"], {"kuai": [0, 1], "hard_pair": [2, 0]}],
    "chi_restriction": ["literal_head_only"],
    "chow_split_double7": [False],
    "allow_diu_on_discard": [False],
    "repoll_includes_passers": [False],
    "repoll_only_if_diu_possible": [True],
    "decline_policy": ["normal_flow"],
    "diu_mode": ["empty_hand"],
    "auto_pass_no_option": [False],
    "t_call": [5],
    "t_offer": [7.5],
    "t_play": [30],
    "rotation": ["winner_becomes_a"],
    "prefetch_batch": [1, 36],
    "prefetch_refill_at": [0, 9],
    "prefetch_refill_inclusive": [False],
    "base": [3],
    "hard_bonus": [True],
}
BAD: dict[str, list[Any]] = {
    "copies_per_kind": [3, "4"],
    "wild_count": [-1, 11],
    "hand_size_lead": [0, 61, True],
    "hand_size_other": [0, 1.5],
    "shuffle_mode": ["overhand", 3],
    "riffle_count": [-1, 21],
    "same_kind": ["colour"],
    "claim_shapes": [
        "triples",
        ["pong"],
        {"chi": [2, 0]},
        {"kuai": [0, 3]},
        {"hard_pair": [1, 0], "hard_triple": [1, 0]},
        {"diu": [1, 1]},
        7,
    ],
    "chi_restriction": ["nobody"],
    "chow_split_double7": ["yes"],
    "allow_diu_on_discard": [1],
    "repoll_includes_passers": [None],
    "repoll_only_if_diu_possible": ["false"],
    "decline_policy": ["random"],
    "diu_mode": ["sometimes"],
    "auto_pass_no_option": [0],
    "t_call": [0, "15"],
    "t_offer": [-1],
    "t_play": [False],
    "rotation": ["random"],
    "prefetch_batch": [0, 201],
    "prefetch_refill_at": [-1],
    "prefetch_refill_inclusive": ["on"],
    "base": [0],
    "hard_bonus": [None],
}


def test_every_section_13_switch_is_a_table_option() -> None:
    assert set(TABLE_OPTIONS) == SECTION_13 == set(GOOD) == set(BAD)
    assert set(GAME.table_options) == SECTION_13
    choices = GAME.table_option_choices
    for key, default in GAME.table_options.items():
        assert isinstance(default, (bool, int, float, str)), key  # what the forms can show
        if isinstance(default, str):
            assert default in choices[key]
    assert choices["claim_shapes"] == tuple(SHAPE_PRESETS) == ("standard", "pong")
    GAME.session_start(4, 16, dict(GAME.table_options))


@pytest.mark.parametrize(("key", "value"), [(k, v) for k, vs in GOOD.items() for v in vs])
def test_table_option_accepted(key: str, value: Any) -> None:
    sess = GAME.session_start(4, 16, {key: value, "turn_seconds": 30})
    cfg = GAME.session_next_config(sess)
    state = GAME.new_game(cfg, 9)
    assert GAME.validate_config(cfg) == state.config  # normalized values survive the session
    assert GAME.state_from_json(GAME.state_to_json(state)) == state


@pytest.mark.parametrize(("key", "value"), [(k, v) for k, vs in BAD.items() for v in vs])
def test_table_option_refused(key: str, value: Any) -> None:
    with pytest.raises(EngineError) as err:
        GAME.session_start(4, 16, {key: value})
    assert err.value.code == "bad_config"


def test_hand_sizes_and_prefetch_options_shape_the_deal() -> None:
    cfg = {"hand_size_lead": 10, "hand_size_other": 8, "prefetch_batch": 4, "roles": ROLES}
    state = GAME.new_game(cfg, 3)
    assert [len(h) for h in state.hands] == [10, 8, 8, 0]
    assert len(state.stock) == 88 - 26
    assert GAME.view(state, None)["stock"]["delivered"] == 4
    with pytest.raises(EngineError):
        GAME.new_game({"hand_size_lead": 60, "hand_size_other": 15}, 1)  # 88 cards only


def test_claim_shapes_pong_reads_dui_as_three_of_a_kind() -> None:
    assert GAME.validate_config({"claim_shapes": "pong"})["claim_shapes"] == SHAPE_PRESETS["pong"]
    assert GAME.validate_config({})["claim_shapes"] == SHAPE_PRESETS["standard"]
    cfg = {
        "roles": ROLES,
        "hands": {"A": ["66", "13"], "B": ["66", "66", "11"], "C": ["66", "35"]},
        "stock": [],
    }
    legal = {}
    for shapes in ("standard", "pong"):
        state = GAME.new_game({**cfg, "claim_shapes": shapes}, 0)
        state, _ = GAME.apply(state, {"type": "discard", "seat": 0, "card": "66"})
        legal[shapes] = [
            (a["claim"], a["cards"]) for a in GAME.legal_actions(state, 1) if a["type"] == "claim"
        ]
    assert legal["standard"] == [
        ("chi", ["11"]),
        ("hard_pair", ["66"]),
        ("hard_triple", ["66", "66"]),
    ]
    assert legal["pong"] == [("chi", ["11"]), ("hard_pair", ["66", "66"])]
