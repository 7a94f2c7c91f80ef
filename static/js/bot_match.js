// A duplicate match's page (templates/bots/matches/detail.html, docs/bot-lab.md): polls
// GET /api/matches/<id>/ about every second while the match is queued or running, and draws the
// progress bar, the report table and the running-estimate chart (an inline SVG: each entrant's
// mean points per game with its 95 % interval band, against deals played). Stop posts
// /api/matches/<id>/stop/. Texts come from templates/bots/matches/_match_i18n.html; everything
// from the server is inserted with textContent.
(function () {
  "use strict";

  const root = document.getElementById("match");
  if (!root) return;
  const T = JSON.parse(document.getElementById("bot-match-i18n").textContent);
  const titles = JSON.parse(document.getElementById("match-titles").textContent);
  let match = JSON.parse(document.getElementById("match-data").textContent);
  const csrf = (document.querySelector("input[name=csrfmiddlewaretoken]") || {}).value || "";
  const $ = (id) => document.getElementById(id);
  const fmt = (text, params) => text.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
  const SVG = "http://www.w3.org/2000/svg";
  const COLORS = ["#2563eb", "#dc2626", "#16a34a", "#9333ea", "#ea580c", "#0891b2", "#a16207"];
  const inFlight = (m) => m.status === "queued" || m.status === "running";
  const title = (name) => titles[name] || name;
  let stopping = false;

  // Numbers in the page's language ("5,50" in Vietnamese); an interval's two ends are then
  // parted by "; " so the decimal comma cannot be mistaken for the separator.
  const lang = document.documentElement.lang || undefined;
  const fixed = (v, digits) => new Intl.NumberFormat(lang, {
    minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false,
  }).format(v);
  const sep = fixed(0.5, 1).includes(",") ? "; " : ", ";
  const pct = (v) => fixed(100 * v, 1) + "%";
  const pctCi = (ci) => (ci ? "[" + fixed(100 * ci[0], 1) + sep + fixed(100 * ci[1], 1) + "]" : "–");
  const signed = (v) => (v >= 0 ? "+" : "") + fixed(v, 2);
  const ptsCi = (ci) => (ci ? "[" + signed(ci[0]) + sep + signed(ci[1]) + "]" : "–");

  function stateText(m) {
    const params = { done: m.deals_done, total: m.deals, error: m.error || "" };
    const stopped = (m.report || {}).stopped;
    if (m.status === "queued") return T.queued;
    if (m.status === "running") return m.stop_requested || stopping ? T.stopping : fmt(T.running, params);
    if (m.status === "failed") return fmt(T.failed, params);
    if (m.status === "stopped") return fmt(T.stopped, params);
    return fmt(stopped === "separated" ? T.separated : T.finished, params);
  }

  function drawProgress(m) {
    const bar = $("match-progress");
    bar.setAttribute("aria-valuenow", String(m.deals_done));
    bar.firstElementChild.style.width = (m.deals ? (100 * m.deals_done) / m.deals : 0) + "%";
    $("match-state").textContent = stateText(m);
    root.dataset.status = m.status;
    $("match-stop").hidden = !inFlight(m);
    $("match-stop").disabled = Boolean(m.stop_requested) || stopping;
  }

  function drawReport(m) {
    const entrants = (m.report || {}).entrants;
    if (!entrants) return;
    const body = $("match-report").tBodies[0];
    body.replaceChildren();
    entrants.forEach((e, i) => {
      const row = body.insertRow();
      row.dataset.entrant = String(i);
      const head = document.createElement("th");
      head.scope = "row";
      const swatch = document.createElement("span");
      swatch.className = "swatch";
      swatch.style.background = COLORS[i % COLORS.length];
      head.append(swatch, document.createTextNode(" " + title(e.name)));
      row.append(head);
      const cells = [
        String(e.games),
        pct(e.first_rate),
        pctCi(e.first_ci),
        signed(e.mean_points),
        ptsCi(e.points_ci),
        pct(e.last_rate),
        String(e.strikes),
        e.mean_move_ms === null || e.mean_move_ms === undefined ? "–" : fixed(e.mean_move_ms, 2),
      ];
      for (const text of cells) row.insertCell().textContent = text;
    });
  }

  function el(name, attrs, text) {
    const node = document.createElementNS(SVG, name);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
    if (text !== undefined) node.textContent = text;
    return node;
  }

  const isRound = (v) => Math.abs(v - Math.round(v)) < 1e-9;

  /** The smallest of 1, 2, 2.5, 5 × 10^k (whole: 1, 2, 5 × 10^k) at least ``rough``. */
  function niceStep(rough, whole) {
    if (!(rough > 0)) return 1;
    const power = 10 ** Math.floor(Math.log10(rough));
    const steps = whole && power < 10 ? [1, 2, 5, 10] : [1, 2, 2.5, 5, 10];
    for (const m of steps) if (m * power >= rough - 1e-12) return m * power;
    return 10 * power;
  }

  function drawChart(m) {
    const box = $("match-chart");
    const series = m.series || [];
    const names = ((m.report || {}).entrants || []).map((e) => e.name);
    if (series.length < 1 || !names.length) {
      box.replaceChildren(document.createTextNode(T.no_chart));
      return;
    }
    const W = 720, H = 260, L = 72, R = 16, Tp = 12, B = 40;
    // the scale fits every mean and the bands after the first quarter of the deals (at 2 or 3
    // deals a band is huge: t(0.975, 1) = 12.7); earlier bands are clipped to the plot
    let lo = Infinity, hi = -Infinity;
    const settled = Math.max(3, Math.ceil(series.length / 4));
    series.forEach((p, k) => {
      names.forEach((_, i) => {
        const ci = k + 1 >= settled || series.length < settled ? p.points_ci[i] : null;
        lo = Math.min(lo, ci ? ci[0] : p.mean_points[i]);
        hi = Math.max(hi, ci ? ci[1] : p.mean_points[i]);
      });
    });
    if (hi - lo < 1e-9) { lo -= 1; hi += 1; }
    const pad = (hi - lo) * 0.05;
    lo -= pad; hi += pad;
    const n = series.length;
    const x = (k) => L + (n > 1 ? ((W - L - R) * (k - 1)) / (n - 1) : (W - L - R) / 2);
    const y = (v) => Tp + ((H - Tp - B) * (hi - v)) / (hi - lo);
    const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": T.chart_title, class: "match-chart-svg" });
    svg.append(el("title", {}, T.chart_title));
    const clip = el("clipPath", { id: "match-plot" });
    clip.append(el("rect", { x: L, y: Tp, width: W - L - R, height: H - Tp - B }));
    svg.append(clip);
    // points axis: round values (1, 2, 2.5 or 5 × 10^k apart), as many decimals as the step has
    const yStep = niceStep((hi - lo) / 6);
    const decimals = Math.max(0, -Math.floor(Math.log10(yStep) + 1e-9) + (isRound(yStep / 2.5) && !isRound(yStep) ? 1 : 0));
    for (let v = Math.ceil(lo / yStep) * yStep; v <= hi + 1e-9; v += yStep) {
      const at = Math.abs(v) < yStep / 1e6 ? 0 : v;
      svg.append(el("line", { x1: L, x2: W - R, y1: y(at), y2: y(at), class: "grid" }));
      svg.append(el("text", { x: L - 6, y: y(at) + 4, "text-anchor": "end", class: "tick tick-y" },
        (at > 0 ? "+" : "") + at.toFixed(decimals)));
    }
    if (lo < 0 && hi > 0) svg.append(el("line", { x1: L, x2: W - R, y1: y(0), y2: y(0), class: "zero" }));
    // deals axis: deal 1, then whole multiples of a round step, each labelled
    const xStep = Math.max(1, niceStep((n - 1) / 6, true));
    const xTicks = [1];
    for (let k = xStep; k <= n; k += xStep) if (k - 1 >= xStep / 2) xTicks.push(k);
    for (const k of xTicks) {
      svg.append(el("line", { x1: x(k), x2: x(k), y1: H - B, y2: H - B + 4, class: "grid" }));
      svg.append(el("text", { x: x(k), y: H - B + 16, "text-anchor": "middle", class: "tick tick-x" }, String(k)));
    }
    svg.append(el("text", { x: (L + W - R) / 2, y: H - 4, "text-anchor": "middle", class: "axis" }, T.deals_axis));
    svg.append(el("text", { x: 10, y: Tp + (H - Tp - B) / 2, transform: `rotate(-90 10 ${Tp + (H - Tp - B) / 2})`, "text-anchor": "middle", class: "axis" }, T.points_axis));
    names.forEach((name, i) => {
      const color = COLORS[i % COLORS.length];
      const g = el("g", { "data-entrant": i, "clip-path": "url(#match-plot)" });
      const upper = [], lower = [];
      series.forEach((p, k) => {
        const ci = p.points_ci[i];
        if (ci) { upper.push(`${x(k + 1)},${y(ci[1])}`); lower.unshift(`${x(k + 1)},${y(ci[0])}`); }
      });
      if (upper.length > 1) g.append(el("polygon", { points: upper.concat(lower).join(" "), fill: color, "fill-opacity": 0.12, class: "band" }));
      const line = series.map((p, k) => `${x(k + 1)},${y(p.mean_points[i])}`).join(" ");
      g.append(el("polyline", { points: line, fill: "none", stroke: color, "stroke-width": 2, class: "line" }));
      const last = series[n - 1];
      g.append(el("title", {}, `${title(name)}: ${signed(last.mean_points[i])} ${ptsCi(last.points_ci[i])}`));
      svg.append(g);
      svg.append(el("circle", { cx: x(n), cy: y(last.mean_points[i]), r: 3, fill: color }));
    });
    box.replaceChildren(svg);
  }

  function draw(m) {
    drawProgress(m);
    drawReport(m);
    drawChart(m);
  }

  async function poll() {
    try {
      const response = await fetch(match.url, { headers: { Accept: "application/json" }, credentials: "same-origin" });
      if (response.ok) {
        match = await response.json();
        draw(match);
      }
    } catch (err) {
      // a network blip: the next poll tries again
    }
    if (inFlight(match)) window.setTimeout(poll, 1000);
  }

  $("match-stop").addEventListener("click", async () => {
    stopping = true;
    drawProgress(match);
    try {
      const response = await fetch(match.url + "stop/", {
        method: "POST",
        headers: { "X-CSRFToken": csrf, Accept: "application/json" },
        credentials: "same-origin",
      });
      const body = await response.json();
      if (response.ok) {
        match = body;
      } else if (body.code !== "match_not_running") {
        $("match-state").textContent = fmt(T.stop_failed, { error: body.detail || body.code });
      }
    } catch (err) {
      $("match-state").textContent = fmt(T.stop_failed, { error: String(err) });
    }
    stopping = false;
    draw(match);
  });

  draw(match);
  if (inFlight(match)) window.setTimeout(poll, 1000);
})();
