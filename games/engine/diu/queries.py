"""Suijiang Diu's queries on a hand in play: legal actions, deadlines and the timeout policy
(托管, rules §9).

>>> from games.engine.diu.rules import new_game
>>> s = new_game({}, seed=3)
>>> [a["type"] for a in legal_actions(s, s.turn)][:1]
['discard']
"""

from __future__ import annotations

from games.engine.core.errors import IllegalActionError
from games.engine.core.protocol import Action, RoundStatus
from games.engine.diu.claims import claim_choices, discard_options, diu_choices, prompt
from games.engine.diu.config import CLAIM_TYPES, KIND_SECONDS
from games.engine.diu.state import DiuState

__all__ = ["auto_discard", "legal_actions", "round_status", "timeout_action"]


def legal_actions(state: DiuState, seat: int) -> list[Action]:
    """Every legal action of ``seat`` (empty unless it is prompted), cards spelled out.

    >>> from games.engine.diu.rules import new_game
    >>> s = new_game({"roles": {"A": 0, "B": 1, "C": 2, "D": 3},
    ...               "hands": {"A": ["55", "55"], "B": ["11"], "C": ["12"]}}, 0)
    >>> legal_actions(s, 0), legal_actions(s, 3)
    ([{'type': 'discard', 'seat': 0, 'card': '55'}], [])
    """
    p = prompt(state)
    if p is None or p["seat"] != seat:
        return []
    kind = p["kind"]
    if kind == "discard":
        return [{"type": "discard", "seat": seat, "card": c} for c in p["options"]]
    if kind == "offer":
        return [{"type": "accept", "seat": seat}, {"type": "decline", "seat": seat}]
    out: list[Action] = [{"type": "pass", "seat": seat}]
    if kind == "call":
        for claim in p["options"]:
            if claim in CLAIM_TYPES:
                out += [
                    {"type": "claim", "seat": seat, "claim": claim, "cards": cards}
                    for cards in claim_choices(state, seat, claim)
                ]
    if "diu" in p["options"]:
        out += [{"type": "diu", "seat": seat, "cards": c} for c in diu_choices(state, seat)]
    return out


def round_status(state: DiuState, now: float | None = None) -> RoundStatus:
    """Round index (one per card put up), the prompted seat, and its deadline (15 s for a
    call, re-poll or offer, 20 s for a discard, from the prompt's start).

    >>> from games.engine.diu.rules import new_game
    >>> s = new_game({"started_at": 100.0}, seed=1)
    >>> st = round_status(s)
    >>> st.round_index, st.pending == (s.roles["A"],), st.check_at
    (0, True, 120.0)
    """
    if state.finished:
        return RoundStatus(state.round_index, (), None)
    check_at = None
    if state.turn_started_at is not None:
        seconds = state.config[KIND_SECONDS[state.phase]]
        check_at = float(state.turn_started_at) + float(seconds)
    return RoundStatus(state.round_index, (state.turn,), check_at)


def auto_discard(state: DiuState, seat: int) -> str:
    """The timeout discard (rules §9): the highest natural card in canonical order (a 听用
    only when nothing else is held).

    >>> from games.engine.diu.rules import new_game
    >>> s = new_game({"roles": {"A": 0, "B": 1, "C": 2, "D": 3},
    ...               "hands": {"A": ["W", "13", "56", "22"], "B": ["11"], "C": ["12"]}}, 0)
    >>> auto_discard(s, 0)
    '56'
    """
    return discard_options(state.hands[seat])[-1]


def timeout_action(state: DiuState, seat: int) -> Action:
    """The policy for a timeout or a disconnect (托管, rules §9): pass a call or a re-poll,
    decline an offer, auto-discard. Marked ``auto``.

    >>> from games.engine.diu.rules import new_game
    >>> s = new_game({}, seed=3)
    >>> timeout_action(s, s.turn)["type"]
    'discard'
    """
    if state.finished:
        raise IllegalActionError("game_over", "the game has ended")
    if seat != state.turn:
        raise IllegalActionError("not_your_turn", f"seat {state.turn} is prompted")
    if state.phase == "discard":
        return {"type": "discard", "seat": seat, "card": auto_discard(state, seat), "auto": True}
    if state.phase == "offer":
        return {"type": "decline", "seat": seat, "auto": True}
    return {"type": "pass", "seat": seat, "auto": True}
