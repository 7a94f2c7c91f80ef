// "Your turn" while the tab is hidden: the title ("● Your turn! — …") and the favicon (a variant
// with a red dot) change, and a browser Notification shows if the player chose "Notify me on my
// turn" (remembered in localStorage) and the browser allows it; the caller plays the short
// sound. All of it reverts when the tab is shown again or the turn passes (clearTurn).
// Called once per turn (the server sends `your_turn` once; we also key by game:version).

const PREF = "tienlen.notifyTurn";
const notified = new Set();
let baseTitle = document.title;
let alertTitle = null; // the "Your turn" words while the alert is up
let turnIcon = null; // the favicon variant's URL (setTurnIcon)
let baseIcon = null; // the page's own favicon, to put back
let notice = null;

function iconLink() {
  return document.querySelector("link[rel~='icon']");
}

function alertText() {
  return `● ${alertTitle} — ${baseTitle}`;
}

/** Take the alert down: title, favicon and the notification. */
export function clearTurn() {
  if (alertTitle === null) return;
  alertTitle = null;
  document.title = baseTitle;
  const link = iconLink();
  if (link && baseIcon !== null) link.href = baseIcon;
  if (notice) {
    try { notice.close(); } catch { /* already gone */ }
    notice = null;
  }
}

document.addEventListener("visibilitychange", () => {
  if (!document.hidden) clearTurn();
});

export function setBaseTitle(title) {
  baseTitle = title;
  document.title = alertTitle === null ? title : alertText();
}

export function setTurnIcon(url) {
  turnIcon = url;
}

/** Did the player ask for a notification on their turn? */
export function wantsNotifications() {
  try {
    return window.localStorage.getItem(PREF) === "1";
  } catch {
    return false;
  }
}

/** Remember the choice; turning it on asks the browser's permission (resolves to its state). */
export async function setWantsNotifications(on) {
  try { window.localStorage.setItem(PREF, on ? "1" : "0"); } catch { /* private mode */ }
  if (on && "Notification" in window && Notification.permission === "default") {
    try { await Notification.requestPermission(); } catch { /* refused */ }
  }
  return permissionState();
}

/** Returns true when this call actually notified (first time for ``key``). */
export function notifyTurn(key, title, body) {
  if (notified.has(key)) return false;
  notified.add(key);
  if (!document.hidden) return true;
  clearTurn();
  alertTitle = title;
  document.title = alertText();
  const link = iconLink();
  if (link && turnIcon) {
    if (baseIcon === null) baseIcon = link.href;
    link.href = turnIcon;
  }
  if (wantsNotifications() && "Notification" in window && Notification.permission === "granted") {
    try {
      notice = new Notification(title, { body, tag: "tienlen-turn" });
      notice.onclick = () => { window.focus(); clearTurn(); };
    } catch {
      // some platforms only allow notifications from a service worker
    }
  }
  return true;
}

export function permissionState() {
  return "Notification" in window ? Notification.permission : "unsupported";
}
