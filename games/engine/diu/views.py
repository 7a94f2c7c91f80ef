"""Per-seat views, the bot API ``gameState``, and parsing a bot's return.

A view shows the seat's own hand only, never another hand while the hand is on, and never a
stock card before it is flipped: the stock and its prefetch batches appear as counts and as the
hash commitments of the pushed, undrawn cards (rules §5.3; :mod:`games.engine.diu.commit`).
D (闲家) has no hand and never a prompt; spectators (None) see what D sees.

>>> from games.engine.diu.rules import new_game
>>> s = new_game({"roles": {"A": 0, "B": 1, "C": 2, "D": 3}}, seed=8)
>>> v = view(s, 0)
>>> len(v["hand"]), v["hands"], view(s, 3)["hand"]
(18, None, None)
>>> {k: v["stock"][k] for k in ("count", "delivered", "buffer", "drawn")}
{'count': 36, 'delivered': 10, 'buffer': 10, 'drawn': 0}
>>> len(v["stock"]["commitments"])
10
>>> view(s, 1)["prompt"]
{'seat': 0, 'kind': 'discard', 'deadline': None}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.core.errors import IllegalActionError
from games.engine.core.protocol import Action
from games.engine.diu.cards import NAMES, parse_card, parse_cards
from games.engine.diu.commit import stock_commitments
from games.engine.diu.rules import (
    CLAIM_TYPES,
    check,
    claim_choices,
    diu_choices,
    prompt,
    result,
    round_status,
)
from games.engine.diu.state import RULES_VERSION, DiuState

__all__ = ["bot_view", "parse_bot_move", "view"]

_OPTION_KEYS = (
    "t_call",
    "t_offer",
    "t_play",
    "chi_restriction",
    "decline_policy",
    "diu_mode",
    "same_kind",
    "allow_diu_on_discard",
    "claim_shapes",
    "base",
    "hard_bonus",
)


def _public_card(state: DiuState) -> dict[str, Any] | None:
    if state.card is None:
        return None
    return {"card": state.card, "source": state.source, "seat": state.source_seat}


def _poll(state: DiuState) -> dict[str, Any] | None:
    if state.card is None:
        return None
    return {
        "order": list(state.order),
        "bar": state.bar,
        "answers": [dict(a) for a in state.answers],
        "claims": [{"seat": c["seat"], "type": c["type"]} for c in state.claims],
    }


def _seconds(state: DiuState) -> int | float | None:
    if state.finished:
        return None
    key = {"discard": "t_play", "call": "t_call", "diu": "t_call", "offer": "t_offer"}
    seconds: int | float = state.config[key[state.phase]]
    return seconds


def view(state: DiuState, seat: int | None) -> dict[str, Any]:
    """What ``seat`` (None: a spectator) may see, as a JSON-able dict.

    ``prompt`` is the current prompt; its ``options`` are shown only to the prompted seat.

    >>> from games.engine.diu.rules import new_game
    >>> s = new_game({"roles": {"A": 2, "B": 0, "C": 1, "D": 3}}, seed=1)
    >>> v = view(s, 2)
    >>> v["role"], v["prompt"]["kind"], len(v["prompt"]["options"]) > 0, v["hand_counts"]
    ('A', 'discard', True, [17, 17, 18, None])
    """
    own = seat is not None and 0 <= seat < 4
    role = state.seat_role(seat) if own and seat is not None else None
    status = round_status(state)
    current = prompt(state)
    shown_prompt: dict[str, Any] | None = None
    if current is not None:
        shown_prompt = {"seat": current["seat"], "kind": current["kind"]}
        if own and seat == current["seat"]:
            shown_prompt["options"] = current["options"]
        shown_prompt["deadline"] = status.check_at
    d_seat = state.roles["D"]
    options = {k: state.config[k] for k in _OPTION_KEYS}
    options["turn_seconds"] = _seconds(state)
    return {
        "game": "diu",
        "rules_version": RULES_VERSION,
        "players": 4,
        "seat": seat if own else None,
        "role": role,
        "roles": dict(state.roles),
        "sitting_out": d_seat,
        "options": options,
        "hand": (list(state.hands[seat]) if own and seat is not None and seat != d_seat else None),
        "hand_counts": [None if s == d_seat else len(state.hands[s]) for s in range(4)],
        "hands": [list(h) for h in state.hands] if state.finished else None,
        "stock": {
            "count": len(state.stock),
            "delivered": state.delivered,
            "buffer": state.delivered - state.drawn,
            "drawn": state.drawn,
            "commitments": stock_commitments(state, state.drawn, state.delivered),
        },
        "card": _public_card(state),
        "poll": _poll(state),
        "melds": [[dict(m) for m in ms] for ms in state.melds],
        "discards": [list(d) for d in state.discards],
        "dead": list(state.dead),
        "prompt": shown_prompt,
        "turn": None if state.finished else state.turn,
        "round": state.round_index,
        "turn_started_at": state.turn_started_at,
        "deadline": status.check_at,
        "can_pass": bool(
            current is not None and own and seat == current["seat"] and "pass" in current["options"]
        ),
        "finished": state.finished,
        "result": result(state),
    }


def _bot_options(state: DiuState, seat: int, current: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every legal reply in the bot return shape."""
    kind = current["kind"]
    if kind == "discard":
        return [{"action": "discard", "card": c} for c in current["options"]]
    if kind == "offer":
        return [{"action": "accept"}, {"action": "decline"}]
    out: list[dict[str, Any]] = [{"action": "pass"}]
    for claim in current["options"]:
        if claim in CLAIM_TYPES:
            out += [
                {"action": "claim", "type": claim, "cards": cards}
                for cards in claim_choices(state, seat, claim)
            ]
    if "diu" in current["options"]:
        out += [{"action": "diu", "cards": cards} for cards in diu_choices(state, seat)]
    return out


def bot_view(state: DiuState, seat: int, session_scores: list[int] | None = None) -> dict[str, Any]:
    """The bot API ``gameState`` for ``seat`` (docs/bot-api.md, Diu section): the current
    prompt and its options in the reply shape, the own hand, exposed melds, discards.

    >>> from games.engine.diu.rules import new_game
    >>> s = new_game({"roles": {"A": 0, "B": 1, "C": 2, "D": 3}}, seed=2)
    >>> g = bot_view(s, 0)
    >>> g["prompt"]["kind"], g["prompt"]["options"][0]["action"], g["myRole"]
    ('discard', 'discard', 'A')
    >>> bot_view(s, 1)["prompt"] is None
    True
    """
    current = prompt(state)
    mine = current is not None and current["seat"] == seat
    status = round_status(state)
    d_seat = state.roles["D"]
    return {
        "game": "diu",
        "myPosition": seat,
        "myRole": state.seat_role(seat),
        "roles": dict(state.roles),
        "myCards": list(state.hands[seat]) if seat != d_seat else [],
        "handCounts": [None if s == d_seat else len(state.hands[s]) for s in range(4)],
        "prompt": (
            {
                "kind": current["kind"],
                "options": _bot_options(state, seat, current),
                "deadline": status.check_at,
            }
            if mine and current is not None
            else None
        ),
        "currentTurn": None if state.finished else state.turn,
        "card": _public_card(state),
        "poll": _poll(state),
        "melds": [[dict(m) for m in ms] for ms in state.melds],
        "discards": [list(d) for d in state.discards],
        "dead": list(state.dead),
        "stockCount": len(state.stock),
        "cardNames": dict(NAMES),
        "metadata": {
            "round": state.round_index,
            "gameOver": state.finished,
            "players": 4,
            "rulesVersion": RULES_VERSION,
        },
        "scores": {"session": session_scores},
        "rules": {
            k: state.config[k]
            for k in (*_OPTION_KEYS, "copies_per_kind", "wild_count", "repoll_includes_passers")
        },
    }


def parse_bot_move(state: DiuState, seat: int, obj: object) -> Action:
    """Turn a bot's return into an engine action, validated against the state.

    Shapes: ``{"action": "discard", "card": "66"}``, ``{"action": "pass"}``,
    ``{"action": "claim", "type": "hard_pair", "cards": ["66"]}``,
    ``{"action": "diu", "cards": ["W", "W"]}``, ``{"action": "accept"}``,
    ``{"action": "decline"}``. Malformed returns raise ``bad_bot_move``; an illegal move the
    code :func:`~games.engine.diu.rules.apply` would raise.

    >>> from games.engine.diu.rules import new_game
    >>> s = new_game({"roles": {"A": 0, "B": 1, "C": 2, "D": 3},
    ...               "hands": {"A": ["66", "13"], "B": ["11"], "C": ["12"]}}, 0)
    >>> parse_bot_move(s, 0, {"action": "discard", "card": "66"})
    {'type': 'discard', 'seat': 0, 'card': '66'}
    >>> parse_bot_move(s, 0, {"action": "fold"})
    Traceback (most recent call last):
    ...
    games.engine.core.errors.IllegalActionError: bad_bot_move: action must be one of discard, \
pass, claim, diu, accept, decline
    """
    if not isinstance(obj, Mapping):
        raise IllegalActionError("bad_bot_move", "a move must be an object")
    kind = obj.get("action")
    action: Action
    if kind == "discard":
        action = {"type": "discard", "seat": seat, "card": parse_card(obj.get("card"))}
    elif kind in ("pass", "accept", "decline"):
        action = {"type": kind, "seat": seat}
    elif kind == "claim":
        claim = obj.get("type")
        if claim not in CLAIM_TYPES:
            raise IllegalActionError(
                "bad_bot_move", f"type must be one of {', '.join(CLAIM_TYPES)}"
            )
        action = {"type": "claim", "seat": seat, "claim": claim, "cards": _cards(obj)}
    elif kind == "diu":
        action = {"type": "diu", "seat": seat, "cards": _cards(obj)}
    else:
        raise IllegalActionError(
            "bad_bot_move", "action must be one of discard, pass, claim, diu, accept, decline"
        )
    return check(state, action)


def _cards(obj: Mapping[str, Any]) -> list[str]:
    cards = obj.get("cards")
    if not isinstance(cards, list):
        raise IllegalActionError("bad_bot_move", "cards must be a list")
    return parse_cards(cards)
