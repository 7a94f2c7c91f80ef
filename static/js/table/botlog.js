// Your bots' move records at a live table (the `bot_record` frame, sent only to the bot's
// owner; docs/protocol.md "Bot move records"): move, time used, strike reason, console output.

import { $, el, numberText } from "./dom.js";

const MAX_ROWS = 200;

function moveText(move) {
  if (!move) return "—";
  if (move.type === "play") return `play ${(move.cards || []).join(" ")}`;
  return move.type || "—";
}

/** Add one record to the panel (it shows itself with the first one), newest on top. The
 * server re-sends the current game's records when the socket (re)connects: a record already
 * shown is skipped, and one that arrives late is put in its place. */
export function addBotRecord(frame) {
  const panel = $("#bot-log");
  const list = $("#bot-log-list");
  if (!panel || !list) return;
  const key = `${frame.game}:${frame.seq}`;
  const rows = [...list.children];
  if (rows.some((li) => li.dataset.key === key)) return;
  panel.hidden = false;
  const r = frame.record || {};
  const ms = typeof r.elapsed_ms === "number" ? `${numberText(r.elapsed_ms, 1)} ms` : "";
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
    { class: r.strike ? "bot-log-row is-strike" : "bot-log-row",
      dataset: { seq: frame.seq, game: frame.game, key } },
    head,
    lines.length ? el("pre", { class: "bot-log-console", text: lines.join("\n") }) : null,
  );
  const older = rows.find((li) => Number(li.dataset.game) < frame.game ||
    (Number(li.dataset.game) === frame.game && Number(li.dataset.seq) < frame.seq));
  if (older) list.insertBefore(row, older);
  else list.append(row);
  while (list.children.length > MAX_ROWS) list.lastElementChild.remove();
}
