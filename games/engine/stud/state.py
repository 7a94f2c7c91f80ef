"""The stud hand state: plain data, copied on every action, round-tripping through JSON.

Cards are ints (see :mod:`games.engine.stud.cards`). ``cards[seat]`` holds the seven cards a
seat will receive, fixed at the deal from the seeded shuffle; ``dealt[seat]`` says how many of
them were dealt so far. Callers outside the engine treat the state as opaque and store it with
``GAME.state_to_json`` / ``GAME.state_from_json``.

>>> from games.engine.stud import GAME
>>> s = GAME.new_game({"players": 3}, seed=5)
>>> state_from_json(state_to_json(s)) == s
True
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from games.engine.core.state import read_state, state_header
from games.engine.stud.cards import cards_to_ids, ids_to_cards

__all__ = ["RULES_VERSION", "LogEntry", "StudState", "state_from_json", "state_to_json"]

RULES_VERSION = "stud-1"

#: One accepted action: (seat, action name, auto, at).
LogEntry = tuple[int, str, bool, float | None]


@dataclass(slots=True)
class StudState:
    """Everything about one hand. Seats are 0..players-1; ``-1`` means "nobody".

    ``active``: dealt into the hand (had chips). ``contrib``: chips put in this hand, antes
    included. ``round_bets``: chips bet on the current street. ``current_bet``: the highest
    street bet. ``full_level``: the street bet level of the last full bet or raise (0: none).
    ``bet_size``: the street's bet unit. ``bets_made``: full bets and raises on the street
    (the bet or completion counts as one; the cap is four). ``acted``: acted since the last
    full bet or raise (a seat that has acted may not raise again until reopened).
    """

    config: dict[str, Any]
    seed: int | str
    rng: int
    cards: list[list[int]]
    stacks: list[int]
    start_stacks: list[int]
    active: list[bool]
    folded: list[bool]
    dealt: list[int]
    contrib: list[int]
    round_bets: list[int]
    acted: list[bool]
    street: int = 3
    turn: int = -1
    bring_in_seat: int = -1
    current_bet: int = 0
    full_level: int = 0
    bet_size: int = 0
    bets_made: int = 0
    finished: bool = False
    showdown: bool = False
    log: list[LogEntry] = field(default_factory=list)
    street_start: list[int] = field(default_factory=lambda: [0])
    streets: list[dict[str, Any]] = field(default_factory=list)
    awards: list[dict[str, Any]] = field(default_factory=list)
    turn_started_at: float | None = None

    @property
    def players(self) -> int:
        """Number of seats.

        >>> from games.engine.stud import GAME
        >>> GAME.new_game({"players": 4}, 1).players
        4
        """
        return int(self.config["players"])

    def copy(self) -> StudState:
        """A copy whose lists can be changed without touching this state.

        >>> from games.engine.stud import GAME
        >>> s = GAME.new_game({"players": 2}, 1)
        >>> c = s.copy(); c.stacks[0] = -5; s.stacks[0] != -5
        True
        """
        out = copy.copy(self)
        for name in (*_INT_LISTS, *_BOOL_LISTS, "log", "street_start", "streets", "awards"):
            setattr(out, name, list(getattr(self, name)))
        return out


_INT_LISTS = ("stacks", "start_stacks", "dealt", "contrib", "round_bets")
_BOOL_LISTS = ("active", "folded", "acted")


def state_to_json(state: StudState) -> dict[str, Any]:
    """A JSON-able dict of the whole state (cards as ids, so a stored row stays readable).

    >>> from games.engine.stud import GAME
    >>> d = state_to_json(GAME.new_game({"players": 2}, seed=1))
    >>> d["rules_version"], len(d["cards"][0])
    ('stud-1', 7)
    """
    out = state_header("stud", RULES_VERSION)
    for f in fields(state):
        value = getattr(state, f.name)
        if f.name == "cards":
            value = [cards_to_ids(c) for c in value]
        elif f.name == "log":
            value = [list(e) for e in value]
        elif f.name in ("config", "streets", "awards", "street_start", *_INT_LISTS, *_BOOL_LISTS):
            value = copy.deepcopy(value)
        out[f.name] = value
    return out


def state_from_json(obj: Mapping[str, Any]) -> StudState:
    """Rebuild a state from :func:`state_to_json` output; ``bad_state`` if it is not one.

    >>> state_from_json({"game": "tienlen"})
    Traceback (most recent call last):
    ...
    games.engine.core.errors.EngineError: bad_state: not a stud state
    """
    return read_state(obj, "stud", RULES_VERSION, _build)


def _build(obj: Mapping[str, Any]) -> StudState:
    kwargs: dict[str, Any] = {}
    for f in fields(StudState):
        value = obj[f.name]
        if f.name == "cards":
            value = [ids_to_cards(c) for c in value]
        elif f.name == "log":
            value = [(int(s), str(a), bool(auto), at) for s, a, auto, at in value]
        elif f.name in _INT_LISTS or f.name == "street_start":
            value = [int(v) for v in value]
        elif f.name in _BOOL_LISTS:
            value = [bool(v) for v in value]
        elif f.name in ("config", "streets", "awards"):
            value = copy.deepcopy(value)
        kwargs[f.name] = value
    return StudState(**kwargs)
