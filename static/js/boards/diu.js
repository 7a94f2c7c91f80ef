// The Suijiang Diu (绥江丢) board: four seats with their roles (A 头家, B and C 陪玩, D 闲家
// sitting out), exposed melds and discards, the card under decision in the centre with whose it
// is, the stock count, your 川牌 hand, and the prompt bar built from the server's `your_turn`
// frame (docs/protocol.md, "Suijiang Diu"). table.js keeps the lobby, chat, socket, timers,
// results and session views; it imports this module for a diu table (CFG.board_script) and calls
// its hooks (docs/architecture.md). The browser never decides anything: it offers only `your_turn.legal` and
// sends `game_action`. All text goes through textContent (el() children) and T
// (templates/games/_table_i18n.html).
//
// Seats are laid out in role order A → B → C → D around the table (D sits between C and A,
// rules §4), counter-clockwise like every board here, so whatever seats the roles fell on, the
// next player (下家) is always the seat to your right and play goes round the table.
// The stock arrives as hash commitments (rules §5.3): each card_open's card and nonce are
// checked against the commitment pushed earlier (crypto.subtle, where the page has it).
import { $, $$, el, fmt, keepFocus, timerEl } from "../table/dom.js";

const SVG_NS = "http://www.w3.org/2000/svg";
// Pip centres of a die face in a 24×24 half tile.
const PIPS = {
  1: [[12, 12]],
  2: [[7, 7], [17, 17]],
  3: [[6, 6], [12, 12], [18, 18]],
  4: [[7, 7], [17, 7], [7, 17], [17, 17]],
  5: [[6, 6], [18, 6], [12, 12], [6, 18], [18, 18]],
  6: [[7, 5], [17, 5], [7, 12], [17, 12], [7, 19], [17, 19]],
};
const RED_PIPS = new Set([1, 4]);
const ROLES = ["A", "B", "C", "D"];

function svg(name, attrs) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

/** A 川牌 tile: two die faces (the card id's two digits) or 听用 ("W"). */
export function tileFace(id) {
  const face = svg("svg", { viewBox: "0 0 28 56", class: "diu-svg", "aria-hidden": "true" });
  face.append(svg("rect", { x: 0.5, y: 0.5, width: 27, height: 55, rx: 4, class: "diu-svg-body" }));
  if (id === "W") {
    const t = svg("text", { x: 14, y: 24, "text-anchor": "middle", class: "diu-svg-wild" });
    t.textContent = "听";
    const u = svg("text", { x: 14, y: 44, "text-anchor": "middle", class: "diu-svg-wild" });
    u.textContent = "用";
    face.append(t, u);
    return face;
  }
  face.append(svg("line", { x1: 4, y1: 28, x2: 24, y2: 28, class: "diu-svg-rule" }));
  [Number(id[0]), Number(id[1])].forEach((n, half) => {
    for (const [x, y] of PIPS[n] || []) {
      face.append(svg("circle", {
        cx: x + 2, cy: y + 2 + half * 28, r: n === 1 ? 4 : 2.6,
        class: RED_PIPS.has(n) ? "diu-pip diu-pip-red" : "diu-pip",
      }));
    }
  });
  return face;
}

/**
 * @param {object} api  what the table page shares (table.js): T, S (its state), send(frame),
 *   act(frame) (a move on the current version, once per turn), myTurnActive() (with this
 *   board's turnSeat), mount(name, opts) (this board's layer, bar and lobby options line),
 *   mySeat(), seatName(i), isBotSeat(seat), autoBadge(seat) (the "auto" / "disqualified — house
 *   plays" badge or null), logLine(text, kind), beep(kind), toast(text, kind)
 */
export function createBoard(api) {
  const { T, S } = api;
  const view = () => (S.game ? S.game.state : null);
  const name = (i) => (i === api.mySeat() ? T.you_cap : api.seatName(i));
  const claimName = (type) => T[`diu_claim_${type}`] || type;
  const cardName = (id) => `${id === "W" ? "" : `${id} `}${(T.diu_names || {})[id] || ""}`.trim();
  // a tile's accessible name: its two pip counts as words a screen reader reads, and its name
  // ("1 and 2, 丁丁" / "1 và 2, 丁丁"; 听用 "听用, wild")
  const spokenTile = (id) => (id === "W" ? T.diu_wild_spoken
    : fmt(T.diu_tile_spoken, { a: String(id)[0], b: String(id)[1], name: (T.diu_names || {})[id] || "" }));
  const spokenTiles = (ids) => (ids || []).map(spokenTile).join("; ");
  // the last move in words, for the L key
  let lastLine = "";
  let asked = null;
  let layer = null;
  let bar = null;
  let options = null;
  let flash = null;
  let flashTimer = null;
  const commits = new Map(); // stock card number → sha256 commitment, from batches and views
  const checked = { ok: 0, bad: 0 };

  function tile(id, { button = false, onclick = null, small = false } = {}) {
    const node = el(button ? "button" : "div", {
      class: `diu-tile${id === "W" ? " is-wild" : ""}${small ? " is-small" : ""}`,
      dataset: { card: id },
      type: button ? "button" : null,
      role: button ? null : "img",
      "aria-label": spokenTile(id),
      title: cardName(id),
      onclick,
    });
    node.append(tileFace(id));
    return node;
  }

  function tiles(ids, opts = {}) {
    return el("span", { class: "diu-tiles" }, (ids || []).map((id) => tile(id, opts)));
  }

  function mount() {
    // #diu-layer, #diu-bar, #diu-options; diu's prompts have their own clocks (t_call, t_offer, t_play)
    ({ layer, bar, options } = api.mount("diu", { hide: ["turn_seconds"], note: T.diu_rules_note }));
    flash = el("div", { class: "diu-flash", id: "diu-flash", role: "status", "aria-live": "polite" });
  }

  // ------------------------------------------------------------ seats
  // Round the table by role (A → B → C → D), counter-clockwise from you (a spectator sees A at
  // the bottom): your 下家 is on your right whichever physical seats the roles fell on.
  function position(v, seat) {
    const me = api.mySeat();
    const base = me === null || me === undefined ? 0 : ROLES.indexOf(roleOf(v, me));
    return ["bottom", "right", "top", "left"][(ROLES.indexOf(roleOf(v, seat)) - base + 4) % 4];
  }

  function roleOf(v, s) {
    return ROLES.find((r) => v.roles[r] === s) || "";
  }

  // ------------------------------------------------------------ stock commitments (§5.3)
  function remember(first, hashes) {
    (hashes || []).forEach((h, i) => commits.set(first + i, h));
  }

  async function sha256hex(text) {
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
    return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
  }

  function verifyOpen(e) {
    const want = commits.get(e.index);
    if (!want || !e.nonce || !(globalThis.crypto && crypto.subtle)) return;
    sha256hex(`${e.card}|${e.nonce}`).then((got) => {
      checked[got === want ? "ok" : "bad"] += 1;
      const box = $("#diu-stock");
      if (box) { box.dataset.verified = checked.ok; box.dataset.broken = checked.bad; }
    }).catch(() => {});
  }

  function timer(deadline, total) {
    return timerEl(deadline, total || 15);
  }

  function promptSeconds(v) {
    const kind = v.prompt ? v.prompt.kind : null;
    const o = v.options || {};
    return kind === "discard" ? o.t_play : kind === "offer" ? o.t_offer : o.t_call;
  }

  function seatBox(v, s) {
    const seat = S.seats.find((x) => x.index === s) || {};
    const role = roleOf(v, s);
    const out = role === "D";
    const prompted = v.prompt && v.prompt.seat === s && !v.finished;
    const cls = ["diu-seat", `pos-${position(v, s)}`, `role-${role}`];
    if (prompted) cls.push("is-turn");
    if (out) cls.push("is-out");
    if (s === api.mySeat()) cls.push("is-me");
    if (v.card && v.card.seat === s) cls.push("is-source");
    const count = v.hand_counts[s];
    const melds = el("div", { class: "diu-melds", role: "group", "aria-label": T.diu_melds },
      (v.melds[s] || []).map((m) => el("span", {
        class: "diu-meld", dataset: { type: m.type }, title: claimName(m.type),
      }, el("span", { class: "diu-meld-type" }, claimName(m.type)), tiles(m.cards, { small: true }))));
    const discards = (v.discards[s] || []).length
      ? el("div", { class: "diu-discards", role: "group", "aria-label": T.diu_discards },
        el("span", { class: "muted small" }, T.diu_discards), tiles(v.discards[s], { small: true }))
      : null;
    const claim = v.poll && (v.poll.claims || []).find((c) => c.seat === s);
    const answered = v.poll && (v.poll.answers || []).filter((a) => a.seat === s).pop();
    return el("div", { class: cls.join(" "), dataset: { seat: s, role } },
      el("div", { class: "diu-seat-head" },
        el("span", { class: "diu-role", dataset: { role }, title: T[`diu_role_${role}`] || role }, role),
        el("span", { class: "diu-name" }, s === api.mySeat() ? `${api.seatName(s)} (${T.you})` : api.seatName(s)),
        api.isBotSeat(seat) ? el("span", { class: "badge-bot" }, T.bot) : null,
        api.autoBadge(seat)),
      // the role's name and the card count on one line: a compact seat leaves the centre room
      el("div", { class: "diu-seat-sub muted small" },
        el("span", { class: "diu-role-name" }, T[`diu_role_${role}`] || ""),
        out ? null : el("span", { class: "diu-count" }, fmt(T.diu_cards_n, { n: count ?? 0 }))),
      out ? el("div", { class: "diu-out" }, T.diu_sitting_out) : null,
      claim ? el("div", { class: "diu-claim-tag" }, claimName(claim.type))
        : answered && answered.answer === "pass" ? el("div", { class: "diu-pass-tag muted" }, T.diu_passed) : null,
      melds,
      discards,
      prompted && !(s === api.mySeat() && api.myTurnActive()) ? timer(v.prompt.deadline, promptSeconds(v)) : null);
  }

  function centre(v) {
    const box = el("div", { class: "diu-centre", id: "diu-centre" });
    if (v.card) {
      const whose = v.card.source === "stock"
        ? fmt(T.diu_card_stock, { name: name(v.card.seat) })
        : fmt(T.diu_card_discard, { name: name(v.card.seat) });
      box.append(el("div", { class: "diu-current", dataset: { card: v.card.card, seat: v.card.seat } },
        tile(v.card.card), el("div", { class: "diu-whose" }, whose),
        el("div", { class: "diu-current-name", title: fmt(T.diu_current_name, { name: cardName(v.card.card) }) },
          cardName(v.card.card))));
    } else if (!v.finished && v.prompt && v.prompt.seat !== api.mySeat()) {  // yours: the bar says it
      box.append(el("div", { class: "diu-whose muted" }, fmt(T.diu_waiting_discard, { name: name(v.prompt.seat) })));
    }
    const stock = v.stock || {};
    box.append(el("div", {
      class: "diu-stock", id: "diu-stock",
      dataset: { verified: checked.ok, broken: checked.bad, committed: (stock.commitments || []).length },
    },
    fmt(T.diu_stock_n, { n: stock.count ?? 0 }),
    (v.dead || []).length ? ` · ${fmt(T.diu_dead_n, { n: v.dead.length })}` : ""));
    if (!v.finished && v.prompt) {
      const kind = T[`diu_kind_${v.prompt.kind}`] || v.prompt.kind;
      box.append(el("div", { class: "turn-indicator diu-turn" },
        v.prompt.seat === api.mySeat() ? `${T.your_turn} · ${kind}` : `${fmt(T.turn_of, { name: api.seatName(v.prompt.seat) })} · ${kind}`));
    }
    box.append(flash);  // the one node from mount(): moving it keeps its text, class and timer
    return box;
  }

  // ------------------------------------------------------------ the prompt bar
  /** Whose answer the view waits for (table.js's myTurnActive asks it): the prompted seat. */
  function turnSeat(v) {
    return v && v.prompt ? v.prompt.seat : null;
  }

  /**
   * What a prompt button does, for its tooltip and aria-label: the claim's cryptic parts (the
   * card ids, "W" for a 听用) spelled out (the guide, templates/games/guides/diu.html, says more).
   */
  function actionHelp(a) {
    const cards = (a.cards || []).map(cardName).join(", ");
    const key = a.type === "claim" ? `diu_help_${a.claim}` : `diu_help_${a.type}`;
    return T[key] ? fmt(T[key], { cards }) : actionLabel(a);
  }

  function actionLabel(a) {
    if (a.type === "pass") return T.diu_pass;
    if (a.type === "accept") return T.diu_accept;
    if (a.type === "decline") return T.diu_decline;
    if (a.type === "diu") return `${T.diu_claim_diu} · ${(a.cards || []).join(" ")}`;
    if (a.type === "claim") return `${claimName(a.claim)} · ${(a.cards || []).join(" ")}`;
    return a.type;
  }

  function question(v, turn, named = cardName) {
    const card = v.card ? named(v.card.card) : "";
    if (turn.kind === "discard") return T.diu_prompt_discard;
    if (turn.kind === "offer" && turn.offer) return fmt(T.diu_prompt_offer, { card, claim: claimName(turn.offer.type) });
    if (turn.kind === "diu") return fmt(T.diu_prompt_diu, { card });
    return fmt(T.diu_prompt_call, { card });
  }

  function renderBar(v) {
    // a focused tile comes back by its card, else a focused button by its action
    const active = document.activeElement;
    const key = active && active.dataset && active.dataset.card !== undefined ? "card" : "action";
    keepFocus(bar, key, () => drawBar(v));
  }

  function drawBar(v) {
    const me = api.mySeat();
    bar.hidden = me === null || !v;
    if (bar.hidden) return;
    bar.replaceChildren();
    const active = api.myTurnActive();
    const turn = active ? S.yourTurn : null;
    const role = roleOf(v, me);
    const discarding = !!(turn && turn.kind === "discard");
    const allowed = new Set(discarding ? turn.legal.map((a) => a.card) : []);
    const hand = el("div", { class: "diu-hand", id: "diu-hand", role: "group", "aria-label": T.diu_your_hand });
    if (v.hand) {
      for (const id of v.hand) {
        const can = discarding && allowed.has(id) && !S.pending;
        hand.append(tile(id, can ? { button: true, onclick: () => act({ type: "discard", card: id }) } : {}));
      }
    } else if (role === "D") {
      hand.append(el("span", { class: "muted diu-out" }, T.diu_you_sit_out));
    }
    const head = el("div", { class: "diu-bar-info" },
      el("span", { class: "diu-role", dataset: { role } }, role),
      el("strong", {}, api.seatName(me)),
      el("span", { class: "muted" }, T[`diu_role_${role}`] || ""),
      turn ? el("span", { class: "diu-question", id: "diu-question" }, question(v, turn)) : null,
      turn ? timer(turn.deadline, turn.turn_seconds) : null);
    const buttons = el("div", { class: "actions diu-actions", role: "group", "aria-label": T.your_turn });
    if (turn && !discarding) {
      for (const a of turn.legal || []) {
        const kind = a.type === "pass" || a.type === "decline" ? "button button-ghost"
          : a.type === "diu" ? "button button-play diu-win" : "button button-play";
        const { type, card, claim, cards } = a;
        const help = actionHelp(a);
        buttons.append(el("button", {
          type: "button", class: kind, dataset: { action: a.type, claim: a.claim || "" }, disabled: S.pending,
          title: help, "aria-label": `${actionLabel(a)} — ${help}`,
          onclick: () => act({ type, card, claim, cards }),
        }, actionLabel(a)));
      }
    }
    bar.classList.toggle("is-turn", active);
    bar.append(head, hand, buttons);
    if (turn && asked !== `${turn.game}:${turn.version}`) { // the question, said once a prompt
      asked = `${turn.game}:${turn.version}`;
      api.say(question(v, turn, spokenTile), { urgent: true });
    }
  }

  function act(action) {
    const clean = {};
    for (const [k, val] of Object.entries(action)) if (val !== undefined) clean[k] = val;
    if (api.act({ type: "game_action", action: clean })) renderBar(view());
  }

  function render() {
    const v = view();
    if (!layer || !v || v.game !== "diu") return;
    layer.replaceChildren(centre(v), ...[0, 1, 2, 3].map((s) => seatBox(v, s)));
    renderBar(v);
  }

  // ------------------------------------------------------------ log
  function show(text) {
    if (!flash) return;
    flash.textContent = text;
    flash.classList.add("is-on");
    clearTimeout(flashTimer);
    flashTimer = setTimeout(() => flash && flash.classList.remove("is-on"), 2500);
  }

  function onEvents(events, initial = false) {
    const lines = [];
    const before = view();
    if (before && before.stock) remember(before.stock.drawn || 0, before.stock.commitments);
    for (const e of events || []) {
      switch (e.type) {
        case "stock_batch":
          remember(e.first, e.commitments);
          break;
        case "dealt":
          commits.clear();
          checked.ok = 0;
          checked.bad = 0;
          lines.push([fmt(T.diu_log_dealt, { a: name(e.roles.A), d: name(e.roles.D) }), "log-round"]);
          break;
        case "discarded":
          lines.push([fmt(T.diu_log_discarded, { name: name(e.seat), card: cardName(e.card) }) + (e.auto ? ` (${T.auto})` : ""), "",
            fmt(T.diu_log_discarded, { name: name(e.seat), card: spokenTile(e.card) })]);
          break;
        case "card_open":
          verifyOpen(e);
          lines.push([fmt(T.diu_log_open, { name: name(e.seat), card: cardName(e.card) }), "",
            fmt(T.diu_log_open, { name: name(e.seat), card: spokenTile(e.card) })]);
          break;
        case "claim_made":
          lines.push([fmt(T.diu_log_claim, { name: name(e.seat), claim: claimName(e.type) }), "log-claim"]);
          if (!initial) show(fmt(T.diu_log_claim, { name: name(e.seat), claim: claimName(e.type) }));
          break;
        case "passed":
          if (!e.auto || e.seat === api.mySeat()) lines.push([fmt(T.diu_log_passed, { name: name(e.seat) }), "log-pass"]);
          break;
        case "offered":
          lines.push([fmt(T.diu_log_offered, { name: name(e.seat), claim: claimName(e.type) }), ""]);
          break;
        case "declined":
          lines.push([fmt(T.diu_log_declined, { name: name(e.seat) }), "log-pass"]);
          break;
        case "meld": {
          const text = fmt(T.diu_log_meld, { name: name(e.seat), card: cardName(e.cards[0]), claim: claimName(e.type) });
          lines.push([text, "log-claim", fmt(T.diu_log_meld, { name: name(e.seat), card: spokenTile(e.cards[0]), claim: claimName(e.type) })]);
          if (!initial) { show(text); api.beep("play"); }
          break;
        }
        case "no_claim":
          lines.push([fmt(T.diu_log_no_claim, { card: cardName(e.card) }), "log-pass", fmt(T.diu_log_no_claim, { card: spokenTile(e.card) })]);
          break;
        case "diu": {
          const text = fmt(T.diu_log_diu, { name: name(e.seat), cards: e.cards.join(" ") });
          lines.push([text, "log-round", fmt(T.diu_log_diu, { name: name(e.seat), cards: spokenTiles(e.cards) })]);
          if (!initial) show(text);
          break;
        }
        case "game_ended":
          if (e.result === "exhausted") lines.push([T.diu_log_exhausted, "log-round"]);
          break;
        default:
          break;
      }
    }
    for (const [text, kind, spoken] of lines) {
      api.logLine(text, kind);
      lastLine = spoken || text;
      if (!initial) api.say(spoken || text);
    }
  }

  // ------------------------------------------------------------ result
  function resultExtra(result) {
    const box = el("div", { class: "diu-result", id: "diu-result", dataset: { result: result.result } });
    const head = result.result === "win"
      ? fmt(T.diu_result_win, { name: api.seatName(result.winner) }) +
        (result.diu && result.diu.hard ? ` · ${T.diu_result_hard}` : "")
      : T.diu_result_exhausted;
    const top = el("section", { class: "result-block" }, el("h3", { class: "diu-result-head" }, head));
    if (result.diu) top.append(el("p", { class: "diu-diu-group" }, el("strong", {}, T.diu_claim_diu), " ", tiles(result.diu.cards)));
    box.append(top);
    const list = el("ul", { class: "diu-hands" });
    [0, 1, 2, 3].forEach((s) => {
      const role = ROLES.find((r) => result.roles[r] === s);
      list.append(el("li", { class: "diu-hand-row", dataset: { seat: s } },
        el("span", { class: "diu-role", dataset: { role } }, role),
        el("span", { class: "rank-name" }, api.seatName(s)),
        el("span", { class: "diu-score" }, `${result.scores[s] > 0 ? "+" : ""}${result.scores[s]}`),
        role === "D" ? el("span", { class: "muted" }, T.diu_sitting_out) : null,
        (result.melds[s] || []).map((m) => el("span", { class: "diu-meld" },
          el("span", { class: "diu-meld-type" }, claimName(m.type)), tiles(m.cards, { small: true }))),
        tiles(result.hands[s], { small: true })));
    });
    box.append(el("section", { class: "result-block" }, el("h3", {}, T.diu_hands), list));
    return box;
  }

  /** The result card's title: a hand without a winner says the stock ran out. */
  function resultTitle(result) {
    return result.result !== "win" ? T.diu_result_exhausted : null;
  }

  // ------------------------------------------------------------ lobby
  function lobby(table) {
    if (!options || !table) return;
    const o = table.options || {};
    options.textContent = fmt(T.diu_options, {
      t_call: o.t_call ?? 15, t_offer: o.t_offer ?? 15, t_play: o.t_play ?? 20,
    });
  }

  // ------------------------------------------------------------ the accessible mode
  function speakHand() {
    const v = view();
    const me = api.mySeat();
    if (!v || me === null) return "";
    if (!v.hand) return T.diu_you_sit_out;
    const parts = [`${fmt(T.sr_your_hand, { n: fmt(T.diu_cards_n, { n: v.hand.length }) })}: ${spokenTiles(v.hand)}`];
    for (const m of v.melds[me] || []) parts.push(`${claimName(m.type)}: ${spokenTiles(m.cards)}`);
    return parts.join(". ");
  }

  function speakLast() {
    const v = view();
    if (v && v.card) {
      const whose = v.card.source === "stock"
        ? fmt(T.diu_card_stock, { name: name(v.card.seat) }) : fmt(T.diu_card_discard, { name: name(v.card.seat) });
      return `${spokenTile(v.card.card)}. ${whose}`;
    }
    return lastLine || T.sr_no_play;
  }

  function speakCounts() {
    const v = view();
    if (!v) return "";
    const parts = [0, 1, 2, 3].filter((s) => s !== api.mySeat()).map((s) => {
      const role = roleOf(v, s);
      if (role === "D") return `${api.seatName(s)} (${role}): ${T.diu_sitting_out}`;
      const melds = (v.melds[s] || []).map((m) => `${claimName(m.type)} ${spokenTiles(m.cards)}`);
      return `${api.seatName(s)} (${role}): ${fmt(T.diu_cards_n, { n: v.hand_counts[s] ?? 0 })}${melds.length ? `; ${melds.join(", ")}` : ""}`;
    });
    parts.push(fmt(T.diu_stock_n, { n: (v.stock || {}).count ?? 0 }));
    return parts.join(". ");
  }

  const buttons = () => (bar ? Array.from(bar.querySelectorAll(".diu-actions button[data-action]:not(:disabled)")) : []);
  const press = (test) => () => {
    const button = buttons().find(test);
    if (!button) { api.say(T.sr_not_now); return true; }
    button.click();
    return true;
  };
  /** D: the focus goes to the first tile you may discard (← → move along the hand). */
  function focusDiscard() {
    const tilesNow = $$("#diu-hand button.diu-tile:not(:disabled)");
    if (!tilesNow.length) { api.say(T.sr_not_now); return true; }
    tilesNow[0].focus();
    return true;
  }
  function moveInHand(step) {
    const tilesNow = $$("#diu-hand button.diu-tile:not(:disabled)");
    const at = tilesNow.indexOf(document.activeElement);
    if (at < 0) return false;
    tilesNow[Math.max(0, Math.min(tilesNow.length - 1, at + step))].focus();
    return true;
  }
  const keys = {
    d: focusDiscard,
    a: press((b) => b.dataset.action === "accept" || b.dataset.action === "claim"),
    u: press((b) => b.dataset.action === "diu"),
    x: press((b) => b.dataset.action === "pass" || b.dataset.action === "decline"),
    ArrowLeft: () => moveInHand(-1),
    ArrowRight: () => moveInHand(1),
  };
  for (let i = 0; i < 9; i += 1) keys[String(i + 1)] = () => press((b) => buttons().indexOf(b) === i)();

  mount();
  return {
    render, onEvents, resultExtra, lobby, turnSeat, resultTitle, systemTerms: { claim: "diu_claim_" },
    speakHand, speakLast, speakCounts, keys,
  };
}
