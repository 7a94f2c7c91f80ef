/**
 * Hand reader: rates its own seven-card stud hand and what the others show.
 * - Counts pairs, trips, quads, flush and straight draws in its cards (down and up).
 * - Raises (or bets) with trips or better, or two pair when nobody shows a pair.
 * - Calls with a pair or a good draw; folds weak hands facing a bet after fourth street.
 * - Checks whenever it can rather than fold.
 * @param {object} gameState
 * @returns {{action: string}}
 */
function counts(cards) {
  const byValue = {};
  const bySuit = {};
  for (const c of cards) {
    byValue[c.value] = (byValue[c.value] || 0) + 1;
    bySuit[c.suit] = (bySuit[c.suit] || 0) + 1;
  }
  return { byValue, bySuit };
}

function longestRun(cards) {
  const values = new Set(cards.map((c) => c.value));
  if (values.has(14)) values.add(1); // an ace also plays low
  let best = 0;
  for (const v of values) {
    let n = 1;
    while (values.has(v + n)) n += 1;
    best = Math.max(best, n);
  }
  return best;
}

// 0 nothing · 1 draw · 2 pair · 3 high pair · 4 two pair · 5 trips · 6 made straight/flush · 7 full house+
function strength(cards) {
  const { byValue, bySuit } = counts(cards);
  const groups = Object.entries(byValue)
    .map(([v, n]) => [Number(v), n])
    .sort((a, b) => b[1] - a[1] || b[0] - a[0]);
  const flush = Math.max(0, ...Object.values(bySuit));
  const run = longestRun(cards);
  const [top, second] = [groups[0] || [0, 0], groups[1] || [0, 0]];
  if (top[1] >= 4 || (top[1] === 3 && second[1] >= 2)) return 7;
  if (flush >= 5 || run >= 5) return 6;
  if (top[1] === 3) return 5;
  if (top[1] === 2 && second[1] === 2) return 4;
  if (top[1] === 2) return top[0] >= 11 ? 3 : 2;
  if (flush >= 4 || run >= 4) return 1;
  return 0;
}

function opponentsShowPair(gameState) {
  return gameState.players.some((p) => {
    if (p.seat === gameState.myPosition || !p.inHand) return false;
    return Object.values(counts(p.upCards).byValue).some((n) => n >= 2);
  });
}

function getNextMove(gameState) {
  const legal = new Set(gameState.validMoves.map((m) => m.action));
  const pick = (...names) => names.find((n) => legal.has(n));
  const mine = strength(gameState.myCards);
  const scary = opponentsShowPair(gameState);
  const late = gameState.street >= 5;

  let choice;
  if (mine >= 5 || (mine === 4 && !scary)) {
    choice = pick("raise", "complete", "bet_big", "bet", "call", "check");
  } else if (mine >= 2 || (mine === 1 && !late)) {
    choice = pick("check", "call", "bring_in");
  } else {
    // nothing much: stay in for free, pay the cheap bring-in street, else fold
    choice = pick("check", "bring_in") || (gameState.street === 3 ? pick("call") : null) || pick("fold");
  }
  console.log(`street ${gameState.street}: strength ${mine}${scary ? ", pair showing" : ""} -> ${choice}`);
  return { action: choice || gameState.validMoves[0].action };
}
