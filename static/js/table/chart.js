// Cumulative points per player as an inline SVG line chart (no library).

const SVG_NS = "http://www.w3.org/2000/svg";
export const SEAT_COLORS = ["#f59e0b", "#38bdf8", "#f472b6", "#a3e635"];

function node(name, attrs) {
  const n = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, String(v));
  return n;
}

/**
 * @param {number[][]} perGame  perGame[g][seat] = points of that seat in game g
 * @param {string[]} names
 * @param {string} title accessible title
 */
export function cumulativeChart(perGame, names, title) {
  const W = 560, H = 240, P = { l: 40, r: 12, t: 12, b: 28 };
  const n = names.length;
  const series = names.map(() => [0]);
  for (const game of perGame) {
    names.forEach((_, s) => series[s].push(series[s].at(-1) + (game[s] || 0)));
  }
  const all = series.flat();
  let lo = Math.min(0, ...all), hi = Math.max(0, ...all);
  if (hi === lo) { hi += 1; lo -= 1; }
  const steps = Math.max(1, perGame.length);
  const x = (i) => P.l + (i / steps) * (W - P.l - P.r);
  const y = (v) => P.t + (1 - (v - lo) / (hi - lo)) * (H - P.t - P.b);
  const svg = node("svg", { viewBox: `0 0 ${W} ${H}`, class: "points-chart", role: "img" });
  const t = node("title", {});
  t.textContent = title;
  svg.append(t);
  for (const v of [lo, 0, hi]) {
    svg.append(node("line", {
      x1: P.l, x2: W - P.r, y1: y(v), y2: y(v), stroke: v === 0 ? "#94a3b8" : "#e2e8f0",
      "stroke-dasharray": v === 0 ? "" : "3 3",
    }));
    const label = node("text", { x: P.l - 6, y: y(v) + 4, "text-anchor": "end", "font-size": 11,
      fill: "currentColor" });
    label.textContent = String(Math.round(v));
    svg.append(label);
  }
  for (let i = 1; i <= steps; i += Math.max(1, Math.ceil(steps / 8))) {
    const label = node("text", { x: x(i), y: H - 8, "text-anchor": "middle", "font-size": 11,
      fill: "currentColor" });
    label.textContent = String(i);
    svg.append(label);
  }
  for (let s = 0; s < n; s += 1) {
    const points = series[s].map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    svg.append(node("polyline", {
      points, fill: "none", stroke: SEAT_COLORS[s % 4], "stroke-width": 2.5,
      "stroke-linejoin": "round", "stroke-linecap": "round",
    }));
    const last = series[s].at(-1);
    svg.append(node("circle", { cx: x(steps), cy: y(last), r: 3.5, fill: SEAT_COLORS[s % 4] }));
    // each line is named at its start, so colour is not the only way to tell them apart (the
    // per-game table under the chart gives the numbers as text)
    const tag = node("text", { x: P.l + 4, y: y(series[s][1] ?? 0) - 5 - 11 * s, "font-size": 11,
      fill: "currentColor", "aria-hidden": "true" });
    tag.textContent = String(names[s]).slice(0, 14);
    svg.append(tag);
  }
  return svg;
}
