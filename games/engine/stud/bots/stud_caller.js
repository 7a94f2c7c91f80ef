/**
 * Calling station: never folds, never raises. Posts the bring-in, checks when it can,
 * otherwise calls. Simple, legal on every street, and easy to beat.
 * @param {object} gameState
 * @returns {{action: string}}
 */
function getNextMove(gameState) {
  const legal = gameState.validMoves.map((m) => m.action);
  for (const name of ["check", "call", "bring_in"]) {
    if (legal.includes(name)) return { action: name };
  }
  return { action: legal[0] };
}
