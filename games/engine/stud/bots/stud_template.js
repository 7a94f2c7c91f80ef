/**
 * Seven-Card Stud bot. Called every time it is your bot's turn to act.
 * @param {object} gameState - what your seat can see (the API tab lists every field)
 * @returns {{action: string}} one of gameState.validMoves, e.g. { action: "call" }
 */
function getNextMove(gameState) {
  // Example: check when free, else call, else the first legal action (a bring-in).
  const legal = gameState.validMoves.map((m) => m.action);
  if (legal.includes("check")) return { action: "check" };
  if (legal.includes("call")) return { action: "call" };
  return gameState.validMoves[0];
}
