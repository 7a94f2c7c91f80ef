"""The registry of games, so tables, bots and replays never special-case one.

>>> find_game("tienlen").name
'tienlen'
>>> find_game("poker")
Traceback (most recent call last):
...
games.engine.core.errors.UnknownGameError: unknown_game: no game named 'poker'
"""

from __future__ import annotations

from games.engine.core.errors import UnknownGameError
from games.engine.core.protocol import Game
from games.engine.tienlen import GAME as TIENLEN

__all__ = ["GAMES", "find_game"]

#: Every playable game by name.
GAMES: dict[str, Game] = {TIENLEN.name: TIENLEN}


def find_game(name: str) -> Game:
    """The game registered under ``name``; ``unknown_game`` otherwise.

    >>> find_game("tienlen").rules_version
    'tienlen-1'
    """
    game = GAMES.get(name) if isinstance(name, str) else None
    if game is None:
        raise UnknownGameError(str(name))
    return game
