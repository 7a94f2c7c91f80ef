"""Seven-card stud, fixed limit (seed 001 Task 4.3, rulings in docs/rules/stud.md).

>>> from games.engine.stud import GAME
>>> GAME.name
'stud'
"""

from games.engine.stud.game import GAME, StudGame
from games.engine.stud.state import StudState

__all__ = ["GAME", "StudGame", "StudState"]
