"""The stud GAME object: protocol, views, events, sessions, bots, house AI, history."""

from __future__ import annotations

import json

import pytest

from games.engine.core.errors import EngineError
from games.engine.core.protocol import Game, SessionOps
from games.engine.registry import find_game
from games.engine.stud import GAME
from games.engine.stud.ai import LEVELS, action_label, house_action
from games.engine.stud.state import StudState

CARDS = [
    ["9H", "10D", "2D", "KH", "7C", "3S", "QC"],
    ["4S", "5S", "2C", "8D", "9C", "6H", "JD"],
    ["AS", "AD", "5H", "3D", "4C", "8S", "2S"],
]


def _deal(**extra: object) -> StudState:
    cfg = {"players": 3, "button": 2, "stacks": [100, 100, 100], "cards": CARDS, **extra}
    return GAME.new_game(cfg, seed=1)


def _play(state: StudState, *moves: tuple[int, str]) -> StudState:
    for seat, name in moves:
        state, _ = GAME.apply(state, {"type": name, "seat": seat})
    return state


def _to_showdown(state: StudState) -> StudState:
    while not state.finished:
        name = (
            "check"
            if "check" in [a["type"] for a in GAME.legal_actions(state, state.turn)]
            else "call"
        )
        state = _play(state, (state.turn, name))
    return state


def test_protocol_and_registry() -> None:
    assert isinstance(GAME, Game)
    assert isinstance(GAME, SessionOps)
    assert find_game("stud") is GAME


def test_views_hide_down_cards_until_showdown() -> None:
    state = _deal()
    spectator = GAME.view(state, None)
    assert spectator["hand"] is None
    assert spectator["your_turn"] is None
    assert [s["cards"] for s in spectator["seats"]] == [
        [None, None, "2D"],
        [None, None, "2C"],
        [None, None, "5H"],
    ]
    mine = GAME.view(state, 1)
    assert mine["hand"] == ["4S", "5S", "2C"]
    assert mine["your_turn"]["legal_actions"] == ["bring_in", "complete"]
    assert GAME.view(state, 0)["your_turn"] is None
    assert GAME.view(state, 0)["seats"][1]["cards"] == [None, None, "2C"]
    state = _play(state, (1, "bring_in"), (2, "call"), (0, "call"))
    state = _to_showdown(state)
    shown = GAME.view(state, None)
    assert shown["seats"][2]["cards"] == CARDS[2]
    assert shown["result"]["shown"]["0"]["hand"] == "high_card"
    assert shown["result"]["shown"]["2"]["hand"] == "straight"  # A-2-3-4-5
    assert state.stacks == [97, 97, 106]


def test_uncontested_winner_and_folded_hands_stay_hidden() -> None:
    state = _play(_deal(), (1, "bring_in"), (2, "complete"), (0, "fold"), (1, "fold"))
    assert state.finished
    result = GAME.result(state)
    assert result is not None
    assert result["showdown"] is False
    assert result["shown"] is None
    assert result["scores"] == [-1, -3, 4]
    assert result["pots"] == [
        {"amount": 7, "eligible": [2], "winners": [2], "shares": [7], "hand": None}
    ]
    text = json.dumps(GAME.view(state, 0))
    for cid in ("AS", "AD", "4S", "5S"):  # seat 2's and seat 1's down cards
        assert f'"{cid}"' not in text
    with pytest.raises(EngineError) as err:
        GAME.apply(state, {"type": "check", "seat": 0})
    assert err.value.code == "hand_over"


def test_events_keep_down_cards_private() -> None:
    state = _deal()
    events = GAME.initial_events(state)
    assert [e.type for e in events] == [
        "hand_started",
        "down_cards",
        "down_cards",
        "down_cards",
        "turn",
    ]
    assert events[0].data["up"] == [["2D"], ["2C"], ["5H"]]
    assert events[1].to == 0
    assert events[1].data["cards"] == ["9H", "10D"]
    state = _play(state, (1, "bring_in"), (2, "call"))
    state, events = GAME.apply(state, {"type": "call", "seat": 0})
    types = [e.type for e in events]
    assert types == ["action", "street_ended", "dealt", "turn"]
    assert events[2].data == {"street": 4, "cards": [[0, "KH"], [1, "8D"], [2, "3D"]]}
    assert GAME.round_status(state).round_index == 1


def test_seventh_street_down_card_is_private() -> None:
    state = _play(_deal(), (1, "bring_in"), (2, "call"), (0, "call"))
    for _ in range(2):
        state = _play(state, (0, "check"), (1, "check"), (2, "check"))
    assert state.street == 6
    events: list = []
    for seat in (0, 1, 2):
        state, events = GAME.apply(state, {"type": "check", "seat": seat})
    down = [(e.to, e.data["card"]) for e in events if e.type == "down_card"]
    assert down == [(0, "QC"), (1, "JD"), (2, "2S")]
    dealt = next(e for e in events if e.type == "dealt")
    assert dealt.public
    assert dealt.data["cards"] == [[0, None], [1, None], [2, None]]


def test_timeout_and_turn_deadline() -> None:
    state = _deal(started_at=1000.0, turn_seconds=20)
    assert GAME.round_status(state).check_at == 1020.0
    action = GAME.timeout_action(state, 1)
    assert action == {"type": "bring_in", "seat": 1, "auto": True}
    state, _ = GAME.apply(state, {**action, "at": 1015.0})
    assert GAME.round_status(state).check_at == 1035.0
    assert GAME.timeout_action(state, 2)["type"] == "fold"
    assert GAME.record(state)["actions"] == [
        {"type": "bring_in", "seat": 1, "auto": True, "at": 1015.0}
    ]


def test_bot_view_and_parse_bot_move() -> None:
    state = _deal()
    g = GAME.bot_view(state, 1)
    assert g["yourTurn"]["bring_in_amount"] == 2
    assert [c["id"] for c in g["myDownCards"]] == ["4S", "5S"]
    assert g["players"][0]["cards"] == [None, None, g["players"][0]["upCards"][0]]
    assert g["pots"] == [{"amount": 3, "eligible": [0, 1, 2]}]
    assert GAME.bot_view(state, 0)["yourTurn"] is None
    assert GAME.parse_bot_move(state, 1, {"action": "complete"}) == {"type": "complete", "seat": 1}
    for bad, code in (
        ({"action": "allin"}, "bad_bot_move"),
        ([], "bad_bot_move"),
        ({"action": "check"}, "illegal_action"),
    ):
        with pytest.raises(EngineError) as err:
            GAME.parse_bot_move(state, 1, bad)
        assert err.value.code == code
    with pytest.raises(EngineError) as err:
        GAME.parse_bot_move(state, 0, {"action": "call"})
    assert err.value.code == "not_your_turn"


def test_house_ai_levels_play_legal_moves() -> None:
    state = _deal()
    for level in LEVELS:
        assert house_action(state, 1, level)["type"] in ("bring_in", "complete")
    with pytest.raises(EngineError):
        house_action(state, 0, "medium")
    strong = _play(state, (1, "bring_in"))
    assert house_action(strong, 2, "medium")["type"] == "complete"  # a pair of aces
    assert house_action(strong, 2, "easy")["type"] in ("complete", "fold", "call")
    assert action_label("call", 5) == "Call 5"


def test_config_errors() -> None:
    for bad in (
        {"players": 8},
        {"players": 2, "stacks": [10, 0]},
        {"players": 2, "big_bet": 3},
        {"players": 2, "button": 2},
        {"players": 2, "colour": "red"},
        {"players": 2, "cards": [["AS"], ["AS"]]},
    ):
        with pytest.raises(EngineError):
            GAME.new_game(bad, 1)
    with pytest.raises(EngineError) as err:
        GAME.state_from_json({"game": "stud", "rules_version": "stud-0"})
    assert err.value.code == "bad_state"


def test_seeded_deal_is_deterministic_and_folded_seats_get_no_cards() -> None:
    a = GAME.new_game({"players": 4}, "table-9")
    assert a == GAME.new_game({"players": 4}, "table-9")
    assert a.cards != GAME.new_game({"players": 4}, "table-10").cards
    state = _play(_deal(), (1, "bring_in"), (2, "call"), (0, "fold"))
    assert state.street == 4
    assert state.dealt == [3, 4, 4]


def test_history_by_street() -> None:
    state = _play(_deal(), (1, "bring_in"), (2, "call"), (0, "call"), (0, "check"))
    h = GAME.history(state, 0, None)
    assert h["complete"]
    assert h["start"]["street"] == 3
    assert h["end"]["street"] == 4
    assert [t["action"] for t in h["turns"] if t["type"] == "action"] == [
        "bring_in",
        "call",
        "call",
    ]
    assert all(c is None for c in h["start"]["seats"][0]["cards"][:2])


def test_session_moves_button_and_ends_when_one_has_all_chips() -> None:
    session = GAME.session_start(3, 50, {"buy_in": 10, "ante": 1, "hide_hand_counts": False})
    assert GAME.session_next_config(session)["button"] == 0
    session = GAME.session_record(session, {"scores": [-10, 5, 5], "winner": 1})
    cfg = GAME.session_next_config(session)
    assert cfg["button"] == 1
    assert cfg["stacks"] == [0, 15, 15]
    session = GAME.session_record(session, {"scores": [0, -15, 15], "winner": 2})
    summary = GAME.session_summary(session)
    assert summary["finished"]
    assert summary["ranking"] == [2, 0, 1]
    assert summary["totals"] == [-10, -10, 20]
    assert summary["breakdown"] == [
        [-10, 5, 5],
        [0, -15, 15],
    ]
    with pytest.raises(EngineError):
        GAME.session_next_config(session)
    with pytest.raises(EngineError):
        GAME.session_start(3, 10, {"colour": "red"})
