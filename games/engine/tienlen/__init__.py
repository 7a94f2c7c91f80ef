"""Tiến Lên Miền Nam (seed 002 §2, round logic seed 000, rulings in docs/rules/tienlen.md).

>>> from games.engine.tienlen import GAME
>>> GAME.name
'tienlen'
"""

from games.engine.tienlen.game import GAME, TienLenGame
from games.engine.tienlen.state import TienLenState

__all__ = ["GAME", "TienLenGame", "TienLenState"]
