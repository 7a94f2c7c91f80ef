// Emoji quick-picker for the chat inputs of the lobby (home.html) and the table (table.html).
// Self-starting: every `[data-emoji-picker]` wrapper holds a toggle button and an empty grid
// (`[data-emoji-grid]`, hidden) for the input named by `data-for` (its id); the labels come from
// the translated markup. Emoji are inserted at the input's caret; Escape closes (focus back on
// the toggle); arrows, Home and End move inside the grid; Tab or a click outside closes it.
//
// Length: the server counts code points (Python len), `maxlength` counts UTF-16 units, so an
// input with `data-max-chars` gets its `maxLength` widened by the surrogate pairs it already
// holds: the browser then stops at exactly that many code points and never splits a pair.

export const EMOJI = [
  "♠", "♥", "♦", "♣", "👍", "😂", "😮", "😢",
  "🔥", "🎉", "👏", "🙏", "😀", "😅", "😎", "🤔",
  "😡", "😱", "🥳", "👋", "💪", "🤞", "❤️", "🍀",
];
const RED = new Set(["♥", "♦"]);
const COLUMNS = 6;

/** The length the server measures: code points, so "👍🏽" is 2 and "a" is 1. */
export const charCount = (text) => Array.from(text).length;

/** Keep `input.maxLength` at `data-max-chars` code points (see the note at the top). */
export function fitMaxLength(input) {
  const max = Number(input.dataset.maxChars);
  if (!max) return;
  input.maxLength = max + (input.value.length - charCount(input.value));
}

/** Insert `text` over the input's selection (its caret), if the result stays within
 * `data-max-chars` code points; true when inserted. */
export function insertAtCaret(input, text) {
  const value = input.value;
  const start = input.selectionStart ?? value.length;
  const end = input.selectionEnd ?? start;
  const max = Number(input.dataset.maxChars) || Infinity;
  if (charCount(value) - charCount(value.slice(start, end)) + charCount(text) > max) return false;
  input.setRangeText(text, start, end, "end");
  input.dispatchEvent(new Event("input", { bubbles: true }));
  return true;
}

export function attachPicker(root) {
  const input = document.getElementById(root.dataset.for);
  const toggle = root.querySelector("[data-emoji-toggle]");
  const grid = root.querySelector("[data-emoji-grid]");
  if (!input || !toggle || !grid || root.dataset.ready) return;
  root.dataset.ready = "1";
  const buttons = EMOJI.map((emoji, i) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = RED.has(emoji) ? "emoji-option emoji-red" : "emoji-option";
    b.textContent = emoji;
    b.tabIndex = i === 0 ? 0 : -1;
    b.dataset.emoji = emoji;
    return b;
  });
  grid.replaceChildren(...buttons);

  const isOpen = () => !grid.hidden;
  const open = () => {
    grid.hidden = false;
    toggle.setAttribute("aria-expanded", "true");
    buttons.forEach((b, i) => { b.tabIndex = i === 0 ? 0 : -1; });
    buttons[0].focus();
  };
  const close = (focus) => {
    if (!isOpen()) return;
    grid.hidden = true;
    toggle.setAttribute("aria-expanded", "false");
    if (focus) focus.focus();
  };
  const move = (to) => {
    const i = (to + buttons.length) % buttons.length;
    buttons.forEach((b, j) => { b.tabIndex = j === i ? 0 : -1; });
    buttons[i].focus();
  };

  toggle.addEventListener("click", () => (isOpen() ? close(input) : open()));
  grid.addEventListener("click", (e) => {
    const b = e.target.closest("[data-emoji]");
    if (!b) return;
    insertAtCaret(input, b.dataset.emoji);
    close(input);
  });
  root.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && isOpen()) {
      e.preventDefault();
      e.stopPropagation();
      close(toggle);
      return;
    }
    const i = buttons.indexOf(document.activeElement);
    if (i < 0) return;
    const to = { ArrowRight: i + 1, ArrowLeft: i - 1, ArrowDown: i + COLUMNS, ArrowUp: i - COLUMNS,
      Home: 0, End: buttons.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    move(to);
  });
  root.addEventListener("focusout", (e) => {
    if (e.relatedTarget && !root.contains(e.relatedTarget)) close(null);
  });
  document.addEventListener("pointerdown", (e) => {
    if (isOpen() && !root.contains(e.target)) close(null);
  });
  if (input.dataset.maxChars) {
    fitMaxLength(input);
    input.addEventListener("input", () => fitMaxLength(input));
  }
  input.form?.addEventListener("submit", () => queueMicrotask(() => fitMaxLength(input)));
}

document.querySelectorAll("[data-emoji-picker]").forEach(attachPicker);
