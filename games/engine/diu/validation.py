"""Suijiang Diu's action checks: a normalized action, or the stable error code of what is
wrong with it (in the order :func:`check` lists).

>>> parse_action({"type": "pass", "seat": 2, "auto": 1})
{'type': 'pass', 'seat': 2, 'auto': True}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.core.errors import IllegalActionError
from games.engine.core.options import is_int
from games.engine.core.protocol import Action
from games.engine.diu.cards import parse_card, parse_cards, points
from games.engine.diu.claims import (
    chi_barred,
    claim_fits,
    discard_options,
    diu_ok,
    diu_open,
    holds_cards,
)
from games.engine.diu.config import ACTION_TYPES, CLAIM_TYPES, RANK
from games.engine.diu.state import DiuState

__all__ = ["check", "parse_action"]


def parse_action(action: Mapping[str, Any]) -> Action:
    """A normalized action dict; ``bad_action`` / ``bad_card`` if it is not one.

    >>> parse_action({"type": "claim", "seat": 1, "claim": "kuai", "cards": ["w"]})
    {'type': 'claim', 'seat': 1, 'claim': 'kuai', 'cards': ['W']}
    >>> parse_action({"type": "fold", "seat": 0})
    Traceback (most recent call last):
    ...
    games.engine.core.errors.IllegalActionError: bad_action: type must be one of discard, pass, \
claim, diu, accept, decline
    """
    if not isinstance(action, Mapping):
        raise IllegalActionError("bad_action", "an action must be an object")
    seat = action.get("seat")
    if not is_int(seat):
        raise IllegalActionError("bad_action", "seat must be an int")
    kind = action.get("type")
    if kind not in ACTION_TYPES:
        raise IllegalActionError("bad_action", f"type must be one of {', '.join(ACTION_TYPES)}")
    out: Action = {"type": kind, "seat": seat}
    if kind == "discard":
        out["card"] = parse_card(action.get("card"))
    elif kind == "claim":
        claim = action.get("claim")
        if claim not in CLAIM_TYPES:
            raise IllegalActionError("bad_action", f"claim must be one of {', '.join(CLAIM_TYPES)}")
        out["claim"] = claim
        out["cards"] = parse_cards(action.get("cards"))
    elif kind == "diu":
        out["cards"] = parse_cards(action.get("cards"))
    if action.get("auto"):
        out["auto"] = True
    at = action.get("at")
    if at is not None:
        if not isinstance(at, (int, float)) or isinstance(at, bool):
            raise IllegalActionError("bad_action", "at must be a unix time")
        out["at"] = at
    return out


def check(state: DiuState, action: Mapping[str, Any]) -> Action:
    """Validate an action without applying it; return it normalized.

    Codes, in order: ``game_over``; ``bad_action`` / ``bad_card``; ``bad_seat``;
    ``not_your_turn``; ``illegal_action`` (it does not answer the prompt); then
    ``not_in_hand``, ``wild_discard``, ``claim_not_allowed``, ``claim_not_higher``,
    ``invalid_claim``, ``must_keep_card``, ``diu_not_allowed``, ``invalid_diu``,
    ``diu_incomplete``.

    >>> from games.engine.diu.rules import new_game
    >>> s = new_game({}, seed=3)
    >>> check(s, {"type": "pass", "seat": s.turn})
    Traceback (most recent call last):
    ...
    games.engine.core.errors.IllegalActionError: illegal_action: the prompt is discard
    """
    if state.finished:
        raise IllegalActionError("game_over", "the game has ended")
    act = parse_action(action)
    seat, kind = act["seat"], act["type"]
    if not 0 <= seat < 4:
        raise IllegalActionError("bad_seat", f"no seat {seat}")
    if seat != state.turn:
        raise IllegalActionError("not_your_turn", f"seat {state.turn} is prompted")
    allowed = {
        "discard": ("discard",),
        "call": ("pass", "claim", "diu"),
        "diu": ("pass", "diu"),
        "offer": ("accept", "decline"),
    }[state.phase]
    if kind not in allowed:
        raise IllegalActionError("illegal_action", f"the prompt is {state.phase}")
    hand = state.hands[seat]
    if kind == "discard":
        card = act["card"]
        if card not in hand:
            raise IllegalActionError("not_in_hand", f"{card} is not in the hand")
        if card not in discard_options(hand):
            raise IllegalActionError("wild_discard", "a 听用 goes only when nothing else is left")
    elif kind == "claim":
        _check_claim(state, seat, act["claim"], act["cards"])
    elif kind == "diu":
        cards = act["cards"]
        if not holds_cards(hand, cards):
            raise IllegalActionError("not_in_hand", f"not in hand: {' '.join(cards)}")
        if not diu_open(state):
            raise IllegalActionError("diu_not_allowed", "丢 is not open on a discard here")
        code = diu_ok(state, seat, cards)
        if code == "invalid_diu":
            raise IllegalActionError(code, "the cards make no three-card group with the card")
        if code is not None:
            raise IllegalActionError(code, "the rest of the hand does not split into groups")
    return act


def _check_claim(state: DiuState, seat: int, claim: str, cards: list[str]) -> None:
    hand = state.hands[seat]
    card = state.card
    assert card is not None
    if not holds_cards(hand, cards):
        raise IllegalActionError("not_in_hand", f"not in hand: {' '.join(cards)}")
    if claim not in state.config["claim_shapes"]:
        raise IllegalActionError("claim_not_allowed", f"{claim} is switched off at this table")
    if claim == "chi" and chi_barred(state, seat):
        raise IllegalActionError("claim_not_allowed", "the discarder's 上家 may not 吃 it")
    if RANK[claim] <= state.bar:
        raise IllegalActionError("claim_not_higher", "a claim must outrank the best one so far")
    by_points = state.config["same_kind"] == "points"
    if not claim_fits(claim, card, cards, by_points, state.config["claim_shapes"][claim]):
        raise IllegalActionError("invalid_claim", f"{' '.join(cards)} do not make {claim}")
    if (
        claim == "chi"
        and not state.config["chow_split_double7"]
        and points(card) == 7
        and hand.count(cards[0]) >= 2
    ):
        raise IllegalActionError("claim_not_allowed", "a pair of 7s may not be split to 吃")
    if len(hand) - len(cards) < 1:
        raise IllegalActionError("must_keep_card", "a claim must leave a card to discard")
