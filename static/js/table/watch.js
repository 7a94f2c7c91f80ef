// Watching with every hand shown (docs/protocol.md "show_hands"): a spectator's toggle, the
// host's live view of all hands at a casual table, or at a rated table the link to the latest
// finished game one game behind.
import { $, el, fmt } from "./dom.js";

/** ctx: { S (the table's state), T, isRated(), seatName(seat) }. The returned object holds
 * the watcher's choice (on, mode, hands), render() and answer(frame) for a show_hands answer. */
export function createWatch({ S, T, isRated, seatName }) {
  const W = { on: false, mode: null, hands: null };

  function render() {
    const spectator = !!S.you && S.you.role === "spectator";
    const allowed = isRated() || (S.table && (S.table.options || {}).spectator_hands === "live");
    $("#watch-hands").hidden = !(spectator && allowed && S.game);
    if (!spectator) W.on = false;
    $("#watch-hands-toggle").checked = W.on;
    const list = $("#all-hands");
    list.hidden = !(W.on && W.mode === "live" && W.hands);
    if (!list.hidden) {
      list.replaceChildren(...W.hands.hands.map((cards, i) =>
        el("li", { dataset: { seat: i } }, `${seatName(i)}: ${(cards || []).join(" ")}`)));
    }
    if (!W.on) $("#watch-hands-banner").hidden = true;
  }

  function answer(f) {
    W.on = !!f.on;
    W.mode = f.mode || null;
    const banner = $("#watch-hands-banner");
    banner.replaceChildren();
    if (W.on && W.mode === "live") {
      W.hands = f.hands || null;
      banner.append(T.hands_live);
    } else if (W.on && W.mode === "behind") {
      W.hands = null;
      if (f.game) {
        banner.append(fmt(T.hands_behind, { n: f.game, next: f.playing || f.game + 1 }), " ",
          el("a", { href: f.replay_url, target: "_blank", rel: "noopener" }, fmt(T.hands_behind_open, { n: f.game })));
      } else {
        banner.append(T.hands_behind_none);
      }
    }
    banner.hidden = !W.on;
    render();
  }

  W.render = render;
  W.answer = answer;
  return W;
}
