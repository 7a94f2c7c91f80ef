"""High Card, a fourth game written only for the tests: the proof that a game is one package.

Two seats are dealt a few cards each from a seeded deck; every trick each seat plays one card,
the higher card (rank, then suit) wins the trick and leads the next one; the seat with more
tricks wins. Nothing outside this package knows the game: a test registers :data:`GAME` in
:data:`games.engine.registry.GAMES` (``registry.register``) and removes it afterwards, and the
site plays it like any other game (``tests/games/test_fourth_game.py``).

>>> from games.engine.core.protocol import Game
>>> isinstance(GAME, Game), GAME.name, GAME.title
(True, 'highcard', 'High Card')
"""

from tests.fourth_game.game import GAME, HighCardGame

__all__ = ["GAME", "HighCardGame"]
