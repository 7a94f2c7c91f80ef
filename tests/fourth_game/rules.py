"""The rules of High Card as pure functions of a state (seed 004: one trick is one round).

>>> s = new_game({"players": 2, "tricks": 1}, seed=3)
>>> s, events = apply(s, {"type": "play", "seat": 0, "card": s.hands[0][0]})
>>> s, events = apply(s, {"type": "play", "seat": 1, "card": s.hands[1][0]})
>>> [e.type for e in events], result(s)["scores"] in ([1, -1], [-1, 1])
(['card_played', 'trick_won', 'game_ended'], True)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.core.cards import SUIT_LETTERS, Card, standard_deck
from games.engine.core.errors import ConfigError, IllegalActionError
from games.engine.core.protocol import Action, Event, JSONDict, RoundStatus
from games.engine.core.rng import config_seed_state, shuffle
from tests.fourth_game.state import HighCardState

__all__ = [
    "DEFAULT_CONFIG",
    "LEVELS",
    "apply",
    "beats",
    "house_action",
    "legal_actions",
    "log_actions",
    "new_game",
    "result",
    "round_status",
    "validate_config",
    "view",
]

#: Every option with its default: two seats, three tricks, 30 seconds a turn.
DEFAULT_CONFIG: dict[str, Any] = {"players": 2, "tricks": 3, "turn_seconds": 30}
#: The house AI's strengths, weakest first.
LEVELS = ("easy", "sharp")
#: Ranks from low to high (aces high).
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


def _strength(card: str) -> tuple[int, int]:
    parsed = Card.parse(card)
    return RANKS.index(parsed.rank), SUIT_LETTERS.index(parsed.suit)


def beats(card: str, other: str) -> bool:
    """True when ``card`` is higher than ``other``: rank first (aces high), then suit (♠ < ♣ <
    ♦ < ♥).

    >>> beats("AS", "KH"), beats("5C", "5S"), beats("2H", "3S")
    (True, True, False)
    """
    return _strength(card) > _strength(other)


def _whole(config: Mapping[str, Any], key: str, low: int, high: int) -> int:
    value = config.get(key, DEFAULT_CONFIG[key])
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ConfigError(detail=f"{key} must be a whole number from {low} to {high}")
    return value


def validate_config(config: Mapping[str, Any]) -> JSONDict:
    """The options with defaults filled in; ``bad_config`` for anything else.

    >>> validate_config({})
    {'players': 2, 'tricks': 3, 'turn_seconds': 30}
    >>> validate_config({"players": 3})
    Traceback (most recent call last):
    ...
    games.engine.core.errors.ConfigError: bad_config: players must be a whole number from 2 to 2
    >>> validate_config({"jokers": True})
    Traceback (most recent call last):
    ...
    games.engine.core.errors.ConfigError: bad_config: unknown options: jokers
    """
    if not isinstance(config, Mapping):
        raise ConfigError(detail="config must be an object")
    unknown = set(config) - {*DEFAULT_CONFIG, "started_at"}
    if unknown:
        raise ConfigError(detail=f"unknown options: {', '.join(sorted(unknown))}")
    out: JSONDict = {
        "players": _whole(config, "players", 2, 2),
        "tricks": _whole(config, "tricks", 1, 13),
        "turn_seconds": _whole(config, "turn_seconds", 5, 300),
    }
    started = config.get("started_at")
    if started is not None:
        if isinstance(started, bool) or not isinstance(started, (int, float)):
            raise ConfigError(detail="started_at must be a unix time")
        out["started_at"] = float(started)
    return out


def new_game(config: Mapping[str, Any], seed: int | str) -> HighCardState:
    """Deal ``tricks`` cards to each seat from a deck shuffled by ``seed``; seat 0 leads.

    >>> s = new_game({"players": 2, "started_at": 100.0}, 7)
    >>> s.hands == new_game({"players": 2}, 7).hands, len(s.hands[0]), s.turn
    (True, 3, 0)
    """
    cfg = validate_config(config)
    _, deck = shuffle(config_seed_state(seed), [str(c) for c in standard_deck()])
    n = int(cfg["tricks"])
    dealt = [deck[:n], deck[n : 2 * n]]
    return HighCardState(
        config=cfg,
        seed=seed,
        dealt=[list(h) for h in dealt],
        hands=[list(h) for h in dealt],
        trick=[None, None],
        won=[0, 0],
        turn_started_at=cfg.get("started_at"),
    )


def legal_actions(state: HighCardState, seat: int) -> list[Action]:
    """Every card of the seat to play, one action each; empty when it is not its turn.

    >>> s = new_game({"players": 2, "tricks": 2}, 1)
    >>> [a["type"] for a in legal_actions(s, 0)], legal_actions(s, 1)
    (['play', 'play'], [])
    """
    if state.finished or seat != state.turn:
        return []
    return [{"type": "play", "seat": seat, "card": card} for card in state.hands[seat]]


def round_status(state: HighCardState, now: float | None = None) -> RoundStatus:
    """The trick index, the seat to play, its deadline (when the turn start is known).

    >>> round_status(new_game({"players": 2, "started_at": 10.0}, 1))
    RoundStatus(round_index=0, pending=(0,), check_at=40.0)
    """
    if state.finished:
        return RoundStatus(state.trick_index, (), None)
    check_at = None
    if state.turn_started_at is not None:
        check_at = float(state.turn_started_at) + float(state.config["turn_seconds"])
    return RoundStatus(state.trick_index, (state.turn,), check_at)


def _turn_event(state: HighCardState) -> Event:
    status = round_status(state)
    return Event(
        "turn", {"seat": state.turn, "round": status.round_index, "deadline": status.check_at}
    )


def apply(state: HighCardState, action: Mapping[str, Any]) -> tuple[HighCardState, list[Event]]:
    """Play one card: ``{"type": "play", "seat": s, "card": "QS"}`` (optional ``auto`` and
    ``at``, unix seconds). The second card of a trick decides it; the last trick ends the game.

    >>> s = new_game({"players": 2}, 1)
    >>> apply(s, {"type": "play", "seat": 1, "card": s.hands[1][0]})
    Traceback (most recent call last):
    ...
    games.engine.core.errors.IllegalActionError: not_your_turn: it is seat 0's turn
    >>> apply(s, {"type": "play", "seat": 0, "card": s.hands[1][0]})[0]
    Traceback (most recent call last):
    ...
    games.engine.core.errors.IllegalActionError: not_in_hand: ... is not in seat 0's hand
    """
    if not isinstance(action, Mapping) or action.get("type") != "play":
        raise IllegalActionError("bad_action", "an action is {'type': 'play', 'card': ...}")
    seat = action.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool) or seat not in (0, 1):
        raise IllegalActionError("bad_seat", f"no seat {seat!r}")
    if state.finished:
        raise IllegalActionError("game_over", "the game has ended")
    if seat != state.turn:
        raise IllegalActionError("not_your_turn", f"it is seat {state.turn}'s turn")
    card = action.get("card")
    if not isinstance(card, str):
        raise IllegalActionError("bad_card", f"{card!r} is not a card")
    card = str(Card.parse(card))
    if card not in state.hands[seat]:
        raise IllegalActionError("not_in_hand", f"{card} is not in seat {seat}'s hand")
    at = action.get("at")
    auto = bool(action.get("auto"))
    st = state.copy()
    st.hands[seat].remove(card)
    st.trick[seat] = card
    entry: Action = {"type": "play", "seat": seat, "card": card}
    if auto:
        entry["auto"] = True
    if at is not None:
        entry["at"] = at
    st.log.append(entry)
    st.turn_started_at = float(at) if isinstance(at, (int, float)) else None
    events = [Event("card_played", {"seat": seat, "card": card, "auto": auto})]
    other = 1 - seat
    played = st.trick[other]
    if played is None:
        st.turn = other
        return st, [*events, _turn_event(st)]
    winner = seat if beats(card, played) else other
    st.won[winner] += 1
    cards = list(st.trick)
    st.last_trick = {"cards": cards, "winner": winner, "trick": st.trick_index}
    events.append(Event("trick_won", {"winner": winner, "trick": st.trick_index, "cards": cards}))
    st.trick = [None, None]
    st.trick_index += 1
    st.turn = winner
    if st.trick_index == int(st.config["tricks"]):
        st.finished = True
        st.turn = -1
        res = result(st)
        assert res is not None
        return st, [*events, Event("game_ended", res)]
    return st, [*events, _turn_event(st)]


def result(state: HighCardState) -> JSONDict | None:
    """None while the game is on; then the winner (None on a tie), the tricks won and the
    zero-sum scores (each seat's tricks minus the other's).

    >>> result(new_game({"players": 2}, 1)) is None
    True
    """
    if not state.finished:
        return None
    a, b = state.won
    winner = 0 if a > b else 1 if b > a else None
    return {"winner": winner, "tricks": list(state.won), "scores": [a - b, b - a]}


def view(state: HighCardState, seat: int | None) -> JSONDict:
    """What ``seat`` (None: a spectator) may see: its own hand only, the other's count, the
    cards on the table, the tricks won; every dealt hand once the game is over.

    >>> s = new_game({"players": 2}, 1)
    >>> v = view(s, 1)
    >>> v["hand"] == s.hands[1], v["hand_counts"], "hands" in v
    (True, [3, 3], False)
    >>> view(s, None)["hand"] is None
    True
    """
    status = round_status(state)
    out: JSONDict = {
        "game": "highcard",
        "players": 2,
        "round": state.trick_index,
        "tricks": int(state.config["tricks"]),
        "turn": None if state.finished else state.turn,
        "deadline": status.check_at,
        "trick": list(state.trick),
        "last_trick": None if state.last_trick is None else dict(state.last_trick),
        "won": list(state.won),
        "hand_counts": [len(h) for h in state.hands],
        "hand": list(state.hands[seat]) if seat in (0, 1) else None,
        "finished": state.finished,
        "result": result(state),
    }
    if state.finished:
        out["hands"] = [list(h) for h in state.dealt]
    return out


def log_actions(state: HighCardState) -> list[Action]:
    """The accepted actions so far, as ``replay`` takes them.

    >>> s = new_game({"players": 2}, 1)
    >>> log_actions(apply(s, {"type": "play", "seat": 0, "card": s.hands[0][0]})[0])[0]["seat"]
    0
    """
    return [dict(a) for a in state.log]


def house_action(state: HighCardState, seat: int, level: str = "easy") -> Action:
    """The house AI's card: ``easy`` plays its lowest card; ``sharp`` leads its highest and
    follows with the lowest card that wins the trick (its lowest when none does). Any other
    level plays as ``easy``.

    >>> s = new_game({"players": 2, "tricks": 3}, 1)
    >>> low = house_action(s, 0, "easy")["card"]
    >>> high = house_action(s, 0, "sharp")["card"]
    >>> beats(high, low)
    True
    """
    hand = sorted((a["card"] for a in legal_actions(state, seat)), key=_strength)
    if not hand:
        raise IllegalActionError("not_your_turn", f"seat {seat} has nothing to do")
    card = hand[0]
    if level == "sharp":
        led = state.trick[1 - seat]
        card = hand[-1] if led is None else next((c for c in hand if beats(c, led)), hand[0])
    return {"type": "play", "seat": seat, "card": card}
