/**
 * Meld builder: keeps its hand easy to finish.
 * - Always takes a diu (the win).
 * - Claims when the claim leaves fewer loose cards (cards that pair with nothing), preferring
 *   hard claims (硬) over chi (吃, 14 points) and never spending a 听用 (W) on kuai/shui.
 * - Accepts offers (its own claim comes back to it).
 * - Discards the loosest card: no partner of its kind, no 14-point partner, most already seen.
 * @param {object} gameState
 * @returns {object}
 */
function points(card) {
  return card === "W" ? 0 : Number(card[0]) + Number(card[1]);
}

// Cards that pair with nothing: no copy of the same kind and no partner making 14 points.
function looseCards(hand) {
  const left = hand.filter((c) => c !== "W");
  const loose = [];
  for (let i = 0; i < left.length; i += 1) {
    const c = left[i];
    const partner = left.some((d, j) => j !== i && (d === c || points(d) + points(c) === 14));
    if (!partner) loose.push(c);
  }
  return loose;
}

function without(hand, cards) {
  const rest = hand.slice();
  for (const c of cards) {
    const at = rest.indexOf(c);
    if (at >= 0) rest.splice(at, 1);
  }
  return rest;
}

const CLAIM_RANK = { hard_triple: 5, hard_pair: 4, hard_shui: 3, chi: 2, kuai: 1, shui: 0 };

function seenCount(gameState, card) {
  let n = 0;
  for (const pile of gameState.discards) n += pile.filter((c) => c === card).length;
  for (const melds of gameState.melds) {
    for (const meld of melds) n += (meld.cards || []).filter((c) => c === card).length;
  }
  return n + gameState.dead.filter((c) => c === card).length;
}

function getNextMove(gameState) {
  const prompt = gameState.prompt;
  const options = prompt.options;
  const win = options.find((o) => o.action === "diu");
  if (win) return win;
  if (prompt.kind === "offer") return { action: "accept" };

  const hand = gameState.myCards;
  if (prompt.kind === "discard") {
    const loose = looseCards(hand);
    const pool = options.filter((o) => loose.includes(o.card));
    const candidates = pool.length > 0 ? pool : options;
    candidates.sort((a, b) => seenCount(gameState, b.card) - seenCount(gameState, a.card));
    return candidates[0];
  }

  // a card is up: claim it only if that leaves fewer loose cards and spends no W
  const before = looseCards(hand).length;
  let best = null;
  for (const o of options) {
    if (o.action !== "claim" || o.cards.includes("W")) continue;
    const after = looseCards(without(hand, o.cards)).length;
    if (after < before && (best === null || CLAIM_RANK[o.type] > CLAIM_RANK[best.type])) best = o;
  }
  return best || { action: "pass" };
}
