"""The expert stud house AI (games.engine.stud.expert, issue 18): legal over many random
hands, reproducible, within its budget, blind to every down card but its own, and sound on
clear-cut spots."""

from __future__ import annotations

import json
import random
from typing import Any

from games.engine.stud import GAME
from games.engine.stud.ai import LEVELS, expert_action, house_action
from games.engine.stud.cards import ids_to_cards
from games.engine.stud.expert import CHECK_EVERY, MAX_SAMPLES, decide, equity
from games.engine.stud.rules import UP_POSITIONS, apply, legal_names, new_game
from games.engine.stud.state import StudState
from games.engine.stud.views import view

FAST: dict[str, Any] = {"budget_ms": None, "iterations": 150}


def _random_state(seed: int) -> StudState:
    """A hand at 2–7 seats (short stacks now and then) after a random number of moves by a
    seeded mix of the rule AIs and random legal moves."""
    rng = random.Random(seed)
    n = rng.randint(2, 7)
    stacks = [rng.choice([3, 9, 25, 200, 200]) for _ in range(n)]
    state = new_game({"players": n, "stacks": stacks, "button": rng.randrange(n)}, seed)
    for _ in range(rng.randint(0, 30)):
        if state.finished:
            break
        seat = state.turn
        if rng.random() < 0.5:
            action = house_action(state, seat, rng.choice(LEVELS[:3]))
        else:
            action = {"type": rng.choice(legal_names(state, seat)), "seat": seat}
        after, _ = apply(state, action)
        if after.finished:
            break  # keep a hand that is still on
        state = after
    return state


def test_expert_is_a_house_level() -> None:
    assert LEVELS[-1] == "expert"
    assert "expert" in GAME.house_levels


def test_expert_moves_are_legal_over_many_random_hands() -> None:
    checked = 0
    for seed in range(120):
        state = _random_state(seed)
        assert not state.finished
        action = house_action(state, state.turn, "expert", **FAST)
        assert action["seat"] == state.turn
        assert action["type"] in legal_names(state, state.turn)
        GAME.check(state, action)
        checked += 1
    assert checked == 120


def test_expert_plays_whole_hands_to_the_end() -> None:
    for seed in range(6):
        state = new_game({"players": 4}, seed)
        while not state.finished:
            state, _ = apply(state, house_action(state, state.turn, "expert", **FAST))
        assert sum(state.stacks) == sum(state.start_stacks)


def test_same_seed_and_iteration_cap_give_the_same_decision() -> None:
    state = _random_state(7)
    first = expert_action(state, state.turn, budget_ms=None, iterations=500)
    again = expert_action(state, state.turn, budget_ms=None, iterations=500)
    assert first == again
    assert first.samples == 500
    # another seed samples other deals: the equity estimate moves, the sampling is real
    other = decide(
        view(state, state.turn),
        [(s, a) for s, a, _, _ in state.log],
        seed="another",
        budget_ms=None,
        iterations=500,
    )
    assert other.samples == 500
    assert other.equity != first.equity


def _hidden_swapped(state: StudState, seat: int, rng: random.Random) -> StudState:
    """The same hand with every card ``seat`` cannot see (other seats' down cards, cards not
    dealt yet) dealt differently: the public information is untouched."""
    visible: set[int] = set(state.cards[seat][: state.dealt[seat]])
    for s in range(state.players):
        visible.update(
            c for i, c in enumerate(state.cards[s][: state.dealt[s]]) if i in UP_POSITIONS
        )
    slots = [
        (s, i)
        for s in range(state.players)
        if s != seat
        for i in range(len(state.cards[s]))
        if not (i in UP_POSITIONS and i < state.dealt[s])
    ]
    slots += [(seat, i) for i in range(state.dealt[seat], len(state.cards[seat]))]
    pool = [c for c in range(52) if c not in visible]
    fresh = rng.sample(pool, len(slots))
    out = state.copy()
    out.cards = [list(c) for c in state.cards]
    for (s, i), c in zip(slots, fresh, strict=True):
        out.cards[s][i] = c
    return out


def test_decisions_depend_only_on_what_the_seat_sees() -> None:
    rng = random.Random(3)
    compared = 0
    for seed in range(40):
        state = _random_state(100 + seed)
        assert not state.finished
        seat = state.turn
        swapped = _hidden_swapped(state, seat, rng)
        assert swapped.cards != state.cards
        # the seat's own view is the same, every other seat's hidden cards changed
        assert view(swapped, seat) == view(state, seat)
        a = expert_action(state, seat, budget_ms=None, iterations=300)
        b = expert_action(swapped, seat, budget_ms=None, iterations=300)
        assert a == b
        compared += 1
    assert compared == 40


def test_the_expert_works_from_the_view_alone() -> None:
    """The view, through JSON (as a bot or a browser would get it), gives the same move."""
    state = _random_state(21)
    seat = state.turn
    log = [(s, a) for s, a, _, _ in state.log]
    direct = decide(view(state, seat), log, seed=5, budget_ms=None, iterations=300)
    via_json = decide(
        json.loads(json.dumps(view(state, seat))), log, seed=5, budget_ms=None, iterations=300
    )
    assert direct == via_json


class _Clock:
    """A clock that moves one millisecond every time it is read."""

    def __init__(self) -> None:
        self.now = 0.0
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        self.now += 0.001
        return self.now


def test_the_time_budget_stops_the_sampling() -> None:
    state = new_game({"players": 7}, 4)
    clock = _Clock()
    d = expert_action(state, state.turn, budget_ms=10, iterations=10**6, clock=clock)
    # the clock is read at the start and once every CHECK_EVERY samples: ~10 reads
    assert clock.reads <= 12
    assert CHECK_EVERY <= d.samples <= CHECK_EVERY * 11
    # no time budget: the iteration cap (by default MAX_SAMPLES) stops it
    assert expert_action(state, state.turn, budget_ms=None, clock=clock).samples == MAX_SAMPLES
    assert house_action(state, state.turn, "expert", budget_ms=5, clock=_Clock())["seat"] == (
        state.turn
    )


def test_equity_is_exact_on_decided_hands_and_sane_on_open_ones() -> None:
    quads = ids_to_cards(["AS", "AH", "AD", "AC", "KS", "KH", "KD"])
    rng = random.Random(1)
    assert equity(quads, [ids_to_cards(["2C", "7D", "9H", "JC"])], [], rng, iterations=200) == (
        1.0,
        200,
    )
    # a pair of aces against one random hand on 3rd street: a big favourite, not a lock
    aces = ids_to_cards(["AS", "AH", "7C"])
    e, _ = equity(aces, [ids_to_cards(["9D"])], [], rng, iterations=3000)
    assert 0.65 < e < 0.9
    # the same aces against four opponents: a smaller share
    e4, _ = equity(aces, [ids_to_cards([c]) for c in ("9D", "4H", "JC", "6S")], [], rng)
    assert 0.25 < e4 < e
    # dead aces hurt: the same hand when the other two aces were folded
    e_dead, _ = equity(
        aces, [ids_to_cards(["9D"])], ids_to_cards(["AD", "AC"]), rng, iterations=3000
    )
    assert e_dead < e
    # the same aces against a player who has bet and raised three times: read as strong
    nines = [ids_to_cards(["9D", "9C"])]
    quiet, _ = equity(aces + ids_to_cards(["4S"]), nines, [], random.Random(2), iterations=3000)
    raised, _ = equity(
        aces + ids_to_cards(["4S"]),
        nines,
        [],
        random.Random(2),
        aggression=[(3, 0)],
        dealt=[4],
        iterations=3000,
    )
    assert raised < quiet - 0.05


def _play_to(config: dict[str, Any], actions: list[str]) -> StudState:
    state = new_game(config, 1)
    for name in actions:
        state, _ = apply(state, {"type": name, "seat": state.turn})
    return state


def test_clear_spots() -> None:
    # rolled-up aces bring in: the expert completes
    s = new_game({"players": 4, "cards": [["AS", "AH", "2C"], [], [], []]}, 9)
    assert s.turn == 0
    assert house_action(s, 0, "expert", **FAST)["type"] == "complete"
    # 7-2-3 offsuit facing a completion and a raise from kings and queens showing: fold
    s = _play_to(
        {
            "players": 3,
            "cards": [["7C", "2D", "3H"], ["KS", "KH", "KD"], ["QS", "QH", "QD"]],
        },
        ["bring_in", "complete", "raise"],
    )
    assert s.turn == 0
    assert house_action(s, 0, "expert", budget_ms=None, iterations=800)["type"] == "fold"
