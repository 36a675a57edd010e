// Card elements: the corner index is HTML (rank text, suit from the deck), the middle is
// SVG from the project's deck (static/deck.svg: suit pips, court figures, the back), one
// file the browser caches. Face-down cards carry no identity at all.
import { assetUrl } from "./assets.js";
import { cardName } from "./i18n.js";

const RED = new Set(["D", "H"]);
const SVG = "http://www.w3.org/2000/svg";

// Pip centres on a 60 x 84 face for 2-10 (the lower half is drawn upside down).
const PIPS = {
  2: [[30, 14], [30, 70]],
  3: [[30, 14], [30, 42], [30, 70]],
  4: [[17, 14], [43, 14], [17, 70], [43, 70]],
  5: [[17, 14], [43, 14], [30, 42], [17, 70], [43, 70]],
  6: [[17, 14], [43, 14], [17, 42], [43, 42], [17, 70], [43, 70]],
  7: [[17, 14], [43, 14], [30, 28], [17, 42], [43, 42], [17, 70], [43, 70]],
  8: [[17, 14], [43, 14], [30, 28], [17, 42], [43, 42], [30, 56], [17, 70], [43, 70]],
  9: [[17, 14], [43, 14], [17, 33], [43, 33], [30, 42], [17, 51], [43, 51], [17, 70], [43, 70]],
  10: [[17, 14], [43, 14], [30, 24], [17, 33], [43, 33], [17, 51], [43, 51], [30, 60], [17, 70], [43, 70]],
};

// The rank is CSS generated content (data-t), not text: the card's accessible name is its
// aria-label, and a button's visible text must not contradict it.
function span(cls, text) {
  const s = document.createElement("span");
  s.className = cls;
  if (text !== undefined) s.dataset.t = text;
  return s;
}

function svg(cls, viewBox) {
  const el = document.createElementNS(SVG, "svg");
  el.setAttribute("class", cls);
  if (viewBox) el.setAttribute("viewBox", viewBox);
  el.setAttribute("aria-hidden", "true");
  el.setAttribute("focusable", "false");
  return el;
}

function use(id, attrs = {}) {
  const u = document.createElementNS(SVG, "use");
  u.setAttribute("href", `${assetUrl("deck.svg")}#${id}`);
  for (const [k, v] of Object.entries(attrs)) u.setAttribute(k, String(v));
  return u;
}

export function rankText(code) {
  return code[0] === "T" ? "10" : code[0];
}

function index(code, cls) {
  const idx = span(cls);
  const s = svg("s", "0 0 100 100");
  s.append(use(code[1]));
  idx.append(span("r", rankText(code)), s);
  return idx;
}

function middle(code) {
  const rank = code[0];
  const suit = code[1];
  const art = svg("art", "0 0 60 84");
  art.setAttribute("preserveAspectRatio", "xMidYMid meet");
  if ("JQK".includes(rank)) {
    art.classList.add("court");
    art.append(use(`court-${rank}`, { x: 6, y: 8, width: 48, height: 68 }));
    art.append(use(suit, { x: 9, y: 11, width: 10, height: 10 }));
    art.append(use(suit, { x: 41, y: 63, width: 10, height: 10, transform: "rotate(180 46 68)" }));
  } else if (rank === "A") {
    art.append(use(suit, { x: 14, y: 26, width: 32, height: 32 }));
  } else {
    const n = rank === "T" ? 10 : Number(rank);
    for (const [x, y] of PIPS[n]) {
      const attrs = { x: x - 6.5, y: y - 6.5, width: 13, height: 13 };
      if (y > 42) attrs.transform = `rotate(180 ${x} ${y})`;
      art.append(use(suit, attrs));
    }
  }
  // On small cards one big pip tells the suit better than ten tiny ones.
  const big = svg("big", "0 0 100 100");
  big.append(use(suit));
  return [art, big];
}

/** A new card element for `code`, or a face-down card for null. */
export function cardElement(code) {
  const el = document.createElement("div");
  el.className = "card";
  el.setAttribute("role", "img");
  if (code === null) {
    el.classList.add("down");
    el.setAttribute("aria-label", cardName(null));
    const back = svg("back", "0 0 60 84");
    back.setAttribute("preserveAspectRatio", "none");
    back.append(use("back"));
    el.append(back);
    return el;
  }
  const suit = code[1];
  el.classList.add("up", RED.has(suit) ? "red" : "black", `s-${suit}`);
  el.dataset.card = code;
  el.setAttribute("aria-label", cardName(code));
  const face = span("face");
  face.setAttribute("aria-hidden", "true");
  face.append(...middle(code), index(code, "idx"), index(code, "idx idx2"));
  el.append(face);
  return el;
}
