// Beeps made with WebAudio: no audio files. Muted state is kept in localStorage.

const KEY = "tienlen.muted";
let ctx = null;

export function isMuted() {
  return window.localStorage.getItem(KEY) === "1";
}

export function setMuted(muted) {
  window.localStorage.setItem(KEY, muted ? "1" : "0");
}

function tone(freq, start, duration, type = "sine", gain = 0.08) {
  const osc = ctx.createOscillator();
  const amp = ctx.createGain();
  osc.type = type;
  osc.frequency.value = freq;
  amp.gain.setValueAtTime(0, ctx.currentTime + start);
  amp.gain.linearRampToValueAtTime(gain, ctx.currentTime + start + 0.01);
  amp.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + start + duration);
  osc.connect(amp).connect(ctx.destination);
  osc.start(ctx.currentTime + start);
  osc.stop(ctx.currentTime + start + duration + 0.02);
}

const SOUNDS = {
  play: [[520, 0, 0.08, "triangle"]],
  pass: [[260, 0, 0.1, "sine", 0.05]],
  turn: [[660, 0, 0.12], [880, 0.13, 0.16]],
  cut: [[200, 0, 0.12, "sawtooth", 0.06], [150, 0.1, 0.2, "sawtooth", 0.06]],
  win: [[523, 0, 0.12], [659, 0.12, 0.12], [784, 0.24, 0.12], [1047, 0.36, 0.3]],
  tick: [[1000, 0, 0.04, "square", 0.03]],
  sweep: [[400, 0, 0.15, "triangle", 0.04], [300, 0.08, 0.15, "triangle", 0.04]],
};

export function beep(name) {
  if (isMuted()) return;
  const notes = SOUNDS[name];
  if (!notes) return;
  try {
    ctx = ctx || new (window.AudioContext || window.webkitAudioContext)();
    if (ctx.state === "suspended") ctx.resume();
    for (const [f, s, d, t, g] of notes) tone(f, s, d, t, g);
  } catch {
    // audio is optional
  }
}
