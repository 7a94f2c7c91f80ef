// After a game (winner, transfers with reasons, stats) and after the session (totals, ranking,
// per-game breakdown, cumulative chart).
import { el, fmt } from "./dom.js";
import { cardElement, cardsText } from "./cards.js";
import { cumulativeChart, SEAT_COLORS } from "./chart.js";

export function comboLabel(T, combo, cards) {
  const n = cards ? cards.length : 0;
  if (combo === "straight") return fmt(T.combo_straight_n, { n });
  if (combo === "pairs_run") return fmt(T.combo_pairs_run_n, { n: Math.floor(n / 2) });
  return T[`combo_${combo}`] || combo;
}

function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

function pointsClass(n) {
  return n > 0 ? "pts pts-plus" : n < 0 ? "pts pts-minus" : "pts";
}

/** The plain-text result that the Copy button puts on the clipboard. */
// "X wins!", or "No winner" (a Suijiang Diu hand whose stock ran out).
export function winnerLine(T, name, result) {
  const w = result.winner;
  return w === null || w === undefined ? T.no_winner : fmt(T.winner_is, { name: name(w) });
}

export function resultText(T, ctx, result, stats) {
  const name = (s) => ctx.name(s);
  const lines = [fmt(T.result_share_head, { table: ctx.tableName, n: ctx.number, total: ctx.games })];
  lines.push(winnerLine(T, name, result));
  result.ranking.forEach((seat, i) => {
    lines.push(`${i + 1}. ${name(seat)} ${signed(result.scores[seat])}`);
  });
  for (const t of result.transfers || []) {
    lines.push(`  ${name(t.from)} → ${name(t.to)}: ${t.points} (${T[`reason_${t.reason}`] || t.reason})`);
  }
  if (stats) lines.push(fmt(T.stats_rounds, { n: stats.rounds }));
  return lines.join("\n");
}

export function renderResult(root, T, ctx, result, stats, handlers) {
  const name = (s) => ctx.name(s);
  root.replaceChildren();
  const head = el("div", { class: "result-head" },
    el("div", { class: "result-trophy", "aria-hidden": "true" }, "★"),
    // the board may word it (diu: a hand whose stock ran out), else "X wins!" / "No winner"
    el("h2", { id: "result-title" }, handlers.title || winnerLine(T, name, result)),
    el("p", { class: "muted" }, fmt(T.game_n_of, { n: ctx.number, total: ctx.games })));
  if (result.instant_win) {
    head.append(el("p", { class: "result-tag" },
      `${T.reason_toi_trang} · ${T[`instant_${result.instant_win}`] || result.instant_win}`));
  }
  if (result.cong && result.cong.length) {
    head.append(el("p", { class: "result-tag result-tag-bad" },
      `${T.reason_cong}: ${result.cong.map(name).join(", ")}`));
  }
  root.append(head);

  const ranking = el("ol", { class: "result-ranking" });
  result.ranking.forEach((seat, i) => {
    const hand = (result.hands && result.hands[seat]) || [];
    const cards = el("div", { class: "mini-hand", "aria-label": cardsText(hand) });
    hand.forEach((id) => cards.append(cardElement(id)));
    ranking.append(el("li", { class: i === 0 ? "rank-row rank-winner" : "rank-row" },
      el("span", { class: "rank-place" }, String(i + 1)),
      el("span", { class: "rank-name" }, name(seat), ctx.you === seat ? el("em", {}, ` (${T.you})`) : null),
      el("span", { class: "rank-left muted" }, hand.length ? fmt(T.cards_left_n, { n: hand.length }) : ""),
      el("span", { class: pointsClass(result.scores[seat]) }, signed(result.scores[seat])),
      hand.length ? cards : null));
  });
  root.append(el("section", { class: "result-block" }, el("h3", {}, T.ranking), ranking));

  if (handlers.extra) root.append(handlers.extra); // a game's own section (stud: showdown, pots)
  const transfers = !result.transfers ? null : el("table", { class: "transfers" },
    el("thead", {}, el("tr", {}, el("th", {}, T.from), el("th", {}, T.to),
      el("th", {}, T.points), el("th", {}, T.reason))));
  const body = el("tbody");
  for (const t of result.transfers || []) {
    body.append(el("tr", {},
      el("td", {}, name(t.from)), el("td", {}, name(t.to)),
      el("td", { class: "num" }, String(t.points)),
      el("td", {}, el("span", { class: `reason reason-${t.reason}` }, T[`reason_${t.reason}`] || t.reason))));
  }
  if (transfers) { // games that score by transfers (Tiến Lên)
    if (!result.transfers.length) body.append(el("tr", {}, el("td", { colspan: 4 }, T.no_transfers)));
    transfers.append(body);
    root.append(el("section", { class: "result-block" }, el("h3", {}, T.transfers), transfers));
  }

  if (stats) {
    const list = el("ul", { class: "stats" },
      el("li", {}, fmt(T.stats_rounds, { n: stats.rounds })),
      stats.cards_played ? el("li", {}, `${T.stats_cards_played}: ` +
        stats.cards_played.map((n, s) => `${name(s)} ${n}`).join(" · ")) : null);
    if (stats.longest && stats.longest.cards) {
      const li = el("li", {}, `${T.stats_longest}: ${comboLabel(T, stats.longest.combo, stats.longest.cards)} — ${name(stats.longest.seat)} `);
      const mini = el("span", { class: "mini-hand inline" });
      stats.longest.cards.forEach((id) => mini.append(cardElement(id)));
      li.append(mini);
      list.append(li);
    }
    root.append(el("section", { class: "result-block" }, el("h3", {}, T.stats), list));
  }

  const actions = el("div", { class: "result-actions" });
  if (handlers.canNext) {
    actions.append(el("button", { class: "button", type: "button", id: "btn-next-game",
      onclick: handlers.next }, T.next_game));
  }
  actions.append(
    el("a", { class: "button button-ghost", href: ctx.homeUrl }, T.back_to_lobby),
    el("button", { class: "button button-ghost", type: "button", onclick: handlers.copy }, T.copy_result));
  actions.append(el("p", { class: "muted next-in", "data-next-in": "" }));
  root.append(actions);
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
