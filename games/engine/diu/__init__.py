"""Suijiang Diu (绥江丢): 川牌 with 听用, three active seats and one sitting out, claim polling
(seed 003, rulings in docs/rules/diu.md).

>>> from games.engine.diu import GAME
>>> GAME.name, GAME.min_players, GAME.max_players
('diu', 4, 4)
"""

from games.engine.diu.game import GAME, DiuGame
from games.engine.diu.state import DiuState

__all__ = ["GAME", "DiuGame", "DiuState"]
