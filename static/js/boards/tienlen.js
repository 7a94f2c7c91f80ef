// The Tiến Lên board: the other players' pods around the felt, the combination on top in the
// centre, your hand with drag / tap selection, the Play / Pass / Sort / Suggestion bar, and its
// parts of the result card (transfers, tới trắng, cóng, the longest play). Its markup (#centre,
// #me-zone, its two lobby options and rules line) is templates/games/boards/tienlen.html, which
// table.html includes; table.js keeps the lobby, chat, socket, timers, results and session
// views and calls this module's hooks (docs/architecture.md, "How a game plugs into the table
// layer"). The browser never decides anything: Play is enabled only for a selection that is one of
// `your_turn.legal`, sent as `game_action` frames (`play` / `pass`; docs/protocol.md).
// All text goes through textContent (el() children) and T (templates/games/_table_i18n.html).
import { $, $$, el, fmt, keepFocus, reducedMotion, timerEl } from "../table/dom.js";
import { cardElement, backElement, cardText, cardsText } from "../table/cards.js";
import { spokenCards } from "../table/speech.js";

/** Tiến Lên calls its 2s "heo": its cards carry the HEO mark (the table's default; the replay
 * page asks each game's board, static/js/replay.js). */
export const marksTwos = true;

/** A combination's name: "Đôi (pair)", "Sảnh 5 (straight)", "3 đôi thông (pairs run)". */
export function comboLabel(T, combo, cards) {
  const n = cards ? cards.length : 0;
  if (combo === "straight") return fmt(T.combo_straight_n, { n });
  if (combo === "pairs_run") return fmt(T.combo_pairs_run_n, { n: Math.floor(n / 2) });
  return T[`combo_${combo}`] || combo;
}

// Where a card flies from / a won round sweeps to, by the seat's place around the felt.
const OFFSETS = { bottom: [0, 160], top: [0, -160], left: [-240, 0], right: [240, 0] };
const OPTIONS = ["hide_hand_counts", "play_on_after_winner"]; // its own lobby checkboxes

/**
 * @param {object} api  what the table page shares (table.js `api`): T, S (its state), send(frame),
 *   act(frame), myTurnActive(), mySeat(), seatName(i), isBotSeat(seat), autoBadge(seat),
 *   logLine(text, kind), beep(kind), toast(text, kind)
 */
export function createBoard(api) {
  const { T, S } = api;
  const view = () => (S.game ? S.game.state : null);
  const nPlayers = () => (view() ? view().players : S.seats.length);
  const you = (i) => (i === api.mySeat() ? T.you_cap : api.seatName(i));
  const setKey = (cards) => [...cards].sort().join(",");
  // this board's own state, reset for every new game (newGame())
  const B = { selected: new Set(), order: null, sortMode: "rank", suggested: null, lastTopKey: null };
  let drag = null;

  function openingFresh(v) {
    return !!(v && v.options && v.options.opening && v.round === 0 &&
      !(v.round_plays || []).length);
  }

  // Position of a seat around the table relative to the viewer (turns go counter-clockwise:
  // the next seat sits to your right).
  function position(seat) {
    const n = nPlayers();
    const me = api.mySeat() ?? 0;
    const r = (seat - me + n) % n;
    if (r === 0) return "bottom";
    if (n === 2) return "top";
    if (n === 3) return r === 1 ? "right" : "left";
    return ["bottom", "right", "top", "left"][r];
  }

  // ------------------------------------------------------------ felt
  function render() {
    const v = view();
    if (!v) return;
    const felt = $("#felt");
    const me = api.mySeat();
    const fresh = openingFresh(v);
    // pods (everyone but me; a spectator sees seat 0 at the bottom as a pod)
    $$(".pod", felt).forEach((p) => p.remove());
    for (let s = 0; s < v.players; s += 1) {
      if (s === me) continue;
      felt.append(pod(s, v, fresh));
    }
    renderCentre(v);
    renderMe(v, fresh);
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

  function pod(s, v, fresh) {
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
    if (fresh && isTurn) cls.push("holds-3s");
    const last = lastActionOf(v, s);
    const backs = el("div", { class: "pod-backs", "aria-hidden": "true" });
    const shown = count === null || count === undefined ? 5 : Math.min(count, 13);
    for (let i = 0; i < shown; i += 1) backs.append(backElement());
    const node = el("div", { class: cls.join(" "), dataset: { seat: s } },
      el("div", { class: "pod-avatar", "aria-hidden": "true" },
        api.isBotSeat(seat) ? "AI" : (api.seatName(s) || "?").slice(0, 1).toUpperCase()),
      el("div", { class: "pod-body" },
        el("div", { class: "pod-name" }, api.seatName(s),
          api.isBotSeat(seat) ? el("span", { class: "badge-bot" }, T.bot) : null,
          seat.disqualified ? null : api.autoBadge(seat)),
        el("div", { class: "pod-meta" },
          el("span", { class: "pod-count", "aria-label": T.cards_left },
            count === null || count === undefined ? T.hidden_count : fmt(T.cards_n, { n: count })),
          out ? el("span", { class: "pod-out" }, T.out) : null,
          seat.disqualified ? api.autoBadge(seat) : null),  // on its own row: the name row truncates
        el("div", { class: `pod-last${last ? ` last-${last.kind}` : ""}` }, last ? last.text : "\u00a0"),
        isTurn ? timerBar(v, seat) : null),
      backs);
    if (fresh && isTurn) {
      // 3♠ with four players (all 52 cards are dealt); with two or three the lowest dealt card
      const three = v.players === 4;
      node.append(el("span", { class: "badge-3s", title: three ? T.holds_3s : T.holds_lowest },
        three ? cardText("3S") : T.lowest_card));
    }
    return node;
  }

  function timerBar(v, seat) {
    const seconds = (v.options && v.options.turn_seconds) || 30;
    return seat && api.turnTimer ? api.turnTimer(seat, v.deadline, seconds) : timerEl(v.deadline, seconds);
  }

  function renderCentre(v) {
    const centre = $("#centre");
    const cards = $("#centre-cards");
    const label = $("#centre-label");
    const note = $("#centre-note");
    const top = v.top;
    const key = top ? `${v.round}:${top.seat}:${top.cards.join(",")}` : `r${v.round}`;
    centre.classList.toggle("has-top", !!top);
    if (key !== B.lastTopKey) {
      cards.replaceChildren();
      if (top) {
        const [dx, dy] = OFFSETS[position(top.seat)];
        top.cards.forEach((id, i) => {
          const c = cardElement(id);
          c.style.setProperty("--from-x", `${dx}px`);
          c.style.setProperty("--from-y", `${dy}px`);
          c.style.setProperty("--i", i);
          if (B.lastTopKey !== null && !reducedMotion()) c.classList.add("fly-in");
          cards.append(c);
        });
      }
      B.lastTopKey = key;
    }
    layoutCentre();
    if (top) {
      label.textContent = comboLabel(T, top.combo, top.cards);
      note.textContent = fmt(T.played_by, { name: api.seatName(top.seat) });
    } else if (v.finished) {
      label.textContent = "";
      note.textContent = "";
    } else if (v.turn !== null && v.turn !== undefined) {
      label.textContent = v.round === 0 ? T.new_game : fmt(T.round_n, { n: v.round + 1 });
      note.textContent = v.turn === api.mySeat() ? T.you_lead : fmt(T.leads, { name: api.seatName(v.turn) });
    }
    const turnEl = $("#turn-indicator");
    if (v.turn === null || v.turn === undefined) turnEl.textContent = "";
    else turnEl.textContent = v.turn === api.mySeat() ? T.your_turn : fmt(T.turn_of, { name: api.seatName(v.turn) });
    const chain = $("#chain-note");
    chain.textContent = v.chain ? fmt(T.chain_open, { name: api.seatName(v.chain.debtor), n: v.chain.points }) : "";
  }

  // The play on top is fanned: each card but the last shows at least FAN_MIN of its width (its
  // rank and suit corner and more), tilted a little about its foot; a long play that does not
  // fit the centre at the board's card size (--centre-cw, larger on a desktop) gets smaller cards.
  const FAN_MIN = 0.42;
  const FAN_STEP = 0.6;
  function layoutCentre() {
    const box = $("#centre-cards");
    const cards = [...box.children];
    const n = cards.length;
    if (!n) return;
    const base = parseFloat(getComputedStyle(box).getPropertyValue("--centre-cw")) || 78;
    const avail = Math.max(60, $("#centre").clientWidth - 12);
    let cw = Math.min(base, avail);
    let step = n > 1 ? Math.min(cw * FAN_STEP, (avail - cw) / (n - 1)) : cw;
    if (n > 1 && step < cw * FAN_MIN) {
      cw = Math.max(24, avail / (1 + FAN_MIN * (n - 1)));
      step = cw * FAN_MIN;
    }
    const tilt = n > 1 ? Math.min(4, 24 / n) : 0;
    box.style.setProperty("--cw", `${cw.toFixed(1)}px`);
    box.style.setProperty("--fan-overlap", `${(step - cw).toFixed(1)}px`);
    cards.forEach((c, i) => {
      const off = i - (n - 1) / 2;
      c.style.setProperty("--fan-rot", `${(off * tilt).toFixed(2)}deg`);
      c.style.setProperty("--fan-lift", `${(Math.abs(off) * tilt * 0.6).toFixed(1)}px`);
    });
  }

  function sweep(winner) {
    const cards = $$("#centre-cards .pcard");
    if (!cards.length) return;
    api.beep("sweep");
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

  function announce(text, kind) {
    const box = $("#announce");
    box.textContent = text;
    box.className = `announce announce-${kind} show`;
    clearTimeout(announce.timer);
    announce.timer = setTimeout(() => { box.className = "announce"; }, 2400);
  }

  // ------------------------------------------------------------ your hand and the action bar
  function handCards(v) {
    const hand = v.hand || [];
    if (!B.order) return hand;
    const inHand = new Set(hand);
    const ordered = B.order.filter((c) => inHand.has(c));
    const seen = new Set(ordered);
    return ordered.concat(hand.filter((c) => !seen.has(c)));
  }

  function legalMatch() {
    if (!api.myTurnActive() || S.pending || !B.selected.size) return null;
    const key = setKey(B.selected);
    return (S.yourTurn.legal || []).find((p) => setKey(p.cards) === key) || null;
  }

  function renderMe(v, fresh) {
    const me = api.mySeat();
    const zone = $("#me-zone");
    zone.hidden = me === null;
    if (me === null || !v) return;
    const hand = $("#hand");
    const cards = handCards(v);
    for (const id of [...B.selected]) if (!cards.includes(id)) B.selected.delete(id);
    const required = v.required_card;
    keepFocus(hand, "card", () => {
      hand.replaceChildren();
      hand.style.setProperty("--n", cards.length);
      for (const id of cards) {
        const c = cardElement(id, { interactive: true });
        const sel = B.selected.has(id);
        c.classList.toggle("selected", sel);
        c.setAttribute("aria-pressed", sel ? "true" : "false");
        if (required === id && fresh) c.classList.add("required");
        if (B.suggested && B.suggested.includes(id)) c.classList.add("suggested");
        hand.append(c);
      }
    });
    layoutHand();
    const seat = S.seats.find((x) => x.index === me) || {};
    $("#me-name").textContent = seat.name || T.you_cap;
    $("#me-count").textContent = fmt(T.cards_n, { n: cards.length });
    zone.classList.toggle("is-turn", v.turn === me && !v.finished);
    zone.classList.toggle("holds-3s", fresh && v.turn === me);
    const timer = $("#me-timer");
    timer.replaceChildren();
    if (v.turn === me && !v.finished) timer.append(timerBar(v));
    $("#me-hint").textContent = fresh && required && v.turn === me
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
    const active = api.myTurnActive() && !S.pending;
    const match = legalMatch();
    $("#btn-play").disabled = !match;
    $("#btn-pass").disabled = !active || !S.yourTurn.can_pass;
    $("#btn-suggest").disabled = !active;
    $("#btn-sort").textContent = B.sortMode === "rank" ? T.sort_combos : T.sort_rank;
    const count = $("#sel-count");
    if (!B.selected.size) count.textContent = active ? T.select_hint : "";
    else {
      const base = fmt(T.selected_n, { n: B.selected.size });
      count.textContent = match ? `${base} · ${comboLabel(T, match.combo, match.cards)}`
        : active ? `${base} · ${T.not_legal}` : base;
    }
    count.classList.toggle("ok", !!match);
  }

  // selection: click / tap toggles, drag across cards selects or unselects a range
  function cardAt(x, y) {
    const node = document.elementFromPoint(x, y);
    return node ? node.closest("#hand .pcard") : null;
  }

  function setSelected(node, on) {
    const id = node.dataset.card;
    if (on) B.selected.add(id); else B.selected.delete(id);
    node.classList.toggle("selected", on);
    node.setAttribute("aria-pressed", on ? "true" : "false");
  }

  function bindHand() {
    const hand = $("#hand");
    hand.addEventListener("pointerdown", (e) => {
      const node = e.target.closest(".pcard");
      if (!node || e.button > 0) return;
      e.preventDefault();
      const on = !B.selected.has(node.dataset.card);
      drag = { on, touched: new Set([node]) };
      B.suggested = null;
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
      setSelected(node, !B.selected.has(node.dataset.card));
      updateActions();
    });
    window.addEventListener("resize", () => { layoutHand(); layoutCentre(); });
  }

  function mount() {
    bindHand();
    $("#btn-play").addEventListener("click", () => {
      const match = legalMatch();
      if (!match || !api.act({ type: "game_action", action: { type: "play", cards: match.cards } })) return;
      B.selected.clear();
      B.suggested = null;
      updateActions();
    });
    $("#btn-pass").addEventListener("click", () => {
      if (!api.act({ type: "game_action", action: { type: "pass" } })) return;
      B.selected.clear();
      updateActions();
    });
    $("#btn-suggest").addEventListener("click", () => api.send({ type: "suggest" }));
    $("#btn-sort").addEventListener("click", () => {
      B.sortMode = B.sortMode === "rank" ? "combos" : "rank";
      api.send({ type: "arrange", mode: B.sortMode });
      updateActions();
    });
    for (const name of OPTIONS) {
      $(`#opt-${name}`).addEventListener("change", (e) =>
        api.send({ type: "set_option", name, value: e.target.checked }));
    }
  }

  // ------------------------------------------------------------ hooks
  /** A new game number: nothing selected, sorted or suggested, no card on the centre yet. */
  function newGame() {
    B.selected.clear();
    B.order = null;
    B.suggested = null;
    B.lastTopKey = null;
  }

  /** `your_turn` arrived or a move was refused: redraw the hand and the bar only. */
  function refresh() {
    const v = view();
    if (v) renderMe(v, openingFresh(v));
  }

  /** The Tiến Lên frames only this board asks for (Suggestion, Sort). */
  function onFrame(f) {
    if (f.type === "suggestion") {
      const action = f.action || {};
      if (action.type === "play" && Array.isArray(action.cards)) {
        B.selected = new Set(action.cards);
        B.suggested = action.cards;
        api.say(fmt(T.sr_suggested, { cards: spokenCards(T, action.cards) }));
      } else {
        B.selected.clear();
        B.suggested = null;
        api.toast(T.suggest_pass);
        api.say(T.suggest_pass);
        $("#btn-pass").classList.add("pulse");
        setTimeout(() => $("#btn-pass").classList.remove("pulse"), 1500);
      }
      renderMe(view(), false);
      return true;
    }
    if (f.type === "arranged") {
      B.order = f.cards;
      renderMe(view(), false);
      return true;
    }
    return false;
  }

  function onEvents(events, initial = false) {
    for (const e of events || []) {
      switch (e.type) {
        case "cards_played": {
          if (!initial) {
            api.say(playText(e.seat, e.combo, e.cards));
          }
          api.logLine(`${you(e.seat)}: ${comboLabel(T, e.combo, e.cards)} ${cardsText(e.cards)}${e.auto ? ` (${T.auto})` : ""}`,
            e.cut ? "log-cut" : "");
          if (!initial) api.beep(e.cut ? "cut" : "play");
          break;
        }
        case "passed":
          api.logLine(`${you(e.seat)}: ${e.auto ? T.auto_pass : T.passed}`, "log-pass");
          if (!initial) api.say(e.seat === api.mySeat() ? T.sr_you_pass : fmt(T.sr_passes, { name: api.seatName(e.seat) }));
          if (!initial) api.beep("pass");
          break;
        case "cut": {
          const text = fmt(T.cut_announce, { name: api.seatName(e.seat), victim: api.seatName(e.victim), n: e.points });
          api.logLine(`${text}${e.chain_points && e.chain_points !== e.points ? ` · ${fmt(T.chain_total, { n: e.chain_points })}` : ""}`, "log-cut");
          if (!initial) { announce(text, "cut"); api.say(text); }
          break;
        }
        case "chain_void":
          api.logLine(T.chain_void, "log-cut");
          break;
        case "round_ended":
          api.logLine(fmt(T.round_won, { name: api.seatName(e.winner) }) +
            (e.huong_sai ? ` · ${fmt(T.huong_sai, { name: api.seatName(e.leader) })}` : ""), "log-round");
          for (const t of e.transfers || []) {
            api.logLine(`${api.seatName(t.from)} → ${api.seatName(t.to)}: ${t.points} (${T[`reason_${t.reason}`] || t.reason})`, "log-cut");
          }
          if (!initial) { sweep(e.winner); api.say(fmt(T.round_won, { name: api.seatName(e.winner) })); }
          break;
        case "player_out":
          api.logLine(fmt(T.player_out, { name: api.seatName(e.seat), place: e.place }), "log-round");
          if (!initial) api.say(fmt(T.player_out, { name: api.seatName(e.seat), place: e.place }));
          break;
        case "instant_win":
          api.logLine(`${T.reason_toi_trang}: ${api.seatName(e.seat ?? e.winner)}`, "log-round");
          break;
        default:
          break;
      }
    }
    // the events of game_started: say who leads an opening game and why: 3♠ with four players;
    // with two or three the lowest card dealt (3♠ only when it was dealt), which only its holder
    // sees before it is played (view.required_card)
    const v = view();
    if (initial && openingFresh(v) && v.turn !== null && v.turn !== undefined) {
      let line;
      if (v.turn === api.mySeat()) {
        const card = v.required_card || "3S";
        line = card === "3S" ? T.you_lead_3s : fmt(T.you_lead_lowest, { card: cardText(card) });
      } else {
        line = fmt(v.players === 4 ? T.leads_3s : T.leads_lowest, { name: api.seatName(v.turn) });
      }
      api.logLine(line, "log-round");
    }
  }

  // ------------------------------------------------------------ result
  const reason = (r) => T[`reason_${r}`] || r;

  /** The result card's section after the ranking: the transfers Tiến Lên scores by. */
  function resultExtra(result) {
    if (!result.transfers) return null;
    const body = el("tbody");
    for (const t of result.transfers) {
      body.append(el("tr", {},
        el("td", {}, api.seatName(t.from)), el("td", {}, api.seatName(t.to)),
        el("td", { class: "num" }, String(t.points)),
        el("td", {}, el("span", { class: `reason reason-${t.reason}` }, reason(t.reason)))));
    }
    if (!result.transfers.length) body.append(el("tr", {}, el("td", { colspan: 4 }, T.no_transfers)));
    const table = el("table", { class: "transfers" },
      el("thead", {}, el("tr", {}, el("th", {}, T.from), el("th", {}, T.to),
        el("th", {}, T.points), el("th", {}, T.reason))),
      body);
    return el("section", { class: "result-block" }, el("h3", {}, T.transfers), table);
  }

  /** The result card's Tiến Lên lines: tới trắng and cóng under the title, the longest play in
   * the stats, the transfers in the copied text. */
  function resultLines(result, stats) {
    const tags = [];
    if (result.instant_win) {
      tags.push(el("p", { class: "result-tag" },
        `${T.reason_toi_trang} · ${T[`instant_${result.instant_win}`] || result.instant_win}`));
    }
    if (result.cong && result.cong.length) {
      tags.push(el("p", { class: "result-tag result-tag-bad" },
        `${T.reason_cong}: ${result.cong.map(api.seatName).join(", ")}`));
    }
    const lines = [];
    const longest = stats && stats.longest;
    if (longest && longest.cards) {
      const mini = el("span", { class: "mini-hand inline" });
      longest.cards.forEach((id) => mini.append(cardElement(id)));
      lines.push(el("li", {},
        `${T.stats_longest}: ${comboLabel(T, longest.combo, longest.cards)} — ${api.seatName(longest.seat)} `, mini));
    }
    const text = (result.transfers || []).map((t) =>
      `  ${api.seatName(t.from)} → ${api.seatName(t.to)}: ${t.points} (${reason(t.reason)})`);
    return { tags, stats: lines, text };
  }

  function lobby(table) {
    if (!table) return;
    const o = table.options || {};
    const host = S.you && S.you.is_host;
    const running = table.status === "in_progress";
    for (const name of OPTIONS) {
      const box = $(`#opt-${name}`);
      box.checked = !!o[name];
      box.disabled = !host || running;
    }
  }

  /** The round (vòng) in play, 1-based, for the top bar. */
  function roundNumber(v) {
    return typeof v.round === "number" ? v.round + 1 : null;
  }

  // ------------------------------------------------------------ the accessible mode
  function speakHand() {
    const v = view();
    if (!v || !v.hand) return "";
    const cards = handCards(v);
    const chosen = cards.filter((id) => B.selected.has(id));
    const text = `${fmt(T.sr_your_hand, { n: fmt(T.cards_n, { n: cards.length }) })}: ${spokenCards(T, cards)}.`;
    return chosen.length ? `${text} ${fmt(T.sr_selected, { cards: spokenCards(T, chosen) })}` : text;
  }

  function speakLast() {
    const v = view();
    if (!v || !v.top) return T.sr_no_play;
    return playText(v.top.seat, v.top.combo, v.top.cards);
  }

  /** "Lan plays Đôi (pair): nine of spades, nine of hearts" / "You play …". */
  function playText(seat, combo, cards) {
    const vars = { name: api.seatName(seat), combo: comboLabel(T, combo, cards), cards: spokenCards(T, cards) };
    return fmt(seat === api.mySeat() ? T.sr_you_play : T.sr_plays, vars);
  }

  function speakCounts() {
    const v = view();
    if (!v) return "";
    const parts = [];
    for (let s = 0; s < v.players; s += 1) {
      if (s === api.mySeat()) continue;
      const n = (v.hand_counts || [])[s];
      parts.push(`${api.seatName(s)}: ${n === null || n === undefined ? T.sr_hidden : fmt(T.cards_n, { n })}`);
    }
    return parts.join("; ");
  }

  /** ← → move the focus along your hand (Space selects the card in focus). */
  function moveInHand(step) {
    const cards = $$("#hand .pcard");
    if (!cards.length) return false;
    const at = cards.indexOf(document.activeElement);
    const next = at < 0 ? (step > 0 ? 0 : cards.length - 1) : Math.max(0, Math.min(cards.length - 1, at + step));
    cards[next].focus();
    return true;
  }

  const press = (id) => () => {
    const button = $(id);
    if (!button || button.disabled) { api.say(T.sr_not_now); return true; }
    button.click();
    return true;
  };

  const keys = {
    p: press("#btn-play"),
    x: press("#btn-pass"),
    s: press("#btn-suggest"),
    ArrowLeft: () => document.activeElement?.closest?.("#hand") ? moveInHand(-1) : false,
    ArrowRight: () => document.activeElement?.closest?.("#hand") ? moveInHand(1) : false,
  };

  mount();
  return {
    render, onEvents, resultExtra, resultLines, lobby, newGame, refresh, onFrame, roundNumber,
    systemTerms: { instant: "instant_" }, speakHand, speakLast, speakCounts, keys,
  };
}
