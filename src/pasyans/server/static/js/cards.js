// Card elements drawn with HTML and CSS: rank and suit in the corners, a big pip or a
// framed letter in the middle; face-down cards carry no identity at all.
import { cardName, SUIT_SYMBOL } from "./i18n.js";

const RED = new Set(["D", "H"]);

// The rank and suit are drawn as CSS generated content (data-t), not text: the card's
// accessible name is its aria-label, and a button's visible text must not contradict it.
function span(cls, text) {
  const s = document.createElement("span");
  s.className = cls;
  if (text !== undefined) s.dataset.t = text;
  return s;
}

export function rankText(code) {
  return code[0] === "T" ? "10" : code[0];
}

/** A new card element for `code`, or a face-down card for null. */
export function cardElement(code) {
  const el = document.createElement("div");
  el.className = "card";
  if (code === null) {
    el.classList.add("down");
    el.setAttribute("role", "img");
    el.setAttribute("aria-label", cardName(null));
    return el;
  }
  const suit = code[1];
  el.classList.add("up", RED.has(suit) ? "red" : "black", `s-${suit}`);
  el.dataset.card = code;
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", cardName(code));
  const face = span("face");
  face.setAttribute("aria-hidden", "true");
  const idx = span("idx");
  idx.append(span("r", rankText(code)), span("s", SUIT_SYMBOL[suit]));
  const idx2 = span("idx idx2");
  idx2.append(span("r", rankText(code)), span("s", SUIT_SYMBOL[suit]));
  const middle = "JQK".includes(code[0]) ? span("court", code[0]) : span("pip", SUIT_SYMBOL[suit]);
  if ("JQK".includes(code[0])) middle.append(span("court-s", SUIT_SYMBOL[suit]));
  face.append(idx, middle, idx2);
  el.append(face);
  return el;
}
