"""Quick play (docs/quickplay.md): one button joins a pool of people waiting for a rated table
of one game and seat count; a pairing pass forms tables of people near in rating and, after a
countdown, fills empty seats with house AIs near the players' ratings. People's per-game
ratings (openskill, house AIs as fixed anchors) move with every rated game."""
