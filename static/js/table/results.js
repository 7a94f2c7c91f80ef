// After a game (winner, ranking with scores and hands left, stats) and after the session (totals,
// ranking, per-game breakdown, cumulative chart): what every game has. A game's own parts come
// from its board's hooks (docs/architecture.md, "How a game plugs into the table layer"), passed
// in as ``handlers``: ``title`` (resultTitle), ``extra`` (resultExtra) and ``lines``
// (resultLines: ``tags`` under the title, ``stats`` list items, ``text`` lines of the copy).
import { el, fmt } from "./dom.js";
import { cardElement, cardsText } from "./cards.js";
import { cumulativeChart, SEAT_COLORS } from "./chart.js";

export function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

export function pointsClass(n) {
  return n > 0 ? "pts pts-plus" : n < 0 ? "pts pts-minus" : "pts";
}

// "X wins!", or "No winner" (a game may end without one).
export function winnerLine(T, name, result) {
  const w = result.winner;
  return w === null || w === undefined ? T.no_winner : fmt(T.winner_is, { name: name(w) });
}

/** The plain-text result that the Copy button puts on the clipboard; ``extra``: the board's
 * own lines after the ranking (resultLines(...).text). */
export function resultText(T, ctx, result, stats, extra = []) {
  const name = (s) => ctx.name(s);
  const lines = [fmt(T.result_share_head, { table: ctx.tableName, n: ctx.position ?? ctx.number, total: ctx.games })];
  lines.push(winnerLine(T, name, result));
  result.ranking.forEach((seat, i) => {
    lines.push(`${i + 1}. ${name(seat)} ${signed(result.scores[seat])}`);
  });
  lines.push(...extra);
  if (stats) lines.push(fmt(T.stats_rounds, { n: stats.rounds }));
  return lines.join("\n");
}

/** The game's replay page (``ctx.replayUrl``: the table's replay URL for game 0, from the
 * page), or null. */
export function replayUrl(ctx) {
  return ctx.replayUrl && ctx.number ? ctx.replayUrl.replace("/games/0/", `/games/${ctx.number}/`) : null;
}

// The card is a scrolling body and a footer of buttons that stays in view (the card fits its
// box at 1366×900 and on a phone); the stats fold away under their heading.
export function renderResult(root, T, ctx, result, stats, handlers) {
  const name = (s) => ctx.name(s);
  const lines = handlers.lines || {};
  root.replaceChildren();
  const body = el("div", { class: "result-scroll" });
  const head = el("div", { class: "result-head" },
    el("div", { class: "result-trophy", "aria-hidden": "true" }, "★"),
    // the board may word it (resultTitle), else "X wins!" / "No winner"
    el("h2", { id: "result-title" }, handlers.title || winnerLine(T, name, result)),
    el("p", { class: "muted" }, fmt(T.game_n_of, { n: ctx.position ?? ctx.number, total: ctx.games })));
  head.append(...(lines.tags || [])); // the board's own tags under the title
  body.append(head);

  const ranking = el("ol", { class: "result-ranking" });
  result.ranking.forEach((seat, i) => {
    const hand = (result.hands && result.hands[seat]) || [];
    const cards = el("div", { class: "mini-hand", role: "group", "aria-label": cardsText(hand) });
    hand.forEach((id) => cards.append(cardElement(id)));
    ranking.append(el("li", { class: i === 0 ? "rank-row rank-winner" : "rank-row" },
      el("span", { class: "rank-place" }, String(i + 1)),
      el("span", { class: "rank-name" }, name(seat), ctx.you === seat ? el("em", {}, ` (${T.you})`) : null),
      el("span", { class: "rank-left muted" }, hand.length ? fmt(T.cards_left_n, { n: hand.length }) : ""),
      el("span", { class: pointsClass(result.scores[seat]) }, signed(result.scores[seat])),
      hand.length ? cards : null));
  });
  body.append(el("section", { class: "result-block" }, el("h3", {}, T.ranking), ranking));

  if (handlers.extra) body.append(handlers.extra); // the board's own section

  if (stats) {
    const list = el("ul", { class: "stats" },
      el("li", {}, fmt(T.stats_rounds, { n: stats.rounds })),
      stats.cards_played ? el("li", {}, `${T.stats_cards_played}: ` +
        stats.cards_played.map((n, s) => `${name(s)} ${n}`).join(" · ")) : null);
    list.append(...(lines.stats || [])); // the board's own stats lines
    body.append(el("details", { class: "result-block result-stats" },
      el("summary", {}, el("h3", {}, T.stats)), list));
  }

  const actions = el("div", { class: "result-actions" });
  if (handlers.canNext) {
    actions.append(el("button", { class: "button", type: "button", id: "btn-next-game",
      onclick: handlers.next }, T.next_game));
  }
  const replay = replayUrl(ctx);
  actions.append(
    replay ? el("a", { class: "button button-ghost", href: replay, target: "_blank", rel: "noopener",
      id: "btn-view-replay" }, T.view_replay) : null,
    el("a", { class: "button button-ghost", href: ctx.homeUrl }, T.back_to_lobby),
    el("button", { class: "button button-ghost", type: "button", onclick: handlers.copy }, T.copy_result));
  actions.append(el("p", { class: "muted next-in", "data-next-in": "" }));
  root.append(body, actions);
}

export function renderSession(root, T, ctx, summary) {
  const name = (s) => ctx.name(s);
  root.replaceChildren();
  const totals = summary.totals || [];
  const ranking = summary.ranking || totals.map((_, i) => i).sort((a, b) => totals[b] - totals[a]);
  const breakdown = summary.breakdown || [];
  root.append(el("div", { class: "result-head" },
    el("div", { class: "result-trophy", "aria-hidden": "true" }, "★"),
    el("h2", {}, T.session_over),
    el("p", {}, fmt(T.session_winner, { name: name(ranking[0]) }))));
  const list = el("ol", { class: "result-ranking" });
  ranking.forEach((seat, i) => list.append(el("li", { class: i === 0 ? "rank-row rank-winner" : "rank-row" },
    el("span", { class: "rank-place" }, String(i + 1)),
    el("span", { class: "rank-name" },
      el("span", { class: "swatch", style: { background: SEAT_COLORS[seat % 4] } }), name(seat)),
    el("span", { class: pointsClass(totals[seat]) }, signed(totals[seat])))));
  root.append(el("section", { class: "result-block" }, el("h3", {}, T.ranking), list));
  if (breakdown.length) {
    root.append(el("section", { class: "result-block" }, el("h3", {}, T.points_chart),
      cumulativeChart(breakdown, totals.map((_, s) => name(s)), T.points_chart)));
    root.append(el("section", { class: "result-block" }, el("h3", {}, T.per_game),
      scoreTable(T, ctx, breakdown, totals)));
  }
  root.append(el("div", { class: "result-actions" },
    el("a", { class: "button", href: ctx.homeUrl }, T.back_to_lobby)));
}

export function scoreTable(T, ctx, breakdown, totals) {
  const seats = totals.map((_, s) => s);
  const table = el("table", { class: "scores" });
  table.append(el("thead", {}, el("tr", {}, el("th", {}, "#"),
    seats.map((s) => el("th", {}, ctx.name(s))))));
  const body = el("tbody");
  breakdown.forEach((row, g) => body.append(el("tr", {}, el("td", {}, String(g + 1)),
    seats.map((s) => el("td", { class: `num ${pointsClass(row[s] || 0)}` }, signed(row[s] || 0))))));
  table.append(body);
  table.append(el("tfoot", {}, el("tr", {}, el("th", {}, T.total),
    seats.map((s) => el("th", { class: `num ${pointsClass(totals[s] || 0)}` }, signed(totals[s] || 0))))));
  return table;
}
