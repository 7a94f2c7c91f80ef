// Every page of a person entered in a tournament (base.html): "Your table for round N of <name>
// is ready — Join", for this user only (docs/tournaments.md). Polls mine.json; textContent only.
const box = document.getElementById("tournament-notify");
const POLL_MS = 8000;
const told = new Set();

function show(table) {
  box.querySelector("[data-text]").textContent = box.dataset.text
    .replace("{n}", String(table.round)).replace("{name}", table.tournament);
  box.querySelector("[data-link]").href = table.url;
  box.hidden = false;
  const key = `${table.round}:${table.url}`;
  if (!told.has(key)) {
    told.add(key);
    if ("Notification" in window && Notification.permission === "granted") {
      try { new Notification(box.querySelector("[data-text]").textContent, { tag: key }); } catch (_) { /* optional */ }
    }
  }
}

async function poll() {
  try {
    const response = await fetch(box.dataset.url, { credentials: "same-origin", headers: { Accept: "application/json" } });
    if (response.ok) {
      const here = window.location.pathname;
      // not on the table itself, nor on its tournament page (which says so itself)
      const table = (await response.json()).tables.find((t) => t.url !== here && t.page !== here);
      if (table) show(table); else box.hidden = true;
    }
  } catch (_) { /* the next poll retries */ }
  setTimeout(poll, POLL_MS);
}

if (box) poll();
