/**
 * Suijiang Diu bot. Called whenever your seat is prompted (gameState.prompt is never null then).
 * @param {object} gameState - what your seat can see (the API tab lists every field)
 * @returns {object} one of gameState.prompt.options, e.g. { action: "pass" }
 */
function getNextMove(gameState) {
  const options = gameState.prompt.options; // every legal reply, already in the reply shape
  // Example: diu (win) when you can, pass on claims, accept offers, else discard the first card.
  return (
    options.find((o) => o.action === "diu") ||
    options.find((o) => o.action === "pass") ||
    options.find((o) => o.action === "accept") ||
    options[0]
  );
}
