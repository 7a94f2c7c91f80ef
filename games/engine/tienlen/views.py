"""Per-seat views, the bot API ``gameState``, and parsing a bot's return.

A view never contains another seat's cards while the game is on; once it is over every hand is
revealed. With ``hide_hand_counts`` the opponents' counts are null until the game ends.

>>> from games.engine.tienlen.rules import new_game
>>> s = new_game({"players": 4}, seed=8)
>>> v = view(s, 0)
>>> len(v["hand"]), v["hands"], view(s, None)["hand"]
(13, None, None)
>>> sorted(bot_view(s, 1))[:4]
['canPass', 'cardsSeen', 'chain', 'currentTurn']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.engine.core.errors import IllegalActionError
from games.engine.core.protocol import Action
from games.engine.tienlen.cards import card_dict, card_value, mask_indices, mask_to_ids, parse_cards
from games.engine.tienlen.combos import KIND_NAMES, classify
from games.engine.tienlen.rules import (
    can_pass,
    check,
    legal_masks,
    partial_transfers,
    played_cards,
    result,
    round_plays,
    round_status,
    sort_key,
)
from games.engine.tienlen.state import RULES_VERSION, TienLenState

__all__ = ["bot_view", "parse_bot_move", "view", "views"]


def _counts(state: TienLenState, seat: int | None) -> list[int | None]:
    hide = state.config["hide_hand_counts"] and not state.finished
    return [
        None if hide and s != seat else state.hands[s].bit_count() for s in range(state.players)
    ]


def _top(state: TienLenState) -> dict[str, Any] | None:
    if not state.top:
        return None
    return {
        "seat": state.top_seat,
        "cards": mask_to_ids(state.top),
        "combo": KIND_NAMES[state.top_kind >> 12],
    }


def _chain(state: TienLenState) -> dict[str, int] | None:
    if state.chain_debtor < 0:
        return None
    return {
        "debtor": state.chain_debtor,
        "payee": state.chain_payee,
        "points": state.chain_points,
    }


def view(state: TienLenState, seat: int | None) -> dict[str, Any]:
    """What ``seat`` (None: a spectator) may see, as a JSON-able dict.

    >>> from games.engine.tienlen.rules import new_game
    >>> v = view(new_game({"players": 2, "hide_hand_counts": True}, seed=3), 1)
    >>> v["hand_counts"]
    [None, 13]
    """
    return views(state, [seat])[0]


def views(state: TienLenState, seats: Sequence[int | None]) -> list[dict[str, Any]]:
    """:func:`view` of each of ``seats``, in order; the parts every seat sees alike (the
    round's plays, the played cards, the scores) are computed once (a move sends one view per
    seat and one to the spectators). The public values are shared between the views: the
    caller serialises them, never changes them.

    >>> from games.engine.tienlen.rules import new_game
    >>> s = new_game({"players": 4}, seed=8)
    >>> views(s, [0, 2, None]) == [view(s, 0), view(s, 2), view(s, None)]
    True
    """
    n = state.players
    partial, scores = partial_transfers(state)
    res = result(state)
    status = round_status(state)
    options = {
        "opening": state.config["opening"],
        "play_on_after_winner": state.config["play_on_after_winner"],
        "hide_hand_counts": state.config["hide_hand_counts"],
        "turn_seconds": state.config["turn_seconds"],
    }
    hands = [mask_to_ids(h) for h in state.hands] if state.finished else None
    top = _top(state)
    plays = round_plays(state)
    passed = [bool((state.passed >> s) & 1) for s in range(n)]
    frozen = [s for s in range(n) if (state.frozen >> s) & 1]
    chain = _chain(state)
    played = mask_to_ids(played_cards(state))
    out = []
    for seat in seats:
        own = seat is not None and 0 <= seat < n
        out.append(
            {
                "game": "tienlen",
                "rules_version": RULES_VERSION,
                "players": n,
                "seat": seat if own else None,
                "options": dict(options),
                "hand": mask_to_ids(state.hands[seat]) if own and seat is not None else None,
                "hand_counts": _counts(state, seat if own else None),
                "hands": hands,
                "turn": None if state.finished else state.turn,
                "round": state.round_index,
                "game_leader": state.game_leader,
                "round_leader": state.round_leader,
                "top": top,
                "round_plays": plays,
                "passed": passed,
                "out": list(state.out),
                "frozen": frozen,
                "required_card": required_card(state, seat) if own else None,
                "chain": chain,
                "played_cards": played,
                "transfers": res["transfers"] if res else partial,
                "scores": res["scores"] if res else scores,
                "can_pass": own and seat is not None and can_pass(state, seat),
                "has_vong": own and seat != state.round_leader,
                "turn_started_at": state.turn_started_at,
                "deadline": status.check_at,
                "instant_win": state.instant_win,
                "finished": state.finished,
                "result": res,
            }
        )
    return out


def required_card(state: TienLenState, seat: int | None) -> str | None:
    """The card ``seat`` must play first (the opening 3♠ it holds), else None."""
    if seat is None or not state.required & state.hands[seat]:
        return None
    return mask_to_ids(state.required)[0]


def top_play(state: TienLenState) -> dict[str, Any] | None:
    """The play to beat: ``{"seat", "cards", "combo"}``, None when the seat leads."""
    return _top(state)


def _cards(mask: int) -> list[dict[str, Any]]:
    return [card_dict(i) for i in mask_indices(mask)]


def bot_view(
    state: TienLenState, seat: int, session_scores: list[int] | None = None
) -> dict[str, Any]:
    """The seed's ``gameState`` for a bot in ``seat`` (see docs/bot-api.md), plus extras.

    >>> from games.engine.tienlen.rules import new_game
    >>> s = new_game({"players": 4, "opening": True}, seed=2)
    >>> g = bot_view(s, s.turn)
    >>> g["lastPlay"], g["metadata"]["isFirstTurn"], g["validMoves"][0]["cards"][0]["rank"]
    (None, True, '3')
    """
    n = state.players
    top = state.top
    last_play = None
    if top:
        kind = state.top_kind
        top_card = kind & 63
        last_play = {
            "player": state.top_seat,
            "cards": _cards(top),
            "type": KIND_NAMES[kind >> 12],
            "length": (kind >> 6) & 63,
            "minRankToBeat": card_value(top_card),
            "topCard": card_dict(top_card),
        }
    plays = round_plays(state)
    on_table = 0
    for entry in plays:
        if "cards" in entry:
            on_table |= parse_cards(entry["cards"])
    moves = legal_masks(state, seat) if state.turn == seat else []
    moves.sort(key=sort_key)
    partial, scores = partial_transfers(state)
    return {
        "myPosition": seat,
        "myCards": _cards(state.hands[seat]),
        "playerCardCounts": _counts(state, seat),
        "playedCards": [
            card_dict(parse_cards([c]).bit_length() - 1)
            for entry in plays
            if "cards" in entry
            for c in entry["cards"]
        ],
        "lastPlay": last_play,
        "currentTurn": None if state.finished else state.turn,
        "passedPlayers": [bool((state.passed >> s) & 1) for s in range(n)],
        "metadata": {
            "round": state.round_index,
            "dealer": state.game_leader,
            "isFirstTurn": bool(state.required),
            "gameStarted": True,
            "gameOver": state.finished,
            "players": n,
            "rulesVersion": RULES_VERSION,
        },
        "validMoves": [{"type": KIND_NAMES[classify(m) >> 12], "cards": _cards(m)} for m in moves],
        "canPass": can_pass(state, seat),
        "mustInclude": (
            card_dict(state.required.bit_length() - 1)
            if state.required & state.hands[seat]
            else None
        ),
        "hasVong": seat != state.round_leader,
        "roundLeader": state.round_leader,
        "roundPlays": [
            {"player": e["seat"], "action": "pass"}
            if e.get("pass")
            else {
                "player": e["seat"],
                "action": "play",
                "type": e["combo"],
                "cards": [card_dict(parse_cards([c]).bit_length() - 1) for c in e["cards"]],
            }
            for e in plays
        ],
        "cardsSeen": _cards(played_cards(state)),
        "finishedPlayers": list(state.out),
        "chain": _chain(state),
        "scores": {"game": scores, "transfers": partial, "session": session_scores},
        "rules": {
            "players": n,
            "opening": state.config["opening"],
            "playOnAfterWinner": state.config["play_on_after_winner"],
            "hideHandCounts": state.config["hide_hand_counts"],
            "turnSeconds": state.config["turn_seconds"],
            "botSeconds": 5,
        },
    }


def parse_bot_move(state: TienLenState, seat: int, obj: object) -> Action:
    """Turn a bot's return into an engine action, validating it against the state.

    Malformed returns raise ``bad_bot_move``; card problems ``bad_card`` / ``duplicate_card``;
    an illegal move the same code :func:`~games.engine.tienlen.rules.apply` would raise.

    >>> from games.engine.tienlen.rules import new_game
    >>> s = new_game({"players": 4, "opening": True}, seed=2)
    >>> move = {"action": "play", "cards": [{"rank": "3", "suit": "♠"}]}
    >>> parse_bot_move(s, s.turn, move)["cards"]
    ['3S']
    >>> parse_bot_move(s, s.turn, {"action": "fold"})
    Traceback (most recent call last):
    ...
    games.engine.core.errors.IllegalActionError: bad_bot_move: action must be 'play' or 'pass'
    """
    if not isinstance(obj, Mapping):
        raise IllegalActionError("bad_bot_move", "a move must be an object")
    action = obj.get("action")
    if action == "pass":
        check(state, seat, -1)
        return {"type": "pass", "seat": seat}
    if action != "play":
        raise IllegalActionError("bad_bot_move", "action must be 'play' or 'pass'")
    cards = obj.get("cards")
    if not isinstance(cards, list):
        raise IllegalActionError("bad_bot_move", "cards must be a list")
    mask = parse_cards(cards)
    check(state, seat, mask)
    return {"type": "play", "seat": seat, "cards": mask_to_ids(mask)}
