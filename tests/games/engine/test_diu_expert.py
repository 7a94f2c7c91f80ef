"""The expert Diu house AI (games.engine.diu.expert, issue 18): legal over many random
states, reproducible, within its budget, blind to every hand but its own and to the stock, and
sound on clear-cut spots."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from games.engine.diu import GAME
from games.engine.diu.ai import LEVELS, expert_action, house_action
from games.engine.diu.expert import decide, loose_count
from games.engine.diu.rules import apply, legal_actions, new_game, prompt
from games.engine.diu.state import DiuState
from games.engine.diu.views import bot_view

ROLES = {"A": 0, "B": 1, "C": 2, "D": 3}
OPTIONS: list[dict[str, Any]] = [
    {},
    {"same_kind": "points"},
    {"claim_shapes": "pong"},
    {"allow_diu_on_discard": False, "chi_restriction": "literal_head_only"},
    {"wild_count": 0},
    {"diu_mode": "empty_hand", "copies_per_kind": 5},
]


def _random_state(seed: int) -> DiuState:
    """A hand after a random number of answers by a seeded mix of the rule AIs and random
    legal answers."""
    rng = random.Random(seed)
    state = new_game({**rng.choice(OPTIONS)}, seed)
    for _ in range(rng.randint(0, 80)):
        if state.finished:
            break
        seat = state.turn
        if rng.random() < 0.6:
            action = house_action(state, seat, rng.choice(LEVELS[:3]))
        else:
            action = rng.choice(legal_actions(state, seat))
        after, _ = apply(state, action)
        if after.finished:
            break  # keep a hand that is still on
        state = after
    return state


def _same_action(a: dict[str, Any], legal: list[dict[str, Any]]) -> bool:
    keys = ("type", "seat", "card", "claim", "cards")
    return any(all(a.get(k) == b.get(k) for k in keys) for b in legal)


def test_expert_is_a_house_level() -> None:
    assert LEVELS[-1] == "expert"
    assert "expert" in GAME.house_levels


def test_expert_answers_are_legal_over_many_random_states() -> None:
    kinds: Counter[str] = Counter()
    for seed in range(150):
        state = _random_state(seed)
        assert not state.finished
        seat = state.turn
        action = house_action(state, seat, "expert", budget_ms=None)
        assert _same_action(action, legal_actions(state, seat)), action
        GAME.check(state, action)
        kinds[prompt(state)["kind"]] += 1  # type: ignore[index]
    # every kind of prompt was met: discards, the poll, the 丢 re-poll and offers
    assert kinds["discard"] >= 10
    assert kinds["call"] >= 50
    assert kinds["diu"] >= 5
    assert kinds["offer"] >= 10


def test_expert_plays_whole_hands_to_the_end() -> None:
    for seed in range(4):
        state = new_game({"roles": ROLES}, seed)
        while not state.finished:
            state, _ = apply(state, house_action(state, state.turn, "expert", budget_ms=None))
        result = GAME.result(state)
        assert result is not None
        assert sum(result["scores"]) == 0


def test_same_game_state_gives_the_same_answer() -> None:
    for seed in range(20):
        state = _random_state(300 + seed)
        assert not state.finished
        game = bot_view(state, state.turn)
        first = decide(game, budget_ms=None)
        assert decide(json.loads(json.dumps(game)), budget_ms=None) == first
        assert expert_action(state, state.turn, budget_ms=None) == expert_action(
            state, state.turn, budget_ms=None
        )


def _hidden_swapped(state: DiuState, seat: int, rng: random.Random) -> DiuState:
    """The same state with the other hands and the stock dealt differently from the cards
    ``seat`` cannot see (hand sizes kept): the public information is untouched."""
    others = [s for s in range(4) if s != seat]
    pool = [c for s in others for c in state.hands[s]] + list(state.stock)
    rng.shuffle(pool)
    out = state.copy()
    pos = 0
    for s in others:
        n = len(state.hands[s])
        out.hands[s] = sorted(pool[pos : pos + n])
        pos += n
    out.stock = pool[pos:]
    return out


def test_answers_depend_only_on_what_the_seat_sees() -> None:
    rng = random.Random(5)
    compared = changed = 0
    for seed in range(60):
        state = _random_state(500 + seed)
        assert not state.finished
        seat = state.turn
        swapped = _hidden_swapped(state, seat, rng)
        changed += swapped.hands != state.hands or swapped.stock != state.stock
        assert bot_view(swapped, seat) == bot_view(state, seat)
        assert expert_action(state, seat, budget_ms=None) == expert_action(
            swapped, seat, budget_ms=None
        )
        compared += 1
    assert compared == 60
    assert changed >= compared - 2


class _Clock:
    """A clock that moves ``step`` seconds every time it is read."""

    def __init__(self, step: float) -> None:
        self.step = step
        self.now = 0.0
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        self.now += self.step
        return self.now


def _discard_state() -> DiuState:
    for seed in range(50):
        state = new_game({"roles": ROLES}, seed)
        if len(prompt(state)["options"]) >= 6:  # type: ignore[index]
            return state
    raise AssertionError("no deal with six discard options")


def test_the_time_budget_and_the_cap_stop_the_judging() -> None:
    state = _discard_state()
    game = bot_view(state, state.turn)
    options = len(game["prompt"]["options"])
    full = decide(game, budget_ms=None)
    assert full.judged == options
    # a clock that jumps 100 ms a read: past a 250 ms budget after two reads, so only the
    # first candidate is judged whole (a candidate cut short is never compared)
    cut = decide(game, budget_ms=250, clock=_Clock(0.1))
    assert 1 <= cut.judged < options
    assert cut.reply in game["prompt"]["options"]
    assert decide(game, budget_ms=None, iterations=2).judged == 2
    action = house_action(state, state.turn, "expert", budget_ms=1, clock=_Clock(1.0))
    GAME.check(state, action)


def _state(hands: dict[str, list[str]], stock: list[str], moves: list[dict[str, Any]]) -> DiuState:
    state = new_game({"roles": ROLES, "hands": hands, "stock": stock}, 0)
    for m in moves:
        state, _ = apply(state, m)
    return state


def test_a_legal_diu_is_always_taken() -> None:
    # nobody claims A's 13; B draws an 11 and is polled first, holding 11 11 | 25 25
    s = _state(
        {"A": ["66", "13", "45"], "B": ["11", "11", "25", "25"], "C": ["12", "56"]},
        ["11", "44"],
        [{"type": "discard", "seat": 0, "card": "13"}],
    )
    assert (s.turn, s.card) == (1, "11")
    # 硬对 and 块水 are offered too; the expert wins at once
    assert house_action(s, 1, "expert", budget_ms=None)["type"] == "diu"


def test_discards_keep_the_pairs_and_throw_a_loose_card() -> None:
    # A leads from 11 11 | 25 34 (a 14-pair) | 34 34 | 46 22 (a 14-pair) and two loose cards,
    # 56 and 36: the expert throws one of them and never breaks a group
    s = _state(
        {
            "A": ["11", "11", "25", "34", "34", "34", "46", "22", "56", "36"],
            "B": ["12"],
            "C": ["13"],
        },
        ["22", "22", "55"],
        [],
    )
    card = house_action(s, 0, "expert", budget_ms=None)["card"]
    assert card in ("56", "36")
    left = list(s.hands[0])
    left.remove(card)
    assert loose_count(left) == loose_count(s.hands[0]) - 1


def test_a_claim_that_makes_the_hand_ready_is_made() -> None:
    # A discards 66; B holds 66 12 11 11: 硬对 on 66, then throwing 12, leaves 11 11 — ready
    # to 丢 on an 11 — where passing keeps a hand that is not ready
    s = _state(
        {"A": ["66", "45"], "B": ["66", "12", "11", "11"], "C": ["13", "14"]},
        ["22", "22", "22"],
        [{"type": "discard", "seat": 0, "card": "66"}],
    )
    assert (s.turn, s.phase) == (1, "call")
    answer = house_action(s, 1, "expert", budget_ms=None)
    assert (answer["type"], answer.get("claim"), answer.get("cards")) == (
        "claim",
        "hard_pair",
        ["66"],
    )


def test_a_claim_that_gains_nothing_is_passed() -> None:
    # B is ready (11 11 waiting, 25 + 34 a 14-pair); claiming the 25 A throws only trades one
    # ready hand for the same wait, so the expert passes and keeps its cards hidden
    s = _state(
        {"A": ["25", "45"], "B": ["11", "11", "25", "34"], "C": ["13", "14"]},
        ["22", "22", "22"],
        [{"type": "discard", "seat": 0, "card": "25"}],
    )
    assert (s.turn, s.phase) == (1, "call")
    assert len(legal_actions(s, 1)) > 1
    assert house_action(s, 1, "expert", budget_ms=None)["type"] == "pass"
