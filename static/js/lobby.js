// Home page lobby chat over /ws/lobby/ (docs/protocol.md). Text via textContent only.
import { LiveSocket, wsUrl } from "./table/socket.js";
import { clockTime, el, fmt } from "./table/dom.js";

const i18nNode = document.getElementById("lobby-i18n");
const L = i18nNode ? JSON.parse(i18nNode.textContent) : {};

/** A lobby line's text in the page language: a system line with a known ``code`` renders
 * ``L.sys_<code>`` with its params (names as given, ``game`` by its title); else the text. */
function chatText(msg) {
  const template = msg.system && msg.code ? L[`sys_${msg.code}`] : undefined;
  if (template === undefined) return msg.text || "";
  const vars = { ...(msg.params || {}) };
  if (vars.game !== undefined && L[`game_${vars.game}`] !== undefined) vars.game = L[`game_${vars.game}`];
  return fmt(template, vars);
}

const box = document.getElementById("lobby-chat");
if (box) {
  const lines = box.querySelector("[data-chat-lines]");
  const form = box.querySelector("[data-chat-form]");
  const status = box.querySelector("[data-chat-status]");
  const seen = new Set();

  const add = (msg) => {
    if (msg.id !== undefined && seen.has(msg.id)) return;
    if (msg.id !== undefined) seen.add(msg.id);
    const time = msg.at ? new Date(msg.at * 1000) : new Date();
    lines.append(el("li", { class: msg.system ? "chat-line chat-system" : "chat-line" },
      el("time", { class: "chat-time", datetime: time.toISOString() },
        clockTime(time)),
      msg.system ? null : el("strong", { class: "chat-author" }, msg.author || "?"),
      el("span", { class: "chat-text" }, chatText(msg))));
    while (lines.children.length > 100) lines.firstChild.remove();
    lines.scrollTop = lines.scrollHeight;
  };

  const socket = new LiveSocket(wsUrl(box.dataset.ws), {
    onStatus: (s) => { status.hidden = s === "open" || s === "connecting"; },
    onFrame: (frame) => {
      if (frame.type === "snapshot") {
        const chat = Array.isArray(frame.chat) ? frame.chat : (frame.chat?.lobby || []);
        lines.replaceChildren();
        seen.clear();
        chat.forEach(add);
      } else if (frame.type === "message_received") add(frame);
      else if (frame.type === "error") {
        add({ system: true, text: L[`err_${frame.code}`] || frame.detail || frame.code });
      }
    },
  });

  form?.addEventListener("submit", (event) => {
    event.preventDefault();
    const input = form.elements.text;
    const text = input.value.trim();
    if (!text) return;
    socket.send({ type: "send_message", text });
    input.value = "";
  });
}
