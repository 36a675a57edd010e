// Runs in the page: see e2e_geometry.py.
(() => {
  const vw = document.documentElement.clientWidth;
  const bar = document.querySelector(".toolbar .actions");
  // The screen less the touch bar (at the bottom, or at the right edge of a low screen).
  let bottom = window.innerHeight;
  let right = vw;
  if (bar && getComputedStyle(bar).position === "fixed") {
    const b = bar.getBoundingClientRect();
    if (b.top > window.innerHeight / 2) bottom = b.top;
    else if (b.left > vw / 2) right = b.left;
  }
  const out = {
    hscroll: document.documentElement.scrollWidth > vw + 0.5,
    offscreen: [], cards: [], strips: [],
    cardW: 0, font: 0, large: document.querySelector("section.table").classList.contains("large"),
    leastStrip: Number(document.querySelector("section.table").dataset.strip || 0),
  };
  // Nothing of the table may hide under the bars above it.
  const top = document.querySelector("section.table").getBoundingClientRect().top;
  const inside = (r, box) => r.left >= box.left - 0.5 && r.right <= box.right + 0.5 &&
    r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5;
  const index = (el, box) => {
    const r = el.querySelector(":scope .idx:not(.idx2) .r");
    const s = el.querySelector(":scope .idx:not(.idx2) .s");
    const rr = r.getBoundingClientRect();
    const sr = s.getBoundingClientRect();
    return {
      inside: inside(rr, box) && inside(sr, box),
      font: Math.min(parseFloat(getComputedStyle(r).fontSize), parseFloat(getComputedStyle(s).fontSize)),
      suitH: sr.height,
    };
  };
  for (const pile of document.querySelectorAll("section.table .pile")) {
    const id = pile.dataset.pile;
    const cards = [...pile.querySelectorAll(":scope > .card")];
    for (const el of cards) {
      const r = el.getBoundingClientRect();
      if (r.left < -0.5 || r.right > right + 0.5 || r.top < top - 0.5 || r.bottom > bottom + 0.5) {
        out.offscreen.push(`${id}/${el.dataset.index} at ${Math.round(r.left)},${Math.round(r.top)}-${Math.round(r.right)},${Math.round(r.bottom)} (screen ${Math.round(right)}x${Math.round(bottom)})`);
        break;
      }
    }
    const base = pile.querySelector(":scope > .pile-base").getBoundingClientRect();
    if (!cards.length && (base.right > right + 0.5 || base.bottom > bottom + 0.5)) out.offscreen.push(`${id} (empty)`);
    const column = pile.classList.contains("kind-column") || pile.classList.contains("kind-spine");
    cards.forEach((el, i) => {
      if (!el.classList.contains("up") || el.classList.contains("across")) return;
      const r = el.getBoundingClientRect();
      // The card over this one: the next of its pile, where it lies on it (a chain wraps).
      const after = cards[i + 1];
      const next = after && Math.abs(after.getBoundingClientRect().left - r.left) < 1 ? after : null;
      const visible = { left: r.left, right: r.right, top: r.top, bottom: next ? Math.min(r.bottom, next.getBoundingClientRect().top) : r.bottom };
      const item = { pile: id, index: i, w: r.width, h: visible.bottom - visible.top, covered: !!next, ...index(el, visible) };
      out.cardW = Math.max(out.cardW, r.width);
      out.font = Math.max(out.font, item.font);
      // A chain strip, a covered card of a spine pile (only its lowest card is ever
      // taken) and a covered card the layout marks `read` (Nivernais' columns on a low
      // screen: only the top card plays) is read, not picked up.
      const read = el.classList.contains("strip") || (el.classList.contains("read") && next);
      if (read || (pile.classList.contains("kind-spine") && next)) out.strips.push(item);
      else if (!next || column) out.cards.push(item);
    });
  }
  return out;
})
