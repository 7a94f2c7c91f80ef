"""The field of a duplicate match: :class:`Entrant` (a member of the field) seats a
:class:`Player` in each game; a player's failure is an :class:`EntrantError` (a strike).
Two built-in entrants: :class:`HouseEntrant` (the house AI) and :class:`FirstLegalEntrant`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from games.engine.core.protocol import Game

__all__ = [
    "Decision",
    "Entrant",
    "EntrantError",
    "FirstLegalEntrant",
    "HouseEntrant",
    "Player",
]


class EntrantError(Exception):
    """A player's failure with a stable ``code`` (``timeout``, ``exception``, ``illegal:…``):
    a strike. Any other exception a player raises is a strike too (code ``exception``, or the
    engine error's ``illegal:<code>``).

    >>> EntrantError("timeout", "over 5 s").code
    'timeout'
    """

    def __init__(self, code: str, message: str = "", *, ms: float | None = None) -> None:
        super().__init__(f"{code}: {message}" if message else code)
        self.code = code
        self.message = message
        #: The time the failed move took, as the player measured it (None: the core's clock).
        self.ms = ms


@dataclass(frozen=True)
class Decision:
    """What a player may return instead of a bare action: the action plus the time the
    player itself measured for it (a sandboxed bot reports its JavaScript time); without
    ``ms`` the core's clock times the call."""

    action: Mapping[str, Any]
    ms: float | None = None


@runtime_checkable
class Player(Protocol):
    """An entrant seated in one game: asked for a move whenever its seat is pending."""

    def decide(self, state: Any, seat: int) -> Mapping[str, Any] | Decision:
        """The seat's move (an engine action; its ``seat`` is set by the core); raise
        :class:`EntrantError` (or anything) for a failure: a strike."""
        ...

    def close(self) -> None:
        """The game is over (or abandoned): free what the player holds."""
        ...


@runtime_checkable
class Entrant(Protocol):
    """A member of the field. ``name`` labels it in the report; :meth:`player` seats it in one
    game (a sandboxed bot starts one process per game there, so its globals live for one
    game, as at a live table). Entrants are passed to the ``mapper``'s worker processes, so an
    entrant used with a process pool must be picklable."""

    @property
    def name(self) -> str:
        """The entrant's label in the report."""
        ...

    def player(self, engine: Game, *, seat: int, seed: int) -> Player:
        """A fresh player for ``seat`` of one game of ``engine``; ``seed`` is a stable per
        game-and-seat number for the player's own randomness."""
        ...


class _HousePlayer:
    def __init__(self, engine: Game, level: str) -> None:
        self.engine = engine
        self.level = level

    def decide(self, state: Any, seat: int) -> Mapping[str, Any]:
        return self.engine.house_action(state, seat, self.level)

    def close(self) -> None:
        return None


@dataclass(frozen=True)
class HouseEntrant:
    """The house AI at ``level`` (one of the engine's ``house_levels``: ``easy``, ``medium``,
    ``hard``…), through ``engine.house_action``.

    >>> HouseEntrant("hard").name
    'house:hard'
    """

    level: str
    name: str = ""

    def __post_init__(self) -> None:
        if not self.name:
            object.__setattr__(self, "name", f"house:{self.level}")

    def player(self, engine: Game, *, seat: int, seed: int) -> Player:
        if self.level not in engine.house_levels:
            raise ValueError(f"{engine.name} has no house level {self.level!r}")
        return _HousePlayer(engine, self.level)


class _FirstLegalPlayer:
    def __init__(self, engine: Game) -> None:
        self.engine = engine

    def decide(self, state: Any, seat: int) -> Mapping[str, Any]:
        return self.engine.legal_actions(state, seat)[0]

    def close(self) -> None:
        return None


@dataclass(frozen=True)
class FirstLegalEntrant:
    """Always the first legal action (a baseline; also handy in tests).

    >>> FirstLegalEntrant().name
    'first-legal'
    """

    name: str = "first-legal"

    def player(self, engine: Game, *, seat: int, seed: int) -> Player:
        return _FirstLegalPlayer(engine)
