// A bot's ladder placement on its rating page (templates/bots/rating.html, docs/bot-ladder.md):
// every 15 s it reads GET /api/ladder/<game>/<seats>/ for each ladder the bot is on and updates
// the line of its entrant in place: rank range, skill ± interval, games and state. State names
// come from the page (#ladder-i18n); everything from the server is inserted with textContent.
(function () {
  "use strict";

  const table = document.querySelector("table.ladder-placement");
  if (!table) return;
  const T = JSON.parse(document.getElementById("ladder-i18n").textContent);
  const rows = Array.from(table.querySelectorAll("tr[data-entrant][data-api]"));
  const urls = Array.from(new Set(rows.map((r) => r.dataset.api)));
  const rankText = (rank) => (!rank ? "—" : rank[0] === rank[1] ? String(rank[0]) : rank[0] + "–" + rank[1]);

  function update(line, row) {
    const cell = (name) => row.querySelector("[data-cell=" + name + "]");
    cell("rank").textContent = rankText(line.rank);
    cell("skill").textContent = line.estimate + " ± " + line.interval;
    cell("games").textContent = String(line.games);
    const state = cell("state").querySelector("[data-state-label]");
    if (state) state.textContent = T[line.state] || line.state;
    row.dataset.state = line.state;
  }

  async function refresh() {
    for (const url of urls) {
      try {
        const response = await fetch(url, { headers: { Accept: "application/json" } });
        if (!response.ok) continue;
        const body = await response.json();
        const lines = new Map(body.entrants.map((line) => [String(line.entrant), line]));
        for (const row of rows) {
          const line = row.dataset.api === url ? lines.get(row.dataset.entrant) : undefined;
          if (line) update(line, row);
        }
      } catch (err) {
        // offline for a moment: the next round tries again
      }
    }
  }

  setInterval(refresh, 15000);
})();
