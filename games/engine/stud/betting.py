"""Seven-card stud's betting, fixed limit: who may do what (bring-in, completion, bets, the
cap), the ``your_turn`` payload, deadlines, the timeout policy and the action checks.

>>> parse_action({"type": "fold", "seat": 1, "auto": True})
(1, 'fold', True, None)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.core.errors import IllegalActionError
from games.engine.core.options import is_int
from games.engine.core.protocol import Action, RoundStatus
from games.engine.stud.state import StudState

__all__ = [
    "ACTIONS",
    "CAP",
    "UP_POSITIONS",
    "check",
    "legal_actions",
    "legal_names",
    "open_pair",
    "parse_action",
    "round_status",
    "timeout_action",
    "up_cards",
    "your_turn",
]

ACTIONS: tuple[str, ...] = (
    "bring_in",
    "complete",
    "fold",
    "check",
    "call",
    "bet",
    "bet_big",
    "raise",
)
#: Full bets per street: one bet (or completion) plus three raises.
CAP = 4
#: Cards dealt face up, by position in a seat's seven (down, down, up, up, up, up, down).
UP_POSITIONS = frozenset({2, 3, 4, 5})


def is_live(st: StudState, s: int) -> bool:
    return st.active[s] and not st.folded[s]


def up_cards(st: StudState, seat: int) -> list[int]:
    """The face-up cards of a seat so far.

    >>> from games.engine.stud.rules import new_game
    >>> s = new_game({"players": 2, "cards": [["2C", "3C", "4C"], ["2D", "3D", "AS"]]}, 1)
    >>> [up_cards(s, 0), up_cards(s, 1)]
    [[8], [51]]
    """
    return [c for i, c in enumerate(st.cards[seat][: st.dealt[seat]]) if i in UP_POSITIONS]


def open_pair(st: StudState) -> bool:
    """4th street only: a player still in the hand shows a pair in their two up cards.

    >>> from games.engine.stud.rules import new_game
    >>> s = new_game({"players": 2}, 1)
    >>> open_pair(s)
    False
    """
    if st.street != 4:
        return False
    for s in range(st.players):
        if is_live(st, s):
            up = up_cards(st, s)
            if len(up) == 2 and up[0] // 4 == up[1] // 4:
                return True
    return False


def can_answer(st: StudState, seat: int) -> bool:
    """Someone other than ``seat`` is in the hand with chips (could answer a bet)."""
    return any(s != seat and is_live(st, s) and st.stacks[s] > 0 for s in range(st.players))


def _bring_in_turn(st: StudState, seat: int) -> bool:
    return st.street == 3 and st.current_bet == 0 and seat == st.bring_in_seat


def legal_names(st: StudState, seat: int) -> list[str]:
    """The legal action names of ``seat`` (empty when it is not their turn), in :data:`ACTIONS`
    order.

    >>> from games.engine.stud.rules import new_game
    >>> s = new_game({"players": 2, "stacks": [100, 100]}, 4)
    >>> legal_names(s, s.turn), legal_names(s, 1 - s.turn)
    (['bring_in', 'complete'], [])
    """
    if st.finished or st.turn != seat:
        return []
    stack = st.stacks[seat]
    if _bring_in_turn(st, seat):
        return ["bring_in", "complete"] if stack > st.config["bring_in"] else ["bring_in"]
    to_call = st.current_bet - st.round_bets[seat]
    out = ["fold"]
    if to_call <= 0:
        out.append("check")
    else:
        out.append("call")
    if st.current_bet == 0:
        out.append("bet")
        if open_pair(st) and stack > st.config["small_bet"]:
            out.append("bet_big")
        return out
    may_raise = stack > to_call and not st.acted[seat] and can_answer(st, seat)
    if st.street == 3 and st.bets_made == 0:
        if may_raise:
            out.insert(0, "complete")
    elif may_raise and st.bets_made < CAP:
        out.append("raise")
    return out


def legal_actions(st: StudState, seat: int) -> list[Action]:
    """Every legal action of ``seat`` as action dicts.

    >>> from games.engine.stud.rules import new_game
    >>> s = new_game({"players": 2, "stacks": [100, 100]}, 4)
    >>> legal_actions(s, s.turn)[0] == {"type": "bring_in", "seat": s.turn}
    True
    """
    return [{"type": name, "seat": seat} for name in legal_names(st, seat)]


def raise_target(st: StudState) -> int:
    return st.full_level + st.bet_size


def your_turn(st: StudState, seat: int | None = None) -> dict[str, Any] | None:
    """Seed 4.3.3.8's ``your_turn`` payload for the seat to act (None when nobody acts, or
    when ``seat`` is given and is not to act). Amounts are capped at the player's stack.

    >>> from games.engine.stud.rules import new_game
    >>> s = new_game({"players": 2, "stacks": [100, 100], "turn_seconds": 20}, 4)
    >>> p = your_turn(s)
    >>> p["amount_to_call"], p["bring_in_amount"], p["raise_amount"], p["can_complete"]
    (0, 2, 5, True)
    >>> p["time_limit"], p["legal_actions"]
    (20, ['bring_in', 'complete'])
    """
    if st.finished or st.turn < 0 or (seat is not None and seat != st.turn):
        return None
    s = st.turn
    stack = st.stacks[s]
    rb = st.round_bets[s]
    names = legal_names(st, s)
    cfg = st.config
    bring = _bring_in_turn(st, s)
    pair = open_pair(st)
    return {
        "seat_index": s,
        "time_limit": cfg["turn_seconds"],
        "amount_to_call": min(max(st.current_bet - rb, 0), stack),
        "can_check": "check" in names,
        "can_bet": "bet" in names,
        "bet_amount": min(st.bet_size, stack),
        "can_raise": "raise" in names,
        "raise_amount": (
            min(cfg["small_bet"], stack) if bring else min(raise_target(st), rb + stack)
        ),
        "raise_count": max(st.bets_made - 1, 0),
        "can_complete": "complete" in names,
        "bring_in_amount": min(cfg["bring_in"], stack) if bring else None,
        "can_bet_big": "bet_big" in names,
        "big_bet_amount": min(cfg["big_bet"], stack) if pair else None,
        "legal_actions": names,
    }


def round_status(st: StudState, now: float | None = None) -> RoundStatus:
    """Seed 004's round status: the street index (3rd street is 0), the seat to act, and the
    turn deadline (``turn_started_at + turn_seconds`` when the turn start is known).

    >>> from games.engine.stud.rules import new_game
    >>> s = new_game({"players": 2, "started_at": 100.0}, 1)
    >>> st = round_status(s)
    >>> st.round_index, st.pending == (s.turn,), st.check_at
    (0, True, 130.0)
    """
    index = st.street - 3
    if st.finished or st.turn < 0:
        return RoundStatus(index, (), None)
    check_at = None
    if st.turn_started_at is not None:
        check_at = float(st.turn_started_at) + float(st.config["turn_seconds"])
    return RoundStatus(index, (st.turn,), check_at)


def timeout_action(st: StudState, seat: int) -> Action:
    """The house policy for a timeout or a disconnect: the bring-in posts the bring-in;
    otherwise check if possible, else fold. Marked ``auto``.

    >>> from games.engine.stud.rules import new_game
    >>> s = new_game({"players": 2, "cards": [["2C", "3C", "4C"], ["2D", "3D", "AS"]]}, 1)
    >>> timeout_action(s, s.turn)
    {'type': 'bring_in', 'seat': 0, 'auto': True}
    """
    if st.finished:
        raise IllegalActionError("hand_over", "the hand is over")
    if _bring_in_turn(st, seat):
        name = "bring_in"
    elif st.current_bet <= st.round_bets[seat]:
        name = "check"
    else:
        name = "fold"
    return {"type": name, "seat": seat, "auto": True}


def parse_action(action: Mapping[str, Any]) -> tuple[int, str, bool, float | None]:
    """Read an action dict ``{"type": name, "seat": n}`` (optional ``auto``, ``at``):
    ``(seat, name, auto, at)``; ``bad_action`` if it is not one.

    >>> parse_action({"type": "call", "seat": 2, "at": 5.0})
    (2, 'call', False, 5.0)
    >>> parse_action({"type": "allin", "seat": 0})
    Traceback (most recent call last):
    ...
    games.engine.core.errors.IllegalActionError: bad_action: unknown action 'allin'
    """
    if not isinstance(action, Mapping):
        raise IllegalActionError("bad_action", "an action must be an object")
    seat = action.get("seat")
    if not is_int(seat):
        raise IllegalActionError("bad_action", "seat must be an int")
    at = action.get("at")
    if at is not None and (not isinstance(at, (int, float)) or isinstance(at, bool)):
        raise IllegalActionError("bad_action", "at must be a unix time")
    name = action.get("type")
    if name not in ACTIONS:
        raise IllegalActionError("bad_action", f"unknown action {name!r}")
    return int(seat), str(name), bool(action.get("auto", False)), at  # type: ignore[arg-type]


def check(st: StudState, seat: int, name: str) -> None:
    """Validate an action without applying it. Codes, in this order: ``hand_over``,
    ``bad_seat``, ``not_your_turn``, ``cap_reached`` (a raise after the bet and three raises),
    ``illegal_action``.

    >>> from games.engine.stud.rules import new_game
    >>> s = new_game({"players": 2}, 1)
    >>> check(s, s.turn, "check")
    Traceback (most recent call last):
    ...
    games.engine.core.errors.IllegalActionError: illegal_action: legal now: bring_in, complete
    """
    if st.finished:
        raise IllegalActionError("hand_over", "the hand is over")
    if not 0 <= seat < st.players:
        raise IllegalActionError("bad_seat", f"no seat {seat}")
    if st.turn != seat:
        raise IllegalActionError("not_your_turn", f"it is seat {st.turn}'s turn")
    names = legal_names(st, seat)
    if name in names:
        return
    if name == "raise" and st.bets_made >= CAP and st.current_bet > st.round_bets[seat]:
        raise IllegalActionError("cap_reached", "the bet and three raises were made")
    raise IllegalActionError("illegal_action", f"legal now: {', '.join(names)}")
