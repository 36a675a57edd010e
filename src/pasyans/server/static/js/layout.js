// Geometry of each game's table: where every pile and every card goes, in pixels.
// Pure functions of (view, available width/height, large mode); no DOM, no rules.

const RATIO = 1.4; // card height / width
const GAP = 0.14; // gap between slots, in card widths
const BADGE = 14; // room for the line under the stock (passes or deals left)

function size(width, slots, cap, large = cap > 100) {
  // Large mode: narrower gaps, so the cards grow as far as the width allows.
  const gap = width < 600 || large ? GAP / 2 : GAP;
  const w0 = Math.min(cap, width / (slots + (slots + 1) * gap));
  const g = Math.max(3, Math.round(w0 * gap));
  const w = Math.floor(Math.min(cap, (width - (slots + 1) * g) / slots));
  return { w, h: Math.round(w * RATIO), g, up: large ? 0.34 : 0.27 };
}

function slotX(c, i, offset = 0) {
  return Math.round(c.left + c.g + (i + offset) * (c.w + c.g));
}

/** Card positions of a fanned-down pile, compressed to end above `bottom` when it can. */
function fan(c, x, y, cards, bottom, minUp) {
  const n = cards.length;
  if (n === 0) return [];
  const down = cards.filter((k) => k === null).length;
  let offDown = Math.round(c.h * 0.1);
  let offUp = Math.round(c.h * c.up);
  const need = down * offDown + Math.max(0, n - down - 1) * offUp;
  const room = bottom - y - c.h;
  if (need > room && need > 0) {
    const f = Math.max(room, 0) / need;
    offUp = Math.max(minUp, Math.floor(offUp * f));
    offDown = Math.max(4, Math.floor(offDown * f));
  }
  const out = [];
  let yy = y;
  for (let i = 0; i < n; i++) {
    out.push({ x, y: yy });
    yy += cards[i] === null ? offDown : offUp;
  }
  return out;
}

function stacked(x, y, n, step = 0, every = 1) {
  const out = [];
  for (let i = 0; i < n; i++) out.push({ x, y: y - Math.min(4, Math.floor(i / every)) * step });
  return out;
}

function pile(x, y, c, cards) {
  return { x, y, w: c.w, h: c.h, cards };
}

/** The least offset of a face-up card in a squeezed column: its corner index stays
 * readable, and in large mode it stays a 24 px target. */
function minUp(c) {
  return c.up > 0.3 ? Math.max(24, Math.round(c.h * 0.25)) : Math.max(11, Math.round(c.h * 0.17));
}

function caps(large) {
  return large ? 132 : 100;
}

/** Height a fanned column needs at its tightest spacing. */
function colNeed(c, cards) {
  const n = cards.length;
  if (!n) return c.h;
  const down = cards.filter((k) => k === null).length;
  return down * 4 + Math.max(0, n - down - 1) * minUp(c) + c.h;
}

/** Card size for `slots` across; smaller when a long column would not fit the height
 * even at its tightest spacing (down to a floor, past which the page scrolls).
 * `top(c)` is where the columns start for a card size. */
function fitted(view, width, height, slots, large, top) {
  const cols = Object.values(view.piles).filter((p) => p.kind === "column").map((p) => p.cards);
  const floor = large ? 64 : 48;
  let c = size(width, slots, caps(large), large);
  while (c.w > floor) {
    const need = Math.max(...cols.map((cards) => colNeed(c, cards)));
    if (top(c) + need <= height) break;
    c = size(width, slots, Math.max(floor, c.w - 4), large);
  }
  return c;
}

function centre(c, width, slots) {
  c.left = Math.max(0, Math.floor((width - (slots * c.w + (slots + 1) * c.g)) / 2));
  return c;
}

function spine(view, width, height, large) {
  const n = Number(view.options.spine || 56);
  const cap = caps(large);
  let c;
  let k = 1;
  const stripOf = (cc) => Math.max(large ? 18 : 14, Math.round(cc.h * 0.16));
  for (k = 1; k < 4; k++) {
    c = size(width, 8 + k, cap);
    const chain = (Math.ceil(n / k) - 1) * stripOf(c) + c.h;
    if (c.h + 3 * c.g + chain <= height) break;
  }
  c = size(width, 8 + k, cap);
  c.k = k;
  c.strip = stripOf(c);
  const slots = 8 + k;
  c.left = Math.max(0, Math.floor((width - (slots * c.w + (slots + 1) * c.g)) / 2));
  const out = {};
  const top = c.g;
  for (let i = 0; i < 8; i++) {
    const id = `f${i + 1}`;
    const x = slotX(c, i, k / 2);
    out[id] = pile(x, top, c, stacked(x, top, view.piles[id].cards.length));
  }
  const y = top + c.h + 2 * c.g;
  const bottom = Math.max(height, y + c.h * 3);
  for (let i = 0; i < 8; i++) {
    const id = `t${i + 1}`;
    const x = slotX(c, i < 4 ? i : i + k);
    out[id] = pile(x, y, c, fan(c, x, y, view.piles[id].cards, bottom, minUp(c)));
  }
  const cards = view.piles.spine.cards;
  const per = Math.ceil(n / k);
  const pos = cards.map((_, i) => {
    const col = Math.floor(i / per);
    const x = slotX(c, 4 + col);
    return { x, y: y + (i - col * per) * c.strip, strip: i < cards.length - 1 };
  });
  const sx = slotX(c, 4);
  out.spine = { x: sx, y, w: k * c.w + (k - 1) * c.g, h: (per - 1) * c.strip + c.h, cards: pos, chain: true };
  return { c, piles: out };
}

function backbone(view, width, height, large) {
  const c = centre(fitted(view, width, height, 10, large, (cc) => 2 * cc.g + cc.h + 2 * cc.g + BADGE), width, 10);
  const out = {};
  const top = c.g;
  const order = ["stock", "waste", "f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8"];
  order.forEach((id, i) => {
    const x = slotX(c, i);
    const n = view.piles[id].cards.length;
    out[id] = pile(x, top, c, id === "stock" ? stacked(x, top, n, 1, 12) : stacked(x, top, n));
  });
  const y = top + c.h + 2 * c.g + BADGE;
  const bottom = Math.max(height, y + c.h * 3);
  for (let i = 0; i < 8; i++) {
    const id = `t${i + 1}`;
    const x = slotX(c, i < 4 ? i : i + 2);
    out[id] = pile(x, y, c, fan(c, x, y, view.piles[id].cards, bottom, minUp(c)));
  }
  // The spine: two fanned piles, with the tailbone lying across their lower ends.
  const sBottom = Math.min(bottom, y + c.h * 4.2);
  let low = y;
  for (const [j, id] of [["0", "spine1"], ["1", "spine2"]]) {
    const x = slotX(c, 4 + Number(j));
    const cards = fan(c, x, y, view.piles[id].cards, sBottom - c.h * 0.5, minUp(c));
    out[id] = pile(x, y, c, cards);
    if (cards.length) low = Math.max(low, cards[cards.length - 1].y);
  }
  const tx = Math.round((slotX(c, 4) + slotX(c, 5) + c.w) / 2 - c.w / 2);
  const ty = Math.round(low + c.h * 0.3);
  const tail = view.piles.tailbone.cards.map(() => ({ x: tx, y: ty, across: true }));
  out.tailbone = { x: tx, y: ty, w: c.w, h: c.h, cards: tail, across: true };
  return { c, piles: out };
}

function spider(view, width, height, large) {
  const c = centre(fitted(view, width, height, 10, large, (cc) => 2 * cc.g + cc.h + 2 * cc.g + BADGE), width, 10);
  const out = {};
  const top = c.g;
  const sx = slotX(c, 0);
  out.stock = pile(sx, top, c, stacked(sx, top, view.piles.stock.cards.length, 3, 10));
  const done = view.piles.done.cards;
  const dx = slotX(c, 2);
  out.done = { x: dx, y: top, w: 8 * c.w + 7 * c.g, h: c.h, cards: [], runs: 8 };
  out.done.cards = done.map((_, i) => {
    const x = slotX(c, 2 + Math.floor(i / 13));
    return { x, y: top, z: 14 - (i % 13) }; // the run's King on top
  });
  const y = top + c.h + 2 * c.g + BADGE;
  const bottom = Math.max(height, y + c.h * 3);
  for (let i = 0; i < 10; i++) {
    const id = `t${i + 1}`;
    const x = slotX(c, i);
    out[id] = pile(x, y, c, fan(c, x, y, view.piles[id].cards, bottom, minUp(c)));
  }
  return { c, piles: out };
}

function nivernais(view, width, height, large) {
  // Top: the stock and the 8 foundations (4 up, 4 down). Below: 2 x 2 cells on each
  // side of the 6 columns.
  const badgeOf = (cc) => Math.max(13, Math.round(cc.w * 0.24)) + 6;
  const colTop = (cc) => cc.g + badgeOf(cc) + cc.h + 2 * cc.g + BADGE + cc.g;
  const c = centre(fitted(view, width, height, 10, large, colTop), width, 10);
  const out = {};
  const badge = badgeOf(c);
  const top = c.g + badge;
  const sx = slotX(c, 0);
  out.stock = pile(sx, top, c, stacked(sx, top, view.piles.stock.cards.length, 1, 12));
  for (let i = 0; i < 8; i++) {
    const id = `f${i + 1}`;
    const x = slotX(c, i + 2);
    out[id] = pile(x, top, c, stacked(x, top, view.piles[id].cards.length));
  }
  const y = top + c.h + 2 * c.g + BADGE;
  const bottom = Math.max(height, y + 2 * c.h + c.g);
  for (let i = 0; i < 4; i++) {
    const row = Math.floor(i / 2);
    const yy = Math.round(y + row * (c.h + c.g));
    for (const [id, slot] of [[`r${i + 1}`, i % 2], [`r${i + 5}`, 8 + (i % 2)]]) {
      const x = slotX(c, slot);
      out[id] = pile(x, yy, c, stacked(x, yy, view.piles[id].cards.length));
    }
  }
  for (let i = 0; i < 6; i++) {
    const id = `t${i + 1}`;
    const x = slotX(c, i + 2);
    out[id] = pile(x, y, c, fan(c, x, y, view.piles[id].cards, bottom, minUp(c)));
  }
  return { c, piles: out };
}

const GAMES = {
  spine,
  backbone,
  "backbone-classic": backbone,
  spider,
  nivernais,
};

/** The whole table: {c: card size, piles: {id: {x,y,w,h,cards:[{x,y}]}}, width, height}. */
export function layout(view, width, height, large) {
  const fn = GAMES[view.game] || spider;
  const g = fn(view, width, height, large);
  let maxX = 0;
  let maxY = 0;
  for (const p of Object.values(g.piles)) {
    maxX = Math.max(maxX, p.x + p.w);
    maxY = Math.max(maxY, p.y + p.h);
    for (const q of p.cards) {
      maxX = Math.max(maxX, q.x + (q.across ? g.c.h : g.c.w));
      maxY = Math.max(maxY, q.y + g.c.h);
    }
  }
  g.width = Math.max(width, maxX + g.c.g);
  g.height = maxY + g.c.g;
  return g;
}
