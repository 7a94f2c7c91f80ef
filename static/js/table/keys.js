// The table's keys (templates/games/guides/_keys.html): ? opens the guide, the ``hear`` keys
// say a line in the polite region, then the board's own keys (its keys hook: {key: handler},
// a handler returning false when it did nothing). Typing in a field or a dialog is left alone.
import { $ } from "./dom.js";
import { say } from "./speech.js";

/** ctx: { T, guideDialog, phase(), hear: {key: () => text}, board() }. */
export function installKeys({ T, guideDialog, phase, hear, board }) {
  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
    const target = e.target;
    if (target && target.closest && target.closest("input, textarea, select, [contenteditable], dialog[open]")) return;
    if ($("dialog[open]")) return;
    if (e.key === "?" && guideDialog) {
      e.preventDefault();
      guideDialog.showModal();
      return;
    }
    const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    if (phase() !== "game" && phase() !== "result") return;
    if (hear[key] && !e.shiftKey) {
      e.preventDefault();
      say(hear[key]() || T.sr_nothing, { key });
      return;
    }
    const handler = board().keys && board().keys[key];
    if (handler && !e.shiftKey && handler(e) !== false) e.preventDefault();
  });
}
