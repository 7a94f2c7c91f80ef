/**
 * Greedy bot: gets rid of as many cards as possible, as cheaply as possible.
 * - Prefers the combination that sheds the most cards (straights, runs, triples, pairs).
 * - Among equally long ones, plays the weakest.
 * - Keeps its 2s (heo) and bombs unless they are the only play or an opponent is about to win.
 * @param {GameState} gameState
 * @returns {Move}
 */
const SUITS = { "♠": 0, "♣": 1, "♦": 2, "♥": 3 };

function strength(card) {
  return card.value * 4 + SUITS[card.suit];
}

function top(move) {
  return Math.max(...move.cards.map(strength));
}

function isPrecious(move) {
  return move.type === "four" || move.type === "pairs_run" || move.cards.some((c) => c.rank === "2");
}

function opponentAlmostOut(gameState) {
  return gameState.playerCardCounts.some(
    (n, seat) => seat !== gameState.myPosition && n !== null && n <= 2
  );
}

function getNextMove(gameState) {
  let moves = gameState.validMoves.slice();
  if (moves.length === 0) {
    return { action: "pass" };
  }
  const urgent = opponentAlmostOut(gameState) || gameState.myCards.length <= 4;
  const cheap = moves.filter((m) => !isPrecious(m));
  if (cheap.length > 0 && !urgent) {
    moves = cheap;
  } else if (cheap.length === 0 && gameState.canPass && !urgent) {
    return { action: "pass" }; // only 2s or bombs would do: save them
  }
  moves.sort((a, b) => b.cards.length - a.cards.length || top(a) - top(b));
  return { action: "play", cards: moves[0].cards };
}
