// The start countdown over the lobby: the seconds left until startsAt, with a tick each second;
// hidden when the countdown is cancelled (S.countdownAt changes) or the game begins.
import { $ } from "./dom.js";
import { beep } from "./sound.js";

/** ctx: { S (the table's state), now(), phase() }. */
export function runCountdown({ S, now, phase }, startsAt) {
  S.countdownAt = startsAt;
  const box = $("#countdown");
  const tick = () => {
    if (S.countdownAt !== startsAt) {
      if (!S.countdownAt) box.hidden = true;
      return;
    }
    const left = Math.ceil(startsAt - now());
    if (left <= 0 || phase() !== "lobby") {
      box.hidden = true;
      S.countdownAt = null;
      return;
    }
    box.hidden = false;
    const num = $("#countdown-num");
    if (num.textContent !== String(left)) {
      num.textContent = String(left);
      num.classList.remove("pop");
      void num.offsetWidth; // restart the animation
      num.classList.add("pop");
      beep("tick");
    }
    setTimeout(tick, 100);
  };
  tick();
}
