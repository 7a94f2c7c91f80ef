"""Hypothesis playouts of Diu: invariants of the rules (§11) on random hands and table options.

Cards are conserved; only the prompted seat may act; D never gets a hand or a prompt; nothing is
accepted after the game ends; an action is accepted exactly when it is among the legal ones;
the state survives JSON and ``replay(record)``; a seat's view and bot view do not change when
another hand or the undrawn stock changes (so they cannot leak them) except for the stock
commitments, which are exactly the hashes of the pushed batches; no undrawn card's nonce appears
in any view or event, and every drawn card opens the commitment pushed for it; scores sum to
zero.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.core.errors import EngineError
from games.engine.diu import GAME, DiuState
from games.engine.diu.cards import KINDS, WILD
from games.engine.diu.commit import commitment, nonce, verify
from games.engine.diu.rules import CLAIM_TYPES
from tests.games.engine.properties import check_common

OPTIONS = st.fixed_dictionaries(
    {
        "wild_count": st.sampled_from([0, 4, 10]),
        "copies_per_kind": st.sampled_from([4, 5]),
        "hand_size_lead": st.integers(min_value=3, max_value=18),
        "hand_size_other": st.integers(min_value=2, max_value=17),
        "diu_mode": st.sampled_from(["complete_hand", "empty_hand"]),
        "decline_policy": st.sampled_from(["next_claimant", "normal_flow"]),
        "chi_restriction": st.sampled_from(["relative", "literal_head_only"]),
        "auto_pass_no_option": st.booleans(),
        "repoll_includes_passers": st.booleans(),
        "allow_diu_on_discard": st.booleans(),
        "same_kind": st.sampled_from(["pips", "points"]),
        "hard_bonus": st.booleans(),
        "claim_shapes": st.sampled_from(
            ["standard", "pong", ["chi", "hard_pair"], {"kuai": [1, 1], "hard_pair": [0, 2]}]
        ),
        "shuffle_mode": st.sampled_from(["both", "fisher_yates", "riffle3"]),
        "riffle_count": st.integers(min_value=0, max_value=4),
        "prefetch_batch": st.integers(min_value=1, max_value=12),
        "prefetch_refill_at": st.integers(min_value=0, max_value=5),
        "prefetch_refill_inclusive": st.booleans(),
    }
)


def _all_cards(state: DiuState) -> Counter[str]:
    cards: Counter[str] = Counter(state.stock)
    for hand in state.hands:
        cards.update(hand)
    for melds in state.melds:
        for meld in melds:
            cards.update(meld["cards"])
    for pile in state.discards:
        cards.update(pile)
    cards.update(state.dead)
    cards.update(state.diu_cards)
    if state.card is not None:
        cards[state.card] += 1
    return cards


def _masked(state: DiuState, seat: int | None) -> DiuState:
    """The state with every other hand and the stock replaced by other cards of equal count."""
    other = state.copy()
    other.stock = ["11"] * len(other.stock)
    for s in range(4):
        if s != seat:
            other.hands[s] = ["66"] * len(other.hands[s])
    return other


def _uncommitted(view: dict[str, Any]) -> dict[str, Any]:
    """A view without its stock commitments (which depend on the undrawn cards by design)."""
    out = dict(view)
    out["stock"] = {k: v for k, v in view["stock"].items() if k != "commitments"}
    return out


def _undrawn_nonces(state: DiuState) -> list[str]:
    return [nonce(state.seed, i) for i in range(state.drawn, state.drawn + len(state.stock))]


def _random_action(data: st.DataObject, state: DiuState, seat: int) -> dict[str, Any]:
    kind = data.draw(st.sampled_from(["discard", "pass", "claim", "diu", "accept", "decline"]))
    pool = [*state.hands[seat], *KINDS[:3], WILD]
    cards = data.draw(st.lists(st.sampled_from(pool), min_size=0, max_size=3))
    action: dict[str, Any] = {"type": kind, "seat": seat}
    if kind == "discard":
        action["card"] = cards[0] if cards else "66"
    elif kind == "claim":
        action["claim"] = data.draw(st.sampled_from(CLAIM_TYPES))
        action["cards"] = cards
    elif kind == "diu":
        action["cards"] = cards
    return action


def _check_invariants(state: DiuState, deck: Counter[str]) -> None:
    assert _all_cards(state) == deck
    d_seat = state.roles["D"]
    assert state.hands[d_seat] == []
    prompt = GAME.prompt(state)
    if prompt is not None:
        assert prompt["seat"] != d_seat
        assert GAME.round_status(state).pending == (prompt["seat"],)
    check_common(GAME, state, replay=False)
    for seat in (0, 1, 2, 3, None):
        if not state.finished:
            masked = _uncommitted(GAME.view(_masked(state, seat), seat))
            assert masked == _uncommitted(GAME.view(state, seat))
            if seat is not None:
                assert GAME.bot_view(_masked(state, seat), seat) == GAME.bot_view(state, seat)
        view = GAME.view(state, seat)
        assert view["hand"] == (None if seat in (None, d_seat) else state.hands[seat])
        stock = view["stock"]
        assert stock["commitments"] == [
            commitment(state.stock[i - state.drawn], nonce(state.seed, i))
            for i in range(state.drawn, state.delivered)
        ]
        text = json.dumps(view)
        assert not any(n in text for n in _undrawn_nonces(state))


@given(
    seed=st.integers(min_value=0, max_value=2**32),
    options=OPTIONS,
    data=st.data(),
)
@settings(max_examples=25, deadline=None)
def test_random_playouts_keep_the_invariants(
    seed: int, options: dict[str, Any], data: st.DataObject
) -> None:
    state = GAME.new_game(options, seed)
    deck = _all_cards(state)
    pushed: dict[int, str] = {}
    for e in GAME.initial_events(state):
        if e.type == "stock_batch":
            pushed.update(enumerate(e.data["commitments"], start=e.data["first"]))
    steps = 0
    while not state.finished:
        _check_invariants(state, deck)
        seat = state.turn
        legal = GAME.legal_actions(state, seat)
        assert legal
        for other in range(4):
            if other != seat:
                assert GAME.legal_actions(state, other) == []
                with pytest.raises(EngineError) as err:
                    GAME.apply(state, {**legal[0], "seat": other})
                assert err.value.code == "not_your_turn"
        attempt = _random_action(data, state, seat)
        code = None
        try:
            GAME.check(state, attempt)
        except EngineError as exc:
            code = exc.code
        accepted = code is None
        assert code not in ("not_your_turn", "game_over")
        assert accepted == any(_same_action(attempt, a) for a in legal), (attempt, legal)
        choice = data.draw(st.sampled_from(["legal", "timeout"]))
        action = (
            data.draw(st.sampled_from(legal))
            if choice == "legal"
            else GAME.timeout_action(state, seat)
        )
        state, events = GAME.apply(state, action)
        assert all(e.to != state.roles["D"] for e in events)
        secret = _undrawn_nonces(state)
        for e in events:
            text = json.dumps(e.data)
            assert not any(n in text for n in secret)
            if e.type == "card_open":  # the released key opens the pushed commitment
                assert verify(e.data["card"], e.data["nonce"], pushed[e.data["index"]])
            if e.type == "stock_batch":
                pushed.update(enumerate(e.data["commitments"], start=e.data["first"]))
        steps += 1
        assert steps < 1000
    _check_invariants(state, deck)
    result = GAME.result(state)
    assert result is not None
    assert sum(result["scores"]) == 0
    assert result["scores"][state.roles["D"]] == 0
    assert (result["winner"] is None) == (result["result"] == "exhausted")
    for action in (legal[0], {"type": "pass", "seat": 0}):
        with pytest.raises(EngineError) as err:
            GAME.apply(state, action)
        assert err.value.code == "game_over"
    check_common(GAME, state)  # the state survives JSON and replay(record)


def _same_action(a: dict[str, Any], b: dict[str, Any]) -> bool:
    if a["type"] != b["type"]:
        return False
    if a["type"] == "discard":
        return bool(a["card"] == b["card"])
    if a["type"] == "claim":
        return bool(a["claim"] == b["claim"] and sorted(a["cards"]) == sorted(b["cards"]))
    if a["type"] == "diu":
        return sorted(a["cards"]) == sorted(b["cards"])
    return True
