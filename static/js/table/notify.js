// "Your turn" when the tab is hidden: flash the title and (with permission) one Notification.
// Called once per turn (the server sends `your_turn` once; we also key by game:version).

const notified = new Set();
let flashTimer = null;
let baseTitle = document.title;

function stopFlash() {
  if (flashTimer) clearInterval(flashTimer);
  flashTimer = null;
  document.title = baseTitle;
}

document.addEventListener("visibilitychange", () => {
  if (!document.hidden) stopFlash();
});

export function setBaseTitle(title) {
  baseTitle = title;
  if (!flashTimer) document.title = title;
}

/** Returns true when this call actually notified (first time for ``key``). */
export function notifyTurn(key, title, body) {
  if (notified.has(key)) return false;
  notified.add(key);
  if (!document.hidden) return true;
  stopFlash();
  let on = false;
  flashTimer = setInterval(() => {
    on = !on;
    document.title = on ? `● ${title}` : baseTitle;
  }, 900);
  if ("Notification" in window && Notification.permission === "granted") {
    try {
      const n = new Notification(title, { body, tag: "tienlen-turn" });
      n.onclick = () => { window.focus(); n.close(); };
    } catch {
      // some platforms only allow notifications from a service worker
    }
  }
  return true;
}

export function askPermission() {
  if ("Notification" in window && Notification.permission === "default") {
    Notification.requestPermission().catch(() => {});
  }
}

export function permissionState() {
  return "Notification" in window ? Notification.permission : "unsupported";
}
