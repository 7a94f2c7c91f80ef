// Tournament page (docs/tournaments.md): schedule, tables in play (Watch links), standings, and
// "your table for round N is ready" for this user only. Pushed over /ws/tournaments/<id>/
// (tournament_state for every viewer, your_tables for this user only); state.json is polled,
// slowly, only while the socket is down. Text via textContent.
import { dateTime, el, fmt, numberText } from "./table/dom.js";
import { LiveSocket, wsUrl } from "./table/socket.js";

const root = document.getElementById("tournament");
const L = JSON.parse(document.getElementById("tournament-i18n").textContent);
const FALLBACK_MS = 20000;
const FIRST_POLL_MS = 5000;
const baseTitle = document.title;
let notified = null;

// A house AI's name in the page's language (a pushed state was worded in English).
const entryName = (x) => (x.house_level
  ? fmt(L.house_ai, { level: L[`level_${x.house_level}`] || x.house_level }) : x.name);

function renderStandings(rows) {
  const body = document.querySelector("[data-standings] tbody");
  body.replaceChildren(...rows.map((r) => el("tr", { dataset: { entry: r.entry } },
    el("td", { class: "num" }, String(r.rank)),
    el("td", {}, entryName(r)),
    el("td", { class: "num", dataset: { points: "" } }, String(r.points)),
    el("td", { class: "num" }, String(r.game_points)),
    el("td", { class: "num" }, String(r.buchholz)),
    el("td", { class: "num" }, String(r.played)),
    el("td", { class: "num" }, r.rating === null ? "—" : numberText(r.rating, 1)))));
}

function renderSchedule(state) {
  const box = document.querySelector("[data-schedule]");
  const parts = state.rounds.map((r) => el("div", { class: "tournament-round", dataset: { round: r.number, status: r.status } },
    el("h3", {}, `${fmt(L.round, { n: r.number })} · ${L[`status_${r.status}`] || r.status}`,
      r.status === "pending" ? ` · ${fmt(L.starts, { time: dateTime(new Date(r.start_at * 1000)) })}` : ""),
    el("ul", { class: "tournament-tables" }, r.tables.map((t) => el("li", { dataset: { table: t.code } },
      el("strong", {}, fmt(L.table, { n: t.index })), " ",
      t.seats.map((s) => (s.name === null ? L.house : entryName(s)) + (s.points !== null ? ` (${s.points} · ${s.total})` : "")).join(" — "), " ",
      el("a", { href: t.url, class: "button button-small button-ghost" }, t.finished ? L.results : L.watch))))));
  if (state.status === "running" && state.rounds.length < state.rounds_total) parts.push(el("p", { class: "muted" }, L.later));
  box.replaceChildren(...parts);
}

function renderYourTable(mine) {
  const toast = root.querySelector("[data-your-table]");
  if (!mine) {
    toast.hidden = true;
    document.title = baseTitle;
    return;
  }
  const text = fmt(L.ready, { n: mine.round });
  root.querySelector("[data-your-table-text]").textContent = text;
  root.querySelector("[data-your-table-link]").href = mine.url;
  toast.hidden = false;
  document.title = `(!) ${text} · ${baseTitle}`;
  const key = `${mine.round}:${mine.url}`;
  if (notified !== key) {
    notified = key;
    if ("Notification" in window && Notification.permission === "granted") {
      try { new Notification(text, { tag: key }); } catch (_) { /* optional */ }
    }
  }
}

// Entries close at the start: the entry forms (Join, Enter bot, Add house AI, Start now,
// Withdraw) go as soon as the state says so, without a reload.
function renderRegistration(state) {
  const open = state.status === "registration" && !state.starting;
  const section = document.querySelector("[data-registration]");
  if (section && !open) section.remove();
}

function render(state) {
  const status = state.starting ? "starting" : state.status;
  root.querySelector("[data-tournament-status]").textContent = L[`t_${status}`] || status;
  renderRegistration(state);
  renderStandings(state.standings);
  renderSchedule(state);
  renderYourTable(state.your_table);
}

/** This page's table among the user's tables in play (a your_tables list), or null. */
function yours(tables) {
  const mine = (tables || []).find((t) => t.page === root.dataset.page);
  return mine ? { round: mine.round, url: mine.url } : null;
}

let current = JSON.parse(document.getElementById("tournament-state").textContent);

function onFrame(frame) {
  if (frame.type === "snapshot") {
    current = { ...(frame.state || current), your_table: yours(frame.tables) };
    render(current);
  } else if (frame.type === "tournament_state") {
    current = { ...frame.state, your_table: current.your_table };
    render(current);
  } else if (frame.type === "your_tables") {
    current = { ...current, your_table: yours(frame.tables) };
    renderYourTable(current.your_table);
  }
}

// The fallback while the socket is down (it reconnects with backoff): a slow poll.
let fallback = null;
async function poll() {
  try {
    const response = await fetch(root.dataset.stateUrl, { credentials: "same-origin", headers: { Accept: "application/json" } });
    if (response.ok) {
      current = await response.json();
      render(current);
    }
  } catch (_) { /* offline for a moment: the next poll retries */ }
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

render(current);
if ("Notification" in window && Notification.permission === "default") {
  root.addEventListener("click", () => Notification.requestPermission().catch(() => {}), { once: true });
}
new LiveSocket(wsUrl(root.dataset.ws), {
  onStatus: (status) => pollWhileDown(status === "reconnecting"),
  onFrame,
});
