"""The shared core of every game engine: cards, a seeded RNG, errors, the game protocol and
per-round history.

>>> from games.engine.core import Card, EngineError
>>> str(Card.parse("TS")), issubclass(EngineError, ValueError)
('10S', True)
"""

from games.engine.core.cards import Card, standard_deck
from games.engine.core.errors import (
    ERROR_CODES,
    ConfigError,
    EngineError,
    IllegalActionError,
    UnknownGameError,
)
from games.engine.core.protocol import Action, Event, Game, GameRecord, JSONDict, RoundStatus
from games.engine.core.rng import Rng

__all__ = [
    "ERROR_CODES",
    "Action",
    "Card",
    "ConfigError",
    "EngineError",
    "Event",
    "Game",
    "GameRecord",
    "IllegalActionError",
    "JSONDict",
    "Rng",
    "RoundStatus",
    "UnknownGameError",
    "standard_deck",
]
