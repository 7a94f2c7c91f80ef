// The live table page, the chrome every game shares: lobby and seats, chat, log, timers, results,
// session summary, settings and the socket. Talks docs/protocol.md over /ws/tables/<code>/.
// The felt and the action bar are the game's board: static/js/boards/<game>.js, imported from
// CFG.board_script (games/views.py) and driven through the hooks of its createBoard(api)
// (docs/architecture.md, "How a game plugs into the table layer"); this file names no game.
// The server decides everything; the browser only shows the per-seat view and offers the
// plays listed in `your_turn.legal`. All text goes through textContent.
import { $, $$, clockTime, el, fmt, timerEl } from "./table/dom.js";
import { installSprite, setCardNamer } from "./table/cards.js";
import { LiveSocket, wsUrl } from "./table/socket.js";
import { beep } from "./table/sound.js";
import {
  clearTurn, notifyTurn, setBaseTitle, setTurnIcon,
} from "./table/notify.js";
import { winnerLine, renderResult, renderSession, resultText, scoreTable } from "./table/results.js";
import { addBotRecord } from "./table/botlog.js";
import { renderRematch } from "./table/rematch.js";
import { say, spokenCard } from "./table/speech.js";
import { installPreferences } from "./table/prefs.js";
import { installKeys } from "./table/keys.js";
import { createWatch } from "./table/watch.js";
import { runCountdown } from "./table/countdown.js";

const CFG = JSON.parse($("#table-config").textContent);
const T = JSON.parse($("#table-i18n").textContent);
const app = $("#table-app");
setCardNamer((id) => spokenCard(T, id));

const S = {
  table: null, seats: [], you: null, game: null, yourTurn: null, session: null,
  offset: 0, pending: false, ended: null, sessionEnd: null, chatIds: new Set(), unread: 0,
  countdownAt: null, rematch: null, spokenTurn: null, spokenLow: null,
};
// Seconds left on your turn when the assertive region says time is running low (once a turn).
const LOW_SECONDS = 10;

// ---------------------------------------------------------------- helpers
const now = () => Date.now() / 1000 + S.offset;
const mySeat = () => (S.you && S.you.role === "player" ? S.you.seat : null);
const view = () => (S.game ? S.game.state : null);
const seatName = (i) => {
  const seat = S.seats.find((s) => s.index === i);
  if (!seat) return fmt(T.seat_n, { n: i + 1 });
  if (seat.kind === "house") {
    return seat.name ? playerName(seat.name) : fmt(T.house_ai_level, { level: levelName(seat.house_level) });
  }
  if (seat.kind === "bot") return seat.name || (seat.bot && seat.bot.name) || T.bot;
  return seat.name || fmt(T.seat_n, { n: i + 1 });
};
const levelName = (l) => T[`level_${l}`] || l || "";
// System-made names are stored in English and read in the page language (games/display.py):
// a house AI's "AI Tùng (hard)" and a practice table's "Practice — Lan".
const playerName = (name) => String(name ?? "").replace(/^(AI \S+) \((easy|medium|hard|expert)\)$/,
  (m, who, level) => `${who} (${levelName(level)})`);
const displayTableName = (name) => {
  const m = /^Practice — (.+)$/s.exec(String(name ?? ""));
  return m ? fmt(T.practice_name, { name: m[1] }) : String(name ?? "");
};
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
// The game's board (static/js/boards/<game>.js). Its hooks: render(), onEvents(events, initial),
// resultExtra(result), lobby(table) and the optional turnSeat(view), resultTitle(result),
// resultLines(result, stats), refresh(), newGame(), onFrame(frame), roundNumber(view), systemTerms
// (docs/architecture.md).
const { createBoard } = await import(CFG.board_script);
const board = createBoard({
  T, S, send, act, myTurnActive, mount, mySeat, seatName, isBotSeat, autoBadge, logLine, beep, toast,
  turnTimer, say,
});

/** The turn timer of ``seat`` (a seat object): the table's turn time for a person; for a bot
 * seat (not played by the house for an absent person) its own limit (CFG.bot_turn_seconds)
 * from the turn's start. ``deadline`` is the turn's deadline for a person (unix seconds). */
function turnTimer(seat, deadline, turnSeconds) {
  if (seat && seat.kind === "bot" && deadline && CFG.bot_turn_seconds) {
    const started = deadline - turnSeconds;
    return timerEl(started + CFG.bot_turn_seconds, CFG.bot_turn_seconds);
  }
  return timerEl(deadline, turnSeconds);
}

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

/** Whose move the current view waits for: the board's turnSeat(view), else ``view.turn``. */
function turnSeat(v) {
  return board.turnSeat ? board.turnSeat(v) : v.turn;
}

/** Is the latest view waiting for this viewer, with a `your_turn` of the same version? */
function myTurnActive() {
  const me = mySeat();
  const v = view();
  return !!(me !== null && S.yourTurn && S.game && S.yourTurn.version === S.game.version &&
    v && !v.finished && turnSeat(v) === me);
}

/**
 * Send a move on the current version if it is this viewer's turn and no move is in flight:
 * ``frame`` is a client frame without its version: ``{type: "game_action", action}`` for every
 * game (the server still reads the aliases ``play_cards`` / ``pass_turn``). Marks it pending;
 * returns whether it went.
 */
function act(frame) {
  if (!myTurnActive() || S.pending) return false;
  S.pending = true;
  send({ ...frame, version: S.game.version });
  return true;
}

/**
 * A board that draws its felt in JS (no templates/games/boards/<game>.html of its own): hide the
 * shared lobby options listed in ``hide`` (ids without ``opt-``), put ``note`` as the rules line,
 * and add a layer on the felt, a bar under it and a line for the game's options in the lobby:
 * ``<name>-layer``, ``<name>-bar``, ``<name>-options``.
 * @returns {{layer: HTMLElement, bar: HTMLElement, options: HTMLElement}}
 */
function mount(name, { hide = [], note = null } = {}) {
  const layer = el("div", { class: `${name}-layer`, id: `${name}-layer` });
  $("#felt").append(layer);
  const bar = el("div", { class: `${name}-bar`, id: `${name}-bar`, hidden: true });
  $("#felt").after(bar);
  for (const id of hide) {
    const label = $(`#opt-${id}`) && $(`#opt-${id}`).closest("label");
    if (label) label.hidden = true;
  }
  if (note) $("#rules-note").replaceChildren(note);
  const options = el("p", { class: "muted small", id: `${name}-options` });
  $(".rule-options").append(options);
  return { layer, bar, options };
}

// ---------------------------------------------------------------- phases
function phase() {
  if (S.sessionEnd) return "session";
  const st = S.table ? S.table.status : "waiting";
  if (st === "completed" && S.session && S.session.finished) return "session";
  // deal secrecy: a spectator gets no card while this deal is played elsewhere (hidden frames)
  if (S.game && S.game.hidden) return st === "waiting" || st === "ready" ? "lobby" : "hidden";
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
  $("#hidden-view").hidden = p !== "hidden";
  renderTopbar();
  if (p === "lobby") renderLobby();
  if (p === "game" || p === "result") board.render();
  if (p === "result") renderResultView();
  if (p === "session") renderSessionView();
  renderScores();
  renderWatch();
  if (!myTurnActive()) clearTurn(); // the turn passed: the hidden tab's alert goes
}

function renderTopbar() {
  const counter = $("#game-counter");
  if (S.game) counter.textContent = fmt(T.game_n_of, { n: S.game.position, total: S.game.games });
  else counter.textContent = S.table ? T[`status_${S.table.status}`] || "" : "";
  // the round (vòng) in play, for a board that counts them (its roundNumber(view), 1-based)
  const round = S.game && view() && !view().finished && board.roundNumber ? board.roundNumber(view()) : null;
  $("#round-counter").textContent = round ? fmt(T.round_in_bar, { n: round }) : "";
  $("#round-counter").hidden = !round;
  const title = S.table ? `${displayTableName(S.table.name)} · ${T.site}` : document.title;
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
      ? el("span", { class: "lseat-ready", role: "img", title: seat.ready ? T.ready : T.not_ready,
        "aria-label": seat.ready ? T.ready : T.not_ready }, seat.ready ? "✓" : "")
      : isBotSeat(seat) ? el("span", { class: "lseat-ready", role: "img", "aria-label": T.ready }, "✓") : el("span");
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
  // Start implies the host's Ready when everybody else is ready (house AIs and bots are)
  const othersReady = S.seats.every((s) => s.index === me || (s.kind !== "empty" && s.ready));
  const canStart = S.table && (S.table.status === "ready" ||
    (S.table.status === "waiting" && meSeat !== undefined && othersReady));
  start.disabled = !canStart || !!S.countdownAt;
  $("#lobby-hint").textContent = !S.table ? "" : host
    ? (canStart ? T.hint_can_start : T.hint_wait_ready)
    : me !== null ? T.hint_wait_host : CFG.authenticated ? T.hint_pick_seat : T.hint_login;
  $("#login-to-sit").hidden = CFG.authenticated || me !== null;

  // settings panel
  board.lobby(S.table);
  if (S.table) {
    const o = S.table.options || {};
    $("#opt-mode").textContent = T[`mode_${tableMode()}`] || S.table.mode;
    $("#opt-seats").textContent = String(o.seats);
    $("#opt-visibility").textContent = T[`vis_${S.table.visibility}`] || S.table.visibility;
    const len = $("#opt-session_length");
    len.value = String(o.session_length);
    len.disabled = !host || running;
    const secs = $("#opt-turn_seconds");
    if (document.activeElement !== secs) secs.value = String(o.turn_seconds);
    secs.disabled = !host || running;
    // watching with hands shown: the host's choice at a casual table (a rated one: never live)
    const hands = $("#opt-spectator_hands");
    hands.value = o.spectator_hands === "live" ? "live" : "never";
    hands.disabled = !host || running || isRated();
  }
}

/** A rated table (games.models.is_rated): a tournament's, or options.rated. */
function isRated() {
  return !!S.table && (S.table.mode === "tournament" || (S.table.options || {}).rated === true);
}

// ---------------------------------------------------------------- watching with hands shown
const W = createWatch({ S, T, isRated: () => isRated(), seatName: (i) => seatName(i) });
const renderWatch = () => W.render();
const watchAnswer = (f) => W.answer(f);

/** The table's mode as the spec names it: a casual table with a bot or house AI beside people
 * is Hybrid (practice and arena tables keep theirs). */
function tableMode() {
  const mode = S.table.mode;
  if (mode === "casual" && S.seats.some(isBotSeat) && S.seats.some((s) => s.kind === "human")) return "hybrid";
  return mode;
}

const showCountdown = (startsAt) => runCountdown({ S, now, phase }, startsAt);

// ---------------------------------------------------------------- timers
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
  const rematchLeft = $("[data-rematch-deadline]");
  if (rematchLeft) {
    const left = Math.max(0, Math.ceil(parseFloat(rematchLeft.dataset.rematchDeadline) - now()));
    const text = fmt(T.rematch_left, { n: left });
    if (rematchLeft.textContent !== text) rematchLeft.textContent = text;
  }
  // time running low on your turn: said once, in the assertive region
  if (myTurnActive() && S.yourTurn.deadline) {
    const left = S.yourTurn.deadline - now();
    const key = `${S.yourTurn.game}:${S.yourTurn.version}`;
    if (left > 0 && left <= Math.min(LOW_SECONDS, (S.yourTurn.turn_seconds || 30) / 2) && S.spokenLow !== key) {
      S.spokenLow = key;
      say(fmt(T.sr_time_low, { n: Math.ceil(left) }), { urgent: true });
    }
  }
  if (S.table && S.table.next_game_at) {
    const n = $("[data-next-in]");
    if (n) {
      const left = Math.ceil(S.table.next_game_at - now());
      n.textContent = left > 0 ? fmt(T.next_deal_in, { n: left }) : "";
    }
  }
}

// ---------------------------------------------------------------- sidebar
// Params of system lines that are game terms with their own entry (shown translated): the
// board's systemTerms, {param: prefix of its T key} (stud: {hand: "stud_hand_"}).
const SYS_TERMS = board.systemTerms || {};

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
  for (const key of ["name", "victim"]) if (typeof vars[key] === "string") vars[key] = playerName(vars[key]);
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
      clockTime(time)),
    msg.system ? null : el("strong", { class: "chat-author" }, playerName(msg.author) || T.anonymous),
    el("span", { class: "chat-text" }, chatText(msg))));
  while (list.children.length > 200) list.firstChild.remove();
  list.scrollTop = list.scrollHeight;
  const tab = $("#tab-chat");
  // the badge counts what people wrote, not the system's lines
  if (!msg.system && tab.getAttribute("aria-selected") !== "true") {
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
    name: seatName, you: mySeat(), homeUrl: CFG.home_url, tableName: S.table ? displayTableName(S.table.name) : "",
    // number: the table's game (the replay's address); position: n of N in the session
    number: S.game ? S.game.number : 0, position: S.game ? S.game.position : 0, games: S.game ? S.game.games : 0,
    replayUrl: $("#result-view").dataset.replayUrl || null,
  };
}

function renderResultView() {
  const v = view();
  const result = (S.ended && S.ended.result) || v.result;
  if (!result) return;
  const stats = S.ended ? S.ended.stats : null;
  const canNext = mySeat() !== null && S.table && S.table.status === "in_progress" &&
    !(S.session && S.session.finished);
  const lines = (board.resultLines && board.resultLines(result, stats)) || {};
  renderResult($("#result-body"), T, ctx(), result, stats, {
    canNext,
    lines,
    title: board.resultTitle ? board.resultTitle(result) : null,
    extra: board.resultExtra(result),
    next: () => { send({ type: "next_game" }); $("#btn-next-game").disabled = true; },
    copy: () => copyText(resultText(T, ctx(), result, stats, lines.text), T.result_copied),
  });
}

function renderSessionView() {
  const summary = S.sessionEnd || S.session;
  if (!summary) return;
  const body = $("#session-body");
  renderSession(body, T, ctx(), summary);
  // the rematch block right under the head, where a phone shows it without scrolling
  const rematch = renderRematch(T, {
    offer: S.rematch, you: mySeat(), table: { mode: CFG.mode }, name: seatName, send,
    seconds: CFG.rematch_seconds,
  });
  if (rematch) body.firstElementChild.after(rematch);
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
function applyGame(number, games, version, state, status = "running", hidden = null, position = null) {
  const prev = S.game;
  if (!prev || prev.number !== number) {
    S.ended = null;
    if (board.newGame) board.newGame();
  }
  // number: the table's game (its address); position: n of N in the session (after a rematch
  // the table keeps counting while the new session counts from 1)
  const pos = position ?? (prev && prev.number === number ? prev.position : number);
  // ``hidden`` ("deal_in_play"): a spectator's frame without any card (state null)
  if (hidden || !state) {
    S.game = { number, position: pos, games, version, status, state: null, hidden: hidden || "deal_in_play" };
  } else {
    S.game = { number, position: pos, games, version, status: state.finished ? "finished" : status, state };
  }
  if (S.yourTurn && (S.yourTurn.game !== number || S.yourTurn.version < version)) S.yourTurn = null;
  S.pending = false;
}

function onEvents(events, initial = false) {
  board.onEvents(events, initial);
}

const handlers = {
  bot_record: addBotRecord,
  show_hands: watchAnswer,
  all_hands(f) {
    if (!W.on || W.mode !== "live") return;
    W.hands = f;
    renderWatch();
  },
  snapshot(f) {
    S.offset = (f.server_time || Date.now() / 1000) - Date.now() / 1000;
    S.table = f.table;
    S.seats = f.seats || [];
    S.you = f.you;
    S.session = f.session || null;
    S.rematch = f.rematch || null;
    if (f.game) {
      applyGame(f.game.number, f.game.games, f.game.version, f.game.state, f.game.status, f.game.hidden, f.game.position);
    }
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
    if (W.on) send({ type: "show_hands", on: true }); // a reconnect: ask again
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
    S.rematch = null;
    $("#game-log").replaceChildren();
    applyGame(f.game, f.games, f.version, f.state, "running", f.hidden, f.position);
    if (S.table) S.table = { ...S.table, status: "in_progress", current_game: f.game, next_game_at: null };
    $("#countdown").hidden = true;
    S.countdownAt = null;
    logLine(fmt(T.game_n_of, { n: f.position ?? f.game, total: f.games }), "log-round");
    say(fmt(T.game_n_of, { n: f.position ?? f.game, total: f.games }));
    onEvents(f.events, true);
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
    applyGame(f.game, S.game.games, f.version, f.state, "running", f.hidden);
    render();
  },
  game_version(f) {
    // beat re-announces a recently moved game's version: behind it (a move whose frames were
    // lost with the process that committed it), ask for the snapshot
    if (!S.game || f.game > S.game.number || (f.game === S.game.number && f.version > S.game.version)) {
      send({ type: "sync" });
    }
  },
  your_turn(f) {
    S.yourTurn = f;
    S.pending = false;
    const key = `${f.game}:${f.version}`;
    if (S.spokenTurn !== key) {
      S.spokenTurn = key;
      say(T.your_turn, { urgent: true });
    }
    if (notifyTurn(`${f.game}:${f.version}`, T.your_turn_title, fmt(T.your_turn_body, { table: S.table ? displayTableName(S.table.name) : "" }))) {
      beep("turn");
    }
    if (phase() === "game") refreshBoard();
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
    } else if (S.game) {
      S.game.status = "finished"; // a hidden game (deal secrecy): the scores, no card
    }
    const me = mySeat();
    beep(f.result.winner === me ? "win" : "sweep");
    logLine(winnerLine(T, seatName, f.result), "log-round");
    say(`${fmt(T.sr_game_over, { n: f.game })} ${winnerLine(T, seatName, f.result)}`);
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
  rematch_offer(f) {
    S.rematch = f.rematch;
    render();
  },
  rematch_ended(f) {
    S.rematch = null;
    if (f.outcome === "started") {
      S.sessionEnd = null; // the lobby shows the seats and the countdown to the new session
      S.session = null;
    } else {
      toast(T.rematch_lapsed, "warn");
    }
    render();
  },
  message_received(f) {
    addChat(f);
  },
  error(f) {
    S.pending = false;
    if (f.ref === "show_hands") {
      W.on = false;
      renderWatch();
    }
    if (f.code === "stale_version") {
      send({ type: "sync" });
      return;
    }
    toast(T[`err_${f.code}`] || f.detail || f.code, "error");
    if (phase() === "game") refreshBoard();
  },
  pong(f) {
    if (f.server_time) S.offset = f.server_time - Date.now() / 1000;
  },
};

/** After `your_turn` or a refused move: the board's refresh() (its bar), else a full render(). */
function refreshBoard() {
  if (board.refresh) board.refresh();
  else board.render();
}

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
setTurnIcon(CFG.favicon_turn);
const socket = new LiveSocket(wsUrl(CFG.ws), {
  onFrame: (f) => (handlers[f.type] ? handlers[f.type](f) : board.onFrame?.(f)),
  onOpen: (reconnected) => { if (reconnected) send({ type: "sync" }); },
  onStatus,
});

$("#btn-ready").addEventListener("click", () => {
  const me = S.seats.find((s) => s.index === mySeat());
  send({ type: "player_ready", ready: !(me && me.ready) });
});
/** The site's own confirmation dialog (not the browser's plain confirm): resolves true when
 * the person presses ``ok`` (its label), false on Cancel or Escape. */
function confirmDialog(text, ok) {
  const box = $("#confirm-dialog");
  $("#confirm-dialog-text").textContent = text;
  $("#confirm-ok").textContent = ok;
  box.returnValue = "";
  return new Promise((resolve) => {
    box.addEventListener("close", () => resolve(box.returnValue === "ok"), { once: true });
    box.showModal();
  });
}

$("#btn-end-session").addEventListener("click", async () => {
  if (await confirmDialog(T.end_session_confirm, T.end_session_ok)) send({ type: "end_session" });
});
$("#btn-start").addEventListener("click", () => {
  send({ type: "start_game" });
});
for (const btn of $$("[data-leave]")) {
  btn.addEventListener("click", async () => {
    const seated = mySeat() !== null;
    if (seated && phase() === "game" && !(await confirmDialog(T.leave_confirm, T.leave_ok))) return;
    if (seated) send({ type: "leave_table" });
    setTimeout(() => { window.location.href = CFG.home_url; }, 250);
  });
}
// ---------------------------------------------------------------- keyboard (the accessible mode)
// Keys listed in templates/games/guides/_keys.html: H your hand, L the last play, O the other
// seats' counts, T whose turn and the time left, ? the guide; then the board's own keys
// (its keys hook: {key: handler}, a handler returning false when it did nothing).
const guideDialog = $("#guide-dialog");
$("#btn-guide")?.addEventListener("click", () => guideDialog && guideDialog.showModal());

function turnText() {
  const v = view();
  if (!v || v.finished) return T.sr_no_turn;
  const seat = turnSeat(v);
  if (seat === null || seat === undefined) return T.sr_no_turn;
  const who = seat === mySeat() ? T.your_turn : fmt(T.turn_of, { name: seatName(seat) });
  const deadline = myTurnActive() ? S.yourTurn.deadline : v.deadline || (v.prompt && v.prompt.deadline);
  const left = deadline ? Math.ceil(deadline - now()) : null;
  return left && left > 0 ? `${who}. ${fmt(T.sr_seconds_left, { n: left })}` : who;
}

const HEAR = {
  h: () => (board.speakHand ? board.speakHand() : ""),
  l: () => (board.speakLast ? board.speakLast() : ""),
  o: () => (board.speakCounts ? board.speakCounts() : ""),
  t: turnText,
};

installKeys({ T, guideDialog, phase, hear: HEAR, board: () => board });

$("#btn-copy-link").addEventListener("click", () => copyText(CFG.share_url, T.link_copied));
$("#btn-copy-invite")?.addEventListener("click", () => copyText($("#invite-link").value, T.invite_copied));
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
$("#opt-session_length").addEventListener("change", (e) =>
  send({ type: "set_option", name: "session_length", value: parseInt(e.target.value, 10) }));
$("#opt-spectator_hands").addEventListener("change", (e) =>
  send({ type: "set_option", name: "spectator_hands", value: e.target.value }));
$("#watch-hands-toggle").addEventListener("change", (e) => {
  W.on = e.target.checked;
  if (!W.on) W.hands = null;
  send({ type: "show_hands", on: W.on });
  renderWatch();
});
$("#opt-turn_seconds").addEventListener("change", (e) => {
  const value = parseInt(e.target.value, 10);
  if (value >= 5 && value <= 300) send({ type: "set_option", name: "turn_seconds", value });
});

installPreferences(T);
selectTab("chat");
setInterval(tickTimers, 200);
