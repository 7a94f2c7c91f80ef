"""Suijiang Diu's play: the deal, applying an action, the polling state machine (draws,
claims, re-polls for 丢, offers), prefetch batches, and replays.

>>> s = new_game({"roles": {"A": 0, "B": 1, "C": 2, "D": 3}, "stock": [],
...               "hands": {"A": ["66"], "B": ["11"], "C": ["12"]}}, 0)
>>> s.phase, s.turn
('discard', 0)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.engine.core.protocol import Action, Event
from games.engine.core.rng import config_seed_state, shuffle
from games.engine.diu.cards import WILD, build_deck, shuffle_deck, sort_cards
from games.engine.diu.claims import call_options, can_diu, diu_open, next_active, prompt
from games.engine.diu.commit import nonce, stock_commitments
from games.engine.diu.config import RANK, ROLES, validate_config
from games.engine.diu.queries import round_status
from games.engine.diu.scoring import result
from games.engine.diu.state import DiuState
from games.engine.diu.validation import check

__all__ = ["apply", "batch_event", "log_actions", "new_game", "replay"]


def new_game(config: Mapping[str, Any], seed: int | str) -> DiuState:
    """Assign roles, shuffle (Fisher–Yates then the seed's riffles), deal A 18, B 17, C 17;
    A is prompted to lead a discard.

    >>> s = new_game({}, seed=2)
    >>> [len(s.hands[s.roles[r]]) for r in "ABCD"], len(s.stock), s.phase, s.turn == s.roles["A"]
    ([18, 17, 17, 0], 36, 'discard', True)
    """
    cfg = validate_config(config)
    rng = config_seed_state(seed)
    roles = cfg["roles"]
    if roles is None:
        rng, perm = shuffle(rng, [0, 1, 2, 3])
        roles = dict(zip(ROLES, perm, strict=True))
    hands: list[list[str]] = [[], [], [], []]
    if cfg.get("hands") is not None:
        for role in ("A", "B", "C"):
            hands[roles[role]] = list(cfg["hands"][role])
        stock = list(cfg["stock"])
    else:
        deck = build_deck(int(cfg["copies_per_kind"]), int(cfg["wild_count"]))
        rng, deck = shuffle_deck(rng, deck, cfg["shuffle_mode"], int(cfg["riffle_count"]))
        lead, other = int(cfg["hand_size_lead"]), int(cfg["hand_size_other"])
        hands[roles["A"]] = sort_cards(deck[:lead])
        hands[roles["B"]] = sort_cards(deck[lead : lead + other])
        hands[roles["C"]] = sort_cards(deck[lead + other : lead + 2 * other])
        stock = deck[lead + 2 * other :]
    st = DiuState(
        config=cfg,
        seed=seed,
        rng=rng,
        roles=dict(roles),
        dealt=[list(h) for h in hands],
        hands=hands,
        stock=stock,
        phase="discard",
        turn=roles["A"],
        turn_started_at=cfg.get("started_at"),
    )
    _refill(st, None)
    return st


def apply(state: DiuState, action: Mapping[str, Any]) -> tuple[DiuState, list[Event]]:
    """Apply an action; return the new state and its events (public ones have ``to=None``).

    >>> s = new_game({"roles": {"A": 0, "B": 1, "C": 2, "D": 3}, "stock": ["55"],
    ...               "hands": {"A": ["66", "13"], "B": ["11"], "C": ["12", "55"]}}, 0)
    >>> s2, events = apply(s, {"type": "discard", "seat": 0, "card": "13"})
    >>> [e.type for e in events][:6]
    ['discarded', 'passed', 'passed', 'no_claim', 'card_open', 'passed']
    >>> s2.turn, s2.phase, s2.discards[0], events[-1].to
    (2, 'call', ['13'], 2)
    """
    act = check(state, action)
    events: list[Event] = []
    return _apply(state, act, events), events


def _apply(state: DiuState, act: Action, events: list[Event] | None) -> DiuState:
    st = state.copy()
    st.log.append(dict(act))
    st.turn_started_at = act.get("at")
    seat, kind, auto = act["seat"], act["type"], bool(act.get("auto"))
    stage = st.phase
    if kind == "discard":
        _discard(st, seat, act["card"], auto, events)
    elif kind == "pass":
        st.answers.append({"seat": seat, "answer": "pass", "stage": stage, "auto": auto})
        _emit(events, "passed", {"seat": seat, "stage": stage, "auto": auto})
        if stage == "call":
            st.index += 1
        else:
            st.repoll_index += 1
    elif kind == "claim":
        claim = act["claim"]
        st.claims.append({"seat": seat, "type": claim, "cards": act["cards"], "index": st.index})
        st.answers.append({"seat": seat, "answer": claim, "stage": stage, "auto": auto})
        st.bar = RANK[claim]
        st.index += 1
        _emit(events, "claim_made", {"seat": seat, "type": claim})
    elif kind == "diu":
        _win(st, seat, act["cards"], events)
    elif kind == "accept":
        _accept(st, seat, events)
    else:  # decline
        st.answers.append({"seat": seat, "answer": "decline", "stage": stage, "auto": auto})
        _emit(events, "declined", {"seat": seat, "auto": auto})
        if st.config["decline_policy"] == "normal_flow":
            st.phase = "no_claim"
        else:
            st.offer_index += 1
    _run(st, events)
    if events is not None and not st.finished:
        status = round_status(st)
        p = prompt(st)
        assert p is not None
        _emit(
            events,
            "turn",
            {
                "seat": st.turn,
                "kind": st.phase,
                "round": st.round_index,
                "deadline": status.check_at,
            },
        )
        events.append(Event("prompt", {**p, "deadline": status.check_at}, to=st.turn))
    return st


def _emit(events: list[Event] | None, kind: str, data: dict[str, Any]) -> None:
    if events is not None:
        events.append(Event(kind, data))


def _discard(st: DiuState, seat: int, card: str, auto: bool, events: list[Event] | None) -> None:
    st.hands[seat].remove(card)
    _emit(events, "discarded", {"seat": seat, "card": card, "auto": auto})
    st.round_index += 1
    if card == WILD:
        # [added ruling] the card under decision is always natural (§6): a 听用, discarded only
        # from a hand holding nothing else, is not put up for claims; the 下家 draws
        _open_poll(st, card, "discard", seat, [])
        st.phase = "no_claim"
        return
    tnb = next_active(st, seat)
    _open_poll(st, card, "discard", seat, [tnb, next_active(st, tnb)])


def _open_poll(st: DiuState, card: str, source: str, seat: int, order: list[int]) -> None:
    st.card = card
    st.source = source
    st.source_seat = seat
    st.order = order
    st.index = 0
    st.bar = 0
    st.claims = []
    st.answers = []
    st.repoll = []
    st.repoll_index = 0
    st.offers = []
    st.offer_index = 0
    st.phase = "call"


def _accept(st: DiuState, seat: int, events: list[Event] | None) -> None:
    claim = st.claims[st.offers[st.offer_index]]
    card = st.card
    assert card is not None
    for c in claim["cards"]:
        st.hands[seat].remove(c)
    meld = {
        "type": claim["type"],
        "cards": [card, *claim["cards"]],
        "from": st.source_seat,
        "source": st.source,
    }
    st.melds[seat].append(meld)
    st.answers.append({"seat": seat, "answer": "accept", "stage": "offer", "auto": False})
    _emit(events, "meld", {"seat": seat, **meld})
    st.card = None
    st.phase = "discard"
    st.turn = seat


def _win(st: DiuState, seat: int, cards: list[str], events: list[Event] | None) -> None:
    card = st.card
    assert card is not None
    for c in cards:
        st.hands[seat].remove(c)
    st.diu_cards = [card, *cards]
    st.card = None
    st.answers.append({"seat": seat, "answer": "diu", "stage": st.phase, "auto": False})
    _emit(events, "diu", {"seat": seat, "cards": list(st.diu_cards)})
    _finish(st, "win", seat, events)


def _finish(st: DiuState, outcome: str, winner: int | None, events: list[Event] | None) -> None:
    st.outcome = outcome
    st.winner = winner
    st.finished = True
    st.phase = "over"
    st.turn = -1
    if events is not None:
        res = result(st)
        assert res is not None
        events.append(Event("game_ended", res))


def batch_event(state: DiuState, first: int) -> dict[str, Any]:
    """The public ``stock_batch`` event of the batch starting at stock card ``first`` and ending
    at ``state.delivered``: counts and the batch's commitments, never a card or a nonce.

    >>> s = new_game({}, seed=3)
    >>> e = batch_event(s, 0)
    >>> e["count"], e["delivered"], e["first"], len(e["commitments"]), len(e["commitments"][0])
    (10, 10, 0, 10, 64)
    """
    return {
        "count": state.delivered - first,
        "delivered": state.delivered,
        "first": first,
        "commitments": stock_commitments(state, first, state.delivered),
    }


def _refill(st: DiuState, events: list[Event] | None) -> None:
    """Prefetch: push the next batch (as commitments) when a client's buffer runs low (§5.3)."""
    total = st.drawn + len(st.stock)
    batch = int(st.config["prefetch_batch"])
    at = int(st.config["prefetch_refill_at"])
    inclusive = st.config["prefetch_refill_inclusive"]
    while st.delivered < total:
        buffer = st.delivered - st.drawn
        # below the threshold, and always before the buffer runs dry: a card's commitment is
        # pushed before it can be drawn
        if buffer > 0 and not (buffer <= at if inclusive else buffer < at):
            break
        count = min(batch, total - st.delivered)
        first = st.delivered
        st.delivered += count
        if events is not None:
            events.append(Event("stock_batch", batch_event(st, first)))


def _run(st: DiuState, events: list[Event] | None) -> None:
    """Advance through the automatic states until someone is prompted or the game is over."""
    auto_pass = st.config["auto_pass_no_option"]
    while True:
        if st.phase in ("discard", "over"):
            return
        if st.phase == "call":
            if st.index < len(st.order):
                seat = st.order[st.index]
                if auto_pass and call_options(st, seat) == ["pass"]:
                    st.answers.append(
                        {"seat": seat, "answer": "pass", "stage": "call", "auto": True}
                    )
                    _emit(events, "passed", {"seat": seat, "stage": "call", "auto": True})
                    st.index += 1
                    continue
                st.turn = seat
                return
            _end_poll(st)
            continue
        if st.phase == "diu":
            if st.repoll_index < len(st.repoll):
                # every re-polled seat is asked, even one holding no 丢: auto-pass is the main
                # poll's alone (§7.3), and skipping would tell the table that it cannot 丢
                st.turn = st.repoll[st.repoll_index]
                return
            st.offers = sorted(
                range(len(st.claims)), key=lambda i: (-RANK[st.claims[i]["type"]], i)
            )
            st.offer_index = 0
            st.phase = "offer"
            continue
        if st.phase == "offer":
            if st.offer_index < len(st.offers):
                claim = st.claims[st.offers[st.offer_index]]
                st.turn = claim["seat"]
                _emit(events, "offered", {"seat": claim["seat"], "type": claim["type"]})
                return
            st.phase = "no_claim"
            continue
        if st.phase == "no_claim":
            card = st.card
            assert card is not None
            if st.source == "discard":
                st.discards[st.source_seat].append(card)
            else:
                st.dead.append(card)
            _emit(events, "no_claim", {"card": card, "seat": st.source_seat, "source": st.source})
            st.card = None
            st.turn = next_active(st, st.source_seat)
            st.phase = "draw"
            continue
        # draw
        seat = st.turn
        if not st.stock:
            _finish(st, "exhausted", None, events)
            return
        card = st.stock.pop(0)
        index = st.drawn
        st.drawn += 1
        st.round_index += 1
        # a drawn card is flipped face up for everyone: its id and key are public from here on
        _emit(
            events,
            "card_open",
            {
                "seat": seat,
                "card": card,
                "source": "stock",
                "index": index,
                "nonce": nonce(st.seed, index),
            },
        )
        _refill(st, events)
        if card == WILD:
            st.hands[seat] = sort_cards([*st.hands[seat], card])
            st.phase = "discard"
            return
        tnb = next_active(st, seat)
        _open_poll(st, card, "stock", seat, [seat, tnb, next_active(st, tnb)])


def _end_poll(st: DiuState) -> None:
    if not st.claims:
        st.phase = "no_claim"
        return
    top = st.claims[-1]
    repoll: list[int] = []
    if diu_open(st):
        made = {c["seat"]: c["type"] for c in st.claims}
        for seat in st.order[: top["index"]]:
            orig = made.get(seat, "pass")
            if orig in ("chi", "kuai"):
                continue
            if orig == "pass" and not st.config["repoll_includes_passers"]:
                continue
            if st.config["repoll_only_if_diu_possible"] and not can_diu(st, seat):
                continue
            repoll.append(seat)
    st.repoll = repoll
    st.repoll_index = 0
    st.phase = "diu"


def replay(
    config: Mapping[str, Any], seed: int | str, actions: Sequence[Mapping[str, Any]]
) -> DiuState:
    """Rebuild a hand from its seed and accepted actions (an illegal action raises).

    >>> from games.engine.diu.rules import timeout_action
    >>> s = new_game({}, seed=4)
    >>> s2, _ = apply(s, timeout_action(s, s.turn))
    >>> replay({}, 4, log_actions(s2)) == s2
    True
    """
    state = new_game(config, seed)
    for action in actions:
        state = _apply(state, check(state, action), None)
    return state


def log_actions(state: DiuState) -> list[Action]:
    """The accepted actions of a hand (what :func:`replay` takes).

    >>> log_actions(new_game({}, seed=4))
    []
    """
    return [dict(a) for a in state.log]
