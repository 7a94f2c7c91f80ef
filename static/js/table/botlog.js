// Your bots' move records at a live table (the `bot_record` frame, sent only to the bot's
// owner; docs/protocol.md "Bot move records"): move, time used, strike reason, console output.

import { $, el } from "./dom.js";

const MAX_ROWS = 200;

function moveText(move) {
  if (!move) return "—";
  if (move.type === "play") return `play ${(move.cards || []).join(" ")}`;
  return move.type || "—";
}

/** Add one record to the panel (it shows itself with the first one). */
export function addBotRecord(frame) {
  const panel = $("#bot-log");
  const list = $("#bot-log-list");
  if (!panel || !list) return;
  panel.hidden = false;
  const r = frame.record || {};
  const ms = typeof r.elapsed_ms === "number" ? `${r.elapsed_ms.toFixed(1)} ms` : "";
  const strike = r.strike
    ? el("span", { class: "bot-log-strike", text: `${panel.dataset.strike} ${r.strike} (${r.strikes || "?"}/3)` })
    : null;
  const head = el(
    "div",
    { class: "bot-log-head" },
    el("span", { class: "bot-log-where", text: `G${frame.game} #${frame.seq} · ${panel.dataset.seat} ${frame.seat + 1}` }),
    el("span", { class: "bot-log-move", text: moveText(r.move) }),
    el("span", { class: "bot-log-ms", text: ms }),
    strike,
  );
  const lines = [...(r.console || [])];
  if (r.console_truncated) lines.push("…");
  if (r.error_message) lines.push(`! ${r.error_message}`);
  const row = el(
    "li",
    { class: r.strike ? "bot-log-row is-strike" : "bot-log-row", dataset: { seq: frame.seq } },
    head,
    lines.length ? el("pre", { class: "bot-log-console", text: lines.join("\n") }) : null,
  );
  list.prepend(row);
  while (list.children.length > MAX_ROWS) list.lastElementChild.remove();
}
