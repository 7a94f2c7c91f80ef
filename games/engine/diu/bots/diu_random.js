/**
 * Random: always takes a diu (the win) when offered one; otherwise answers the prompt with a
 * random legal reply (Math.random is seeded per game, so a replay repeats it).
 * @param {object} gameState
 * @returns {object}
 */
function getNextMove(gameState) {
  const options = gameState.prompt.options;
  const win = options.find((o) => o.action === "diu");
  if (win) return win;
  return options[Math.floor(Math.random() * options.length)];
}
