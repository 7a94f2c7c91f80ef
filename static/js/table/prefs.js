// The table's settings dialog and mute button: sound, reduced motion and "notify me on my
// turn" (remembered in localStorage; the language is a plain form of the page).
import { $, $$ } from "./dom.js";
import { isMuted, setMuted } from "./sound.js";
import { permissionState, setWantsNotifications, wantsNotifications } from "./notify.js";

/** Wire the settings dialog and the mute button; T: the page's strings. */
export function installPreferences(T) {
  // settings dialog: sound, motion, notifications (language is a plain form)
  const dialog = $("#settings-dialog");
  $("#btn-settings").addEventListener("click", () => {
    $("#set-mute").checked = isMuted();
    $("#set-motion").checked = document.documentElement.classList.contains("reduce-motion");
    renderNotifyState();
    dialog.showModal();
  });
  $("#set-mute").addEventListener("change", (e) => { setMuted(e.target.checked); renderMuteIcon(); });
  $("#set-motion").addEventListener("change", (e) => {
    document.documentElement.classList.toggle("reduce-motion", e.target.checked);
    window.localStorage.setItem("tienlen.reduceMotion", e.target.checked ? "1" : "0");
  });
  // "Notify me on my turn": remembered in localStorage; turning it on asks the browser
  function renderNotifyState(state = permissionState()) {
    const on = wantsNotifications();
    for (const box of $$("[data-notify-toggle]")) box.checked = on;
    const text = on ? T[`notify_${state}`] || "" : T.notify_default;
    for (const note of $$("[data-notify-state]")) note.textContent = text;
  }
  for (const box of $$("[data-notify-toggle]")) {
    box.addEventListener("change", async (e) => renderNotifyState(await setWantsNotifications(e.target.checked)));
  }
  renderNotifyState();
  $("#btn-mute").addEventListener("click", () => { setMuted(!isMuted()); renderMuteIcon(); });
  function speakerIcon(muted) {
    const ns = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(ns, "svg");
    svg.setAttribute("viewBox", "0 0 24 24");
    svg.setAttribute("width", "20");
    svg.setAttribute("height", "20");
    svg.setAttribute("aria-hidden", "true");
    const path = document.createElementNS(ns, "path");
    path.setAttribute("d", muted
      ? "M4 9h4l5-4v14l-5-4H4zM16 9l5 6M21 9l-5 6"
      : "M4 9h4l5-4v14l-5-4H4zM16 8.5a5 5 0 0 1 0 7M18.5 6a8.5 8.5 0 0 1 0 12");
    path.setAttribute("fill", "none");
    path.setAttribute("stroke", "currentColor");
    path.setAttribute("stroke-width", "2");
    path.setAttribute("stroke-linejoin", "round");
    path.setAttribute("stroke-linecap", "round");
    svg.append(path);
    return svg;
  }
  function renderMuteIcon() {
    const b = $("#btn-mute");
    b.replaceChildren(speakerIcon(isMuted()));
    b.setAttribute("aria-pressed", isMuted() ? "true" : "false");
    b.title = isMuted() ? T.unmute : T.mute;
  }
  if (window.localStorage.getItem("tienlen.reduceMotion") === "1") {
    document.documentElement.classList.add("reduce-motion");
  }
  renderMuteIcon();
}
