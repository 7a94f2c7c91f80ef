"""Seven-card stud's play: the deal (antes, 3rd street), applying an action, the streets
(first to act, uncalled bets, the next card) and replays.

>>> s = new_game({"players": 2, "cards": [["2C", "3C", "4C"], ["2D", "3D", "AS"]]}, 1)
>>> s.street, s.bring_in_seat
(3, 0)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.engine.core.errors import IllegalActionError
from games.engine.core.protocol import Action, Event
from games.engine.core.rng import config_seed_state, shuffle
from games.engine.stud.betting import (
    UP_POSITIONS,
    can_answer,
    check,
    is_live,
    parse_action,
    raise_target,
    round_status,
    up_cards,
)
from games.engine.stud.cards import card_id, showing_key
from games.engine.stud.config import order_after, parse_cards, validate_config
from games.engine.stud.showdown import run_showdown, side_pots, win_uncontested
from games.engine.stud.state import StudState

__all__ = ["apply", "log_actions", "new_game", "replay"]


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
    fixed = parse_cards(cfg["cards"], n) if cfg.get("cards") is not None else [[]] * n
    used = {c for seat in fixed for c in seat}
    rng, deck = shuffle(rng, [c for c in range(52) if c not in used])
    stacks = list(cfg["stacks"])
    active = [x > 0 for x in stacks]
    order = order_after(cfg["button"], n)
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
        events.append(turn_event(st, at))
    return st


def turn_event(st: StudState, at: float | None) -> Event:
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
        added = _wager(st, seat, raise_target(st), name)
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
    live = [s for s in range(st.players) if is_live(st, s)]
    if len(live) == 1:
        _return_uncalled(st, events)
        _record_street(st, events)
        win_uncontested(st, live[0], events)
        return
    nxt = _next_to_act(st, seat)
    if nxt >= 0:
        st.turn = nxt
    else:
        _end_street(st, events)


def _needs_to_act(st: StudState, s: int) -> bool:
    if not is_live(st, s) or st.stacks[s] == 0:
        return False
    if st.round_bets[s] < st.current_bet:
        return True
    return not st.acted[s] and can_answer(st, s)


def _next_to_act(st: StudState, seat: int) -> int:
    for s in order_after(seat, st.players):
        if _needs_to_act(st, s):
            return s
    return -1


def _first_to_act(st: StudState) -> int:
    n = st.players
    if st.street == 3:
        door = min((st.cards[s][2], s) for s in range(n) if is_live(st, s))[1]
        for s in [door, *order_after(door, n)]:
            if is_live(st, s) and st.stacks[s] > 0:
                st.bring_in_seat = s
                return s
        return -1
    best: tuple[tuple[int, tuple[int, ...]], int] | None = None
    for s in order_after(st.bring_in_seat, n):
        if is_live(st, s):
            key = showing_key(up_cards(st, s))
            if best is None or key > best[0]:
                best = (key, s)
    assert best is not None
    first = best[1]
    for s in [first, *order_after(first, n)]:
        if is_live(st, s) and st.stacks[s] > 0:
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
    able = [s for s in range(n) if is_live(st, s) and st.stacks[s] > 0]
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
    entry = {"street": st.street, "pots": side_pots(st), "stacks": list(st.stacks)}
    st.streets.append(entry)
    if events is not None:
        events.append(Event("street_ended", dict(entry)))


def _end_street(st: StudState, events: list[Event] | None) -> None:
    _return_uncalled(st, events)
    _record_street(st, events)
    st.round_bets = [0] * st.players
    st.current_bet = 0
    if st.street == 7:
        run_showdown(st, events)
        return
    st.street += 1
    st.street_start.append(len(st.log))
    dealt: list[list[Any]] = []
    for s in order_after(st.config["button"], st.players):
        if is_live(st, s):
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


def replay(
    config: Mapping[str, Any], seed: int | str, actions: Sequence[Mapping[str, Any]]
) -> StudState:
    """Rebuild a hand from its seed and accepted actions (any illegal action raises).

    >>> from games.engine.stud.rules import legal_actions
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
