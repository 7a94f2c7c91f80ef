"""The High Card state: plain data, copied on every action, round-tripping through JSON.

>>> from tests.fourth_game import GAME
>>> s = GAME.new_game({"players": 2}, seed=5)
>>> state_from_json(state_to_json(s)) == s
True
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from games.engine.core.state import read_state, state_header

__all__ = ["NAME", "RULES_VERSION", "HighCardState", "state_from_json", "state_to_json"]

NAME = "highcard"
RULES_VERSION = "highcard-1"


@dataclass(slots=True)
class HighCardState:
    """One game. ``dealt``: each seat's cards at the deal; ``hands``: what is left of them;
    ``trick``: the cards on the table this trick, by seat; ``won``: tricks won per seat;
    ``last_trick``: the previous trick's cards and winner; ``log``: the accepted actions (with
    their ``at`` and ``auto``), what ``replay`` takes. ``turn`` is -1 once the game is over."""

    config: dict[str, Any]
    seed: int | str
    dealt: list[list[str]]
    hands: list[list[str]]
    trick: list[str | None]
    won: list[int]
    turn: int = 0
    trick_index: int = 0
    last_trick: dict[str, Any] | None = None
    log: list[dict[str, Any]] = field(default_factory=list)
    finished: bool = False
    turn_started_at: float | None = None

    def copy(self) -> HighCardState:
        """A copy whose lists can be changed without touching this state.

        >>> from tests.fourth_game import GAME
        >>> s = GAME.new_game({"players": 2}, 1)
        >>> c = s.copy(); c.hands[0].clear(); len(s.hands[0])
        3
        """
        return HighCardState(**{f.name: copy.deepcopy(getattr(self, f.name)) for f in fields(self)})


def state_to_json(state: HighCardState) -> dict[str, Any]:
    """A JSON-able dict of the whole state, after the envelope of every stored state.

    >>> from tests.fourth_game import GAME
    >>> d = state_to_json(GAME.new_game({"players": 2}, 1))
    >>> d["game"], d["rules_version"], len(d["hands"][1])
    ('highcard', 'highcard-1', 3)
    """
    out = state_header(NAME, RULES_VERSION)
    for f in fields(state):
        out[f.name] = copy.deepcopy(getattr(state, f.name))
    return out


def state_from_json(obj: Mapping[str, Any]) -> HighCardState:
    """The state back from :func:`state_to_json`; ``bad_state`` for anything else.

    >>> state_from_json({"game": "stud"})
    Traceback (most recent call last):
    ...
    games.engine.core.errors.EngineError: bad_state: not a highcard state
    """
    return read_state(obj, NAME, RULES_VERSION, _build)


def _build(obj: Mapping[str, Any]) -> HighCardState:
    return HighCardState(
        config=dict(obj["config"]),
        seed=obj["seed"],
        dealt=[[str(c) for c in hand] for hand in obj["dealt"]],
        hands=[[str(c) for c in hand] for hand in obj["hands"]],
        trick=[None if c is None else str(c) for c in obj["trick"]],
        won=[int(n) for n in obj["won"]],
        turn=int(obj["turn"]),
        trick_index=int(obj["trick_index"]),
        last_trick=copy.deepcopy(obj["last_trick"]),
        log=[dict(a) for a in obj["log"]],
        finished=bool(obj["finished"]),
        turn_started_at=obj["turn_started_at"],
    )
