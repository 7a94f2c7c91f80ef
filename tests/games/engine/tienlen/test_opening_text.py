"""What the table's log says about an opening game's leader (issue 15): with four players the
leader holds 3♠; with two or three the lowest card dealt, which only its holder's view names
(``required_card``) until it is played. The history's lines count points as "1 point"."""

from __future__ import annotations

from games.engine.tienlen import GAME
from games.engine.tienlen.cards import mask_to_ids
from games.engine.tienlen.state import TienLenState


def _two_player_deal_without_3s() -> tuple[int, TienLenState]:
    for seed in range(1, 5000):
        state = GAME.new_game({"players": 2}, seed)
        if not state.finished and state.required != 1:
            return seed, state
    raise AssertionError("no two-player deal without 3♠")


def test_the_leader_of_a_two_player_deal_without_3s_holds_the_lowest_card_dealt() -> None:
    _, state = _two_player_deal_without_3s()
    leader = state.turn
    dealt = state.dealt[0] | state.dealt[1]
    lowest = mask_to_ids(dealt & -dealt)[0]
    assert lowest != "3S"
    assert GAME.view(state, leader)["required_card"] == lowest
    # the other player and a spectator are not told which card it is
    assert GAME.view(state, 1 - leader).get("required_card") is None
    assert GAME.view(state, None).get("required_card") is None
    # the opening play must include it
    plays = [a for a in GAME.legal_actions(state, leader) if a["type"] == "play"]
    assert plays
    assert all(lowest in a["cards"] for a in plays)


def test_four_players_always_open_with_3s() -> None:
    for seed in range(1, 40):
        state = GAME.new_game({"players": 4}, seed)
        if not state.finished:
            assert GAME.view(state, state.turn)["required_card"] == "3S"


def test_history_lines_count_one_point() -> None:
    names = ["Lan", "Bo"]
    cut = {"type": "cut", "seat": 0, "victim": 1, "points": 1}
    assert GAME.event_text(cut, names) == "Lan cut Bo for 1 point"
    assert GAME.event_text({**cut, "points": 4}, names) == "Lan cut Bo for 4 points"
    void = {"type": "chain_void", "seat": 1, "points": 1}
    assert GAME.event_text(void, names) == "Bo went out: the cut chain of 1 point is void"
