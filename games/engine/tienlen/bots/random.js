/**
 * Random bot: picks one of the legal moves at random, and sometimes passes when it may.
 * A baseline to beat: it never makes an illegal move.
 * @param {GameState} gameState
 * @returns {Move}
 */
function getNextMove(gameState) {
  const moves = gameState.validMoves;
  if (moves.length === 0) {
    return { action: "pass" };
  }
  // Pass about one time in four when passing is allowed.
  if (gameState.canPass && Math.random() < 0.25) {
    return { action: "pass" };
  }
  const pick = moves[Math.floor(Math.random() * moves.length)];
  console.log("random pick:", pick.type, pick.cards.map((c) => c.id).join(" "));
  return { action: "play", cards: pick.cards };
}
