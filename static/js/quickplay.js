// The quick-play waiting page (templates/games/quickplay/wait.html): polls GET /api/quickplay/
// every second, shows how many wait and for how long, and opens the table once seated (the
// lobby socket's quickplay_seated frame opens it at once).
(function () {
  "use strict";
  const box = document.getElementById("quickplay-wait");
  if (!box) return;
  const fmt = (text, params) => text.replace(/\{(\w+)\}/g, (m, k) => (k in params ? params[k] : m));
  const set = (id, text) => {
    const el = document.getElementById(id);
    if (el) el.textContent = text;
  };
  const d = box.dataset;
  async function poll() {
    let status;
    try {
      const response = await fetch(d.statusUrl, { credentials: "same-origin", headers: { Accept: "application/json" } });
      if (!response.ok) throw new Error(String(response.status));
      status = await response.json();
    } catch (e) {
      setTimeout(poll, 2000);
      return;
    }
    if (status.state === "seated" && status.url) {
      set("qp-fill", d.textFilling);
      window.location.assign(status.url);
      return;
    }
    if (status.state !== "waiting") {
      set("qp-fill", d.textGone);
      window.location.assign("/");
      return;
    }
    set("qp-waiting", fmt(d.textWaiting, { waiting: status.waiting }));
    set("qp-elapsed", fmt(d.textElapsed, { seconds: Math.round(status.waited) }));
    set("qp-fill", fmt(d.textFill, { seconds: Math.round(status.fill_in) }));
    setTimeout(poll, 1000);
  }
  setTimeout(poll, 1000);
  // The lobby socket names the table the moment the pass seats this person (the poll above
  // is the fallback: a socket that cannot open changes nothing).
  try {
    const scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    const socket = new WebSocket(scheme + window.location.host + "/ws/lobby/");
    socket.addEventListener("message", (event) => {
      let frame;
      try {
        frame = JSON.parse(event.data);
      } catch (e) {
        return;
      }
      if (frame && frame.type === "quickplay_seated" && typeof frame.url === "string") {
        set("qp-fill", d.textFilling);
        window.location.assign(frame.url);
      }
    });
    socket.addEventListener("error", () => {});
  } catch (e) {
    /* the poll carries on */
  }
})();
