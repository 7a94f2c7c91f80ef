/**
 * First card: plays the first of its legal actions (High Card, the tests' game).
 */
function getNextMove(gameState) {
  return gameState.legalActions[0];
}
