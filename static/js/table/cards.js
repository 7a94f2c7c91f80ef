// SVG playing cards: one sprite of suit symbols injected once, then a small inline SVG per card.
// Card ids are the engine's: "3S", "10H", "JD", "AS", "2C" (suits S < C < D < H).

const SVG_NS = "http://www.w3.org/2000/svg";

export const SUIT_SYMBOL = { S: "♠", C: "♣", D: "♦", H: "♥" };
const RED = new Set(["D", "H"]);

const SUIT_SHAPES = {
  H: '<path d="M50 92C22 68 2 50 2 29 2 13 14 2 28 2c10 0 18 6 22 15 4-9 12-15 22-15 14 0 26 11 26 27 0 21-20 39-48 63z"/>',
  D: '<path d="M50 2 88 50 50 98 12 50z"/>',
  S: '<path d="M50 2C36 24 4 40 4 63c0 14 11 24 24 24 9 0 16-4 19-11-1 11-5 18-13 24h32c-8-6-12-13-13-24 3 7 10 11 19 11 13 0 24-10 24-24C96 40 64 24 50 2z"/>',
  C: '<circle cx="50" cy="27" r="22"/><circle cx="25" cy="60" r="22"/><circle cx="75" cy="60" r="22"/>' +
     '<path d="M44 50h12c0 22 4 36 14 48H30c10-12 14-26 14-48z"/>',
};

/** Inject the sprite (suit symbols, card back pattern) once per document. */
export function installSprite(doc = document) {
  if (doc.getElementById("card-sprite")) return;
  const holder = doc.createElementNS(SVG_NS, "svg");
  holder.setAttribute("id", "card-sprite");
  holder.setAttribute("aria-hidden", "true");
  holder.style.position = "absolute";
  holder.style.width = "0";
  holder.style.height = "0";
  holder.innerHTML = // static markup only, no data
    Object.entries(SUIT_SHAPES)
      .map(([s, shape]) => `<symbol id="suit-${s}" viewBox="0 0 100 100">${shape}</symbol>`)
      .join("") +
    '<pattern id="card-back-pattern" width="8" height="8" patternUnits="userSpaceOnUse"' +
    ' patternTransform="rotate(45)"><rect width="8" height="8" fill="#1e3a8a"/>' +
    '<rect width="4" height="4" fill="#2747a8"/></pattern>';
  doc.body.prepend(holder);
}

/** Parse "10H" → {rank: "10", suit: "H"}. */
export function parseCard(id) {
  return { rank: id.slice(0, -1), suit: id.slice(-1) };
}

/** "10♥" for logs and labels. */
export function cardText(id) {
  const { rank, suit } = parseCard(id);
  return rank + (SUIT_SYMBOL[suit] || suit);
}

export function cardsText(ids) {
  return ids.map(cardText).join(" ");
}

// The accessible name of a card: the page's spoken name (the table page sets it from its
// catalog, static/js/table/speech.js spokenCard), else "10♥".
let namer = null;

/** Name cards with ``fn(id)`` from now on (the table page: "ten of hearts" / "mười cơ"). */
export function setCardNamer(fn) {
  namer = fn;
}

/** A card's accessible name: the spoken one when the page set a namer, else cardText. */
export function cardLabel(id) {
  return namer ? namer(id) : cardText(id);
}

function svgEl(name, attrs) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

function useSuit(suit, x, y, size, rotate = false) {
  const u = svgEl("use", { href: `#suit-${suit}`, x, y, width: size, height: size });
  if (rotate) u.setAttribute("transform", `rotate(180 ${x + size / 2} ${y + size / 2})`);
  return u;
}

const PIPS = {
  // pip layouts for number cards on a 60×84 card: [x, y] centres, rotated when in lower half
  2: [[30, 20], [30, 64]],
  3: [[30, 20], [30, 42], [30, 64]],
  4: [[21, 20], [39, 20], [21, 64], [39, 64]],
  5: [[21, 20], [39, 20], [30, 42], [21, 64], [39, 64]],
  6: [[21, 20], [39, 20], [21, 42], [39, 42], [21, 64], [39, 64]],
  7: [[21, 20], [39, 20], [30, 31], [21, 42], [39, 42], [21, 64], [39, 64]],
  8: [[21, 20], [39, 20], [30, 31], [21, 42], [39, 42], [30, 53], [21, 64], [39, 64]],
  9: [[21, 18], [39, 18], [21, 33], [39, 33], [30, 42], [21, 51], [39, 51], [21, 66], [39, 66]],
  10: [[21, 18], [39, 18], [30, 26], [21, 35], [39, 35], [21, 49], [39, 49], [30, 58], [21, 66],
    [39, 66]],
};

// Tiến Lên calls its 2s "heo" and marks them on the face; another game's board turns the mark
// off for its page (stud.js: markTwos(false)), or asks per card with ``{twos: false}``.
let twosMark = true;

/** Whether cards drawn from now on carry the Tiến Lên "HEO" mark on their 2s. */
export function markTwos(on) {
  twosMark = Boolean(on);
}

/** An inline SVG face for card ``id`` (60×84 viewBox); ``twos`` marks a 2 as "HEO". */
export function cardFace(id, { twos = twosMark } = {}) {
  const { rank, suit } = parseCard(id);
  const color = RED.has(suit) ? "#c8102e" : "#141414";
  const svg = svgEl("svg", { viewBox: "0 0 60 84", class: "card-svg", "aria-hidden": "true" });
  svg.append(svgEl("rect", {
    x: 0.5, y: 0.5, width: 59, height: 83, rx: 5, fill: "#fffdf7", stroke: "#b9b4a6",
  }));
  const g = svgEl("g", { fill: color });
  svg.append(g);
  const corner = (flip) => {
    const c = svgEl("g", flip ? { transform: "rotate(180 30 42)" } : {});
    const t = svgEl("text", {
      x: 7.5, y: 14, "text-anchor": "middle", "font-size": rank === "10" ? 11 : 13,
      "font-weight": 700, "font-family": "Georgia, 'DejaVu Serif', serif",
      "letter-spacing": rank === "10" ? -1 : 0,
    });
    t.textContent = rank;
    c.append(t, useSuit(suit, 3, 16.5, 9));
    return c;
  };
  g.append(corner(false), corner(true));
  if (["J", "Q", "K"].includes(rank)) {
    g.append(svgEl("rect", {
      x: 14, y: 12, width: 32, height: 60, rx: 3, fill: RED.has(suit) ? "#fde8ea" : "#e9edf5",
      stroke: color, "stroke-width": 1,
    }));
    const letter = svgEl("text", {
      x: 30, y: 47, "text-anchor": "middle", "font-size": 26, "font-weight": 700,
      "font-family": "Georgia, 'DejaVu Serif', serif",
    });
    letter.textContent = rank;
    g.append(letter, useSuit(suit, 23, 52, 14), useSuit(suit, 24, 16, 12, true));
  } else if (rank === "A" || rank === "2") {
    g.append(useSuit(suit, 15, 27, 30));
    if (rank === "2" && twos) {
      const t = svgEl("text", {
        x: 30, y: 72, "text-anchor": "middle", "font-size": 7, "font-weight": 700,
        "letter-spacing": 1, "font-family": "system-ui, sans-serif", opacity: 0.75,
      });
      t.textContent = "HEO";
      g.append(t);
    }
  } else {
    for (const [x, y] of PIPS[rank] || []) g.append(useSuit(suit, x - 6, y - 6, 12, y > 42));
  }
  return svg;
}

/** The back of a card. */
export function cardBack() {
  const svg = svgEl("svg", { viewBox: "0 0 60 84", class: "card-svg", "aria-hidden": "true" });
  svg.append(
    svgEl("rect", { x: 0.5, y: 0.5, width: 59, height: 83, rx: 5, fill: "#fff", stroke: "#b9b4a6" }),
    svgEl("rect", { x: 4, y: 4, width: 52, height: 76, rx: 3, fill: "url(#card-back-pattern)" }),
    svgEl("rect", {
      x: 4, y: 4, width: 52, height: 76, rx: 3, fill: "none", stroke: "#f5d48b", "stroke-width": 1,
    }),
  );
  return svg;
}

/** A card element: a <button> when ``interactive`` (your hand), otherwise a <div>. */
export function cardElement(id, { interactive = false, label, twos = twosMark } = {}) {
  const node = document.createElement(interactive ? "button" : "div");
  node.className = "pcard";
  node.dataset.card = id;
  if (interactive) {
    node.type = "button";
    node.setAttribute("aria-pressed", "false");
  } else {
    node.setAttribute("role", "img");
  }
  node.setAttribute("aria-label", label || cardLabel(id));
  node.append(cardFace(id, { twos }));
  return node;
}

export function backElement() {
  const node = document.createElement("div");
  node.className = "pcard pcard-back";
  node.setAttribute("aria-hidden", "true");
  node.append(cardBack());
  return node;
}
