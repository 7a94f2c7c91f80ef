// The live table page: lobby, game board, results. Talks docs/protocol.md over /ws/tables/<code>/.
// The server decides everything; the browser only shows the per-seat view and offers the
// plays listed in `your_turn.legal`. All text goes through textContent.
import { $, $$, el, fmt, reducedMotion, timerEl } from "./table/dom.js";
import { installSprite, cardElement, backElement, cardText, cardsText } from "./table/cards.js";
import { LiveSocket, wsUrl } from "./table/socket.js";
import { beep, isMuted, setMuted } from "./table/sound.js";
import { notifyTurn, askPermission, permissionState, setBaseTitle } from "./table/notify.js";
import { comboLabel, winnerLine, renderResult, renderSession, resultText, scoreTable } from "./table/results.js";
import { createBoard as createStudBoard } from "./boards/stud.js";
import { createBoard as createDiuBoard } from "./boards/diu.js";
import { addBotRecord } from "./table/botlog.js";

const CFG = JSON.parse($("#table-config").textContent);
const T = JSON.parse($("#table-i18n").textContent);
const app = $("#table-app");

const S = {
  table: null, seats: [], you: null, game: null, yourTurn: null, session: null,
  offset: 0, selected: new Set(), order: null, sortMode: "rank", suggested: null,
  pending: false, ended: null, sessionEnd: null, chatIds: new Set(), unread: 0,
  lastTopKey: null, countdownAt: null,
};

// ---------------------------------------------------------------- helpers
const now = () => Date.now() / 1000 + S.offset;
const mySeat = () => (S.you && S.you.role === "player" ? S.you.seat : null);
const view = () => (S.game ? S.game.state : null);
const seatName = (i) => {
  const seat = S.seats.find((s) => s.index === i);
  if (!seat) return fmt(T.seat_n, { n: i + 1 });
  if (seat.kind === "house") return seat.name || fmt(T.house_ai_level, { level: levelName(seat.house_level) });
  if (seat.kind === "bot") return seat.name || (seat.bot && seat.bot.name) || T.bot;
  return seat.name || fmt(T.seat_n, { n: i + 1 });
};
const levelName = (l) => T[`level_${l}`] || l || "";
const isBotSeat = (seat) => seat && (seat.kind === "house" || seat.kind === "bot");
// A seat the house policy plays: "disqualified — house plays" for a bot struck out (3 strikes),
// else "auto" (away, left). Every board and the seat list show it (seats[].disqualified).
const autoBadge = (seat) => {
  if (seat && seat.disqualified) {
    return el("span", { class: "badge-auto badge-dq", title: T.disqualified_title,
      dataset: { badge: "disqualified" } }, T.disqualified);
  }
  return seat && seat.auto ? el("span", { class: "badge-auto" }, T.auto) : null;
};
const setKey = (cards) => [...cards].sort().join(",");
const nPlayers = () => (view() ? view().players : S.seats.length);
// A game with a board module of its own draws the felt and the action bar itself
// (static/js/boards/*.js); everything else on the page is shared.
const BOARDS = { stud: createStudBoard, diu: createDiuBoard };
const board = BOARDS[CFG.game]
  ? BOARDS[CFG.game]({ T, S, send, mySeat, seatName, isBotSeat, autoBadge, logLine, beep })
  : null;

function send(frame) {
  socket.send(frame);
}

function toast(text, kind = "info") {
  const box = $("#toasts");
  const t = el("div", { class: `toast toast-${kind}`, role: kind === "error" ? "alert" : "status" }, text);
  box.append(t);
  setTimeout(() => t.classList.add("toast-out"), 3800);
  setTimeout(() => t.remove(), 4300);
}

function logLine(text, kind = "") {
  const list = $("#game-log");
  list.append(el("li", { class: `log-line ${kind}` }, text));
  while (list.children.length > 200) list.firstChild.remove();
  list.scrollTop = list.scrollHeight;
}

// Position of a seat around the table relative to the viewer (turns go counter-clockwise:
// the next seat sits to your right).
function position(seat) {
  const n = nPlayers();
  const me = mySeat() ?? 0;
  const r = (seat - me + n) % n;
  if (r === 0) return "bottom";
  if (n === 2) return "top";
  if (n === 3) return r === 1 ? "right" : "left";
  return ["bottom", "right", "top", "left"][r];
}

// ---------------------------------------------------------------- phases
function phase() {
  if (S.sessionEnd) return "session";
  const st = S.table ? S.table.status : "waiting";
  if (st === "completed" && S.session && S.session.finished) return "session";
  if (S.game && view()) {
    // a seat opened after a game (its player left): the table is back in the lobby
    if (view().finished) return st === "waiting" || st === "ready" ? "lobby" : "result";
    if (st === "in_progress" || S.game.status === "running") return "game";
  }
  return "lobby";
}

function render() {
  const p = phase();
  app.dataset.phase = p;
  $("#lobby-view").hidden = p !== "lobby";
  $("#board-view").hidden = !(p === "game" || p === "result");
  $("#result-view").hidden = p !== "result";
  $("#session-view").hidden = p !== "session";
  renderTopbar();
  if (p === "lobby") renderLobby();
  if (p === "game" || p === "result") renderBoard();
  if (p === "result") renderResultView();
  if (p === "session") renderSessionView();
  renderScores();
}

function renderTopbar() {
  const counter = $("#game-counter");
  if (S.game) counter.textContent = fmt(T.game_n_of, { n: S.game.number, total: S.game.games });
  else counter.textContent = S.table ? T[`status_${S.table.status}`] || "" : "";
  const title = S.table ? `${S.table.name} · ${T.site}` : document.title;
  setBaseTitle(title);
  // the host may end the session at any time before it is over (docs/protocol.md)
  $("#btn-end-session").hidden = !(S.you && S.you.is_host && S.table && S.table.status !== "completed");
}

// ---------------------------------------------------------------- lobby
function renderLobby() {
  const list = $("#seat-list");
  list.replaceChildren();
  const me = mySeat();
  const host = S.you && S.you.is_host;
  const running = S.table && S.table.status === "in_progress";
  for (const seat of S.seats) {
    const li = el("li", { class: `lseat kind-${seat.kind}${seat.ready ? " is-ready" : ""}`,
      dataset: { seat: seat.index } });
    let avatar, label, sub = null;
    if (seat.kind === "empty") {
      avatar = el("span", { class: "lseat-avatar empty", "aria-hidden": "true" }, "…");
      label = el("span", { class: "lseat-name muted" }, T.waiting);
    } else if (isBotSeat(seat)) {
      avatar = el("span", { class: "lseat-avatar bot", "aria-hidden": "true" }, "AI");
      label = el("span", { class: "lseat-name" }, seatName(seat.index), " ",
        el("span", { class: "badge-bot" }, T.bot), autoBadge(seat));
      sub = el("span", { class: "lseat-sub muted" }, seat.kind === "house"
        ? `${T.ai_strength}: ${levelName(seat.house_level)}`
        : fmt(T.bot_version, { v: seat.bot ? seat.bot.version : "" }));
    } else {
      avatar = el("span", { class: "lseat-avatar", "aria-hidden": "true" }, (seat.name || "?").slice(0, 1).toUpperCase());
      label = el("span", { class: "lseat-name" }, seat.name || "?",
        seat.is_host ? el("span", { class: "badge-host" }, T.host) : null,
        seat.index === me ? el("em", { class: "muted" }, ` (${T.you})`) : null);
      if (seat.connected === false) sub = el("span", { class: "lseat-sub muted" }, T.away);
    }
    const status = seat.kind === "human"
      ? el("span", { class: "lseat-ready", title: seat.ready ? T.ready : T.not_ready,
        "aria-label": seat.ready ? T.ready : T.not_ready }, seat.ready ? "✓" : "")
      : isBotSeat(seat) ? el("span", { class: "lseat-ready", "aria-label": T.ready }, "✓") : el("span");
    const controls = el("span", { class: "lseat-controls" });
    if (host && !running && seat.kind === "empty") {
      const select = el("select", { "aria-label": T.ai_strength, class: "level-select" },
        CFG.levels.map(([v, l]) => el("option", { value: v, selected: v === "medium" }, l)));
      controls.append(select, el("button", { type: "button", class: "button button-small",
        onclick: () => send({ type: "add_bot", seat: seat.index, level: select.value }) }, T.add_bot));
    }
    if (host && !running && seat.kind !== "empty" && !seat.is_host) {
      controls.append(el("button", { type: "button", class: "button button-small button-ghost",
        onclick: () => send({ type: "kick", seat: seat.index }) }, T.kick));
    }
    if (!host && me === null && CFG.authenticated && seat.kind === "empty" && !running) {
      controls.append(el("button", { type: "button", class: "button button-small",
        onclick: () => send({ type: "join_table", seat: seat.index }) }, T.sit_here));
    }
    li.append(avatar, el("span", { class: "lseat-who" }, label, sub), status, controls);
    list.append(li);
  }

  // buttons
  const ready = $("#btn-ready");
  const meSeat = S.seats.find((s) => s.index === me);
  ready.hidden = me === null;
  ready.textContent = meSeat && meSeat.ready ? T.not_ready_action : T.ready_action;
  ready.setAttribute("aria-pressed", meSeat && meSeat.ready ? "true" : "false");
  const start = $("#btn-start");
  start.hidden = !host;
  start.disabled = !S.table || S.table.status !== "ready" || !!S.countdownAt;
  $("#lobby-hint").textContent = !S.table ? "" : host
    ? (S.table.status === "ready" ? T.hint_can_start : T.hint_wait_ready)
    : me !== null ? T.hint_wait_host : CFG.authenticated ? T.hint_pick_seat : T.hint_login;
  $("#login-to-sit").hidden = CFG.authenticated || me !== null;

  // settings panel
  if (board) board.lobby(S.table);
  if (S.table) {
    const o = S.table.options || {};
    $("#opt-mode").textContent = T[`mode_${S.table.mode}`] || S.table.mode;
    $("#opt-seats").textContent = String(o.seats);
    $("#opt-visibility").textContent = T[`vis_${S.table.visibility}`] || S.table.visibility;
    for (const name of ["hide_hand_counts", "play_on_after_winner"]) {
      const box = $(`#opt-${name}`);
      box.checked = !!o[name];
      box.disabled = !host || running;
    }
    const len = $("#opt-session_length");
    len.value = String(o.session_length);
    len.disabled = !host || running;
    const secs = $("#opt-turn_seconds");
    if (document.activeElement !== secs) secs.value = String(o.turn_seconds);
    secs.disabled = !host || running;
  }
}

function showCountdown(startsAt) {
  S.countdownAt = startsAt;
  const box = $("#countdown");
  const tick = () => {
    if (S.countdownAt !== startsAt) {
      if (!S.countdownAt) box.hidden = true;
      return;
    }
    const left = Math.ceil(startsAt - now());
    if (left <= 0 || phase() !== "lobby") {
      box.hidden = true;
      S.countdownAt = null;
      return;
    }
    box.hidden = false;
    const num = $("#countdown-num");
    if (num.textContent !== String(left)) {
      num.textContent = String(left);
      num.classList.remove("pop");
      void num.offsetWidth; // restart the animation
      num.classList.add("pop");
      beep("tick");
    }
    setTimeout(tick, 100);
  };
  tick();
}

// ---------------------------------------------------------------- board
function renderBoard() {
  if (board) { board.render(); return; }
  const v = view();
  if (!v) return;
  const felt = $("#felt");
  const me = mySeat();
  const opening = v.options && v.options.opening;
  const fresh = v.round === 0 && (!v.round_plays || v.round_plays.length === 0);
  // pods (everyone but me; a spectator sees seat 0 at the bottom as a pod)
  $$(".pod", felt).forEach((p) => p.remove());
  for (let s = 0; s < v.players; s += 1) {
    if (s === me) continue;
    felt.append(pod(s, v, fresh && opening));
  }
  renderCentre(v);
  renderMe(v, fresh && opening);
}

function lastActionOf(v, seat) {
  const plays = v.round_plays || [];
  for (let i = plays.length - 1; i >= 0; i -= 1) {
    const p = plays[i];
    if (p.seat !== seat) continue;
    if (p.pass) return { text: p.auto ? T.auto_pass : T.passed, kind: "pass" };
    return { text: `${comboLabel(T, p.combo, p.cards)} ${cardsText(p.cards)}`, kind: "play" };
  }
  return null;
}

function pod(s, v, openingFresh) {
  const seat = S.seats.find((x) => x.index === s) || {};
  const count = v.hand_counts ? v.hand_counts[s] : null;
  const isTurn = v.turn === s;
  const out = (v.out || []).includes(s);
  const cls = ["pod", `pos-${position(s)}`];
  if (isTurn) cls.push("is-turn");
  if (v.passed && v.passed[s]) cls.push("is-passed");
  if (out) cls.push("is-out");
  if (seat.auto) cls.push("is-auto");
  if (seat.disqualified) cls.push("is-disqualified");
  if (openingFresh && isTurn) cls.push("holds-3s");
  const last = lastActionOf(v, s);
  const backs = el("div", { class: "pod-backs", "aria-hidden": "true" });
  const shown = count === null || count === undefined ? 5 : Math.min(count, 13);
  for (let i = 0; i < shown; i += 1) backs.append(backElement());
  const node = el("div", { class: cls.join(" "), dataset: { seat: s } },
    el("div", { class: "pod-avatar", "aria-hidden": "true" },
      isBotSeat(seat) ? "AI" : (seatName(s) || "?").slice(0, 1).toUpperCase()),
    el("div", { class: "pod-body" },
      el("div", { class: "pod-name" }, seatName(s),
        isBotSeat(seat) ? el("span", { class: "badge-bot" }, T.bot) : null,
        seat.disqualified ? null : autoBadge(seat)),
      el("div", { class: "pod-meta" },
        el("span", { class: "pod-count", "aria-label": T.cards_left },
          count === null || count === undefined ? T.hidden_count : fmt(T.cards_n, { n: count })),
        out ? el("span", { class: "pod-out" }, T.out) : null,
        seat.disqualified ? autoBadge(seat) : null),  // on its own row: the name row truncates
      el("div", { class: `pod-last${last ? ` last-${last.kind}` : ""}` }, last ? last.text : "\u00a0"),
      isTurn ? timerBar(v) : null),
    backs);
  if (openingFresh && isTurn) {
    node.append(el("span", { class: "badge-3s", title: T.holds_3s }, cardText("3S")));
  }
  return node;
}

function timerBar(v) {
  return timerEl(v.deadline, (v.options && v.options.turn_seconds) || 30);
}

function tickTimers() {
  for (const t of $$(".timer")) {
    const deadline = parseFloat(t.dataset.deadline);
    if (!deadline) { t.hidden = true; continue; }
    t.hidden = false;
    const left = Math.max(0, deadline - now());
    const frac = Math.max(0, Math.min(1, left / parseFloat(t.dataset.total || "30")));
    t.style.setProperty("--frac", frac.toFixed(3));
    t.classList.toggle("timer-low", left <= 5);
    const text = t.querySelector(".timer-text");
    const secs = `${Math.ceil(left)}s`;
    if (text.textContent !== secs) text.textContent = secs;
  }
  if (S.table && S.table.next_game_at) {
    const n = $("[data-next-in]");
    if (n) {
      const left = Math.ceil(S.table.next_game_at - now());
      n.textContent = left > 0 ? fmt(T.next_deal_in, { n: left }) : "";
    }
  }
}

const OFFSETS = { bottom: [0, 160], top: [0, -160], left: [-240, 0], right: [240, 0] };

function renderCentre(v) {
  const centre = $("#centre");
  const cards = $("#centre-cards");
  const label = $("#centre-label");
  const note = $("#centre-note");
  const top = v.top;
  const key = top ? `${v.round}:${top.seat}:${top.cards.join(",")}` : `r${v.round}`;
  centre.classList.toggle("has-top", !!top);
  if (key !== S.lastTopKey) {
    cards.replaceChildren();
    if (top) {
      const [dx, dy] = OFFSETS[position(top.seat)];
      top.cards.forEach((id, i) => {
        const c = cardElement(id);
        c.style.setProperty("--from-x", `${dx}px`);
        c.style.setProperty("--from-y", `${dy}px`);
        c.style.setProperty("--i", i);
        if (S.lastTopKey !== null && !reducedMotion()) c.classList.add("fly-in");
        cards.append(c);
      });
    }
    S.lastTopKey = key;
  }
  if (top) {
    label.textContent = comboLabel(T, top.combo, top.cards);
    note.textContent = fmt(T.played_by, { name: seatName(top.seat) });
  } else if (v.finished) {
    label.textContent = "";
    note.textContent = "";
  } else if (v.turn !== null && v.turn !== undefined) {
    label.textContent = v.round === 0 ? T.new_game : fmt(T.round_n, { n: v.round + 1 });
    note.textContent = fmt(T.leads, { name: v.turn === mySeat() ? T.you_cap : seatName(v.turn) });
  }
  const turnEl = $("#turn-indicator");
  if (v.turn === null || v.turn === undefined) turnEl.textContent = "";
  else turnEl.textContent = v.turn === mySeat() ? T.your_turn : fmt(T.turn_of, { name: seatName(v.turn) });
  const chain = $("#chain-note");
  chain.textContent = v.chain ? fmt(T.chain_open, { name: seatName(v.chain.debtor), n: v.chain.points }) : "";
}

function sweep(winner) {
  const cards = $$("#centre-cards .pcard");
  if (!cards.length) return;
  beep("sweep");
  if (reducedMotion()) return;
  const felt = $("#felt");
  const ghost = $("#centre-cards").cloneNode(true);
  ghost.id = "";
  ghost.classList.add("sweep-ghost");
  const [dx, dy] = OFFSETS[position(winner)];
  ghost.style.setProperty("--to-x", `${dx * 1.4}px`);
  ghost.style.setProperty("--to-y", `${dy * 1.4}px`);
  const box = $("#centre-cards").getBoundingClientRect();
  const fbox = felt.getBoundingClientRect();
  Object.assign(ghost.style, { left: `${box.left - fbox.left}px`, top: `${box.top - fbox.top}px`,
    width: `${box.width}px`, height: `${box.height}px` });
  felt.append(ghost);
  requestAnimationFrame(() => ghost.classList.add("go"));
  setTimeout(() => ghost.remove(), 900);
}

function handCards(v) {
  const hand = v.hand || [];
  if (!S.order) return hand;
  const inHand = new Set(hand);
  const ordered = S.order.filter((c) => inHand.has(c));
  const seen = new Set(ordered);
  return ordered.concat(hand.filter((c) => !seen.has(c)));
}

function myTurnActive() {
  return !!(S.yourTurn && S.game && S.yourTurn.version === S.game.version &&
    view() && view().turn === mySeat() && !view().finished);
}

function legalMatch() {
  if (!myTurnActive() || S.pending || !S.selected.size) return null;
  const key = setKey(S.selected);
  return (S.yourTurn.legal || []).find((p) => setKey(p.cards) === key) || null;
}

function renderMe(v, openingFresh) {
  const me = mySeat();
  const zone = $("#me-zone");
  zone.hidden = me === null;
  if (me === null) return;
  const hand = $("#hand");
  const cards = handCards(v);
  for (const id of [...S.selected]) if (!cards.includes(id)) S.selected.delete(id);
  hand.replaceChildren();
  hand.style.setProperty("--n", cards.length);
  const required = v.required_card;
  for (const id of cards) {
    const c = cardElement(id, { interactive: true });
    const sel = S.selected.has(id);
    c.classList.toggle("selected", sel);
    c.setAttribute("aria-pressed", sel ? "true" : "false");
    if (required === id && openingFresh) c.classList.add("required");
    if (S.suggested && S.suggested.includes(id)) c.classList.add("suggested");
    hand.append(c);
  }
  layoutHand();
  const seat = S.seats.find((x) => x.index === me) || {};
  $("#me-name").textContent = seat.name || T.you_cap;
  $("#me-count").textContent = fmt(T.cards_n, { n: cards.length });
  $("#me-zone").classList.toggle("is-turn", v.turn === me && !v.finished);
  $("#me-zone").classList.toggle("holds-3s", openingFresh && v.turn === me);
  const timer = $("#me-timer");
  timer.replaceChildren();
  if (v.turn === me && !v.finished) timer.append(timerBar(v));
  $("#me-hint").textContent = openingFresh && required && v.turn === me
    ? fmt(T.must_include, { card: cardText(required) }) : "";
  updateActions();
}

function layoutHand() {
  const hand = $("#hand");
  const n = hand.children.length;
  if (!n) return;
  const cw = hand.firstElementChild.getBoundingClientRect().width || 64;
  const avail = hand.clientWidth - 4;
  const step = n > 1 ? Math.min(cw + 6, (avail - cw) / (n - 1)) : cw;
  hand.style.setProperty("--overlap", `${Math.min(0, step - cw)}px`);
}

function updateActions() {
  const active = myTurnActive() && !S.pending;
  const match = legalMatch();
  const play = $("#btn-play");
  play.disabled = !match;
  $("#btn-pass").disabled = !active || !S.yourTurn.can_pass;
  $("#btn-suggest").disabled = !active;
  $("#btn-sort").textContent = S.sortMode === "rank" ? T.sort_combos : T.sort_rank;
  const count = $("#sel-count");
  if (!S.selected.size) count.textContent = active ? T.select_hint : "";
  else {
    const base = fmt(T.selected_n, { n: S.selected.size });
    count.textContent = match ? `${base} · ${comboLabel(T, match.combo, match.cards)}`
      : active ? `${base} · ${T.not_legal}` : base;
  }
  count.classList.toggle("ok", !!match);
}

// selection: click / tap toggles, drag across cards selects or unselects a range
let drag = null;
function cardAt(x, y) {
  const node = document.elementFromPoint(x, y);
  return node ? node.closest("#hand .pcard") : null;
}
function setSelected(node, on) {
  const id = node.dataset.card;
  if (on) S.selected.add(id); else S.selected.delete(id);
  node.classList.toggle("selected", on);
  node.setAttribute("aria-pressed", on ? "true" : "false");
}
function bindHand() {
  const hand = $("#hand");
  hand.addEventListener("pointerdown", (e) => {
    const node = e.target.closest(".pcard");
    if (!node || e.button > 0) return;
    e.preventDefault();
    const on = !S.selected.has(node.dataset.card);
    drag = { on, touched: new Set([node]) };
    S.suggested = null;
    $$("#hand .suggested").forEach((n) => n.classList.remove("suggested"));
    setSelected(node, on);
    updateActions();
  });
  window.addEventListener("pointermove", (e) => {
    if (!drag) return;
    const node = cardAt(e.clientX, e.clientY);
    if (node && !drag.touched.has(node)) {
      drag.touched.add(node);
      setSelected(node, drag.on);
      updateActions();
    }
  });
  window.addEventListener("pointerup", () => { drag = null; });
  window.addEventListener("pointercancel", () => { drag = null; });
  hand.addEventListener("click", (e) => {
    // keyboard activation (Enter / Space) arrives as a click with detail 0
    const node = e.target.closest(".pcard");
    if (!node || e.detail !== 0) return;
    setSelected(node, !S.selected.has(node.dataset.card));
    updateActions();
  });
  window.addEventListener("resize", layoutHand);
}

// ---------------------------------------------------------------- sidebar
// Params of system lines that are game terms with their own entry (shown translated).
const SYS_TERMS = { claim: "diu_claim_", hand: "stud_hand_", instant: "instant_" };

/** A chat line's text in the page language: a system line with a known ``code`` renders
 * ``T.sys_<code>`` with its params (players' names as given); otherwise the stored text. */
function chatText(msg) {
  const template = msg.system && msg.code ? T[`sys_${msg.code}`] : undefined;
  if (template === undefined) return msg.text || "";
  const vars = { ...(msg.params || {}) };
  for (const [key, prefix] of Object.entries(SYS_TERMS)) {
    if (vars[key] !== undefined && T[prefix + vars[key]] !== undefined) vars[key] = T[prefix + vars[key]];
  }
  if (vars.hand !== undefined) vars.hand = String(vars.hand).replace(/_/g, " ");
  return fmt(template, vars);
}

function addChat(msg) {
  if (msg.id !== undefined && msg.id !== null) {
    if (S.chatIds.has(msg.id)) return;
    S.chatIds.add(msg.id);
  }
  const list = $("#chat-lines");
  const time = msg.at ? new Date(msg.at * 1000) : new Date();
  list.append(el("li", { class: msg.system ? "chat-line chat-system" : "chat-line" },
    el("time", { class: "chat-time", datetime: time.toISOString() },
      time.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })),
    msg.system ? null : el("strong", { class: "chat-author" }, msg.author || T.anonymous),
    el("span", { class: "chat-text" }, chatText(msg))));
  while (list.children.length > 200) list.firstChild.remove();
  list.scrollTop = list.scrollHeight;
  const tab = $("#tab-chat");
  if (tab.getAttribute("aria-selected") !== "true") {
    S.unread += 1;
    $("#chat-unread").textContent = String(S.unread);
    $("#chat-unread").hidden = false;
  }
}

function selectTab(name) {
  for (const tab of $$("[role=tab]", $("#side-tabs"))) {
    const on = tab.dataset.tab === name;
    tab.setAttribute("aria-selected", on ? "true" : "false");
    tab.tabIndex = on ? 0 : -1;
    $(`#panel-${tab.dataset.tab}`).hidden = !on;
  }
  if (name === "chat") {
    S.unread = 0;
    $("#chat-unread").hidden = true;
    const list = $("#chat-lines");
    list.scrollTop = list.scrollHeight;
  }
}

function renderScores() {
  const box = $("#score-box");
  box.replaceChildren();
  const session = S.session;
  if (!session || !session.totals) {
    box.append(el("p", { class: "muted" }, T.no_scores));
    return;
  }
  box.append(el("p", { class: "muted" }, fmt(T.games_played, { n: session.played || 0, total: session.games || "" })));
  box.append(scoreTable(T, { name: seatName }, session.breakdown || [], session.totals));
}

// ---------------------------------------------------------------- results
function ctx() {
  return {
    name: seatName, you: mySeat(), homeUrl: CFG.home_url, tableName: S.table ? S.table.name : "",
    number: S.game ? S.game.number : 0, games: S.game ? S.game.games : 0,
  };
}

function renderResultView() {
  const v = view();
  const result = (S.ended && S.ended.result) || v.result;
  if (!result) return;
  const stats = S.ended ? S.ended.stats : null;
  const canNext = mySeat() !== null && S.table && S.table.status === "in_progress" &&
    !(S.session && S.session.finished);
  renderResult($("#result-body"), T, ctx(), result, stats, {
    canNext,
    extra: board ? board.resultExtra(result) : null,
    next: () => { send({ type: "next_game" }); $("#btn-next-game").disabled = true; },
    copy: () => copyText(resultText(T, ctx(), result, stats), T.result_copied),
  });
}

function renderSessionView() {
  const summary = S.sessionEnd || S.session;
  if (!summary) return;
  renderSession($("#session-body"), T, ctx(), summary);
}

async function copyText(text, done) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const area = el("textarea", { style: { position: "fixed", opacity: "0" } });
    area.value = text;
    document.body.append(area);
    area.select();
    document.execCommand("copy");
    area.remove();
  }
  toast(done, "ok");
}

// ---------------------------------------------------------------- frames
function applyGame(number, games, version, state, status = "running") {
  const prev = S.game;
  if (!prev || prev.number !== number) {
    S.order = null;
    S.selected.clear();
    S.suggested = null;
    S.ended = null;
    S.lastTopKey = null;
  }
  S.game = { number, games, version, status: state.finished ? "finished" : status, state };
  if (S.yourTurn && (S.yourTurn.game !== number || S.yourTurn.version < version)) S.yourTurn = null;
  S.pending = false;
}

function onEvents(events, initial = false) {
  if (board) { board.onEvents(events, initial); return; }
  for (const e of events || []) {
    switch (e.type) {
      case "cards_played": {
        const who = e.seat === mySeat() ? T.you_cap : seatName(e.seat);
        logLine(`${who}: ${comboLabel(T, e.combo, e.cards)} ${cardsText(e.cards)}${e.auto ? ` (${T.auto})` : ""}`,
          e.cut ? "log-cut" : "");
        if (!initial) beep(e.cut ? "cut" : "play");
        break;
      }
      case "passed":
        logLine(`${e.seat === mySeat() ? T.you_cap : seatName(e.seat)}: ${e.auto ? T.auto_pass : T.passed}`, "log-pass");
        if (!initial) beep("pass");
        break;
      case "cut": {
        const text = fmt(T.cut_announce, { name: seatName(e.seat), victim: seatName(e.victim), n: e.points });
        logLine(`${text}${e.chain_points && e.chain_points !== e.points ? ` · ${fmt(T.chain_total, { n: e.chain_points })}` : ""}`, "log-cut");
        if (!initial) announce(text, "cut");
        break;
      }
      case "chain_void":
        logLine(T.chain_void, "log-cut");
        break;
      case "round_ended":
        logLine(fmt(T.round_won, { name: seatName(e.winner) }) +
          (e.huong_sai ? ` · ${fmt(T.huong_sai, { name: seatName(e.leader) })}` : ""), "log-round");
        for (const t of e.transfers || []) {
          logLine(`${seatName(t.from)} → ${seatName(t.to)}: ${t.points} (${T[`reason_${t.reason}`] || t.reason})`, "log-cut");
        }
        if (!initial) sweep(e.winner);
        break;
      case "player_out":
        logLine(fmt(T.player_out, { name: seatName(e.seat), place: e.place }), "log-round");
        break;
      case "instant_win":
        logLine(`${T.reason_toi_trang}: ${seatName(e.seat ?? e.winner)}`, "log-round");
        break;
      case "hand":
        break;
      default:
        break;
    }
  }
}

function announce(text, kind) {
  const box = $("#announce");
  box.textContent = text;
  box.className = `announce announce-${kind} show`;
  clearTimeout(announce.timer);
  announce.timer = setTimeout(() => { box.className = "announce"; }, 2400);
}

const handlers = {
  bot_record: addBotRecord,
  snapshot(f) {
    S.offset = (f.server_time || Date.now() / 1000) - Date.now() / 1000;
    S.table = f.table;
    S.seats = f.seats || [];
    S.you = f.you;
    S.session = f.session || null;
    if (f.game) applyGame(f.game.number, f.game.games, f.game.version, f.game.state, f.game.status);
    else S.game = null;
    S.yourTurn = f.your_turn || null;
    if (S.yourTurn && S.game && S.yourTurn.version !== S.game.version) S.yourTurn = null;
    if (S.table && S.table.status === "completed" && S.session && S.session.finished) {
      S.sessionEnd = S.session;
    }
    const chat = f.chat || {};
    for (const room of ["table", "spectators"]) for (const m of chat[room] || []) addChat(m);
    if (S.table && S.table.starts_at && S.table.starts_at > now()) showCountdown(S.table.starts_at);
    render();
  },
  table_updated(f) {
    if (S.table && f.table.version < S.table.version) return;
    S.table = f.table;
    S.seats = f.seats || S.seats;
    if (S.you && S.you.role === "spectator" && CFG.user_id) {
      const mine = S.seats.find((s) => s.user_id === CFG.user_id);
      if (mine) S.you = { ...S.you, role: "player", seat: mine.index };
    } else if (S.you && S.you.role === "player") {
      const mine = S.seats.find((s) => s.index === S.you.seat);
      if (mine && mine.user_id !== CFG.user_id && S.table.status !== "in_progress") {
        S.you = { ...S.you, role: "spectator", seat: null, is_host: false };
      }
    }
    if (!S.table.starts_at || phase() !== "lobby") {
      S.countdownAt = null;
      $("#countdown").hidden = true;
    } else if (S.table.starts_at > now() && S.countdownAt !== S.table.starts_at) {
      showCountdown(S.table.starts_at);
    }
    render();
  },
  player_joined(f) {
    logLine(fmt(T.joined, { name: f.name || seatName(f.seat) }));
  },
  player_left(f) {
    const key = { left: T.left, kicked: T.kicked, disconnected: T.disconnected }[f.reason] || T.left;
    logLine(fmt(key, { name: f.name || seatName(f.seat) }));
    if (f.reason === "kicked" && f.seat === mySeat() && phase() === "lobby") toast(T.you_were_kicked, "error");
  },
  countdown(f) {
    showCountdown(f.starts_at);
    render();
  },
  game_started(f) {
    S.sessionEnd = null;
    $("#game-log").replaceChildren();
    applyGame(f.game, f.games, f.version, f.state);
    if (S.table) S.table = { ...S.table, status: "in_progress", current_game: f.game, next_game_at: null };
    $("#countdown").hidden = true;
    S.countdownAt = null;
    logLine(fmt(T.game_n_of, { n: f.game, total: f.games }), "log-round");
    onEvents(f.events, true);
    const v = view();
    if (v && v.options && v.options.opening && v.turn !== null) {
      logLine(v.turn === mySeat() ? T.you_lead_3s : fmt(T.leads_3s, { name: seatName(v.turn) }), "log-round");
    }
    selectTab("log");
    render();
  },
  game_state_update(f) {
    if (!S.game || f.game !== S.game.number || f.version !== S.game.version + 1) {
      if (S.game && f.game === S.game.number && f.version <= S.game.version) return;
      send({ type: "sync" });
      return;
    }
    onEvents(f.events);
    applyGame(f.game, S.game.games, f.version, f.state);
    render();
  },
  your_turn(f) {
    S.yourTurn = f;
    S.pending = false;
    if (notifyTurn(`${f.game}:${f.version}`, T.your_turn_title, fmt(T.your_turn_body, { table: S.table ? S.table.name : "" }))) {
      beep("turn");
    }
    if (phase() === "game" && board) board.render();
    else if (phase() === "game") renderMe(view(), view().round === 0 && !(view().round_plays || []).length && view().options.opening);
  },
  turn_timeout(f) {
    const who = f.seat === mySeat() ? T.you_cap : seatName(f.seat);
    const why = { timeout: T.timed_out, disconnected: T.disconnected_auto, auto: T.auto }[f.reason] || T.timed_out;
    logLine(`${who}: ${why}`, "log-pass");
    if (f.seat === mySeat() && f.reason === "timeout") toast(T.you_timed_out, "warn");
  },
  game_ended(f) {
    S.ended = { result: f.result, stats: f.stats };
    S.session = f.session || S.session;
    if (S.game && S.game.state) {
      S.game.state = { ...S.game.state, finished: true, result: f.result, hands: f.result.hands, turn: null };
      S.game.status = "finished";
    }
    const me = mySeat();
    beep(f.result.winner === me ? "win" : "sweep");
    logLine(winnerLine(T, seatName, f.result), "log-round");
    if (S.table && !S.table.next_game_at && !(S.session && S.session.finished)) {
      S.table = { ...S.table, next_game_at: now() + 20 };
    }
    render();
  },
  session_ended(f) {
    S.sessionEnd = {
      totals: f.totals, ranking: f.ranking, breakdown: f.breakdown, cumulative: f.cumulative,
      games: f.games, finished: true,
    };
    if (S.table) S.table = { ...S.table, status: "completed" };
    render();
  },
  message_received(f) {
    addChat(f);
  },
  suggestion(f) {
    const action = f.action || {};
    if (action.type === "play" && Array.isArray(action.cards)) {
      S.selected = new Set(action.cards);
      S.suggested = action.cards;
    } else {
      S.selected.clear();
      S.suggested = null;
      toast(T.suggest_pass);
      $("#btn-pass").classList.add("pulse");
      setTimeout(() => $("#btn-pass").classList.remove("pulse"), 1500);
    }
    renderMe(view(), false);
  },
  arranged(f) {
    S.order = f.cards;
    renderMe(view(), false);
  },
  error(f) {
    S.pending = false;
    if (f.code === "stale_version") {
      send({ type: "sync" });
      return;
    }
    toast(T[`err_${f.code}`] || f.detail || f.code, "error");
    if (phase() === "game") (board ? board.render() : updateActions());
  },
  pong(f) {
    if (f.server_time) S.offset = f.server_time - Date.now() / 1000;
  },
};

// ---------------------------------------------------------------- wiring
function onStatus(status, code) {
  const banner = $("#conn-banner");
  if (status === "reconnecting") {
    banner.textContent = T.reconnecting;
    banner.hidden = false;
  } else if (status === "refused") {
    banner.textContent = code === 4404 ? T.table_gone : T.connection_refused;
    banner.hidden = false;
  } else if (status === "open") {
    banner.hidden = true;
  }
}

installSprite();
const socket = new LiveSocket(wsUrl(CFG.ws), {
  onFrame: (f) => handlers[f.type]?.(f),
  onOpen: (reconnected) => { if (reconnected) send({ type: "sync" }); },
  onStatus,
});

$("#btn-ready").addEventListener("click", () => {
  askPermission();
  const me = S.seats.find((s) => s.index === mySeat());
  send({ type: "player_ready", ready: !(me && me.ready) });
});
$("#btn-end-session").addEventListener("click", () => {
  if (window.confirm(T.end_session_confirm)) send({ type: "end_session" });
});
$("#btn-start").addEventListener("click", () => {
  askPermission();
  send({ type: "start_game" });
});
for (const btn of $$("[data-leave]")) {
  btn.addEventListener("click", () => {
    const seated = mySeat() !== null;
    if (seated && phase() === "game" && !window.confirm(T.leave_confirm)) return;
    if (seated) send({ type: "leave_table" });
    setTimeout(() => { window.location.href = CFG.home_url; }, 250);
  });
}
$("#btn-play").addEventListener("click", () => {
  const match = legalMatch();
  if (!match) return;
  S.pending = true;
  send({ type: "play_cards", version: S.game.version, cards: match.cards });
  S.selected.clear();
  S.suggested = null;
  updateActions();
});
$("#btn-pass").addEventListener("click", () => {
  if (!myTurnActive()) return;
  S.pending = true;
  send({ type: "pass_turn", version: S.game.version });
  S.selected.clear();
  updateActions();
});
$("#btn-suggest").addEventListener("click", () => send({ type: "suggest" }));
$("#btn-sort").addEventListener("click", () => {
  S.sortMode = S.sortMode === "rank" ? "combos" : "rank";
  send({ type: "arrange", mode: S.sortMode });
  updateActions();
});
$("#btn-copy-link").addEventListener("click", () => copyText(CFG.share_url, T.link_copied));
$("#chat-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const input = $("#chat-input");
  const text = input.value.trim();
  if (!text) return;
  if (Array.from(text).length > 500) { toast(T.err_message_too_long, "error"); return; } // code points, as the server counts
  send({ type: "send_message", text });
  input.value = "";
});
for (const tab of $$("[role=tab]", $("#side-tabs"))) {
  tab.addEventListener("click", () => selectTab(tab.dataset.tab));
  tab.addEventListener("keydown", (e) => {
    const tabs = $$("[role=tab]", $("#side-tabs"));
    const i = tabs.indexOf(tab);
    if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
      const next = tabs[(i + (e.key === "ArrowRight" ? 1 : tabs.length - 1)) % tabs.length];
      selectTab(next.dataset.tab);
      next.focus();
    }
  });
}
for (const name of ["hide_hand_counts", "play_on_after_winner"]) {
  $(`#opt-${name}`).addEventListener("change", (e) => send({ type: "set_option", name, value: e.target.checked }));
}
$("#opt-session_length").addEventListener("change", (e) =>
  send({ type: "set_option", name: "session_length", value: parseInt(e.target.value, 10) }));
$("#opt-turn_seconds").addEventListener("change", (e) => {
  const value = parseInt(e.target.value, 10);
  if (value >= 5 && value <= 300) send({ type: "set_option", name: "turn_seconds", value });
});

// settings dialog: sound, motion, notifications (language is a plain form)
const dialog = $("#settings-dialog");
$("#btn-settings").addEventListener("click", () => {
  $("#set-mute").checked = isMuted();
  $("#set-motion").checked = document.documentElement.classList.contains("reduce-motion");
  $("#set-notify-state").textContent = T[`notify_${permissionState()}`] || "";
  dialog.showModal();
});
$("#set-mute").addEventListener("change", (e) => { setMuted(e.target.checked); renderMuteIcon(); });
$("#set-motion").addEventListener("change", (e) => {
  document.documentElement.classList.toggle("reduce-motion", e.target.checked);
  window.localStorage.setItem("tienlen.reduceMotion", e.target.checked ? "1" : "0");
});
$("#set-notify").addEventListener("click", () => {
  askPermission();
  setTimeout(() => { $("#set-notify-state").textContent = T[`notify_${permissionState()}`] || ""; }, 800);
});
$("#btn-mute").addEventListener("click", () => { setMuted(!isMuted()); renderMuteIcon(); });
function speakerIcon(muted) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("width", "20");
  svg.setAttribute("height", "20");
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS(ns, "path");
  path.setAttribute("d", muted
    ? "M4 9h4l5-4v14l-5-4H4zM16 9l5 6M21 9l-5 6"
    : "M4 9h4l5-4v14l-5-4H4zM16 8.5a5 5 0 0 1 0 7M18.5 6a8.5 8.5 0 0 1 0 12");
  path.setAttribute("fill", "none");
  path.setAttribute("stroke", "currentColor");
  path.setAttribute("stroke-width", "2");
  path.setAttribute("stroke-linejoin", "round");
  path.setAttribute("stroke-linecap", "round");
  svg.append(path);
  return svg;
}
function renderMuteIcon() {
  const b = $("#btn-mute");
  b.replaceChildren(speakerIcon(isMuted()));
  b.setAttribute("aria-pressed", isMuted() ? "true" : "false");
  b.title = isMuted() ? T.unmute : T.mute;
}
if (window.localStorage.getItem("tienlen.reduceMotion") === "1") {
  document.documentElement.classList.add("reduce-motion");
}
renderMuteIcon();
bindHand();
selectTab("chat");
setInterval(tickTimers, 200);
