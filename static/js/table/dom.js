// Tiny DOM helpers. Text always goes through textContent: never innerHTML with data.

/** el("div", {class: "x", dataset: {seat: 1}, onclick: fn}, child, "text", ...) */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key === "style") Object.assign(node.style, value);
    else if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2), value);
    } else if (key === "text") node.textContent = String(value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/**
 * Redraw ``root`` with ``draw()`` keeping the keyboard focus: the element in focus inside it
 * (found again by its ``data-<key>``, e.g. a card's ``data-card``) gets the focus back, so a
 * keyboard or screen-reader user does not lose their place when another seat moves.
 */
export function keepFocus(root, key, draw) {
  const active = document.activeElement;
  const value = active && root.contains(active) && active !== root ? active.dataset[key] : undefined;
  draw();
  if (value === undefined) return;
  const again = Array.from(root.querySelectorAll(`[data-${key}]`)).find((n) => n.dataset[key] === value);
  if (again && !again.disabled) again.focus();
}

/** A turn timer bar (filled and labelled by table.js's tickTimers from data-deadline/total). */
export function timerEl(deadline, total) {
  return el("div", { class: "timer", dataset: { deadline: deadline ?? "", total } },
    el("span", { class: "timer-fill" }), el("span", { class: "timer-text" }));
}

export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

export const $ = (sel, root = document) => root.querySelector(sel);
export const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));

const pluralRules = new Map();

/** The plural form for ``n`` of ``forms`` ({"0": text, "1": text, …}: ngettext rendered for
 * sample counts by templates/games/_table_i18n.html): the text of the first sample whose plural
 * category (Intl.PluralRules of the page language) is the category of ``n``. */
export function pluralForm(forms, n, lang = document.documentElement.lang || "en") {
  if (!pluralRules.has(lang)) pluralRules.set(lang, new Intl.PluralRules(lang));
  const rules = pluralRules.get(lang);
  const category = rules.select(n);
  const samples = Object.keys(forms);
  const match = samples.find((s) => rules.select(Number(s)) === category);
  return forms[match ?? samples[samples.length - 1]];
}

/** "Hello {name}" with {name} replaced from ``vars``. A template with plural forms (an object,
 * see :func:`pluralForm`) first takes the form for ``vars.n``: "1 card", "2 cards". */
export function fmt(template, vars = {}) {
  const text = template !== null && typeof template === "object"
    ? pluralForm(template, Number(vars.n)) : template;
  return String(text).replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));
}

export function reducedMotion() {
  return document.documentElement.classList.contains("reduce-motion") ||
    window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** The page's language (``<html lang>``), for the Intl formats below. */
const pageLang = () => document.documentElement.lang || undefined;

/** A clock time in the page's language, 24-hour ("14:05"), whatever the browser's locale. */
export function clockTime(date) {
  return date.toLocaleTimeString(pageLang(), { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
}

/** A date and time in the page's language, 24-hour. */
export function dateTime(date) {
  return date.toLocaleString(pageLang(), {
    year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hourCycle: "h23",
  });
}

/** A number in the page's language (its decimal separator: "1,5" in Vietnamese). */
export function numberText(n, maxDigits = 2) {
  return new Intl.NumberFormat(pageLang(), { maximumFractionDigits: maxDigits }).format(n);
}
