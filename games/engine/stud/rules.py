"""Seven-card stud, fixed limit: the deal, antes, bring-in, betting streets, pots, showdown.

Every function is pure: ``apply`` returns a new state and never changes the one it is given.
Rulings: ``docs/rules/stud.md`` (seed 001 Task 4.3 with the shared rulings).

>>> s = new_game({"players": 3, "stacks": [100, 100, 100]}, seed=3)
>>> s.street, s.turn == s.bring_in_seat, legal_names(s, s.turn)
(3, True, ['bring_in', 'complete'])
>>> s2, events = apply(s, {"type": "bring_in", "seat": s.turn})
>>> s2.current_bet, s.current_bet
(2, 0)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.engine.core.errors import ConfigError, EngineError, IllegalActionError
from games.engine.core.options import is_int
from games.engine.core.protocol import Action, Event, RoundStatus
from games.engine.core.rng import config_seed_state, shuffle
from games.engine.stud.cards import (
    card_id,
    cards_to_ids,
    hand_name,
    hand_rank,
    hand_ranks,
    ids_to_cards,
    showing_key,
)
from games.engine.stud.state import StudState

__all__ = [
    "ACTIONS",
    "CAP",
    "DEFAULT_CONFIG",
    "apply",
    "check",
    "compute_pots",
    "legal_actions",
    "legal_names",
    "log_actions",
    "new_game",
    "open_pair",
    "parse_action",
    "replay",
    "result",
    "round_status",
    "timeout_action",
    "up_cards",
    "validate_config",
    "your_turn",
]

#: Every action name, in the order legal actions are listed.
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

#: Table options and their defaults (``big_bet`` None: twice ``small_bet``; ``stacks`` None:
#: ``buy_in`` each).
DEFAULT_CONFIG: dict[str, Any] = {
    "players": 4,
    "button": 0,
    "stacks": None,
    "buy_in": 200,
    "ante": 1,
    "bring_in": 2,
    "small_bet": 5,
    "big_bet": None,
    "turn_seconds": 30,
    "games": 16,
}
_OPTIONAL_KEYS = ("cards", "started_at")


def validate_config(config: Mapping[str, Any]) -> dict[str, Any]:
    """Check table options and fill defaults; ``bad_config`` for anything not allowed.

    Keys: ``players`` (2–7), ``button`` (a seat), ``stacks`` (chips per seat; at least two
    seats with chips) or ``buy_in``, ``ante`` (≥ 0), ``bring_in`` (≥ 1, below ``small_bet``),
    ``small_bet``, ``big_bet`` (≥ ``small_bet``; default twice it), ``turn_seconds`` (> 0),
    ``games`` (session length), optional ``cards`` (a fixed deal: up to seven distinct cards
    per seat, in deal order; missing ones come from the seeded deck) and ``started_at``.

    >>> cfg = validate_config({"players": 2, "small_bet": 4})
    >>> cfg["big_bet"], cfg["stacks"]
    (8, [200, 200])
    >>> validate_config({"players": 2, "bring_in": 5})
    Traceback (most recent call last):
    ...
    games.engine.core.errors.ConfigError: bad_config: bring_in must be 1..small_bet-1
    """
    if not isinstance(config, Mapping):
        raise ConfigError(detail="config must be an object")
    unknown = set(config) - set(DEFAULT_CONFIG) - set(_OPTIONAL_KEYS)
    if unknown:
        raise ConfigError(detail=f"unknown options: {', '.join(sorted(map(str, unknown)))}")
    cfg = dict(DEFAULT_CONFIG)
    cfg.update(config)
    n = cfg["players"]
    if not is_int(n) or not 2 <= n <= 7:
        raise ConfigError(detail="players must be an int from 2 to 7")
    if cfg["big_bet"] is None and is_int(cfg["small_bet"]):
        cfg["big_bet"] = 2 * cfg["small_bet"]
    for key in ("ante", "bring_in", "small_bet", "big_bet", "buy_in", "games"):
        if not is_int(cfg[key]) or cfg[key] < 0:
            raise ConfigError(detail=f"{key} must be a non-negative int")
    if not 1 <= cfg["bring_in"] < cfg["small_bet"]:
        raise ConfigError(detail="bring_in must be 1..small_bet-1")
    if cfg["big_bet"] < cfg["small_bet"]:
        raise ConfigError(detail="big_bet must be at least small_bet")
    if not is_int(cfg["button"]) or not 0 <= cfg["button"] < n:
        raise ConfigError(detail="button must be a seat number")
    ts = cfg["turn_seconds"]
    if not isinstance(ts, (int, float)) or isinstance(ts, bool) or not ts > 0:
        raise ConfigError(detail="turn_seconds must be a positive number")
    stacks = cfg["stacks"]
    if stacks is None:
        stacks = [cfg["buy_in"]] * n
    if (
        not isinstance(stacks, list)
        or len(stacks) != n
        or not all(is_int(x) and x >= 0 for x in stacks)
    ):
        raise ConfigError(detail=f"stacks must list {n} non-negative ints")
    if sum(1 for x in stacks if x > 0) < 2:
        raise ConfigError(detail="at least two seats need chips")
    cfg["stacks"] = list(stacks)
    started = cfg.get("started_at")
    if started is not None and (not isinstance(started, (int, float)) or isinstance(started, bool)):
        raise ConfigError(detail="started_at must be a unix time")
    if cfg.get("cards") is not None:
        cfg["cards"] = [cards_to_ids(c) for c in _parse_cards(cfg["cards"], n)]
    return cfg


def _parse_cards(cards: Any, n: int) -> list[list[int]]:
    if not isinstance(cards, list) or len(cards) != n:
        raise ConfigError(detail=f"cards must list {n} seats")
    seen: set[int] = set()
    out = []
    for seat, ids in enumerate(cards):
        if not isinstance(ids, list) or len(ids) > 7:
            raise ConfigError(detail=f"cards of seat {seat} must be a list of up to 7 cards")
        try:
            parsed = ids_to_cards(ids)
        except EngineError as exc:
            raise ConfigError(exc.code, f"seat {seat}: {exc.detail}") from exc
        for c in parsed:
            if c in seen:
                raise ConfigError("duplicate_card", f"{card_id(c)} is dealt twice")
            seen.add(c)
        out.append(parsed)
    return out


def _order_after(seat: int, n: int) -> list[int]:
    return [(seat + 1 + k) % n for k in range(n)]


def new_game(config: Mapping[str, Any], seed: int | str) -> StudState:
    """Post the antes, deal 3rd street from the seeded deck (or ``config["cards"]``) and give
    the bring-in its turn.

    >>> s = new_game({"players": 2, "stacks": [10, 0, ], "ante": 1}, 1)
    Traceback (most recent call last):
    ...
    games.engine.core.errors.ConfigError: bad_config: at least two seats need chips
    >>> s = new_game({"players": 3, "stacks": [50, 0, 50]}, 1)
    >>> s.active, s.contrib, s.dealt
    ([True, False, True], [1, 0, 1], [3, 0, 3])
    """
    cfg = validate_config(config)
    n = cfg["players"]
    rng = config_seed_state(seed)
    fixed = _parse_cards(cfg["cards"], n) if cfg.get("cards") is not None else [[]] * n
    used = {c for seat in fixed for c in seat}
    rng, deck = shuffle(rng, [c for c in range(52) if c not in used])
    stacks = list(cfg["stacks"])
    active = [x > 0 for x in stacks]
    order = _order_after(cfg["button"], n)
    cards: list[list[int]] = [[] for _ in range(n)]
    pos = 0
    for k in range(7):
        for s in order:
            if not active[s]:
                continue
            if k < len(fixed[s]):
                cards[s].append(fixed[s][k])
            else:
                cards[s].append(deck[pos])
                pos += 1
    contrib = [0] * n
    for s in range(n):
        if active[s]:
            contrib[s] = min(cfg["ante"], stacks[s])
            stacks[s] -= contrib[s]
    st = StudState(
        config=cfg,
        seed=seed,
        rng=rng,
        cards=cards,
        stacks=stacks,
        start_stacks=list(cfg["stacks"]),
        active=active,
        folded=[False] * n,
        dealt=[3 if a else 0 for a in active],
        contrib=contrib,
        round_bets=[0] * n,
        acted=[False] * n,
        turn_started_at=cfg.get("started_at"),
    )
    _start_street(st, None)
    return st


# --- queries --------------------------------------------------------------------------------


def _live(st: StudState, s: int) -> bool:
    return st.active[s] and not st.folded[s]


def up_cards(st: StudState, seat: int) -> list[int]:
    """The face-up cards of a seat so far.

    >>> s = new_game({"players": 2, "cards": [["2C", "3C", "4C"], ["2D", "3D", "AS"]]}, 1)
    >>> [up_cards(s, 0), up_cards(s, 1)]
    [[8], [51]]
    """
    return [c for i, c in enumerate(st.cards[seat][: st.dealt[seat]]) if i in UP_POSITIONS]


def open_pair(st: StudState) -> bool:
    """4th street only: a player still in the hand shows a pair in their two up cards.

    >>> s = new_game({"players": 2}, 1)
    >>> open_pair(s)
    False
    """
    if st.street != 4:
        return False
    for s in range(st.players):
        if _live(st, s):
            up = up_cards(st, s)
            if len(up) == 2 and up[0] // 4 == up[1] // 4:
                return True
    return False


def _can_answer(st: StudState, seat: int) -> bool:
    """Someone other than ``seat`` is in the hand with chips (could answer a bet)."""
    return any(s != seat and _live(st, s) and st.stacks[s] > 0 for s in range(st.players))


def _bring_in_turn(st: StudState, seat: int) -> bool:
    return st.street == 3 and st.current_bet == 0 and seat == st.bring_in_seat


def legal_names(st: StudState, seat: int) -> list[str]:
    """The legal action names of ``seat`` (empty when it is not their turn), in :data:`ACTIONS`
    order.

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
    may_raise = stack > to_call and not st.acted[seat] and _can_answer(st, seat)
    if st.street == 3 and st.bets_made == 0:
        if may_raise:
            out.insert(0, "complete")
    elif may_raise and st.bets_made < CAP:
        out.append("raise")
    return out


def legal_actions(st: StudState, seat: int) -> list[Action]:
    """Every legal action of ``seat`` as action dicts.

    >>> s = new_game({"players": 2, "stacks": [100, 100]}, 4)
    >>> legal_actions(s, s.turn)[0] == {"type": "bring_in", "seat": s.turn}
    True
    """
    return [{"type": name, "seat": seat} for name in legal_names(st, seat)]


def _raise_target(st: StudState) -> int:
    return st.full_level + st.bet_size


def your_turn(st: StudState, seat: int | None = None) -> dict[str, Any] | None:
    """Seed 4.3.3.8's ``your_turn`` payload for the seat to act (None when nobody acts, or
    when ``seat`` is given and is not to act). Amounts are capped at the player's stack.

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
            min(cfg["small_bet"], stack) if bring else min(_raise_target(st), rb + stack)
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


def compute_pots(contrib: Sequence[int], live: Sequence[bool]) -> list[dict[str, Any]]:
    """Main and side pots from total contributions: one pot per all-in level of the players
    still in the hand; folded players' chips count but make them eligible for nothing.

    >>> compute_pots([10, 30, 30, 5], [True, True, True, False])
    [{'amount': 35, 'eligible': [0, 1, 2]}, {'amount': 40, 'eligible': [1, 2]}]
    """
    levels = sorted({c for c, ok in zip(contrib, live, strict=True) if ok and c > 0})
    pots: list[dict[str, Any]] = []
    prev = 0
    for level in levels:
        amount = sum(min(c, level) - min(c, prev) for c in contrib)
        eligible = [s for s, c in enumerate(contrib) if live[s] and c >= level]
        pots.append({"amount": amount, "eligible": eligible})
        prev = level
    rest = sum(c - min(c, prev) for c in contrib)
    if rest:
        if pots:
            pots[-1]["amount"] += rest
        else:
            pots.append({"amount": rest, "eligible": [s for s in range(len(live)) if live[s]]})
    return pots


def _pots(st: StudState, *, collected: bool = True) -> list[dict[str, Any]]:
    contrib = st.contrib
    if not collected:
        contrib = [c - b for c, b in zip(st.contrib, st.round_bets, strict=True)]
    return compute_pots(contrib, [_live(st, s) for s in range(st.players)])


def result(st: StudState) -> dict[str, Any] | None:
    """None while the hand is on; then ``scores`` (chip net per seat), ``stacks``, per-pot
    ``pots`` (amount, eligible, winners, shares, hand), ``winner``, ``ranking`` and the hands
    shown at showdown.

    >>> result(new_game({"players": 2}, 1)) is None
    True
    """
    if not st.finished:
        return None
    n = st.players
    scores = [st.stacks[s] - st.start_stacks[s] for s in range(n)]
    ranking = sorted(range(n), key=lambda s: (-scores[s], s))
    return {
        "scores": scores,
        "stacks": list(st.stacks),
        "pots": [dict(a) for a in st.awards],
        "winner": ranking[0],
        "ranking": ranking,
        "showdown": st.showdown,
        "shown": _shown(st),
        "instant_win": None,
    }


def _shown(st: StudState) -> dict[str, Any] | None:
    if not st.showdown:
        return None
    out: dict[str, Any] = {}
    for s in range(st.players):
        if _live(st, s):
            out[str(s)] = {
                "cards": cards_to_ids(st.cards[s][: st.dealt[s]]),
                "hand": hand_name(hand_rank(st.cards[s][: st.dealt[s]])),
                "ranks": hand_ranks(st.cards[s][: st.dealt[s]]),
            }
    return out


# --- validation ----------------------------------------------------------------------------


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


# --- applying --------------------------------------------------------------------------------


def apply(state: StudState, action: Mapping[str, Any]) -> tuple[StudState, list[Event]]:
    """Apply an action; return the new state and its events (public ones have ``to=None``).

    >>> s = new_game({"players": 2, "cards": [["2C", "3C", "4C"], ["2D", "3D", "AS"]]}, 1)
    >>> s2, ev = apply(s, {"type": "bring_in", "seat": 0})
    >>> [e.type for e in ev]
    ['action', 'turn']
    >>> apply(s2, {"type": "bring_in", "seat": 0})
    Traceback (most recent call last):
    ...
    games.engine.core.errors.IllegalActionError: not_your_turn: it is seat 1's turn
    """
    if state.finished:
        raise IllegalActionError("hand_over", "the hand is over")
    seat, name, auto, at = parse_action(action)
    events: list[Event] = []
    return _apply(state, seat, name, auto, at, events), events


def _apply(
    state: StudState,
    seat: int,
    name: str,
    auto: bool,
    at: float | None,
    events: list[Event] | None,
) -> StudState:
    check(state, seat, name)
    st = state.copy()
    st.log.append((seat, name, auto, at))
    st.turn_started_at = at
    _act(st, seat, name, auto, events)
    if st.finished:
        st.turn_started_at = None
    elif events is not None:
        events.append(_turn_event(st, at))
    return st


def _turn_event(st: StudState, at: float | None) -> Event:
    return Event(
        "turn",
        {
            "seat": st.turn,
            "street": st.street,
            "at": at,
            "deadline": round_status(st).check_at,
        },
    )


def _put(st: StudState, seat: int, total: int) -> int:
    """Bring ``seat``'s street bet up to ``total`` (capped at the stack); return chips added."""
    add = min(total - st.round_bets[seat], st.stacks[seat])
    add = max(add, 0)
    st.stacks[seat] -= add
    st.round_bets[seat] += add
    st.contrib[seat] += add
    return add


def _wager(st: StudState, seat: int, total: int, name: str) -> int:
    """A bet, bet_big, raise or completion to ``total`` (all-in for less when short)."""
    first = st.bets_made == 0
    added = _put(st, seat, total)
    made = st.round_bets[seat]
    if first and st.street == 4 and (name == "bet_big" or made > st.config["small_bet"]):
        st.bet_size = st.config["big_bet"]
    if (made - st.full_level) * 2 >= st.bet_size:  # a full bet/raise, or an all-in of half+
        st.bets_made += 1
        st.full_level = made
        st.acted = [False] * st.players
    st.current_bet = max(st.current_bet, made)
    return added


def _act(st: StudState, seat: int, name: str, auto: bool, events: list[Event] | None) -> None:
    cfg = st.config
    added = 0
    if name == "fold":
        st.folded[seat] = True
    elif name == "check":
        pass
    elif name == "call":
        added = _put(st, seat, st.current_bet)
    elif name == "bring_in":
        added = _put(st, seat, cfg["bring_in"])
        st.current_bet = st.round_bets[seat]
    elif name == "complete":
        added = _wager(st, seat, cfg["small_bet"], name)
    elif name == "bet":
        added = _wager(st, seat, st.bet_size, name)
    elif name == "bet_big":
        added = _wager(st, seat, cfg["big_bet"], name)
    elif name == "raise":
        added = _wager(st, seat, _raise_target(st), name)
    st.acted[seat] = True
    if events is not None:
        events.append(
            Event(
                "action",
                {
                    "seat": seat,
                    "action": name,
                    "amount": added,
                    "total": st.round_bets[seat],
                    "all_in": st.stacks[seat] == 0 and not st.folded[seat],
                    "auto": auto,
                },
            )
        )
    live = [s for s in range(st.players) if _live(st, s)]
    if len(live) == 1:
        _return_uncalled(st, events)
        _record_street(st, events)
        _win_uncontested(st, live[0], events)
        return
    nxt = _next_to_act(st, seat)
    if nxt >= 0:
        st.turn = nxt
    else:
        _end_street(st, events)


def _needs_to_act(st: StudState, s: int) -> bool:
    if not _live(st, s) or st.stacks[s] == 0:
        return False
    if st.round_bets[s] < st.current_bet:
        return True
    return not st.acted[s] and _can_answer(st, s)


def _next_to_act(st: StudState, seat: int) -> int:
    for s in _order_after(seat, st.players):
        if _needs_to_act(st, s):
            return s
    return -1


def _first_to_act(st: StudState) -> int:
    n = st.players
    if st.street == 3:
        door = min((st.cards[s][2], s) for s in range(n) if _live(st, s))[1]
        for s in [door, *_order_after(door, n)]:
            if _live(st, s) and st.stacks[s] > 0:
                st.bring_in_seat = s
                return s
        return -1
    best: tuple[tuple[int, tuple[int, ...]], int] | None = None
    for s in _order_after(st.bring_in_seat, n):
        if _live(st, s):
            key = showing_key(up_cards(st, s))
            if best is None or key > best[0]:
                best = (key, s)
    assert best is not None
    first = best[1]
    for s in [first, *_order_after(first, n)]:
        if _live(st, s) and st.stacks[s] > 0:
            return s
    return -1


def _start_street(st: StudState, events: list[Event] | None) -> None:
    n = st.players
    st.round_bets = [0] * n
    st.acted = [False] * n
    st.current_bet = 0
    st.full_level = 0
    st.bets_made = 0
    st.bet_size = st.config["small_bet"] if st.street <= 4 else st.config["big_bet"]
    if st.street == 3:
        _first_to_act(st)  # the bring-in seat is fixed even when nobody can bet
    able = [s for s in range(n) if _live(st, s) and st.stacks[s] > 0]
    if len(able) <= 1:
        st.turn = -1
        _end_street(st, events)
        return
    st.turn = _first_to_act(st)


def _return_uncalled(st: StudState, events: list[Event] | None) -> None:
    n = st.players
    top = max(range(n), key=lambda s: st.contrib[s])
    second = max((st.contrib[s] for s in range(n) if s != top), default=0)
    extra = st.contrib[top] - second
    if extra <= 0:
        return
    st.contrib[top] -= extra
    st.round_bets[top] = max(st.round_bets[top] - extra, 0)
    st.stacks[top] += extra
    if events is not None:
        events.append(Event("returned", {"seat": top, "amount": extra}))


def _record_street(st: StudState, events: list[Event] | None) -> None:
    entry = {"street": st.street, "pots": _pots(st), "stacks": list(st.stacks)}
    st.streets.append(entry)
    if events is not None:
        events.append(Event("street_ended", dict(entry)))


def _end_street(st: StudState, events: list[Event] | None) -> None:
    _return_uncalled(st, events)
    _record_street(st, events)
    st.round_bets = [0] * st.players
    st.current_bet = 0
    if st.street == 7:
        _showdown(st, events)
        return
    st.street += 1
    st.street_start.append(len(st.log))
    dealt: list[list[Any]] = []
    for s in _order_after(st.config["button"], st.players):
        if _live(st, s):
            position = st.dealt[s]
            st.dealt[s] += 1
            card = st.cards[s][position]
            if position in UP_POSITIONS:
                dealt.append([s, card_id(card)])
            else:
                dealt.append([s, None])
                if events is not None:
                    events.append(
                        Event("down_card", {"street": st.street, "card": card_id(card)}, to=s)
                    )
    if events is not None:
        events.append(Event("dealt", {"street": st.street, "cards": dealt}))
    _start_street(st, events)


def _finish(st: StudState, events: list[Event] | None) -> None:
    st.finished = True
    st.turn = -1
    st.round_bets = [0] * st.players
    st.current_bet = 0
    if events is not None:
        res = result(st)
        events.append(Event("hand_ended", res if res is not None else {}))


def _win_uncontested(st: StudState, winner: int, events: list[Event] | None) -> None:
    total = sum(st.contrib)
    st.stacks[winner] += total
    st.awards = [
        {
            "amount": total,
            "eligible": [winner],
            "winners": [winner],
            "shares": [total],
            "hand": None,
        }
    ]
    _finish(st, events)


def _showdown(st: StudState, events: list[Event] | None) -> None:
    st.showdown = True
    n = st.players
    ranks = {s: hand_rank(st.cards[s][: st.dealt[s]]) for s in range(n) if _live(st, s)}
    awards = []
    for pot in _pots(st):
        eligible = pot["eligible"]
        best = min(ranks[s] for s in eligible)
        winners = [s for s in eligible if ranks[s] == best]
        share, odd = divmod(pot["amount"], len(winners))
        by_card = sorted(winners, key=lambda s: max(st.cards[s][: st.dealt[s]]), reverse=True)
        shares = [share + (1 if s in by_card[:odd] else 0) for s in winners]
        for s, chips in zip(winners, shares, strict=True):
            st.stacks[s] += chips
        awards.append(
            {
                "amount": pot["amount"],
                "eligible": list(eligible),
                "winners": winners,
                "shares": shares,
                "hand": hand_name(best),
            }
        )
    st.awards = awards
    if events is not None:
        events.append(Event("showdown", {"shown": _shown(st)}))
    _finish(st, events)


# --- replays -------------------------------------------------------------------------------


def replay(
    config: Mapping[str, Any], seed: int | str, actions: Sequence[Mapping[str, Any]]
) -> StudState:
    """Rebuild a hand from its seed and accepted actions (any illegal action raises).

    >>> s = new_game({"players": 2}, seed=4)
    >>> s2, _ = apply(s, legal_actions(s, s.turn)[0])
    >>> replay({"players": 2}, 4, log_actions(s2)) == s2
    True
    """
    state = new_game(config, seed)
    for action in actions:
        seat, name, auto, at = parse_action(action)
        state = _apply(state, seat, name, auto, at, None)
    return state


def log_actions(st: StudState) -> list[Action]:
    """The accepted actions of a hand as action dicts (what :func:`replay` takes).

    >>> log_actions(new_game({"players": 2}, seed=4))
    []
    """
    out: list[Action] = []
    for seat, name, auto, at in st.log:
        action: Action = {"type": name, "seat": seat}
        if auto:
            action["auto"] = True
        if at is not None:
            action["at"] = at
        out.append(action)
    return out
