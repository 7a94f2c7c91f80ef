// The replay viewer (templates/games/history/replay.html) and the copy buttons of the game page.
// Every step's view is computed on the server by the engine (games/history.py): this file only
// shows them. It never applies a rule and never sees a card the chosen perspective may not see:
// before the last step of a finished game a seat sees its own hand only, and the last step
// shows only what the engine reveals at the end. An imported hand history (`data.public`: a
// stud export, or a running game's) has no views: its steps are the public turns' texts and
// events, the last one the revealed hands and the result, as the file recorded them.
import { backElement, cardElement, cardsText, installSprite, markTwos } from "./table/cards.js";
import { fmt } from "./table/dom.js";

// The board's words in the page language (templates/games/history/replay.html #replay-i18n).
const RT = JSON.parse(document.getElementById("replay-i18n")?.textContent || "{}");
const cardsN = (n) => (RT.cards_n ? fmt(RT.cards_n, { n }) : `${n} cards`);
/** A board word in the page language (the English text when the block lacks it). */
const rt = (key, english, vars = {}) => fmt(RT[key] ?? english, vars);

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// --------------------------------------------------------------------------- copy buttons
function wireCopyButtons() {
  for (const button of document.querySelectorAll("[data-copy]")) {
    button.addEventListener("click", async () => {
      const source = document.querySelector(button.dataset.copy);
      if (!source) return;
      const text = source.value ?? source.textContent;
      try {
        await navigator.clipboard.writeText(text);
      } catch {
        source.select?.();
        document.execCommand("copy");
      }
      const label = button.textContent;
      button.textContent = rt("copied", "Copied ✓");
      setTimeout(() => { button.textContent = label; }, 1500);
    });
  }
}

// --------------------------------------------------------------------------- rendering
function handRow(cards, { label }) {
  // a group: its cards are images with names of their own, and the group names them all
  const row = el("div", { class: "rp-cards", role: "group", "aria-label": label });
  for (const id of cards) row.append(id ? cardElement(id) : backElement());
  return row;
}

function backs(count) {
  // one image ("13 cards"): the backs inside it are hidden from assistive technology
  const row = el("div", { class: "rp-cards rp-backs", role: "img", "aria-label": cardsN(count) });
  for (let i = 0; i < Math.min(count, 13); i += 1) row.append(backElement());
  return row;
}

/** The cards a seat shows at this step: at the end of a finished game, what the engine reveals
 * (`step.hands`, only on the last step; a card still hidden is null and shows its back); before
 * that only what this perspective's view holds. */
function seatCards(data, step, seat) {
  const view = step.view || {};
  if (Array.isArray(step.hands) && Array.isArray(step.hands[seat])) {
    return { cards: step.hands[seat], shown: true };
  }
  if (view.seat === seat && Array.isArray(view.hand)) return { cards: view.hand, shown: true };
  const seats = Array.isArray(view.seats) ? view.seats : null; // e.g. stud: up cards, nulls hidden
  if (seats && seats[seat] && Array.isArray(seats[seat].cards)) {
    return { cards: seats[seat].cards, shown: true };
  }
  const counts = Array.isArray(view.hand_counts) ? view.hand_counts : null;
  if (counts && typeof counts[seat] === "number") return { count: counts[seat] };
  return {};
}

function renderBoard(root, data, step) {
  const view = step.view || {};
  root.replaceChildren();
  const n = data.names.length;
  const seats = el("div", { class: "rp-seats" });
  for (let seat = 0; seat < n; seat += 1) {
    const classes = ["rp-seat"];
    if (view.turn === seat) classes.push("rp-turn");
    if (step.seat === seat && step.index > 0) classes.push("rp-actor");
    if (Array.isArray(view.passed) && view.passed[seat]) classes.push("rp-passed");
    if (Array.isArray(view.out) && view.out.includes(seat)) classes.push("rp-out");
    if (data.perspective === seat) classes.push("rp-me");
    const dq = Array.isArray(data.disqualified) ? data.disqualified[seat] : null;
    const disqualified = typeof dq === "number" && step.index >= dq;
    if (disqualified) classes.push("rp-disqualified");
    const pod = el("section", { class: classes.join(" "), "data-seat": seat,
      "aria-label": data.names[seat] });
    const score = Array.isArray(view.scores) ? view.scores[seat] : finalScore(data, step, seat);
    pod.append(el("h3", { class: "rp-name" }, data.names[seat],
      data.perspective === seat ? el("span", { class: "rp-tag" }, RT.you || "you") : null,
      view.turn === seat ? el("span", { class: "rp-tag rp-tag-turn" }, RT.to_play || "to play") : null,
      disqualified ? el("span", { class: "rp-tag rp-tag-dq", title: dq > 0
        ? rt("dq_at", "disqualified after 3 strikes at move {n}", { n: dq })
        : rt("dq_earlier", "disqualified earlier in the session") },
      rt("disqualified", "disqualified")) : null,
      typeof score === "number" ? el("span", { class: "rp-score" }, score > 0 ? `+${score}` : score)
        : null));
    const what = seatCards(data, step, seat);
    if (what.cards) {
      pod.append(handRow(what.cards, { label: cardsText(what.cards.filter(Boolean)) }));
    } else if (typeof what.count === "number") {
      pod.append(backs(what.count), el("p", { class: "muted small" }, cardsN(what.count)));
    } else {
      pod.append(el("p", { class: "muted small" }, RT.hidden || "hidden"));
    }
    seats.append(pod);
  }
  root.append(seats);
  const centre = el("div", { class: "rp-centre", id: "rp-centre" });
  const top = view.top;
  if (data.public) {
    centre.append(publicCentre(data, step));
  } else if (top && Array.isArray(top.cards)) {
    centre.append(el("p", { class: "muted small" },
      `${data.names[top.seat] ?? "?"}: ${comboName(top.combo, top.cards)}`), handRow(top.cards, {
      label: cardsText(top.cards) }));
  } else if (Array.isArray(view.pots)) {
    centre.append(el("p", {}, rt("pot", "Pot: {amounts}",
      { amounts: view.pots.map((p) => p.amount).join(" + ") })));
  } else {
    centre.append(el("p", { class: "muted" },
      step.index === 0 ? rt("dealt", "Dealt") : rt("table_clear", "Table clear")));
  }
  root.append(centre);
  const details = data.public
    ? el("details", { class: "rp-raw" }, el("summary", {},
      rt("public_events", "This turn's public events (JSON)")),
      el("pre", {}, JSON.stringify(step.events || [], null, 1)))
    : el("details", { class: "rp-raw" }, el("summary", {}, rt("step_view", "This step's view (JSON)")),
      el("pre", {}, JSON.stringify(view, null, 1)));
  root.append(details);
}

/** A Tiến Lên combination's name in the page language (the table's words, as its board shows
 * them), else the engine's code. */
function comboName(combo, cards) {
  const n = cards.length;
  if (combo === "straight" && RT.combo_straight_n) return fmt(RT.combo_straight_n, { n });
  if (combo === "pairs_run" && RT.combo_pairs_run_n) {
    return fmt(RT.combo_pairs_run_n, { n: Math.floor(n / 2) });
  }
  return RT[`combo_${combo}`] ?? combo ?? "";
}

/** A hand history's result, on its last step only: a seat's score. */
function finalScore(data, step, seat) {
  const result = data.public && Array.isArray(step.hands) ? data.game.result : null;
  return result && Array.isArray(result.scores) ? result.scores[seat] : null;
}

/** The centre of a hand history's step: what it recorded, never a recomputed board. */
function publicCentre(data, step) {
  const result = data.game.result;
  if (Array.isArray(step.hands) && result) {
    const winner = data.names[result.winner] ?? "?";
    return el("p", { id: "rp-result" }, rt("result", "Result: {name} wins", { name: winner }));
  }
  const count = Array.isArray(step.events) ? step.events.length : 0;
  return el("p", { class: "muted" }, step.index === 0 ? rt("dealt", "Dealt")
    : rt("public_turn", `Public turn (${count} event${count === 1 ? "" : "s"}): no board is recorded`,
      { n: count }));
}

/** The exporter's own cards in a hand history (`data.your_hand`), above the board. */
function renderYourHand(data) {
  const box = document.getElementById("rp-your-hand");
  if (!box) return;
  const mine = data.your_hand;
  box.hidden = !mine;
  box.replaceChildren();
  if (!mine) return;
  box.append(rt("own_cards", "{name}'s own cards (in the export): ",
    { name: data.names[mine.seat] ?? "?" }),
    handRow(mine.cards, { label: cardsText(mine.cards) }));
}

function renderBot(step) {
  const box = document.getElementById("rp-bot");
  if (!box) return;
  const bot = step.bot;
  box.hidden = !bot;
  if (!bot) return;
  const facts = document.getElementById("rp-bot-facts");
  facts.replaceChildren();
  const rows = [
    [rt("time", "Time"), typeof bot.elapsed_ms === "number"
      ? rt("ms", "{n} ms", { n: bot.elapsed_ms }) : "—"],
    [rt("strike", "Strike"), bot.strike || rt("none", "none")],
  ];
  if (bot.error_message) rows.push([rt("error", "Error"), bot.error_message]);
  for (const [k, v] of rows) facts.append(el("dt", {}, k), el("dd", {}, v));
  const consoleLines = Array.isArray(bot.console) ? bot.console.join("\n") : (bot.console || "");
  document.getElementById("rp-bot-console").textContent = consoleLines || rt("no_console", "(no console output)");
}

// --------------------------------------------------------------------------- the Replay lab
// Only for the owner of a bot seat of a finished game (the page sets data-lab-url): every move
// of their bot with the exact gameState it received, recomputed by the server
// (GET /api/games/<id>/bot-moves/, docs/history.md "Replay lab"), and a link that opens the
// bot's editor on that move. Texts from templates/games/history/_bot_lab.html.
const botLab = { moves: null, names: {}, error: null, T: {} };

function labText(key, params = {}) {
  const text = botLab.T[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

async function loadBotLab(replay, url) {
  const strings = document.getElementById("bot-lab-i18n");
  botLab.T = strings ? JSON.parse(strings.textContent) : {};
  try {
    const response = await fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } });
    const body = await response.json();
    if (!response.ok) throw new Error(body.error || String(response.status));
    botLab.moves = new Map(body.moves.map((m) => [m.step, m]));
    for (const seat of body.seats) botLab.names[seat.seat] = seat.name;
  } catch (err) {
    botLab.error = err.message;
  }
  markBotLabMoves(document.getElementById("rp-moves"));
  renderBotLab(replay.data.steps[replay.index]);
}

/** The move list: a "lab" tag on each step that is a move of the caller's bot. */
function markBotLabMoves(list) {
  if (!botLab.moves || !list) return;
  for (const li of list.querySelectorAll("li[data-step]")) {
    if (!botLab.moves.has(Number(li.dataset.step)) || li.querySelector(".rp-lab-tag")) continue;
    li.append(el("span", { class: "rp-tag rp-lab-tag" }, labText("lab_tag")));
  }
}

function renderBotLab(step) {
  const box = document.getElementById("rp-lab");
  if (!box || !step) return;
  box.hidden = false;
  const note = document.getElementById("rp-lab-note");
  const moveBox = document.getElementById("rp-lab-move");
  const move = botLab.moves ? botLab.moves.get(step.index) : null;
  box.dataset.step = String(step.index);
  if (!move) {
    moveBox.hidden = true;
    note.hidden = false;
    document.getElementById("rp-lab-who").textContent = "";
    if (botLab.error) note.textContent = labText("failed", { error: botLab.error });
    else note.textContent = botLab.moves ? labText("not_bot") : labText("loading");
    return;
  }
  note.hidden = true;
  moveBox.hidden = false;
  const record = document.getElementById("rp-bot");
  if (record) record.hidden = true; // the lab shows the same record, and more
  document.getElementById("rp-lab-who").textContent = labText("who", {
    name: botLab.names[move.seat] ?? move.seat, version: move.bot_version ?? "?", seq: move.seq });
  const show = (v) => (v === null || v === undefined ? labText("nothing") : JSON.stringify(v));
  const rows = [
    ["returned", labText("returned"), show(move.returned)],
    ["move", labText("move"), show(move.move)],
    ["time", labText("time"), typeof move.elapsed_ms === "number"
      ? labText("ms", { n: move.elapsed_ms }) : "—"],
    ["strike", labText("strike"), move.strike || labText("none")],
  ];
  if (move.error_code || move.error_message) {
    rows.push(["error", labText("error"),
      [move.error_code, move.error_message].filter(Boolean).join(": ")]);
  }
  if (move.restarted) rows.push(["restarted", labText("restarted"), labText("yes")]);
  if (move.replayed) { // its sandbox was rebuilt on another worker (docs/bot-affinity.md)
    const text = labText("replayed_n", { n: move.replayed });
    rows.push(["replayed", labText("replayed"),
      move.replay_diverged ? `${text}. ${labText("replay_diverged")}` : text]);
  }
  const facts = document.getElementById("rp-lab-facts");
  facts.replaceChildren();
  for (const [key, label, value] of rows) {
    facts.append(el("dt", {}, label), el("dd", { "data-fact": key }, value));
  }
  const lines = Array.isArray(move.console) ? move.console : [];
  document.getElementById("rp-lab-console").textContent =
    lines.length ? lines.join("\n") : labText("no_console");
  document.getElementById("rp-lab-state").textContent = JSON.stringify(move.game_state, null, 2);
  const link = document.getElementById("rp-lab-editor");
  link.hidden = !move.editor_url;
  if (move.editor_url) link.href = move.editor_url;
}

/** ``#step-<n>`` in the address (the editor links back to a move like this): start there. */
function stepFromHash(replay) {
  const match = /^#step-(\d+)$/.exec(window.location.hash);
  if (match) replay.go(Number(match[1]));
}

// --------------------------------------------------------------------------- the player
class Replay {
  constructor(root, data) {
    this.root = root;
    this.data = data;
    this.index = 0;
    this.timer = null;
    this.jsonUrl = root.dataset.jsonUrl || "";
    this.$ = (id) => document.getElementById(id);
    this.bind();
    this.load(data, data.steps.length - 1 >= 0 ? 0 : 0);
  }

  load(data, index) {
    this.data = data;
    const scrub = this.$("rp-scrub");
    scrub.max = String(data.steps.length - 1);
    this.renderMoves();
    renderYourHand(data);
    this.go(Math.min(index, data.steps.length - 1));
  }

  roundOf(index) {
    return this.data.rounds.find((r) => r.start === index && r.turns.length === 0)
      || this.data.rounds.find((r) => r.turns.includes(index))
      || this.data.rounds.find((r) => r.start === index) || null;
  }

  /** Seed 004's rounds around a step: the round it is played in, or the round it ends and the
   * one it starts (its ending view is the next one's starting view). */
  roundLabel(index) {
    const describe = (r) => {
      const vars = { n: r.round + 1, start: r.start, end: r.end,
        turns: rt("turns_n", `${r.turns.length} turns`, { n: r.turns.length }) };
      return r.end !== null
        ? rt("round_ended", "Round {n}: starts at step {start}, {turns}, ends at step {end}", vars)
        : rt("round_playing", "Round {n}: starts at step {start}, {turns}, being played", vars);
    };
    const ending = this.data.rounds.find((r) => r.end === index && index > 0);
    const starting = this.data.rounds.find((r) => r.start === index && r !== ending);
    if (ending && starting) {
      return rt("round_boundary", "End of round {ended} · start of round {started}. {round}",
        { ended: ending.round + 1, started: starting.round + 1, round: describe(starting) });
    }
    const rnd = starting || ending || this.roundOf(index);
    return rnd ? describe(rnd) : "";
  }

  boundaries() {
    const out = new Set([0, this.data.steps.length - 1]);
    for (const r of this.data.rounds) {
      out.add(r.start);
      if (r.end !== null) out.add(r.end);
    }
    return [...out].sort((a, b) => a - b);
  }

  go(index) {
    const last = this.data.steps.length - 1;
    this.index = Math.max(0, Math.min(last, index));
    const step = this.data.steps[this.index];
    renderBoard(this.$("rp-board"), this.data, step);
    renderBot(step);
    if (this.root.dataset.labUrl) renderBotLab(step);
    this.$("rp-text").textContent = step.text || (step.index === 0 ? rt("cards_dealt", "The cards are dealt") : "");
    this.renderAllHands(step);
    this.$("rp-counter").textContent = rt("step_of", "Step {n} / {last}", { n: this.index, last });
    this.$("rp-scrub").value = String(this.index);
    this.$("rp-round").textContent = this.roundLabel(this.index);
    for (const li of this.$("rp-moves").querySelectorAll("li[data-step]")) {
      const on = Number(li.dataset.step) === this.index;
      li.classList.toggle("rp-current", on);
      if (on) li.setAttribute("aria-current", "step");
      else li.removeAttribute("aria-current");
      if (on) li.scrollIntoView({ block: "nearest" });
    }
    if (this.index >= last) this.pause();
  }

  /** ``?hands=all``: every hand the end reveals, as it stood at this step (step.all_hands). */
  renderAllHands(step) {
    const box = document.getElementById("rp-all-hands-box");
    if (!box) return;
    box.hidden = !Array.isArray(step.all_hands);
    if (box.hidden) return;
    const names = this.data.names || [];
    document.getElementById("rp-all-hands").replaceChildren(...step.all_hands.map((cards, i) =>
      el("li", { "data-seat": i }, `${names[i] ?? i + 1}: ${Array.isArray(cards) ? cards.join(" ") : "—"}`)));
  }

  step(delta) {
    if (this.$("rp-mode").value === "round") {
      const marks = this.boundaries();
      const target = delta > 0
        ? marks.find((m) => m > this.index)
        : [...marks].reverse().find((m) => m < this.index);
      this.go(target ?? (delta > 0 ? this.data.steps.length - 1 : 0));
    } else {
      this.go(this.index + delta);
    }
  }

  play() {
    if (this.index >= this.data.steps.length - 1) this.go(0);
    const delay = Number(this.$("rp-speed").value) || 1000;
    this.pause();
    this.timer = setInterval(() => this.step(1), delay);
    this.$("rp-play").textContent = `⏸ ${rt("pause", "Pause")}`;
    this.$("rp-play").setAttribute("aria-label", rt("pause", "Pause"));
    this.root.classList.add("rp-playing");
  }

  pause() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.$("rp-play").textContent = `▶ ${rt("play", "Play")}`;
    this.$("rp-play").setAttribute("aria-label", rt("play", "Play"));
    this.root.classList.remove("rp-playing");
  }

  toggle() {
    if (this.timer) this.pause();
    else this.play();
  }

  renderMoves() {
    const list = this.$("rp-moves");
    list.replaceChildren();
    const roundStart = new Map(this.data.rounds.map((r) => [r.turns[0], r.round]));
    for (const step of this.data.steps) {
      if (roundStart.has(step.index)) {
        // a list item of its own (the ol may hold list items only)
        list.append(el("li", { class: "rp-round-head" },
          rt("round_head", "Round {n}", { n: roundStart.get(step.index) + 1 })));
      }
      const who = step.seat !== null && step.seat !== undefined ? this.data.names[step.seat] : "";
      const li = el("li", { "data-step": step.index, tabindex: "-1" },
        el("button", { type: "button", class: "link-button" },
          `${step.index}. ${step.text || (step.index === 0 ? rt("deal", "Deal") : who)}`),
        step.bot ? el("span", { class: "rp-tag", title: rt("bot_record", "your bot's record") },
          rt("bot_log", "bot log")) : null);
      li.querySelector("button").addEventListener("click", () => { this.pause(); this.go(step.index); });
      list.append(li);
    }
    markBotLabMoves(list);
  }

  async perspective(value) {
    if (!this.jsonUrl) return;
    const hands = this.root.dataset.allHands ? "&hands=all" : "";
    const url = `${this.jsonUrl}?seat=${encodeURIComponent(value)}${hands}`;
    const response = await fetch(url, { headers: { Accept: "application/json" } });
    const body = await response.json();
    if (!response.ok) {
      this.$("rp-text").textContent = `${body.error}: ${body.detail}`;
      return;
    }
    this.load(body, this.index);
  }

  bind() {
    this.$("rp-first").addEventListener("click", () => { this.pause(); this.go(0); });
    this.$("rp-last").addEventListener("click", () => {
      this.pause(); this.go(this.data.steps.length - 1);
    });
    this.$("rp-prev").addEventListener("click", () => { this.pause(); this.step(-1); });
    this.$("rp-next").addEventListener("click", () => { this.pause(); this.step(1); });
    this.$("rp-play").addEventListener("click", () => this.toggle());
    this.$("rp-speed").addEventListener("change", () => { if (this.timer) this.play(); });
    this.$("rp-scrub").addEventListener("input", (e) => { this.pause(); this.go(Number(e.target.value)); });
    this.$("rp-perspective").addEventListener("change", (e) => this.perspective(e.target.value));
    document.addEventListener("keydown", (e) => {
      const tag = (e.target && e.target.tagName) || "";
      if (["INPUT", "SELECT", "TEXTAREA"].includes(tag) || e.altKey || e.ctrlKey || e.metaKey) return;
      const actions = {
        ArrowLeft: () => { this.pause(); this.step(-1); },
        ArrowRight: () => { this.pause(); this.step(1); },
        " ": () => this.toggle(),
        Home: () => { this.pause(); this.go(0); },
        End: () => { this.pause(); this.go(this.data.steps.length - 1); },
      };
      const action = actions[e.key];
      if (!action) return;
      e.preventDefault();
      action();
    });
  }
}

wireCopyButtons();
const root = document.getElementById("replay");
const payload = document.getElementById("replay-data");
if (root && payload) {
  installSprite();
  // HEO on a 2 is Tiến Lên's word: the game's board says whether its cards carry it
  // (data-board-script: static/js/boards/<game>.js, else generic.js, which does not)
  const board = root.dataset.boardScript
    ? await import(root.dataset.boardScript).catch(() => ({})) : {};
  markTwos(board.marksTwos === true);
  window.replay = new Replay(root, JSON.parse(payload.textContent));
  stepFromHash(window.replay);
  if (root.dataset.labUrl) loadBotLab(window.replay, root.dataset.labUrl);
}
