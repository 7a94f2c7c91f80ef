// Every page of a person entered in a tournament (base.html): "Your table for round N of <name>
// is ready — Join", for this user only (docs/tournaments.md). Pushed over /ws/tournaments/mine/
// (the user's own tables, on connect and whenever they change); mine.json is polled, slowly,
// only while that socket is down. textContent only.
import { LiveSocket, wsUrl } from "./table/socket.js";

const box = document.getElementById("tournament-notify");
const WS_PATH = "/ws/tournaments/mine/";
const FALLBACK_MS = 30000;
const FIRST_POLL_MS = 5000;
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

function update(tables) {
  const here = window.location.pathname;
  // not on the table itself, nor on its tournament page (which says so itself)
  const table = (tables || []).find((t) => t.url !== here && t.page !== here);
  if (table) show(table); else box.hidden = true;
}

// The fallback while the socket is down (it reconnects with backoff): a slow poll.
let fallback = null;
async function poll() {
  try {
    const response = await fetch(box.dataset.url, { credentials: "same-origin", headers: { Accept: "application/json" } });
    if (response.ok) update((await response.json()).tables);
  } catch (_) { /* the next poll retries */ }
}
function pollWhileDown(down) {
  // a quick reconnect (most are) never polls: the first poll waits FIRST_POLL_MS
  if (down && fallback === null) {
    const next = (delay) => { fallback = setTimeout(() => { poll(); next(FALLBACK_MS); }, delay); };
    next(FIRST_POLL_MS);
  } else if (!down && fallback !== null) {
    clearTimeout(fallback);
    fallback = null;
  }
}

if (box) {
  new LiveSocket(wsUrl(WS_PATH), {
    onStatus: (status) => pollWhileDown(status === "reconnecting"),
    onFrame: (frame) => {
      if (frame.type === "snapshot" || frame.type === "your_tables") update(frame.tables);
    },
  });
}
