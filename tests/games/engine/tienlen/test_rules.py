"""Rules beyond the golden scenarios: config, deadlines, timeouts, events, views, bots, sessions,
the house AI and hand arrangement."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine.core.errors import EngineError
from games.engine.tienlen import GAME
from games.engine.tienlen.cards import ids_to_mask, mask_to_ids
from games.engine.tienlen.instant import instant_win
from games.engine.tienlen.scoring import loser_key, thui_points

HANDS_4 = [
    ["3S", "3C", "9S", "9C", "10S", "JS", "QS", "KS", "8D", "9D", "10D", "JD", "QD"],
    ["3D", "4D", "5H", "6H", "7H", "4H", "8H", "QH", "KH", "AD", "AH", "2C", "2H"],
    ["5S", "5C", "7S", "8S", "9H", "10H", "JH", "2S", "4C", "7D", "KD", "AS", "AC"],
    ["6S", "6C", "6D", "2D", "3H", "4S", "5D", "7C", "8C", "10C", "JC", "QC", "KC"],
]


def fixed(**options: Any) -> Any:
    return GAME.new_game({"players": 4, "hands": HANDS_4, **options}, seed=0)


@pytest.mark.parametrize(
    "config",
    [
        {"players": 1},
        {"players": True},
        {"opening": "yes"},
        {"opening": False},
        {"opening": False, "leader": 4},
        {"turn_seconds": 0},
        {"games": 20},
        {"colour": "red"},
        {"started_at": "now"},
        {"players": 2, "hands": [["3S"], ["4S"]]},
        {"players": 2, "hands": [HANDS_4[0], HANDS_4[0]]},
        {"players": 2, "hands": "x"},
    ],
)
def test_bad_configs(config: dict[str, Any]) -> None:
    with pytest.raises(EngineError) as info:
        GAME.new_game(config, 1)
    assert info.value.code in {"bad_config", "duplicate_card"}


def test_bad_seed() -> None:
    with pytest.raises(EngineError):
        GAME.new_game({"players": 2}, 1.5)  # type: ignore[arg-type]


def test_same_seed_same_deal_and_string_seeds() -> None:
    a = GAME.new_game({"players": 4}, "table-1/game-3")
    b = GAME.new_game({"players": 4}, "table-1/game-3")
    c = GAME.new_game({"players": 4}, "table-1/game-4")
    assert a == b
    assert a.dealt != c.dealt


def test_round_status_deadline_follows_action_times() -> None:
    s = fixed(opening=False, leader=0, turn_seconds=20, started_at=100.0)
    assert GAME.round_status(s, 100.0) == (0, (0,), 120.0)
    s, events = GAME.apply(s, {"type": "play", "seat": 0, "cards": ["3S", "3C"], "at": 110.5})
    assert GAME.round_status(s, 111) == (0, (1,), 130.5)
    turn = next(e for e in events if e.type == "turn")
    assert turn.data["deadline"] == 130.5
    assert turn.data["seat"] == 1
    s, _ = GAME.apply(s, {"type": "pass", "seat": 1})
    assert GAME.round_status(s).check_at is None  # no time given: nothing scheduled
    s = GAME.mark_turn_start(s, 200.0)
    assert GAME.round_status(s).check_at == 220.0


def test_timeout_actions_are_marked_auto_and_logged() -> None:
    s = fixed(opening=True)
    action = GAME.timeout_action(s, s.turn)
    assert action == {"type": "play", "seat": 0, "cards": ["3S"], "auto": True}
    s, events = GAME.apply(s, action)
    assert GAME.timeout_action(s, 1) == {"type": "pass", "seat": 1, "auto": True}
    s, events = GAME.apply(s, GAME.timeout_action(s, 1))
    assert events[0].data == {"seat": 1, "auto": True}
    assert GAME.record(s)["actions"][1] == {"type": "pass", "seat": 1, "auto": True}


def test_events_audiences() -> None:
    s = fixed(opening=False, leader=0)
    s, events = GAME.apply(s, {"type": "play", "seat": 0, "cards": ["3S", "3C"]})
    private = [e for e in events if not e.public]
    assert [(e.type, e.to) for e in private] == [("hand", 0)]
    assert private[0].data["cards"] == mask_to_ids(s.hands[0])
    public_text = str([e.to_json() for e in events if e.public])
    assert "9S" not in public_text
    start = GAME.initial_events(fixed(opening=True))
    assert [e.to for e in start if e.type == "hand"] == [0, 1, 2, 3]


def test_round_and_game_end_events() -> None:
    s = fixed(opening=False, leader=0)
    for action in [
        {"type": "play", "seat": 0, "cards": ["3S", "3C"]},
        {"type": "pass", "seat": 1},
        {"type": "play", "seat": 2, "cards": ["5S", "5C"]},
        {"type": "play", "seat": 3, "cards": ["6S", "6C"]},
        {"type": "play", "seat": 0, "cards": ["9S", "9C"]},
        {"type": "pass", "seat": 2},
    ]:
        s, _ = GAME.apply(s, action)
    s, events = GAME.apply(s, {"type": "pass", "seat": 3})
    ended = next(e for e in events if e.type == "round_ended")
    assert ended.data["winner"] == 0
    assert ended.data["leader"] == 0
    assert GAME.round_status(s).round_index == 1
    for action in [
        {"type": "play", "seat": 0, "cards": ["10S", "JS", "QS", "KS"]},
        {"type": "play", "seat": 1, "cards": ["3D", "4D", "5H", "6H", "7H"]},
        {"type": "play", "seat": 2, "cards": ["7S", "8S", "9H", "10H", "JH"]},
        {"type": "pass", "seat": 3},
    ]:
        s, _ = GAME.apply(s, action)
    s, events = GAME.apply(s, {"type": "play", "seat": 0, "cards": ["8D", "9D", "10D", "JD", "QD"]})
    assert events[-1].type == "game_ended"
    assert events[-1].data["scores"] == [25, -6, -6, -13]
    result = GAME.result(s)
    assert result is not None
    assert result["ranking"] == [0, 2, 1, 3]
    view = GAME.view(s, None)
    assert view["finished"]
    assert view["hands"][3] == mask_to_ids(s.hands[3])
    assert view["hand_counts"] == [0, 8, 6, 11]


def test_views_hide_hands_and_counts() -> None:
    s = fixed(opening=True, hide_hand_counts=True)
    v = GAME.view(s, 2)
    assert v["hand"] == mask_to_ids(s.hands[2])
    assert v["hand_counts"] == [None, None, 13, None]
    assert v["hands"] is None
    assert GAME.view(s, None)["hand_counts"] == [None] * 4
    assert GAME.view(s, 0)["required_card"] == "3S"
    assert GAME.view(s, 1)["required_card"] is None
    g = GAME.bot_view(s, 1)
    assert g["playerCardCounts"] == [None, 13, None, None]


def test_bot_view_shape() -> None:
    s = fixed(opening=False, leader=0)
    s, _ = GAME.apply(s, {"type": "play", "seat": 0, "cards": ["3S", "3C"]})
    g = GAME.bot_view(s, 1, session_scores=[1, -1, 0, 0])
    for key in [
        "myPosition",
        "myCards",
        "playerCardCounts",
        "playedCards",
        "lastPlay",
        "currentTurn",
        "passedPlayers",
        "metadata",
        "validMoves",
        "canPass",
        "roundPlays",
        "cardsSeen",
        "scores",
        "rules",
        "hasVong",
    ]:
        assert key in g
    assert g["myCards"][0] == {"rank": "3", "suit": "♦", "value": 1, "id": "3D"}
    assert g["lastPlay"]["type"] == "pair"
    assert g["lastPlay"]["player"] == 0
    assert g["lastPlay"]["minRankToBeat"] == 1
    assert g["playedCards"] == g["lastPlay"]["cards"]
    assert g["currentTurn"] == 1
    assert g["canPass"] is True
    assert g["scores"]["session"] == [1, -1, 0, 0]
    assert all(m["type"] == "pair" for m in g["validMoves"])
    assert g["metadata"] == {
        "round": 0,
        "dealer": 0,
        "isFirstTurn": False,
        "gameStarted": True,
        "gameOver": False,
        "players": 4,
        "rulesVersion": "tienlen-1",
    }


@pytest.mark.parametrize(
    ("move", "code"),
    [
        (None, "bad_bot_move"),
        ([], "bad_bot_move"),
        ({"action": "fold"}, "bad_bot_move"),
        ({"action": "play"}, "bad_bot_move"),
        ({"action": "play", "cards": "3S"}, "bad_bot_move"),
        ({"action": "play", "cards": [{"rank": "X", "suit": "♠"}]}, "bad_card"),
        ({"action": "play", "cards": [17]}, "bad_card"),
        ({"action": "play", "cards": ["3S", {"rank": "3", "suit": "♠"}]}, "duplicate_card"),
        ({"action": "play", "cards": ["4S"]}, "not_in_hand"),
        ({"action": "play", "cards": ["9S", "3C"]}, "invalid_combination"),
        ({"action": "play", "cards": ["3C"]}, "must_include_card"),
        ({"action": "pass"}, "leader_cannot_pass"),
    ],
)
def test_parse_bot_move_errors(move: object, code: str) -> None:
    s = fixed(opening=True)
    with pytest.raises(EngineError) as info:
        GAME.parse_bot_move(s, 0, move)
    assert info.value.code == code


def test_parse_bot_move_accepts_card_objects() -> None:
    s = fixed(opening=True)
    cards = [{"rank": "3", "suit": "♠", "value": 1}, {"rank": "3", "suit": "♣", "value": 1}]
    assert GAME.parse_bot_move(s, 0, {"action": "play", "cards": cards}) == {
        "type": "play",
        "seat": 0,
        "cards": ["3S", "3C"],
    }
    with pytest.raises(EngineError) as info:
        GAME.parse_bot_move(s, 1, {"action": "pass"})
    assert info.value.code == "not_your_turn"


def test_suggest_and_arrange() -> None:
    s = fixed(opening=True)
    suggestion = GAME.suggest(s, 0)
    assert "3S" in suggestion["cards"]
    with pytest.raises(EngineError):
        GAME.suggest(s, 1)
    hand = HANDS_4[1]
    assert GAME.arrange(hand, "rank") == mask_to_ids(ids_to_mask(hand))
    grouped = GAME.arrange(hand, "combos")
    assert sorted(grouped) == sorted(hand)
    assert len(grouped) == 13
    with pytest.raises(EngineError):
        GAME.arrange(hand, "colour")
    with pytest.raises(EngineError):
        GAME.arrange(["3S", "3S"], "rank")


def test_session_flow() -> None:
    sess = GAME.session_start(3, 16, {"hide_hand_counts": True})
    cfg = GAME.session_next_config(sess)
    assert cfg["opening"] is True
    assert cfg["hide_hand_counts"] is True
    sess = GAME.session_record(sess, {"winner": 1, "scores": [-3, 5, -2], "den_bai": None})
    assert GAME.session_next_config(sess)["leader"] == 1
    sess = GAME.session_record(sess, {"winner": 2, "scores": [-9, -9, 18], "den_bai": 2})
    assert GAME.session_next_config(sess)["leader"] == 0  # the đền bài payer may not lead
    sess = GAME.session_record(
        sess, {"winner": 0, "scores": [78, -39, -39], "instant_win": "dragon"}
    )
    assert GAME.session_next_config(sess)["opening"] is True
    for _ in range(13):
        sess = GAME.session_record(sess, {"winner": 0, "scores": [2, -1, -1]})
    summary = GAME.session_summary(sess)
    assert summary["finished"]
    assert summary["played"] == 16
    assert summary["totals"] == [92, -56, -36]
    assert summary["ranking"] == [0, 2, 1]
    assert len(summary["breakdown"]) == 16
    with pytest.raises(EngineError):
        GAME.session_next_config(sess)
    with pytest.raises(EngineError):
        GAME.session_record(sess, {"winner": 0, "scores": [0, 0, 0]})
    with pytest.raises(EngineError):
        GAME.session_start(3, 16, {"colour": 1})


def test_full_session_of_real_games() -> None:
    sess = GAME.session_start(4, 16)
    for game in range(16):
        state = GAME.new_game(GAME.session_next_config(sess), f"s-{game}")
        while GAME.result(state) is None:
            state, _ = GAME.apply(state, GAME.suggest(state, state.turn))
        sess = GAME.session_record(sess, GAME.result(state))  # type: ignore[arg-type]
    assert GAME.session_summary(sess)["finished"]
    assert sum(sess["totals"]) == 0


def test_helpers() -> None:
    assert thui_points(ids_to_mask(["2S", "2C", "2D"])) == 4
    assert loser_key(ids_to_mask(["2S"])) < loser_key(ids_to_mask(["2C"]))
    assert instant_win(ids_to_mask(HANDS_4[0]), opening=False) is None
