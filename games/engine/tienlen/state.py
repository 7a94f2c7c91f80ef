"""The Tiến Lên game state: plain data, copied on every action, round-tripping through JSON.

Hands and plays are 52-bit masks (see :mod:`games.engine.tienlen.cards`). Callers outside the
engine treat the state as opaque and use ``GAME.state_to_json`` / ``GAME.state_from_json`` to
store it.

>>> from games.engine.tienlen import GAME
>>> s = GAME.new_game({"players": 3}, seed=5)
>>> state_from_json(state_to_json(s)) == s
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from games.engine.core.state import read_state, state_header
from games.engine.tienlen.cards import mask_to_ids, parse_cards

__all__ = ["RULES_VERSION", "LogEntry", "TienLenState", "state_from_json", "state_to_json"]

RULES_VERSION = "tienlen-1"

#: One accepted action: (seat, mask of cards played or -1 for a pass, auto, at).
LogEntry = tuple[int, int, bool, float | None]


@dataclass(slots=True)
class TienLenState:
    """Everything about one game. Seats are 0..players-1; ``-1`` means "nobody".

    >>> TienLenState(config={"players": 2}, seed=0, rng=0, dealt=[1, 2], hands=[1, 2]).turn
    -1
    """

    config: dict[str, Any]
    seed: int | str
    rng: int
    dealt: list[int]
    hands: list[int]
    turn: int = -1
    game_leader: int = -1
    round_index: int = 0
    round_leader: int = -1
    top: int = 0
    top_kind: int = 0
    top_seat: int = -1
    passed: int = 0
    required: int = 0
    twos_run: int = 0
    chain_points: int = 0
    chain_debtor: int = -1
    chain_payee: int = -1
    settled: list[tuple[int, int, int, str]] = field(default_factory=list)
    played: int = 0
    inactive: int = 0
    frozen: int = 0
    den_bai: list[int] = field(default_factory=list)
    out: list[int] = field(default_factory=list)
    counts_at_win: list[int] | None = None
    instant_win: str | None = None
    finished: bool = False
    log: list[LogEntry] = field(default_factory=list)
    round_start: list[int] = field(default_factory=lambda: [0])
    turn_started_at: float | None = None

    @property
    def players(self) -> int:
        """Number of seats.

        >>> TienLenState(config={"players": 3}, seed=0, rng=0, dealt=[], hands=[]).players
        3
        """
        return int(self.config["players"])

    def copy(self) -> TienLenState:
        """A copy whose lists can be changed without touching this state.

        >>> s = TienLenState(config={"players": 2}, seed=0, rng=0, dealt=[1, 2], hands=[1, 2])
        >>> c = s.copy(); c.hands[0] = 0; s.hands[0]
        1
        """
        return TienLenState(
            self.config,
            self.seed,
            self.rng,
            self.dealt,
            self.hands[:],
            self.turn,
            self.game_leader,
            self.round_index,
            self.round_leader,
            self.top,
            self.top_kind,
            self.top_seat,
            self.passed,
            self.required,
            self.twos_run,
            self.chain_points,
            self.chain_debtor,
            self.chain_payee,
            self.settled[:],
            self.played,
            self.inactive,
            self.frozen,
            self.den_bai[:],
            self.out[:],
            self.counts_at_win,
            self.instant_win,
            self.finished,
            self.log[:],
            self.round_start[:],
            self.turn_started_at,
        )


_MASK_FIELDS = ("top", "required")
_SEATMASK_FIELDS = ("passed", "played", "inactive", "frozen")


def state_to_json(state: TienLenState) -> dict[str, Any]:
    """A JSON-able dict of the whole state (hands as card ids, so a stored row stays readable).

    >>> from games.engine.tienlen import GAME
    >>> d = state_to_json(GAME.new_game({"players": 2}, seed=1))
    >>> d["rules_version"], len(d["hands"][0])
    ('tienlen-1', 13)
    """
    out = state_header("tienlen", RULES_VERSION)
    for f in fields(state):
        value = getattr(state, f.name)
        if f.name in ("dealt", "hands"):
            value = [mask_to_ids(m) for m in value]
        elif f.name in _MASK_FIELDS:
            value = mask_to_ids(value)
        elif f.name == "settled":
            value = [list(t) for t in value]
        elif f.name == "log":
            value = [
                [seat, None if mask < 0 else mask_to_ids(mask), auto, at]
                for seat, mask, auto, at in value
            ]
        elif f.name in ("den_bai", "out", "round_start", "counts_at_win") and value is not None:
            value = list(value)
        elif f.name == "config":
            value = dict(value)
        out[f.name] = value
    return out


def state_from_json(obj: Mapping[str, Any]) -> TienLenState:
    """Rebuild a state from :func:`state_to_json` output; ``bad_state`` if it is not one.

    >>> state_from_json({"game": "stud"})
    Traceback (most recent call last):
    ...
    games.engine.core.errors.EngineError: bad_state: not a tienlen state
    """
    return read_state(obj, "tienlen", RULES_VERSION, _build)


def _build(obj: Mapping[str, Any]) -> TienLenState:
    kwargs: dict[str, Any] = {}
    for f in fields(TienLenState):
        value = obj[f.name]
        if f.name in ("dealt", "hands"):
            value = [parse_cards(ids) for ids in value]
        elif f.name in _MASK_FIELDS:
            value = parse_cards(value)
        elif f.name == "settled":
            value = [(int(a), int(b), int(c), str(d)) for a, b, c, d in value]
        elif f.name == "log":
            value = [
                (int(seat), -1 if ids is None else parse_cards(ids), bool(auto), at)
                for seat, ids, auto, at in value
            ]
        elif f.name in ("den_bai", "out", "round_start", "counts_at_win"):
            value = None if value is None else [int(v) for v in value]
        elif f.name == "config":
            value = dict(value)
        kwargs[f.name] = value
    return TienLenState(**kwargs)
