"""Tiến Lên Miền Nam: dealing, validating and applying actions, rounds, chặt chains, game end.

Every function is pure: ``apply`` returns a new state and never changes the one it is given.
The fast internal path works on masks (``legal_masks`` / ``apply_mask``); the public functions
wrap it with card ids and events.

>>> state = new_game({"players": 4}, seed=3)
>>> seat = state.turn
>>> action = legal_actions(state, seat)[0]
>>> new, events = apply(state, action)
>>> new.turn != seat, state.log == []
(True, True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.engine.core.errors import ConfigError, EngineError, IllegalActionError
from games.engine.core.protocol import Action, Event, RoundStatus
from games.engine.core.rng import config_seed_state, shuffle
from games.engine.tienlen.cards import heo_value, mask_to_ids, parse_cards
from games.engine.tienlen.combos import (
    BEAT,
    CUT,
    CUT_VONG,
    KIND_NAMES,
    NO,
    SINGLE,
    beat_status,
    classify,
    cut_amount,
    follow_plays,
    lead_plays,
)
from games.engine.tienlen.instant import instant_win
from games.engine.tienlen.scoring import compute_result, scores_from, transfers_json
from games.engine.tienlen.state import TienLenState

__all__ = [
    "DEFAULT_CONFIG",
    "apply",
    "apply_mask",
    "apply_quiet",
    "can_pass",
    "check",
    "has_vong",
    "legal_actions",
    "legal_masks",
    "log_actions",
    "new_game",
    "parse_action",
    "replay",
    "result",
    "round_status",
    "timeout_action",
    "validate_config",
]

#: Table options and their defaults.
DEFAULT_CONFIG: dict[str, Any] = {
    "players": 4,
    "opening": True,
    "leader": None,
    "play_on_after_winner": False,
    "hide_hand_counts": False,
    "turn_seconds": 30,
    "games": 16,
}
_OPTIONAL_KEYS = ("hands", "started_at")


def validate_config(config: Mapping[str, Any]) -> dict[str, Any]:
    """Check table options and fill defaults; ``bad_config`` for anything not allowed.

    Keys: ``players`` (2–4), ``opening`` (bool: the 3♠ rule and the opening instant-win list),
    ``leader`` (seat leading a non-opening game), ``play_on_after_winner``,
    ``hide_hand_counts``, ``turn_seconds`` (>0), ``games`` (16 or 32, the session length),
    optional ``hands`` (a fixed deal: 13 distinct cards per seat) and ``started_at`` (unix time
    the first turn began).

    >>> validate_config({"players": 3})["turn_seconds"]
    30
    >>> validate_config({"players": 5})
    Traceback (most recent call last):
    ...
    games.engine.core.errors.ConfigError: bad_config: players must be an int from 2 to 4
    >>> validate_config({"opening": False})
    Traceback (most recent call last):
    ...
    games.engine.core.errors.ConfigError: bad_config: leader must be a seat when opening is false
    """
    if not isinstance(config, Mapping):
        raise ConfigError(detail="config must be an object")
    unknown = set(config) - set(DEFAULT_CONFIG) - set(_OPTIONAL_KEYS)
    if unknown:
        raise ConfigError(detail=f"unknown options: {', '.join(sorted(map(str, unknown)))}")
    cfg = dict(DEFAULT_CONFIG)
    cfg.update(config)
    players = cfg["players"]
    if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 4:
        raise ConfigError(detail="players must be an int from 2 to 4")
    for key in ("opening", "play_on_after_winner", "hide_hand_counts"):
        if not isinstance(cfg[key], bool):
            raise ConfigError(detail=f"{key} must be true or false")
    leader = cfg["leader"]
    if leader is not None and (
        not isinstance(leader, int) or isinstance(leader, bool) or not 0 <= leader < players
    ):
        raise ConfigError(detail="leader must be a seat number or null")
    if not cfg["opening"] and leader is None:
        raise ConfigError(detail="leader must be a seat when opening is false")
    if cfg["opening"]:
        cfg["leader"] = None
    ts = cfg["turn_seconds"]
    if not isinstance(ts, (int, float)) or isinstance(ts, bool) or not ts > 0:
        raise ConfigError(detail="turn_seconds must be a positive number")
    if cfg["games"] not in (16, 32) or isinstance(cfg["games"], bool):
        raise ConfigError(detail="games must be 16 or 32")
    started = cfg.get("started_at")
    if started is not None and (not isinstance(started, (int, float)) or isinstance(started, bool)):
        raise ConfigError(detail="started_at must be a unix time")
    if "hands" in cfg and cfg["hands"] is not None:
        cfg["hands"] = [mask_to_ids(m) for m in _parse_hands(cfg["hands"], players)]
    return cfg


def _parse_hands(hands: Any, players: int) -> list[int]:
    if not isinstance(hands, list) or len(hands) != players:
        raise ConfigError(detail=f"hands must list {players} hands")
    seen = 0
    masks = []
    for seat, hand in enumerate(hands):
        if not isinstance(hand, list):
            raise ConfigError(detail=f"hand {seat} must be a list of cards")
        try:
            mask = parse_cards(hand)
        except EngineError as exc:
            raise ConfigError(exc.code, f"hand {seat}: {exc.detail}") from exc
        if mask.bit_count() != 13:
            raise ConfigError(detail=f"hand {seat} must hold exactly 13 cards")
        if mask & seen:
            raise ConfigError("duplicate_card", f"hand {seat} repeats {mask_to_ids(mask & seen)}")
        seen |= mask
        masks.append(mask)
    return masks


def new_game(config: Mapping[str, Any], seed: int | str) -> TienLenState:
    """Deal a game (or take ``config["hands"]``), pick the leader, check instant wins.

    >>> s = new_game({"players": 2, "opening": True}, seed=1)
    >>> [h.bit_count() for h in s.hands], s.turn == s.game_leader
    ([13, 13], True)
    """
    cfg = validate_config(config)
    n = cfg["players"]
    rng = config_seed_state(seed)
    if cfg.get("hands") is not None:
        hands = _parse_hands(cfg["hands"], n)
    else:
        rng, deck = shuffle(rng, list(range(52)))
        hands = [sum(1 << c for c in deck[13 * s : 13 * s + 13]) for s in range(n)]
    required = 0
    if cfg["opening"]:
        dealt = 0
        for h in hands:
            dealt |= h
        required = dealt & -dealt  # 3♠ whenever it was dealt, else the lowest dealt card
        leader = next(s for s in range(n) if hands[s] & required)
    else:
        leader = int(cfg["leader"])
    st = TienLenState(
        config=cfg,
        seed=seed,
        rng=rng,
        dealt=list(hands),
        hands=list(hands),
        turn=leader,
        game_leader=leader,
        round_leader=leader,
        required=required,
        turn_started_at=cfg.get("started_at"),
    )
    for k in range(n):
        seat = (leader + k) % n
        name = instant_win(hands[seat], cfg["opening"])
        if name is not None:
            st.instant_win = name
            st.out = [seat]
            st.finished = True
            st.turn = -1
            st.required = 0
            break
    return st


# --- queries ------------------------------------------------------------------------------------


def has_vong(state: TienLenState, seat: int) -> bool:
    """Vòng: every player of the round except its leader may cut with 3 đôi thông / tứ quý.

    >>> s = new_game({"players": 2}, seed=1)
    >>> has_vong(s, s.round_leader)
    False
    """
    return seat != state.round_leader


def can_pass(state: TienLenState, seat: int) -> bool:
    """True when ``seat`` is to act and is not leading.

    >>> s = new_game({"players": 2}, seed=1)
    >>> can_pass(s, s.turn)
    False
    """
    return not state.finished and state.turn == seat and state.top != 0


def legal_masks(state: TienLenState, seat: int) -> list[int]:
    """Every legal play of ``seat`` as masks (empty when it is not their turn). Passing is
    legal besides exactly when :func:`can_pass`.

    >>> s = new_game({"players": 4, "opening": True}, seed=2)
    >>> all(m & 1 for m in legal_masks(s, s.turn))  # the opening play includes 3♠
    True
    """
    if state.finished or state.turn != seat:
        return []
    hand = state.hands[seat]
    if state.top == 0:
        return lead_plays(hand, state.required)
    return follow_plays(hand, state.top, state.top_kind, seat != state.round_leader)


def legal_actions(state: TienLenState, seat: int) -> list[Action]:
    """Every legal action of ``seat``: plays (sorted by type, length, strength), then pass.

    >>> s = new_game({"players": 3, "opening": False, "leader": 1}, seed=8)
    >>> legal_actions(s, 0)
    []
    >>> acts = legal_actions(s, 1)
    >>> acts[0]["type"], any(a["type"] == "pass" for a in acts)
    ('play', False)
    """
    masks = legal_masks(state, seat)
    masks.sort(key=sort_key)
    out: list[Action] = [{"type": "play", "seat": seat, "cards": mask_to_ids(m)} for m in masks]
    if can_pass(state, seat):
        out.append({"type": "pass", "seat": seat})
    return out


_TYPE_ORDER = {1: 0, 2: 1, 3: 2, 4: 3, 5: 4, 6: 5}


def sort_key(mask: int) -> tuple[int, int, int]:
    kind = classify(mask)
    return (_TYPE_ORDER[kind >> 12], (kind >> 6) & 63, kind & 63)


def round_status(state: TienLenState, now: float | None = None) -> RoundStatus:
    """Seed 004's round status: round index, pending seats, and the turn deadline.

    ``check_at`` is ``turn_started_at + turn_seconds`` when the turn start is known; at or after
    it the caller applies :func:`timeout_action`. The engine never reads a clock.

    >>> s = new_game({"players": 2, "started_at": 1000.0}, seed=1)
    >>> st = round_status(s, now=1000.0)
    >>> st.round_index, st.pending == (s.turn,), st.check_at
    (0, True, 1030.0)
    """
    if state.finished:
        return RoundStatus(state.round_index, (), None)
    check_at = None
    if state.turn_started_at is not None:
        check_at = float(state.turn_started_at) + float(state.config["turn_seconds"])
    return RoundStatus(state.round_index, (state.turn,), check_at)


def timeout_action(state: TienLenState, seat: int) -> Action:
    """The house policy for a timeout, a disconnect or a disqualified bot: pass; a leader plays
    the lowest single (the required card in an opening play, which is always the lowest).

    >>> s = new_game({"players": 4, "opening": True}, seed=2)
    >>> timeout_action(s, s.turn)["cards"]
    ['3S']
    """
    if state.finished:
        raise IllegalActionError("game_over", "the game has ended")
    if state.top != 0:
        return {"type": "pass", "seat": seat, "auto": True}
    hand = state.hands[seat]
    low = state.required if state.required & hand else hand & -hand
    return {"type": "play", "seat": seat, "cards": mask_to_ids(low), "auto": True}


def result(state: TienLenState) -> dict[str, Any] | None:
    """None while the game is on; then winner, ranking, cóng, instant win, đền bài payer,
    transfers, scores and every hand.

    >>> result(new_game({"players": 2}, seed=1)) is None
    True
    """
    if not state.finished:
        return None
    return compute_result(state)


def partial_transfers(state: TienLenState) -> tuple[list[dict[str, Any]], list[int]]:
    """The chặt settled so far and the scores they give (for an unfinished game).

    >>> partial_transfers(new_game({"players": 2}, seed=1))
    ([], [0, 0])
    """
    return transfers_json(list(state.settled)), scores_from(list(state.settled), state.players)


# --- validation -------------------------------------------------------------------------------


def parse_action(action: Mapping[str, Any]) -> tuple[int, int, bool, float | None]:
    """Read an action dict: ``(seat, mask or -1 for a pass, auto, at)``; ``bad_action`` if it is
    not one (card errors keep their own codes).

    Accepted shapes: ``{"type": "play", "seat": 0, "cards": [...]}``,
    ``{"type": "pass", "seat": 1}``; optional ``"auto": true`` and ``"at": <unix time>``.

    >>> parse_action({"type": "play", "seat": 0, "cards": ["3S", "4S", "5S"]})
    (0, 273, False, None)
    >>> parse_action({"type": "fold", "seat": 0})
    Traceback (most recent call last):
    ...
    games.engine.core.errors.IllegalActionError: bad_action: type must be 'play' or 'pass'
    """
    if not isinstance(action, Mapping):
        raise IllegalActionError("bad_action", "an action must be an object")
    seat = action.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise IllegalActionError("bad_action", "seat must be an int")
    at = action.get("at")
    if at is not None and (not isinstance(at, (int, float)) or isinstance(at, bool)):
        raise IllegalActionError("bad_action", "at must be a unix time")
    auto = bool(action.get("auto", False))
    kind = action.get("type")
    if kind == "pass":
        return seat, -1, auto, at
    if kind != "play":
        raise IllegalActionError("bad_action", "type must be 'play' or 'pass'")
    cards = action.get("cards")
    if not isinstance(cards, (list, tuple)):
        raise IllegalActionError("bad_action", "cards must be a list")
    return seat, parse_cards(cards), auto, at


def check(state: TienLenState, seat: int, mask: int) -> tuple[int, int]:
    """Validate a play (mask) or pass (-1) without applying it; return ``(kind, status)``.

    Raises the rulings' codes in this order: ``game_over``, ``bad_seat``, ``already_passed``,
    ``not_your_turn``, then ``leader_cannot_pass`` for a pass, or for a play
    ``invalid_combination`` (no cards), ``not_in_hand``, ``invalid_combination``,
    ``must_include_card``, ``does_not_beat`` / ``needs_vong``.

    >>> s = new_game({"players": 2, "opening": True}, seed=1)
    >>> check(s, s.turn, -1)
    Traceback (most recent call last):
    ...
    games.engine.core.errors.IllegalActionError: leader_cannot_pass: the leader of a round must play
    """
    if state.finished:
        raise IllegalActionError("game_over", "the game has ended")
    if not 0 <= seat < state.players:
        raise IllegalActionError("bad_seat", f"no seat {seat}")
    if (state.passed >> seat) & 1:
        raise IllegalActionError("already_passed", f"seat {seat} passed in this round")
    if state.turn != seat:
        raise IllegalActionError("not_your_turn", f"it is seat {state.turn}'s turn")
    if mask < 0:
        if state.top == 0:
            raise IllegalActionError("leader_cannot_pass", "the leader of a round must play")
        return 0, NO
    if mask == 0:
        raise IllegalActionError("invalid_combination", "a play needs at least one card")
    missing = mask & ~state.hands[seat]
    if missing:
        raise IllegalActionError("not_in_hand", f"not in hand: {' '.join(mask_to_ids(missing))}")
    kind = classify(mask)
    if not kind:
        raise IllegalActionError(
            "invalid_combination", f"{' '.join(mask_to_ids(mask))} is no combination"
        )
    if state.required and not mask & state.required:
        raise IllegalActionError(
            "must_include_card", f"the first play must include {mask_to_ids(state.required)[0]}"
        )
    if state.top == 0:
        return kind, BEAT
    status = beat_status(kind, state.top_kind)
    if status == NO:
        raise IllegalActionError(
            "does_not_beat",
            f"{KIND_NAMES[kind >> 12]} {' '.join(mask_to_ids(mask))} does not beat "
            f"{KIND_NAMES[state.top_kind >> 12]} {' '.join(mask_to_ids(state.top))}",
        )
    if status == CUT_VONG and seat == state.round_leader:
        raise IllegalActionError(
            "needs_vong", "the round's leader has no vòng to cut with 3 đôi thông or tứ quý"
        )
    return kind, status


# --- applying ---------------------------------------------------------------------------------


def apply(state: TienLenState, action: Mapping[str, Any]) -> tuple[TienLenState, list[Event]]:
    """Apply an action; return the new state and its events (public ones have ``to=None``).

    >>> s = new_game({"players": 4, "opening": True}, seed=1)
    >>> s2, events = apply(s, {"type": "play", "seat": s.turn, "cards": ["3S"]})
    >>> [e.type for e in events]
    ['cards_played', 'hand', 'turn']
    >>> try:
    ...     apply(s2, {"type": "play", "seat": s.turn, "cards": ["4S"]})
    ... except IllegalActionError as err:
    ...     print(err.code)
    not_your_turn
    """
    if state.finished:
        raise IllegalActionError("game_over", "the game has ended")
    seat, mask, auto, at = parse_action(action)
    events: list[Event] = []
    return _apply(state, seat, mask, auto, at, events), events


def apply_quiet(state: TienLenState, action: Mapping[str, Any]) -> TienLenState:
    """:func:`apply` without building events: the same checks, codes and new state (the
    conformance runner's path, whose reports read the state alone).

    >>> s = new_game({"players": 4, "opening": True}, seed=1)
    >>> apply_quiet(s, {"type": "play", "seat": s.turn, "cards": ["3S"]}) == apply(s, {
    ...     "type": "play", "seat": s.turn, "cards": ["3S"]})[0]
    True
    """
    if state.finished:
        raise IllegalActionError("game_over", "the game has ended")
    seat, mask, auto, at = parse_action(action)
    return _apply(state, seat, mask, auto, at, None)


def apply_mask(state: TienLenState, seat: int, mask: int, at: float | None = None) -> TienLenState:
    """The fast path: validate and apply a play (mask) or pass (-1) without building events.

    >>> s = new_game({"players": 4, "opening": True}, seed=1)
    >>> apply_mask(s, s.turn, 1).top
    1
    """
    return _apply(state, seat, mask, False, at, None)


def _apply(
    state: TienLenState,
    seat: int,
    mask: int,
    auto: bool,
    at: float | None,
    events: list[Event] | None,
) -> TienLenState:
    kind, status = check(state, seat, mask)
    st = state.copy()
    st.log.append((seat, mask, auto, at))
    st.turn_started_at = at
    if mask < 0:
        _do_pass(st, seat, auto, events)
    else:
        _do_play(st, seat, mask, kind, status, events)
    if events is not None and not st.finished:
        events.append(
            Event(
                "turn",
                {
                    "seat": st.turn,
                    "round": st.round_index,
                    "leading": st.top == 0,
                    "at": at,
                    "deadline": round_status(st).check_at,
                },
            )
        )
    return st


def _do_pass(st: TienLenState, seat: int, auto: bool, events: list[Event] | None) -> None:
    if (
        not (st.played >> seat) & 1
        and not st.out
        and seat not in st.den_bai
        and follow_plays(st.hands[seat], st.top, st.top_kind, seat != st.round_leader)
    ):
        st.den_bai.append(seat)
    st.passed |= 1 << seat
    if events is not None:
        events.append(Event("passed", {"seat": seat, "auto": auto}))
    _advance(st, seat, events)


def _do_play(
    st: TienLenState,
    seat: int,
    mask: int,
    kind: int,
    status: int,
    events: list[Event] | None,
) -> None:
    was_debtor = seat == st.chain_debtor
    if events is not None:
        events.append(
            Event(
                "cards_played",
                {
                    "seat": seat,
                    "cards": mask_to_ids(mask),
                    "combo": KIND_NAMES[kind >> 12],
                    "cut": status in (CUT, CUT_VONG),
                    "round": st.round_index,
                },
            )
        )
    if status in (CUT, CUT_VONG):
        amount = cut_amount(st.top, st.top_kind, st.twos_run)
        victim = st.top_seat
        st.chain_points += amount
        st.chain_debtor = victim
        st.chain_payee = seat
        if events is not None:
            events.append(
                Event(
                    "cut",
                    {
                        "seat": seat,
                        "victim": victim,
                        "points": amount,
                        "chain_points": st.chain_points,
                    },
                )
            )
    if kind >> 12 == SINGLE and kind & 63 >= 48:
        prev = st.twos_run if st.top_kind >> 12 == SINGLE and st.top_kind & 63 >= 48 else 0
        st.twos_run = prev + heo_value(kind & 63)
    else:
        st.twos_run = 0
    hand = st.hands[seat] ^ mask
    st.hands[seat] = hand
    st.played |= 1 << seat
    st.required = 0
    st.top = mask
    st.top_kind = kind
    st.top_seat = seat
    if events is not None:
        events.append(Event("hand", {"cards": mask_to_ids(hand)}, to=seat))
    if hand == 0:
        _go_out(st, seat, was_debtor, events)
        if st.finished:
            return
    _advance(st, seat, events)


def _go_out(st: TienLenState, seat: int, was_debtor: bool, events: list[Event] | None) -> None:
    n = st.players
    if was_debtor and st.chain_debtor >= 0:
        if events is not None:
            events.append(Event("chain_void", {"seat": seat, "points": st.chain_points}))
        _clear_chain(st)
    first = not st.out
    st.out.append(seat)
    st.inactive |= 1 << seat
    if events is not None:
        events.append(Event("player_out", {"seat": seat, "place": len(st.out)}))
    if first:
        st.counts_at_win = [h.bit_count() for h in st.hands]
    if not st.config["play_on_after_winner"]:
        _finish(st, events)
        return
    if first:
        for s in range(n):
            if s != seat and not (st.played >> s) & 1:
                st.frozen |= 1 << s
                st.inactive |= 1 << s
    active = [s for s in range(n) if not (st.inactive >> s) & 1]
    if len(active) <= 1:
        _finish(st, events)


def _finish(st: TienLenState, events: list[Event] | None) -> None:
    _settle_chain(st)
    st.finished = True
    st.turn = -1
    if events is not None:
        events.append(Event("game_ended", compute_result(st)))


def _clear_chain(st: TienLenState) -> None:
    st.chain_points = 0
    st.chain_debtor = -1
    st.chain_payee = -1


def _settle_chain(st: TienLenState) -> tuple[int, int, int, str] | None:
    if st.chain_debtor < 0 or st.chain_points <= 0:
        _clear_chain(st)
        return None
    transfer = (st.chain_debtor, st.chain_payee, st.chain_points, "chat")
    st.settled.append(transfer)
    _clear_chain(st)
    return transfer


def _advance(st: TienLenState, seat: int, events: list[Event] | None) -> None:
    n = st.players
    skip = st.passed | st.inactive
    i = seat
    for _ in range(n):
        i = (i + 1) % n
        if i == st.top_seat:
            break
        if not (skip >> i) & 1:
            st.turn = i
            return
    _end_round(st, events)


def _end_round(st: TienLenState, events: list[Event] | None) -> None:
    n = st.players
    winner = st.top_seat
    leader = winner
    while (st.inactive >> leader) & 1:  # hưởng sái: the next active seat leads
        leader = (leader + 1) % n
    transfer = _settle_chain(st)
    if events is not None:
        events.append(
            Event(
                "round_ended",
                {
                    "round": st.round_index,
                    "winner": winner,
                    "leader": leader,
                    "huong_sai": leader != winner,
                    "transfers": transfers_json([transfer]) if transfer else [],
                },
            )
        )
    st.top = 0
    st.top_kind = 0
    st.top_seat = -1
    st.passed = 0
    st.twos_run = 0
    st.round_index += 1
    st.round_leader = leader
    st.turn = leader
    st.round_start.append(len(st.log))


def replay(
    config: Mapping[str, Any], seed: int | str, actions: Sequence[Mapping[str, Any]]
) -> TienLenState:
    """Rebuild a game from its seed and accepted actions (any illegal action raises).

    >>> s = new_game({"players": 2}, seed=4)
    >>> s2, _ = apply(s, legal_actions(s, s.turn)[0])
    >>> replay({"players": 2}, 4, log_actions(s2)) == s2
    True
    """
    state = new_game(config, seed)
    for action in actions:
        seat, mask, auto, at = parse_action(action)
        state = _apply(state, seat, mask, auto, at, None)
    return state


def log_actions(state: TienLenState) -> list[Action]:
    """The accepted actions of a game as action dicts (what :func:`replay` takes).

    >>> log_actions(new_game({"players": 2}, seed=4))
    []
    """
    out: list[Action] = []
    for seat, mask, auto, at in state.log:
        action: Action = (
            {"type": "pass", "seat": seat}
            if mask < 0
            else {"type": "play", "seat": seat, "cards": mask_to_ids(mask)}
        )
        if auto:
            action["auto"] = True
        if at is not None:
            action["at"] = at
        out.append(action)
    return out


def played_cards(state: TienLenState) -> int:
    """Mask of every card played so far in the game (public information).

    >>> played_cards(new_game({"players": 2}, seed=4))
    0
    """
    total = 0
    for dealt, hand in zip(state.dealt, state.hands, strict=True):
        total |= dealt & ~hand
    return total


def round_plays(state: TienLenState, round_index: int | None = None) -> list[dict[str, Any]]:
    """The actions of a round (default: the current one) as public entries.

    >>> round_plays(new_game({"players": 2}, seed=4))
    []
    """
    r = state.round_index if round_index is None else round_index
    if not 0 <= r < len(state.round_start):
        return []
    start = state.round_start[r]
    end = state.round_start[r + 1] if r + 1 < len(state.round_start) else len(state.log)
    out: list[dict[str, Any]] = []
    for seat, mask, auto, _ in state.log[start:end]:
        if mask < 0:
            out.append({"seat": seat, "pass": True, "auto": auto})
        else:
            kind = classify(mask)
            out.append(
                {
                    "seat": seat,
                    "cards": mask_to_ids(mask),
                    "combo": KIND_NAMES[kind >> 12],
                    "auto": auto,
                }
            )
    return out
