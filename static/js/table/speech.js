// What a screen reader hears at a table (issue 30, the accessible mode): spoken names of cards
// in the page's language ("nine of spades" / "chín bích"), and the two live regions the table
// page speaks through (templates/games/table.html): #sr-say (polite: every move, round and
// result) and #sr-alert (assertive: your turn, time running low). Each keeps its last lines as
// paragraphs (a screen reader reads each new one once; the test reads them back).
// All words come from T (templates/games/_table_i18n.html: card_rank_*, card_suit_*, card_name).
import { $, el, fmt } from "./dom.js";
import { parseCard } from "./cards.js";

const KEEP = 30; // lines kept in each live region

/** "nine of spades" / "chín bích" for a card id such as "9S" (engine ids, cards.js). */
export function spokenCard(T, id) {
  const { rank, suit } = parseCard(String(id));
  return fmt(T.card_name, { rank: T[`card_rank_${rank}`] || rank, suit: T[`card_suit_${suit}`] || suit });
}

/** Several cards: "nine of spades, nine of hearts". */
export function spokenCards(T, ids) {
  return (ids || []).map((id) => spokenCard(T, id)).join(", ");
}

/** Say ``text`` in the polite region, or with ``urgent`` in the assertive one. ``key``: the
 * hear-on-demand key that asked for it (kept as data-key, so a reader of the region can tell
 * an answer from a move said at the same moment). */
export function say(text, { urgent = false, key = null } = {}) {
  const box = $(urgent ? "#sr-alert" : "#sr-say");
  if (!box || !text) return;
  const n = Number(box.dataset.said || 0) + 1; // lines said so far (kept: KEEP)
  box.append(el("p", { "data-n": n, "data-key": key }, String(text)));
  box.dataset.said = String(n);
  while (box.children.length > KEEP) box.firstElementChild.remove();
}
