// The board of a game that brings none of its own (no static/js/boards/<game>.js): the seats
// with their counts, your own view as plain text, and the server's `your_turn.legal` actions as
// buttons that send `game_action`. Enough to play and test a new game before it has a board
// (docs/adding-a-game.md). Like every board, it decides nothing: the engine checks each move.
// All text goes through textContent (el() children) and T (templates/games/_table_i18n.html).
import { el, fmt, timerEl } from "../table/dom.js";

/** A short label of an action: its type, then its other fields ("play 7H", "bet 10"). */
export function actionLabel(action, T) {
  const base = T[`action_${action.type}`] || String(action.type).replace(/_/g, " ");
  const rest = Object.entries(action)
    .filter(([k]) => k !== "type" && k !== "auto")
    .map(([, v]) => (Array.isArray(v) ? v.join(" ") : String(v)));
  return [base, ...rest].join(" ");
}

/** The parts of a view worth showing as text: scalars and short lists, by key. */
function viewLines(view) {
  const lines = [];
  for (const [key, value] of Object.entries(view || {})) {
    if (value === null || value === undefined || key === "game") continue;
    if (typeof value === "object" && !Array.isArray(value)) continue;
    if (Array.isArray(value) && value.some((v) => v !== null && typeof v === "object")) continue;
    lines.push(`${key.replace(/_/g, " ")}: ${Array.isArray(value) ? value.join(" ") : value}`);
  }
  return lines;
}

/** @param {object} api  what the table page shares (see boards/stud.js). */
export function createBoard(api) {
  const { T, S } = api;
  const view = () => (S.game ? S.game.state : null);
  const { layer, bar, options } = api.mount("generic", { note: T.generic_board_note });

  function renderBar(v) {
    const me = api.mySeat();
    bar.hidden = me === null || !v;
    if (bar.hidden) return;
    bar.replaceChildren();
    const active = api.myTurnActive();
    const buttons = el("div", { class: "actions generic-actions", role: "group", "aria-label": T.your_turn });
    const legal = active ? S.yourTurn.legal || [] : [];
    for (const action of legal) {
      buttons.append(el("button", {
        type: "button", class: "button", disabled: S.pending,
        onclick: () => { if (api.act({ type: "game_action", action })) renderBar(view()); },
      }, actionLabel(action, T)));
    }
    if (!legal.length && !v.finished && v.turn !== null && v.turn !== undefined) {
      buttons.append(el("span", { class: "muted" }, fmt(T.turn_of, { name: api.seatName(v.turn) })));
    }
    bar.classList.toggle("is-turn", active);
    bar.append(el("strong", {}, api.seatName(me)), active && S.yourTurn.deadline
      ? timerEl(S.yourTurn.deadline) : null, buttons);
  }

  function render() {
    const v = view();
    if (!v) return;
    const seats = el("ul", { class: "generic-seats" });
    for (let i = 0; i < (v.players || 0); i += 1) {
      const badge = api.autoBadge ? api.autoBadge(i) : null;
      seats.append(el("li", { class: i === v.turn ? "is-turn" : "" },
        el("strong", {}, i === api.mySeat() ? T.you_cap : api.seatName(i)), badge));
    }
    layer.replaceChildren(seats, el("pre", { class: "generic-view" }, viewLines(v).join("\n")));
    renderBar(v);
  }

  function onEvents(events) {
    for (const event of events || []) {
      if (event && event.type && event.seat !== undefined && event.type !== "turn") {
        api.logLine(`${api.seatName(event.seat)}: ${actionLabel(event, T)}`, "move");
      }
    }
  }

  /** The lobby's options line: the table's game options as they are. */
  function lobby(table) {
    const opts = Object.entries((table && table.options) || {})
      .filter(([k]) => k !== "seats")
      .map(([k, v]) => `${k.replace(/_/g, " ")}: ${v}`);
    options.textContent = opts.join(" · ");
  }

  return { render, onEvents, lobby, resultExtra: () => null };
}
