/**
 * Called every time it is your bot's turn.
 * @param {GameState} gameState - what your seat can see (hover a field for its meaning)
 * @returns {Move} { action: "play", cards: [...] } or { action: "pass" }
 */
function getNextMove(gameState) {
  // Example: always play the first valid move, or pass when there is none.
  if (gameState.validMoves.length > 0) {
    return { action: "play", cards: gameState.validMoves[0].cards };
  }
  return { action: "pass" };
}
