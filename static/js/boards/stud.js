// The Seven-Card Stud board: seats around the felt with their cards, stacks and bets, the pot and
// side pots, and the action bar built from the server's `your_turn` frame (docs/protocol.md).
// table.js keeps the lobby, chat, socket, timers, results and session views; it imports this
// module for a stud table (CFG.board_script) and calls its hooks (docs/architecture.md).
// The browser never decides anything: it offers only `your_turn.legal` and sends `game_action`.
// All text goes through textContent (el() children) and T (templates/games/_table_i18n.html).
import { $, el, fmt, keepFocus, timerEl } from "../table/dom.js";
import { backElement, cardElement, cardLabel, cardText, markTwos } from "../table/cards.js";
import { spokenCards } from "../table/speech.js";

// Positions of a seat's seven cards that are dealt face up (down, down, up, up, up, up, down).
const UP = new Set([2, 3, 4, 5]);
const ORDINAL = { 3: "stud_street_3" };
// The places of 2–7 seats around the oval ([fx, fy], 0..1 across the felt), from yours at the
// bottom counter-clockwise. Spaced for the seat boxes of stud.css on a desktop and a phone
// (tests/browser/test_stud_browser.py checks that none overlaps another or leaves the felt).
const SLOTS = {
  1: [[0.5, 1]],
  2: [[0.5, 1], [0.5, 0]],
  3: [[0.5, 1], [1, 0.25], [0, 0.25]],
  4: [[0.5, 1], [1, 0.5], [0.5, 0], [0, 0.5]],
  5: [[0.5, 1], [1, 0.6], [0.75, 0], [0.25, 0], [0, 0.6]],
  6: [[0.5, 1], [1, 0.72], [1, 0.2], [0.5, 0], [0, 0.2], [0, 0.72]],
  7: [[0.5, 1], [1, 0.72], [1, 0.36], [0.75, 0], [0.25, 0], [0, 0.36], [0, 0.72]],
};

/**
 * @param {object} api  what the table page shares (table.js): T, S (its state), send(frame),
 *   act(frame) (a move on the current version, once per turn), myTurnActive(), mount(name, opts)
 *   (this board's layer, bar and lobby options line), mySeat(), seatName(i), isBotSeat(seat),
 *   autoBadge(seat) (the "auto" / "disqualified — house plays" badge or null),
 *   logLine(text, kind), beep(kind), toast(text, kind)
 */
export function createBoard(api) {
  const { T, S } = api;
  markTwos(false); // "heo" is Tiến Lên's word: stud's 2s are plain 2s (the result screen too)
  const view = () => (S.game ? S.game.state : null);
  const name = (i) => (i === api.mySeat() ? T.you_cap : api.seatName(i));
  /**
   * A hand's name with its ranks: ("pair", ["K"]) → "Pair of Kings" / "Đôi K". The engine gives
   * the category and the rank labels (games/engine/stud/cards.py hand_ranks); the words are T's
   * (stud_name_<category> with {a}/{as} the first rank as one card / as several, {b}/{bs} the
   * second). Without ranks, the category alone ("Pair").
   */
  function handName(h, ranks) {
    if (!h) return "";
    const rs = ranks || [];
    const template = T[`stud_name_${h}`];
    if (template && rs.length) {
      const one = (r) => (r ? T[`stud_rank_${r}`] || r : "");
      const many = (r) => (r ? T[`stud_ranks_${r}`] || r : "");
      return fmt(template, { a: one(rs[0]), as: many(rs[0]), b: one(rs[1]), bs: many(rs[1]) });
    }
    return T[`stud_hand_${h}`] || String(h).replace(/_/g, " ");
  }
  // the hands shown at the last showdown, by seat: a pot's winning hand is named from them
  let lastShown = {};
  // the last action in words, for the L key (street_actions carry no amounts)
  let lastLine = "";
  let asked = null;
  const streetName = (n) => (ORDINAL[n] ? T[ORDINAL[n]] : fmt(T.stud_street, { n }));
  // the felt layer, the action bar and the lobby's options line (#stud-layer, #stud-bar, #stud-options)
  const { layer, bar, options } = api.mount("stud", { note: T.stud_rules_note });
  // the top bar's Guide button (templates/games/guides/_hook.html) opens the guide dialog
  // (table.js opens it, and the ? key)

  // ------------------------------------------------------------ seats
  /**
   * Where a seat sits on the oval felt, for 2–7 seats: you (or seat 0 for a spectator) at the
   * bottom, the others in seat order around the oval, counter-clockwise (the next seat on your
   * right, as on the Tiến Lên table). ``fx``/``fy`` are 0..1 across the felt; stud.css anchors
   * the box by the same fraction, so every box stays inside the felt. ``r`` is the place.
   * @returns {{r: number, fx: number, fy: number, side: string}}
   */
  function position(seat, n) {
    const me = api.mySeat() ?? 0;
    const count = Math.max(n, 1);
    const r = (((seat - me) % count) + count) % count;
    let [fx, fy] = SLOTS[count] ? SLOTS[count][r] : [0.5, 1];
    if (!SLOTS[count]) { // more seats than any game has today: evenly round an ellipse
      const angle = Math.PI / 2 - (r * 2 * Math.PI) / count;
      fx = Math.round((0.5 + 0.5 * Math.cos(angle)) * 1000) / 1000;
      fy = Math.round((0.5 + 0.5 * Math.sin(angle)) * 1000) / 1000;
    }
    const side = r === 0 ? "bottom" : fy === 0 ? "top" : fx >= 0.5 ? "right" : "left";
    return { r, fx, fy, side };
  }

  function cardsOf(v, s) {
    const mine = s === api.mySeat();
    const row = el("div", { class: "stud-cards", role: "group", "aria-label": T.stud_your_cards });
    if (mine) row.classList.add("stud-cards-mine");
    (v.seats[s].cards || []).forEach((id, i) => {
      const down = !UP.has(i);
      let node;
      if (id === null || id === undefined) node = backElement();
      else node = cardElement(id, { twos: false, label: down ? fmt(T.stud_card_down, { card: cardLabel(id) }) : undefined });
      if (down) {
        node.classList.add("is-down"); // a down card (face up only to its owner, or at a showdown)
        if (id) {
          node.title = mine ? T.stud_down_mine : T.stud_down;
          node.append(el("span", { class: "stud-down-tag", "aria-hidden": "true" }, T.stud_down_short));
        }
      }
      row.append(node);
    });
    return row;
  }

  function lastAction(v, s) {
    const acts = v.street_actions || [];
    for (let i = acts.length - 1; i >= 0; i -= 1) {
      if (acts[i].seat === s) return actionText(acts[i].action, null, acts[i].auto);
    }
    return "";
  }

  function actionText(action, amount, auto) {
    const key = `stud_did_${action}`;
    const text = fmt(T[key] || action, { n: amount ?? "" }).trim();
    return auto ? `${text} (${T.auto})` : text;
  }

  function timer(v) {
    return timerEl(v.deadline, (v.options && v.options.turn_seconds) || 30);
  }

  function seatBox(v, s) {
    const info = v.seats[s];
    const seat = S.seats.find((x) => x.index === s) || {};
    const pos = position(s, v.players);
    const cls = ["stud-seat", `pos-${pos.side}`];
    if (v.turn === s && !v.finished) cls.push("is-turn");
    if (info.folded) cls.push("is-folded");
    if (s === api.mySeat()) cls.push("is-me");
    if (!info.active) cls.push("is-out");
    const shown = v.result && v.result.shown ? v.result.shown[String(s)] : null;
    const badges = el("span", { class: "stud-badges" },
      api.isBotSeat(seat) ? el("span", { class: "badge-bot" }, T.bot) : null,
      api.autoBadge(seat),
      v.button === s ? el("span", { class: "stud-dealer", role: "img", title: T.stud_button, "aria-label": T.stud_button }, "D") : null,
      v.bring_in_seat === s && v.street === 3 && !v.finished
        ? el("span", { class: "stud-bring", title: T.stud_bring_in_marker }, T.stud_bring_in_marker) : null,
      info.folded ? el("span", { class: "stud-tag stud-tag-fold" }, T.stud_folded) : null,
      info.all_in ? el("span", { class: "stud-tag stud-tag-allin" }, T.stud_all_in) : null);
    const box = el("div", { class: cls.join(" "), dataset: { seat: s, place: pos.r } },
      el("div", { class: "stud-seat-head" },
        el("span", { class: "stud-name" }, s === api.mySeat() ? `${api.seatName(s)} (${T.you})` : api.seatName(s)),
        badges),
      cardsOf(v, s),
      el("div", { class: "stud-seat-foot" },
        el("span", { class: "stud-stack", title: T.stud_stack }, fmt(T.stud_chips_n, { n: info.stack })),
        info.bet ? el("span", { class: "stud-bet", title: T.stud_bet_street }, String(info.bet)) : null,
        shown ? el("span", { class: "stud-hand-name", title: handName(shown.hand, shown.ranks) },
          handName(shown.hand, shown.ranks))
          : info.showing && info.showing !== "high_card" && !info.folded
            ? el("span", { class: "stud-showing", title: fmt(T.stud_showing, { hand: handName(info.showing, info.showing_ranks) }) },
              fmt(T.stud_showing, { hand: handName(info.showing, info.showing_ranks) })) : null),
      el("div", { class: "stud-last" }, v.finished ? "" : lastAction(v, s) || "\u00a0"),
      // the turn timer; your own sits in the action bar while you act
      v.turn === s && !v.finished && !(s === api.mySeat() && api.myTurnActive()) ? timer(v) : null);
    box.style.setProperty("--fx", String(pos.fx));
    box.style.setProperty("--fy", String(pos.fy));
    return box;
  }

  function centre(v) {
    const pots = el("div", { class: "stud-pots", id: "stud-pots" });
    (v.pots || []).forEach((pot, i) => {
      pots.append(el("span", { class: i === 0 ? "stud-pot" : "stud-pot stud-side-pot" },
        fmt(i === 0 ? T.stud_pot : T.stud_side_pot, { n: pot.amount })));
    });
    const turn = v.finished ? T.stud_showdown
      : v.turn === null || v.turn === undefined ? ""
        : v.turn === api.mySeat() ? T.your_turn : fmt(T.turn_of, { name: api.seatName(v.turn) });
    return el("div", { class: "stud-centre" },
      el("div", { class: "stud-street" }, streetName(v.street)),
      pots,
      el("div", { class: "turn-indicator stud-turn" }, v.finished && !(v.result && v.result.showdown) ? "" : turn));
  }

  // ------------------------------------------------------------ action bar
  function buttonLabel(a) {
    const base = T[`stud_${a.type}`] || a.label || a.type;
    return a.amount === null || a.amount === undefined || a.type === "fold" || a.type === "check"
      ? base : `${base} ${a.amount}`;
  }

  function renderBar(v) {
    keepFocus(bar, "action", () => drawBar(v));
  }

  function drawBar(v) {
    const me = api.mySeat();
    bar.hidden = me === null || !v;
    if (bar.hidden) return;
    bar.replaceChildren();
    const active = api.myTurnActive();
    const mine = v.seats[me] || {};
    const info = el("div", { class: "stud-bar-info" },
      el("strong", {}, api.seatName(me)),
      el("span", { class: "muted" }, fmt(T.stud_chips_n, { n: mine.stack ?? 0 })),
      active && S.yourTurn.amount_to_call ? el("span", { class: "stud-to-call" },
        fmt(T.stud_to_call, { n: S.yourTurn.amount_to_call })) : null,
      active ? timer(v) : null);
    const buttons = el("div", { class: "actions stud-actions", role: "group", "aria-label": T.your_turn });
    const legal = active ? S.yourTurn.legal || [] : [];
    for (const a of legal) {
      const kind = a.type === "fold" ? "button button-ghost" : a.type === "check" || a.type === "call"
        ? "button" : "button button-play";
      buttons.append(el("button", {
        type: "button", class: kind, dataset: { action: a.type }, disabled: S.pending,
        onclick: () => act(a.type),
      }, buttonLabel(a)));
    }
    if (!legal.length) {
      buttons.append(el("span", { class: "muted stud-wait" },
        v.finished ? "" : v.turn === null || v.turn === undefined ? ""
          : fmt(T.turn_of, { name: api.seatName(v.turn) })));
    }
    bar.classList.toggle("is-turn", active);
    bar.append(info, buttons);
    if (active && asked !== `${S.yourTurn.game}:${S.yourTurn.version}`) { // the choices, said once a turn
      asked = `${S.yourTurn.game}:${S.yourTurn.version}`;
      const call = S.yourTurn.amount_to_call ? `${fmt(T.stud_to_call, { n: S.yourTurn.amount_to_call })}. ` : "";
      api.say(`${call}${fmt(T.sr_choices, { actions: legal.map(buttonLabel).join(", ") })}`, { urgent: true });
    }
  }

  function act(type) {
    if (api.act({ type: "game_action", action: { type } })) renderBar(view());
  }

  function render() {
    const v = view();
    if (!v || v.game !== "stud") return;
    // 5–7 seats: smaller seat boxes (stud.css), and on a phone a taller felt
    layer.dataset.seats = String(v.players);
    layer.classList.toggle("is-crowded", v.players >= 5);
    $("#felt").classList.toggle("stud-crowded", v.players >= 5);
    layer.replaceChildren(centre(v), ...v.seats.map((_, s) => seatBox(v, s)));
    renderBar(v);
  }

  // ------------------------------------------------------------ log
  function onEvents(events, initial = false) {
    for (const e of events || []) {
      switch (e.type) {
        case "hand_started":
          lastLine = "";
          api.logLine(streetName(3), "log-round");
          break;
        case "action": {
          const n = e.action === "call" ? e.amount : e.total;
          const line = `${name(e.seat)}: ${actionText(e.action, n, e.auto)}${e.all_in ? ` · ${T.stud_all_in}` : ""}`;
          api.logLine(line, e.action === "fold" || e.action === "check" ? "log-pass" : "");
          lastLine = line;
          if (!initial) api.say(line);
          if (!initial) api.beep(e.action === "fold" || e.action === "check" ? "pass" : "play");
          break;
        }
        case "returned":
          api.logLine(fmt(T.stud_returned, { name: name(e.seat), n: e.amount }));
          break;
        case "dealt":
          api.logLine(fmt(T.stud_street_log, { street: streetName(e.street) }), "log-round");
          if (!initial) api.say(fmt(T.stud_street_log, { street: streetName(e.street) }));
          break;
        case "showdown":
          lastShown = e.shown || {};
          for (const [seat, hand] of Object.entries(e.shown || {})) {
            api.logLine(`${name(Number(seat))}: ${handName(hand.hand, hand.ranks)} · ${hand.cards.map(cardText).join(" ")}`, "log-round");
            if (!initial) api.say(`${name(Number(seat))}: ${handName(hand.hand, hand.ranks)}: ${spokenCards(T, hand.cards)}`);
          }
          break;
        case "hand_ended":
          for (const pot of e.pots || []) {
            api.logLine(potText(pot), "log-round");
            if (!initial) api.say(potText(pot));
          }
          break;
        default:
          break;
      }
    }
  }

  function potText(pot, shown = lastShown) {
    // the chips each winner takes from this pot (their contribution included), not their net
    // gain for the hand: that is the ranking's (result.scores)
    const names = (pot.winners || []).map((s, i) =>
      fmt(T.stud_pot_share, { name: api.seatName(s), chips: (pot.shares || [])[i] ?? "" })).join(", ");
    const text = fmt(T.stud_pot_won, { amount: pot.amount, names });
    // the winner's shown hand is the pot's hand: it carries the ranks for the name
    const winner = (shown || {})[String((pot.winners || [])[0])];
    const ranks = winner && winner.hand === pot.hand ? winner.ranks : null;
    return pot.hand ? `${text} ${fmt(T.stud_with, { hand: handName(pot.hand, ranks) })}` : text;
  }

  // ------------------------------------------------------------ result
  function resultExtra(result) {
    const box = el("div", { class: "stud-result" });
    if (result.shown) {
      const list = el("ul", { class: "stud-shown" });
      const order = (result.ranking || Object.keys(result.shown).map(Number)).filter((s) => result.shown[String(s)]);
      for (const s of order) {
        const hand = result.shown[String(s)];
        const cards = el("span", { class: "mini-hand" });
        hand.cards.forEach((id) => cards.append(cardElement(id, { twos: false })));
        list.append(el("li", { class: "stud-shown-row", dataset: { seat: s } },
          el("span", { class: "rank-name" }, api.seatName(s)),
          el("strong", { class: "stud-hand-name" }, handName(hand.hand, hand.ranks)),
          cards));
      }
      box.append(el("section", { class: "result-block" }, el("h3", {}, T.stud_showdown), list));
    }
    const pots = el("ul", { class: "stud-pot-list" });
    for (const pot of result.pots || []) pots.append(el("li", {}, potText(pot, result.shown || {})));
    box.append(el("section", { class: "result-block" }, el("h3", {}, T.stud_pots), pots));
    if (result.stacks) {
      box.append(el("section", { class: "result-block" }, el("h3", {}, T.stud_stacks),
        el("p", { class: "stud-stacks" }, result.stacks.map((n, s) => `${api.seatName(s)} ${n}`).join(" · "))));
    }
    return box;
  }

  // ------------------------------------------------------------ lobby
  function lobby(table) {
    if (!table) return;
    const o = table.options || {};
    options.textContent = fmt(T.stud_options, {
      ante: o.ante ?? 1, bring_in: o.bring_in ?? 2, small_bet: o.small_bet ?? 5,
      big_bet: o.big_bet ?? 2 * (o.small_bet ?? 5), buy_in: o.buy_in ?? 200,
    });
  }

  // ------------------------------------------------------------ the accessible mode
  /** A seat's cards in words: "down: nine of spades; up: king of hearts, …" (backs counted). */
  function seatCards(v, s) {
    const down = [];
    const up = [];
    let hidden = 0;
    (v.seats[s].cards || []).forEach((id, i) => {
      if (id === null || id === undefined) hidden += 1;
      else (UP.has(i) ? up : down).push(id);
    });
    const parts = [];
    if (down.length) parts.push(fmt(T.sr_down, { cards: spokenCards(T, down) }));
    if (hidden) parts.push(fmt(T.sr_face_down_n, { n: hidden }));
    if (up.length) parts.push(fmt(T.sr_up, { cards: spokenCards(T, up) }));
    return parts.join("; ");
  }

  function speakHand() {
    const v = view();
    const me = api.mySeat();
    if (!v || me === null) return "";
    const mine = v.seats[me];
    const to = api.myTurnActive() && S.yourTurn.amount_to_call ? `. ${fmt(T.stud_to_call, { n: S.yourTurn.amount_to_call })}` : "";
    return `${seatCards(v, me)}. ${fmt(T.stud_chips_n, { n: mine.stack })}${to}`;
  }

  function speakLast() {
    const v = view();
    const acts = (v && v.street_actions) || [];
    if (lastLine) return lastLine;
    if (!acts.length) return T.sr_no_play;
    const a = acts[acts.length - 1];
    return `${name(a.seat)}: ${actionText(a.action, null, a.auto)}`;
  }

  function speakCounts() {
    const v = view();
    if (!v) return "";
    const pots = (v.pots || []).map((p, i) => fmt(i === 0 ? T.stud_pot : T.stud_side_pot, { n: p.amount }));
    const seats = v.seats.map((info, s) => {
      if (s === api.mySeat()) return null;
      const bits = [api.seatName(s), fmt(T.stud_chips_n, { n: info.stack })];
      if (info.folded) bits.push(T.stud_folded);
      else bits.push(seatCards(v, s));
      if (info.bet) bits.push(`${T.stud_bet_street} ${info.bet}`);
      return bits.join(", ");
    }).filter(Boolean);
    return [...pots, ...seats].join("; ");
  }

  /** A key's action: the legal action of that type (or the first of ``types`` offered). */
  const press = (...types) => () => {
    const buttons = Array.from(bar.querySelectorAll("button[data-action]:not(:disabled)"));
    const button = types.map((t) => buttons.find((b) => b.dataset.action === t)).find(Boolean);
    if (!button) { api.say(T.sr_not_now); return true; }
    button.click();
    return true;
  };
  const nth = (i) => () => {
    const buttons = Array.from(bar.querySelectorAll("button[data-action]:not(:disabled)"));
    if (!buttons[i]) { api.say(T.sr_not_now); return true; }
    buttons[i].click();
    return true;
  };
  const keys = {
    f: press("fold"), k: press("check"), c: press("call"), b: press("bring_in"),
    r: press("raise", "bet", "bet_big", "complete"),
  };
  for (let i = 0; i < 9; i += 1) keys[String(i + 1)] = nth(i);

  return {
    render, onEvents, resultExtra, lobby, systemTerms: { hand: "stud_hand_" }, speakHand, speakLast, speakCounts, keys,
  };
}
