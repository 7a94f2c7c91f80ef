"""The expert Tiến Lên house AI (games.engine.tienlen.expert): legal, reproducible, within its
budget, and blind to every hand but its own."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.engine.core.errors import EngineError
from games.engine.tienlen import GAME
from games.engine.tienlen.ai import LEVELS, house_action
from games.engine.tienlen.cards import mask_to_ids
from games.engine.tienlen.expert import (
    Observation,
    choose,
    determinize,
    observe,
    search,
)
from games.engine.tienlen.rules import (
    apply_mask,
    can_pass,
    check,
    legal_masks,
    log_actions,
    new_game,
    parse_action,
    replay,
)
from games.engine.tienlen.state import TienLenState

CONFIGS: list[dict[str, Any]] = [
    {"players": 2},
    {"players": 3},
    {"players": 4},
    {"players": 4, "play_on_after_winner": True},
    {"players": 3, "hide_hand_counts": True},
    {"players": 4, "opening": False, "leader": 2},
    {"players": 2, "opening": False, "leader": 1, "play_on_after_winner": True},
]


def _random_state(config: dict[str, Any], seed: int, moves: int) -> TienLenState:
    """A game of ``config`` after up to ``moves`` moves of the rule AIs (seeded mix)."""
    rng = random.Random(seed)
    state = new_game(config, seed)
    for _ in range(moves):
        if state.finished:
            break
        seat = state.turn
        _, mask, _, _ = parse_action(house_action(state, seat, rng.choice(LEVELS[:3])))
        state = apply_mask(state, seat, mask)
    return state


def _is_legal(state: TienLenState, seat: int, mask: int) -> bool:
    if mask < 0:
        return can_pass(state, seat)
    return mask in legal_masks(state, seat)


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "-".join(f"{k}{v}" for k, v in c.items()))
def test_expert_moves_are_legal_in_many_states(config: dict[str, Any]) -> None:
    checked = 0
    for seed in range(12):
        state = _random_state(config, seed, moves=seed * 3)
        if state.finished:
            continue
        seat = state.turn
        action = house_action(state, seat, "expert", budget_ms=None, iterations=24)
        _, mask, _, _ = parse_action(action)
        check(state, seat, mask)  # raises on an illegal move
        assert _is_legal(state, seat, mask)
        checked += 1
    assert checked >= 6


def test_expert_plays_whole_games_with_legal_moves_at_every_seat_count() -> None:
    for players in (2, 3, 4):
        state = new_game({"players": players}, seed=100 + players)
        while not state.finished:
            seat = state.turn
            level = "expert" if seat == 0 else "hard"
            action = house_action(state, seat, level, budget_ms=None, iterations=12)
            assert action["seat"] == seat
            state, _ = GAME.apply(state, action)  # the public path validates it
        assert GAME.result(state) is not None


def test_expert_goes_out_when_it_can() -> None:
    hand = ["3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS", "AS", "2H"]
    other = ["3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "JC", "QC", "KC", "AC", "2C"]
    state = new_game({"players": 2, "hands": [hand, other], "opening": True}, seed=3)
    # 12 straight cards from 3♠ to A♠ then the 2: the leader cannot go out at once (a
    # straight never holds a 2), so check a later position where the whole hand is one play
    state = apply_mask(state, 0, state.hands[0] & ~(1 << 51))  # 3♠…A♠ as one straight
    assert state.turn == 1
    state = apply_mask(state, 1, -1)  # seat 1 passes: seat 0 leads with only 2♥ left
    res = search(observe(state, 0), 1, budget_ms=None, iterations=50)
    assert res.move == state.hands[0]
    assert res.rollouts == 0  # nothing to weigh


def test_fixed_seed_and_iterations_give_the_same_move() -> None:
    for seed in range(6):
        state = _random_state({"players": 4}, seed, moves=5 + seed)
        if state.finished:
            continue
        obs = observe(state, state.turn)
        first = search(obs, "s", budget_ms=None, iterations=80)
        again = search(obs, "s", budget_ms=None, iterations=80)
        assert first == again
        assert first.rollouts == 80 or first.rollouts == 0
        a = house_action(state, state.turn, "expert", budget_ms=None, iterations=80)
        assert a == house_action(state, state.turn, "expert", budget_ms=None, iterations=80)


class StepClock:
    """An injected clock: every read advances it by ``step`` seconds."""

    def __init__(self, step: float) -> None:
        self.now = 1000.0
        self.step = step
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        self.now += self.step
        return self.now


def test_the_time_budget_stops_the_search() -> None:
    state = new_game({"players": 4}, seed=21)
    obs = observe(state, state.turn)
    clock = StepClock(0.0625)  # each rollout "takes" 62.5 ms (exact in binary)
    res = search(obs, 1, budget_ms=500, clock=clock)
    # read once to set the deadline, then after each rollout until 500 ms have passed
    assert res.rollouts == 8
    assert clock.reads == 9
    # a generous budget leaves the iteration cap in charge
    res = search(obs, 1, budget_ms=10_000, iterations=40, clock=StepClock(0.0625))
    assert res.rollouts == 40
    # through house_action (the live tables' path): the same budget, the same stop
    clock = StepClock(0.125)
    house_action(state, state.turn, "expert", budget_ms=500, clock=clock)
    assert clock.reads == 5


def _other_deal(state: TienLenState, seat: int, rng: random.Random) -> TienLenState:
    """The same public game (every play and pass) from a deal in which every other seat holds
    different unplayed cards (the same counts); ``seat``'s hand is unchanged."""
    obs = observe(state, seat)
    pool = [i for i in range(52) if (obs.unseen >> i) & 1]
    for _ in range(500):
        rng.shuffle(pool)
        hands = list(state.hands)
        k = 0
        for s in range(state.players):
            if s != seat:
                hands[s] = sum(1 << i for i in pool[k : k + obs.counts[s]])
                k += obs.counts[s]
        if any(hands[s] == state.hands[s] for s in range(state.players) if s != seat):
            continue
        dealt = [h | p for h, p in zip(hands, obs.played_by, strict=True)]
        config = {**state.config, "hands": [mask_to_ids(d) for d in dealt]}
        try:
            other = replay(config, state.seed, log_actions(state))
        except EngineError:  # an instant win or another opening leader: deal again
            continue
        assert other.hands[seat] == state.hands[seat]
        return other
    raise AssertionError("no other deal fits the public game")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_expert_never_reads_another_seats_cards(players: int) -> None:
    rng = random.Random(players)
    compared = 0
    for seed in range(8):
        state = _random_state({"players": players}, 50 + seed, moves=2 + 3 * seed)
        if state.finished:
            continue
        seat = state.turn
        other = _other_deal(state, seat, rng)
        assert other.hands != state.hands
        # what the searcher is given is identical…
        assert observe(other, seat) == observe(state, seat)
        # …and so is every move it makes from it
        a = house_action(state, seat, "expert", budget_ms=None, iterations=60)
        b = house_action(other, seat, "expert", budget_ms=None, iterations=60)
        assert a == b
        compared += 1
    assert compared >= 4


def test_the_observation_holds_no_hidden_card() -> None:
    state = _random_state({"players": 4}, 7, moves=9)
    seat = state.turn
    obs = observe(state, seat)
    played = 0
    for s in obs.played_by:
        played |= s
    for s in range(4):
        if s != seat:
            hidden = state.hands[s]
            assert hidden & (obs.hand | played) == 0
            # no field of the observation is (or contains) a hidden hand
            for name in Observation.__slots__:
                value = getattr(obs, name)
                assert value != hidden
                if isinstance(value, tuple):
                    assert hidden not in value
    assert "hands" not in obs.config


def test_determinizations_are_consistent_with_the_observation() -> None:
    for players in (2, 3, 4):
        state = _random_state({"players": players}, 30 + players, moves=10)
        if state.finished:
            continue
        seat = state.turn
        obs = observe(state, seat)
        rng = random.Random(0)
        for _ in range(20):
            det = determinize(obs, rng)
            assert det.hands[seat] == state.hands[seat]
            assert [h.bit_count() for h in det.hands] == [h.bit_count() for h in state.hands]
            held = 0
            for s, h in enumerate(det.hands):
                assert h & held == 0
                held |= h
                assert det.dealt[s].bit_count() == 13
            assert held & obs.undealt == 0
            assert legal_masks(det, seat) == legal_masks(state, seat)


def test_expert_with_three_players_never_deals_cards_below_the_opening_card() -> None:
    for seed in range(30):
        state = new_game({"players": 3}, seed)
        if state.finished or state.required == 1:
            continue  # 3♠ was dealt: nothing is known to be undealt
        lowest = state.required
        state = apply_mask(state, state.turn, lowest)
        obs = observe(state, state.turn)
        assert obs.undealt == lowest - 1
        det = determinize(obs, random.Random(seed))
        assert all(h & obs.undealt == 0 for h in det.hands)
        return
    pytest.skip("no deal without 3♠ in the first 30 seeds")


def test_expert_is_a_house_level_and_unknown_levels_are_refused() -> None:
    assert LEVELS[-1] == "expert"
    assert "expert" in GAME.house_levels
    state = new_game({"players": 2}, seed=1)
    with pytest.raises(EngineError) as err:
        house_action(state, state.turn, "grandmaster")
    assert err.value.code == "bad_action"
    with pytest.raises(EngineError) as err:
        house_action(state, 1 - state.turn, "expert")
    assert err.value.code == "not_your_turn"


def test_choose_is_the_searched_move() -> None:
    state = _random_state({"players": 4}, 11, moves=6)
    obs = observe(state, state.turn)
    assert (
        choose(obs, 5, budget_ms=None, iterations=30)
        == search(obs, 5, budget_ms=None, iterations=30).move
    )
