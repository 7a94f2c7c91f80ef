"""The Diu game state: plain JSON-able data, copied on every action.

Hands, the stock and the piles are lists of card ids (see :mod:`games.engine.diu.cards`); seats
are 0..3 and ``roles`` maps ``A B C D`` to seats. ``phase`` is the state machine's state (rules
§11): ``discard`` (LEAD_DISCARD / PLAY_DISCARD), ``call`` (CLAIM_POLL), ``diu`` (REPOLL_DIU),
``offer`` (OFFER) or ``over`` (GAME_OVER); DRAW, NO_CLAIM and MELD happen inside an action.

>>> from games.engine.diu import GAME
>>> s = GAME.new_game({}, seed=5)
>>> state_from_json(state_to_json(s)) == s
True
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from games.engine.core.state import read_state, state_header

__all__ = ["RULES_VERSION", "DiuState", "state_from_json", "state_to_json"]

RULES_VERSION = "diu-1"


@dataclass(slots=True)
class DiuState:
    """Everything about one hand of Diu. ``-1`` means "nobody".

    ``claims`` are ``{"seat", "type", "cards", "index"}`` (index: position in the poll order);
    ``answers`` are the public answers of the current card's poll, re-poll and offers;
    ``offers`` lists indices into ``claims`` in offer order. ``delivered`` counts the stock
    cards pushed to clients in prefetch batches (as counts only, never as card ids).

    >>> DiuState(config={}, seed=0, rng=0, roles={"A": 0, "B": 1, "C": 2, "D": 3}).turn
    -1
    """

    config: dict[str, Any]
    seed: int | str
    rng: int
    roles: dict[str, int]
    dealt: list[list[str]] = field(default_factory=lambda: [[], [], [], []])
    hands: list[list[str]] = field(default_factory=lambda: [[], [], [], []])
    stock: list[str] = field(default_factory=list)
    melds: list[list[dict[str, Any]]] = field(default_factory=lambda: [[], [], [], []])
    discards: list[list[str]] = field(default_factory=lambda: [[], [], [], []])
    dead: list[str] = field(default_factory=list)
    phase: str = "discard"
    turn: int = -1
    card: str | None = None
    source: str | None = None
    source_seat: int = -1
    order: list[int] = field(default_factory=list)
    index: int = 0
    bar: int = 0
    claims: list[dict[str, Any]] = field(default_factory=list)
    answers: list[dict[str, Any]] = field(default_factory=list)
    repoll: list[int] = field(default_factory=list)
    repoll_index: int = 0
    offers: list[int] = field(default_factory=list)
    offer_index: int = 0
    drawn: int = 0
    delivered: int = 0
    round_index: int = 0
    outcome: str | None = None
    winner: int | None = None
    diu_cards: list[str] = field(default_factory=list)
    finished: bool = False
    log: list[dict[str, Any]] = field(default_factory=list)
    turn_started_at: float | None = None

    def copy(self) -> DiuState:
        """A deep copy: changing it never touches this state.

        >>> s = DiuState(config={}, seed=0, rng=0, roles={"A": 0, "B": 1, "C": 2, "D": 3})
        >>> c = s.copy(); c.hands[0].append("66"); s.hands[0]
        []
        """
        return DiuState(**_copied({f.name: getattr(self, f.name) for f in fields(self)}))

    def seat_role(self, seat: int) -> str | None:
        """The role letter of a seat.

        >>> DiuState(config={}, seed=0, rng=0, roles={"A": 2, "B": 0, "C": 3, "D": 1}).seat_role(1)
        'D'
        """
        for role, s in self.roles.items():
            if s == seat:
                return role
        return None


def _copied(values: Mapping[str, Any]) -> dict[str, Any]:
    """Copies of the fields that actions change. Entries of ``log``, ``claims``, ``answers``
    and melds are never changed once made, and the config never is, so they are shared."""
    out = dict(values)
    for name in ("dealt", "hands", "discards"):
        out[name] = [list(x) for x in values[name]]
    out["melds"] = [list(ms) for ms in values["melds"]]
    for name in ("stock", "dead", "order", "claims", "answers", "repoll", "offers", "diu_cards"):
        out[name] = list(values[name])
    out["log"] = list(values["log"])
    out["roles"] = dict(values["roles"])
    return out


def state_to_json(state: DiuState) -> dict[str, Any]:
    """A JSON-able dict of the whole state.

    >>> from games.engine.diu import GAME
    >>> d = state_to_json(GAME.new_game({}, seed=1))
    >>> d["game"], d["rules_version"], len(d["hands"][d["roles"]["A"]])
    ('diu', 'diu-1', 18)
    """
    out = state_header("diu", RULES_VERSION)
    data = {f.name: getattr(state, f.name) for f in fields(state)}
    out.update(json.loads(json.dumps(data)))
    return out


def state_from_json(obj: Mapping[str, Any]) -> DiuState:
    """Rebuild a state from :func:`state_to_json` output; ``bad_state`` if it is not one.

    >>> state_from_json({"game": "tienlen"})
    Traceback (most recent call last):
    ...
    games.engine.core.errors.EngineError: bad_state: not a diu state
    """
    return read_state(obj, "diu", RULES_VERSION, _build)


def _build(obj: Mapping[str, Any]) -> DiuState:
    kwargs = json.loads(json.dumps({f.name: obj[f.name] for f in fields(DiuState)}))
    state = DiuState(**kwargs)
    if len(state.hands) != 4 or sorted(state.roles.values()) != [0, 1, 2, 3]:
        raise ValueError("a diu state has 4 seats and the roles A B C D")
    return state
