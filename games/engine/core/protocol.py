"""The contract every game module fulfils (seed 004: turns and rounds), and its small types.

A game is data plus pure functions. Tables, bots and replays only talk to this protocol, so no
caller special-cases a game.

>>> status = RoundStatus(round_index=2, pending=(1,), check_at=None)
>>> status.round_index, status.pending
(2, (1,))
>>> Event("passed", {"seat": 1}).to_json()
{'type': 'passed', 'seat': 1}
>>> Event("hand", {"cards": ["3S"]}, to=0).public
False
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol, TypeAlias, runtime_checkable

__all__ = [
    "Action",
    "Event",
    "Game",
    "GameRecord",
    "JSONDict",
    "RoundStatus",
    "SessionOps",
]

JSONDict: TypeAlias = dict[str, Any]
#: An action is a small JSON-able dict, e.g. ``{"type": "pass", "seat": 1}``.
Action: TypeAlias = dict[str, Any]
#: Everything needed to rebuild a game: ``{"config": ..., "seed": ..., "actions": [...]}``.
GameRecord: TypeAlias = dict[str, Any]


class RoundStatus(NamedTuple):
    """Seed 004's round status: the round index, who must act, when to check again.

    ``check_at`` is a unix time (the pending turn's deadline) or None when nothing is scheduled
    (no known turn start, or the game is over).

    >>> RoundStatus(0, (), None).pending
    ()
    """

    round_index: int
    pending: tuple[int, ...]
    check_at: float | None


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, for one audience: ``to`` is a seat, or None for everyone.

    >>> e = Event("cards_played", {"seat": 0, "cards": ["3S"]})
    >>> e.public, e.to_json()["type"]
    (True, 'cards_played')
    """

    type: str
    data: JSONDict = field(default_factory=dict)
    to: int | None = None

    @property
    def public(self) -> bool:
        """True when every seat and spectator may see the event.

        >>> Event("turn").public
        True
        """
        return self.to is None

    def to_json(self) -> JSONDict:
        """The event as a JSON-able dict with its ``type`` first (the audience is not included).

        >>> Event("turn", {"seat": 3}).to_json()
        {'type': 'turn', 'seat': 3}
        """
        return {"type": self.type, **self.data}


@runtime_checkable
class SessionOps(Protocol):
    """Table-session helpers of a game (a session is a run of games at one table)."""

    def session_start(
        self, players: int, games: int = 16, options: Mapping[str, Any] | None = None
    ) -> JSONDict: ...

    def session_next_config(self, session: Mapping[str, Any]) -> JSONDict: ...

    def session_record(self, session: Mapping[str, Any], result: Mapping[str, Any]) -> JSONDict: ...

    def session_summary(self, session: Mapping[str, Any]) -> JSONDict: ...


@runtime_checkable
class Game(Protocol):
    """What a game module object exposes (see ``games.engine.tienlen.GAME``)."""

    name: str
    rules_version: str
    min_players: int
    max_players: int

    def default_config(self) -> JSONDict: ...

    def validate_config(self, config: Mapping[str, Any]) -> JSONDict: ...

    def new_game(self, config: Mapping[str, Any], seed: int | str) -> Any: ...

    def legal_actions(self, state: Any, seat: int) -> list[Action]: ...

    def apply(self, state: Any, action: Mapping[str, Any]) -> tuple[Any, list[Event]]: ...

    def view(self, state: Any, seat: int | None) -> JSONDict: ...

    def round_status(self, state: Any, now: float | None = None) -> RoundStatus: ...

    def timeout_action(self, state: Any, seat: int) -> Action: ...

    def result(self, state: Any) -> JSONDict | None: ...

    def record(self, state: Any) -> GameRecord: ...

    def replay(
        self, config: Mapping[str, Any], seed: int | str, actions: Sequence[Mapping[str, Any]]
    ) -> Any: ...

    def state_to_json(self, state: Any) -> JSONDict: ...

    def state_from_json(self, obj: Mapping[str, Any]) -> Any: ...

    def initial_events(self, state: Any) -> list[Event]: ...
