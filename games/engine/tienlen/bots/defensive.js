/**
 * Defensive bot: keeps its hand strong and blocks opponents who are close to going out.
 * - Leads its weakest card that is not part of a pair, triple or straight.
 * - Follows with the cheapest move that beats the table; passes rather than spend a 2 or
 *   a bomb, unless an opponent has 3 cards or fewer.
 * - When an opponent is nearly out, answers with its strongest move to keep the lead.
 * @param {GameState} gameState
 * @returns {Move}
 */
const SUIT_ORDER = ["♠", "♣", "♦", "♥"];

function cardStrength(card) {
  return card.value * 4 + SUIT_ORDER.indexOf(card.suit);
}

function moveStrength(move) {
  return Math.max(...move.cards.map(cardStrength));
}

function usesPower(move) {
  return move.type === "four" || move.type === "pairs_run" || move.cards.some((c) => c.value === 13);
}

function danger(gameState) {
  let least = 13;
  gameState.playerCardCounts.forEach((count, seat) => {
    if (seat !== gameState.myPosition && count !== null && count < least) least = count;
  });
  return least;
}

function loneCards(gameState) {
  // Cards that belong to no pair/triple/straight/run among the valid leads.
  const inCombo = new Set();
  for (const move of gameState.validMoves) {
    if (move.type !== "single") move.cards.forEach((c) => inCombo.add(c.id));
  }
  return gameState.myCards.filter((c) => !inCombo.has(c.id));
}

function getNextMove(gameState) {
  const moves = gameState.validMoves;
  if (moves.length === 0) {
    return { action: "pass" };
  }
  const threat = danger(gameState) <= 3;
  const byStrength = moves.slice().sort((a, b) => moveStrength(a) - moveStrength(b));

  if (gameState.lastPlay === null) {
    // Leading. In the opening play the required card must be included: validMoves already
    // contains only such plays.
    if (threat) {
      // Opponent close to out: lead a multi-card combination they cannot follow, or a high card.
      const combos = byStrength.filter((m) => m.cards.length > 1 && !usesPower(m));
      const pick = combos.length > 0 ? combos[0] : byStrength[byStrength.length - 1];
      return { action: "play", cards: pick.cards };
    }
    const lone = loneCards(gameState).filter((c) => c.value < 13);
    const loneIds = new Set(lone.map((c) => c.id));
    const loneSingles = byStrength.filter((m) => m.type === "single" && loneIds.has(m.cards[0].id));
    const pick = loneSingles[0] || byStrength.find((m) => !usesPower(m)) || byStrength[0];
    return { action: "play", cards: pick.cards };
  }

  // Following.
  if (threat) {
    const strongest = byStrength[byStrength.length - 1];
    console.log("blocking with", strongest.cards.map((c) => c.id).join(" "));
    return { action: "play", cards: strongest.cards };
  }
  const cheap = byStrength.filter((m) => !usesPower(m));
  if (cheap.length > 0) {
    return { action: "play", cards: cheap[0].cards };
  }
  if (gameState.canPass) {
    return { action: "pass" };
  }
  return { action: "play", cards: byStrength[0].cards };
}
