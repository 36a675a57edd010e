// Geometry of each game's table for the room it has: card size, gaps, fan offsets and
// where every pile and card goes, in CSS pixels. Pure functions of (view, width, height,
// large mode); no DOM, no rules.
//
// How a size is chosen: each game has one or more arrangements (e.g. Spider's stock above
// the columns, or beside them on a wide, low screen). For each, the widest card its row of
// slots allows is tried, then narrower ones, until the whole table fits the height with
// every fan at or above its least offset; the arrangement with the widest fitting card
// wins. Large mode asks 1.25x the normal card where the width allows; where it does not,
// the corner index and the visible strips are 1.25x instead, never on a narrower card
// (normal mode yields its card where the height allows no large table on it). The size is
// chosen for the table the game's own dealing can make (`planned`), so that no click on
// the stock rescales it.
//
// Why one module of ~590 lines: the games' arrangements (about 300 lines) share the card
// metrics, fans and the fitting search, and are only meaningful next to them; split, each
// part would import the others' internals.

const RATIO = 1.4; // card height / width
const CAP = 124; // widest normal card (a large screen stays a table, not a poster)
const SIDE_EM = 1.9; // rank and suit side by side, in em of the index face ("10" + suit)
const STACK_EM = 1.9; // rank over suit, in em
const BADGE = 16; // room for the line under the stock (passes or deals left)

/** Normal-mode index font for a card width. */
function normalFont(w) {
  return Math.max(14, Math.round(w * 0.24));
}

/** The index of a card `w` wide: font size, side by side or stacked, and the height of the
 * strip it needs from the card's top edge. */
export function indexFor(w, large) {
  const font = large ? Math.max(18, Math.ceil(normalFont(w) * 1.25)) : normalFont(w);
  const side = w >= SIDE_EM * font + 5;
  const h = side ? font + 5 : Math.ceil(STACK_EM * font + 5);
  return { font, side, h };
}

/** A card size with its gaps, index and least offsets. */
function card(w, large, width, slots, base = null, span = null) {
  w = Math.floor(w);
  const h = Math.round(w * RATIO);
  const g = Math.max(3, Math.min(14, Math.round(w * (width < 600 ? 0.07 : 0.12))));
  let idx = indexFor(w, large);
  // Large mode measures itself against the normal table (`base`): when its cards cannot
  // grow, its index and strips still do.
  if (large && base && idx.font < Math.ceil(base.font * 1.25)) {
    const font = Math.ceil(base.font * 1.25);
    const side = w >= SIDE_EM * font + 5;
    idx = { font, side, h: side ? font + 5 : Math.ceil(STACK_EM * font + 5) };
  }
  // The visible part of a covered face-up card: a tap target with its whole index.
  const normalUp = Math.max(24, indexFor(w, false).h, base ? base.shown : 0);
  const minUp = large ? Math.max(32, idx.h, Math.ceil(normalUp * 1.25)) : normalUp;
  const c = {
    w, h, g, large,
    font: idx.font,
    side: idx.side,
    idxH: idx.h,
    minUp,
    // A card's natural offset in a fan. Small cards (a phone) get more than their
    // proportion: up to 3/4 of a card (so large mode can still show 1.25x) and 48 px face
    // up, 20 px face down. Their columns then use the height that is free; fans compress
    // only where a column would run off the screen.
    up: Math.max(minUp, Math.round(h * (large ? 0.375 : 0.3)), Math.min(Math.round(h * 0.75), 48),
      base ? Math.ceil(base.up * 1.25) : 0),
    down: Math.max(4, Math.round(h * 0.1), Math.min(Math.round(h * 0.4), 20)),
    minDown: 4,
    strip: idx.h, // a chain card that is only read, not picked up
    left: 0,
  };
  c.left = Math.max(0, Math.floor((width - (span ? span(w, g) : slots * w + (slots + 1) * g)) / 2));
  return c;
}

/** The widest card for `slots` across `width` (gaps included). */
function widthFit(width, slots) {
  const gap = width < 600 ? 0.07 : 0.12;
  let w = Math.floor(width / (slots + (slots + 1) * gap));
  while (w > 10 && slots * w + (slots + 1) * Math.max(3, Math.min(14, Math.round(w * gap))) > width) w--;
  return w;
}

function slotX(c, i) {
  return Math.round(c.left + c.g + i * (c.w + c.g));
}

/** Card positions of a fanned-down pile, compressed to end above `bottom` when it must
 * (never below the least offsets: then the table grows and the page scrolls). */
function fan(c, x, y, cards, bottom, readOnly = false) {
  // A pile whose covered cards are only read, never picked up, may close to the index.
  if (readOnly) c = { ...c, minUp: c.strip, up: Math.max(c.strip, Math.round(c.h * 0.3)) };
  const n = cards.length;
  if (n === 0) return [];
  let down = 0;
  for (let i = 0; i < n - 1; i++) if (cards[i] === null) down++;
  const up = Math.max(0, n - 1 - down);
  let offDown = c.down;
  let offUp = c.up;
  // Normal mode leaves a fifth of the room free, so that large mode can show 1.25x its
  // strips on the same screen (never below the least offsets).
  const room = c.large ? bottom - y - c.h : Math.floor((bottom - y - c.h) / 1.25);
  if (down * offDown + up * offUp > room) {
    // Face-down cards give way first, then the face-up ones.
    offDown = Math.max(c.minDown, Math.floor((room - up * offUp) / Math.max(1, down)));
    if (down * offDown + up * offUp > room && up) {
      offUp = Math.max(c.minUp, Math.floor((room - down * offDown) / up));
    }
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

// --- the games: each arrangement is {slots, draw(view, c, height) -> piles} ---------------

function spineChain(view, c, x, y, k, bottom, cw = 0, gi = 0) {
  const cards = view.piles.spine.cards;
  const n = Math.max(cards.length, 1);
  const per = Math.ceil(n / k);
  // Wide chain cells (`cw`, a narrow screen): wide enough for the normal index side by
  // side ("10" and a suit in one line), so the strips close to one line of text while the
  // columns keep their narrower cards.
  const w = cw || c.w;
  const h = cw ? Math.round(cw * RATIO) : c.h;
  const gap = cw ? gi : c.g;
  // The chain's strips shrink towards the index height when room is short. Its cards are
  // read, not picked up: in large mode, when even that is too tall, they keep the normal
  // index (14 px at least), so the chain stays on the screen.
  const room = bottom - y - h;
  const fitStrip = Math.floor(room / Math.max(1, per - 1));
  let index = null;
  if (cw || (c.large && fitStrip < c.strip)) {
    const normal = indexFor(w, false);
    index = { font: normal.font, side: normal.side };
  }
  const least = index ? indexFor(w, false).h : c.strip;
  const strip = Math.max(least, Math.min(Math.round(h * 0.22), fitStrip));
  const pos = cards.map((_, i) => {
    const col = Math.floor(i / per);
    return { x: x + col * (w + gap), y: y + (i - col * per) * strip, strip: i < cards.length - 1 };
  });
  const out = { x, y, w: k * w + (k - 1) * gap, h: (per - 1) * strip + h, cards: pos, chain: true, stripH: strip, index };
  if (cw) Object.assign(out, { cw: w, ch: h });
  return out;
}

function spineArr(k) {
  return {
    slots: 8 + k,
    draw(view, c, height) {
      const out = {};
      const top = c.g;
      for (let i = 0; i < 8; i++) {
        const id = `f${i + 1}`;
        const x = Math.round(slotX(c, i) + (k * (c.w + c.g)) / 2);
        out[id] = pile(x, top, c, stacked(x, top, view.piles[id].cards.length));
      }
      const y = top + c.h + 2 * c.g + 16; // the chain's label sits above it
      for (let i = 0; i < 8; i++) {
        const id = `t${i + 1}`;
        const x = slotX(c, i < 4 ? i : i + k);
        out[id] = pile(x, y, c, fan(c, x, y, view.piles[id].cards, height));
      }
      out.spine = spineChain(view, c, slotX(c, 4), y, k, height);
      return out;
    },
  };
}

/** Spine on a narrow screen: the chain's `k` cells wider than the columns' cards (the
 * normal index side by side, 1 px apart), so its strips are one line of text high. */
const CHAIN_CELL = Math.ceil(SIDE_EM * 14 + 5);
function spineWide(k) {
  const span = (w, g) => 8 * w + k * Math.max(w, CHAIN_CELL) + (k - 1) + 10 * g;
  return {
    slots: 8 + k,
    span,
    only: (w) => w < CHAIN_CELL, // wider cards hold the side-by-side index themselves
    draw(view, c, height) {
      const out = {};
      const cw = Math.max(c.w, CHAIN_CELL);
      const left = c.left + c.g;
      const step = c.w + c.g;
      const chainW = k * cw + (k - 1);
      const top = c.g;
      const fLeft = Math.round(left + (span(c.w, c.g) - 2 * c.g - 8 * c.w - 7 * c.g) / 2);
      for (let i = 0; i < 8; i++) {
        const id = `f${i + 1}`;
        const x = fLeft + i * step;
        out[id] = pile(x, top, c, stacked(x, top, view.piles[id].cards.length));
      }
      const y = top + c.h + 2 * c.g + 16; // the chain's label sits above it
      for (let i = 0; i < 8; i++) {
        const id = `t${i + 1}`;
        const x = i < 4 ? left + i * step : left + 4 * step + chainW + c.g + (i - 4) * step;
        out[id] = pile(x, y, c, fan(c, x, y, view.piles[id].cards, height));
      }
      out.spine = spineChain(view, c, left + 4 * step, y, k, height, cw, 1);
      return out;
    },
  };
}

function backboneArr() {
  return {
    slots: 10,
    draw(view, c, height) {
      const out = {};
      const top = c.g + 14;
      const order = ["stock", "waste", "f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8"];
      order.forEach((id, i) => {
        const x = slotX(c, i);
        const n = view.piles[id].cards.length;
        out[id] = pile(x, top, c, id === "stock" ? stacked(x, top, n, 1, 12) : stacked(x, top, n));
      });
      const y = top + c.h + c.g + BADGE + 14;
      return { ...out, ...this.drawColumns(view, c, height, y) };
    },
    /** The 8 columns and the spine from `y` down (slots 0-9). */
    drawColumns(view, c, height, y) {
      const out = {};
      for (let i = 0; i < 8; i++) {
        const id = `t${i + 1}`;
        const x = slotX(c, i < 4 ? i : i + 2);
        out[id] = pile(x, y, c, fan(c, x, y, view.piles[id].cards, height));
      }
      // The spine: two fanned piles, with the tailbone lying across their lower ends.
      const tail = view.piles.tailbone.cards;
      const room = tail.length ? height - Math.round(c.h * 0.55) : height;
      let low = y;
      for (const [j, id] of [[0, "spine1"], [1, "spine2"]]) {
        const x = slotX(c, 4 + j);
        const cards = fan(c, x, y, view.piles[id].cards, room, true);
        out[id] = pile(x, y, c, cards);
        if (cards.length) low = Math.max(low, cards[cards.length - 1].y);
      }
      const tx = Math.round((slotX(c, 4) + slotX(c, 5) + c.w) / 2 - c.w / 2);
      const ty = Math.round(low + c.h * 0.35);
      out.tailbone = { x: tx, y: ty, w: c.w, h: c.h, cards: tail.map(() => ({ x: tx, y: ty, across: true })), across: true };
      return out;
    },
  };
}

function spiderTop() {
  return {
    slots: 10,
    draw(view, c, height) {
      const out = {};
      const top = c.g;
      const sx = slotX(c, 0);
      // The stock's cards step up 3 px per 10 cards (4 steps at most): room above it.
      out.stock = pile(sx, top + 12, c, stacked(sx, top + 12, view.piles.stock.cards.length, 3, 10));
      const dx = slotX(c, 2);
      out.done = { x: dx, y: top, w: 8 * c.w + 7 * c.g, h: c.h, cards: [], runs: 8 };
      out.done.cards = view.piles.done.cards.map((_, i) => ({ x: slotX(c, 2 + Math.floor(i / 13)), y: top, z: 14 - (i % 13) }));
      const y = top + 12 + c.h + c.g + BADGE;
      for (let i = 0; i < 10; i++) {
        const id = `t${i + 1}`;
        const x = slotX(c, i);
        out[id] = pile(x, y, c, fan(c, x, y, view.piles[id].cards, height));
      }
      return out;
    },
  };
}

/** Spider on a wide, low screen: the stock and the finished runs beside the columns. */
function spiderSide() {
  return {
    slots: 11,
    draw(view, c, height) {
      const out = {};
      const top = c.g;
      for (let i = 0; i < 10; i++) {
        const id = `t${i + 1}`;
        const x = slotX(c, i + 1);
        out[id] = pile(x, top, c, fan(c, x, top, view.piles[id].cards, height));
      }
      const sx = slotX(c, 0);
      const sy = top + 12;
      out.stock = pile(sx, sy, c, stacked(sx, sy, view.piles.stock.cards.length, 3, 10));
      // Finished runs: one slot, each run's King a strip below the last.
      const dy = sy + c.h + c.g + BADGE;
      const step = Math.max(8, Math.min(c.idxH, Math.floor((height - dy - c.h) / 7)));
      out.done = { x: sx, y: dy, w: c.w, h: c.h + 7 * step, cards: [], runs: 1 };
      out.done.cards = view.piles.done.cards.map((_, i) => ({ x: sx, y: dy + Math.floor(i / 13) * step, z: Math.floor(i / 13) * 20 + 14 - (i % 13) }));
      return out;
    },
  };
}

/** `read`: the covered cards of a column are only read (Nivernais plays only a column's
 * top card), so its fan may close to their index (they get class `read`). */
function readFan(c, x, y, cards, bottom, read) {
  const out = fan(c, x, y, cards, bottom, read);
  if (read) for (const q of out.slice(0, -1)) q.read = true;
  return out;
}

function nivernaisArr(read = false) {
  return {
    slots: 10,
    draw(view, c, height) {
      // Top: the stock and the 8 foundations (4 up, 4 down). Below: 2 x 2 cells on each
      // side of the 6 columns.
      const out = {};
      const top = c.g + Math.max(16, Math.round(c.w * 0.24)) + 6;
      const sx = slotX(c, 0);
      out.stock = pile(sx, top, c, stacked(sx, top, view.piles.stock.cards.length, 1, 12));
      for (let i = 0; i < 8; i++) {
        const id = `f${i + 1}`;
        const x = slotX(c, i + 2);
        out[id] = pile(x, top, c, stacked(x, top, view.piles[id].cards.length));
      }
      const y = top + c.h + c.g + BADGE;
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
        out[id] = pile(x, y, c, readFan(c, x, y, view.piles[id].cards, height, read));
      }
      return out;
    },
  };
}

/** Nivernais on a wide screen: the columns from the top edge, so that they have the whole
 * height for their 16 cards; the stock and the up foundations (2 x 2) at the left, the
 * down foundations at the right, the reserve cells (2 x 2) beside the columns. */
function nivernaisSide(read = false) {
  return {
    slots: 14,
    draw(view, c, height) {
      const out = {};
      const badge = Math.max(16, Math.round(c.w * 0.24)) + 6; // a foundation's badge above it
      const sx = slotX(c, 0);
      const sy = c.g + 4; // the stock's cards step up 1 px per 12
      out.stock = pile(sx, sy, c, stacked(sx, sy, view.piles.stock.cards.length, 1, 12));
      for (let i = 0; i < 4; i++) {
        const y = sy + c.h + c.g + badge + Math.floor(i / 2) * (c.h + c.g + badge);
        for (const [id, slot] of [[`f${i + 1}`, i % 2], [`f${i + 5}`, 12 + (i % 2)]]) {
          const x = slotX(c, slot);
          out[id] = pile(x, y, c, stacked(x, y, view.piles[id].cards.length));
        }
        const yy = c.g + Math.floor(i / 2) * (c.h + c.g);
        for (const [id, slot] of [[`r${i + 1}`, 2 + (i % 2)], [`r${i + 5}`, 10 + (i % 2)]]) {
          const x = slotX(c, slot);
          out[id] = pile(x, yy, c, stacked(x, yy, view.piles[id].cards.length));
        }
      }
      for (let i = 0; i < 6; i++) {
        const id = `t${i + 1}`;
        const x = slotX(c, i + 4);
        out[id] = pile(x, c.g, c, readFan(c, x, c.g, view.piles[id].cards, height, read));
      }
      return out;
    },
  };
}

/** Spine on a wide, low screen: the foundations in two columns beside the table. */
function spineSide(k) {
  return {
    slots: 10 + k,
    draw(view, c, height) {
      const out = {};
      // Only the chain has a label above it: the columns and foundations start at the top
      // edge, so the columns get the whole height.
      const top = c.g;
      const step = Math.max(c.idxH + 4, Math.min(c.h + c.g, Math.floor((height - top - c.h) / 3)));
      for (let i = 0; i < 8; i++) {
        const id = `f${i + 1}`;
        const x = slotX(c, i < 4 ? 0 : 9 + k);
        const y = top + (i % 4) * step;
        out[id] = pile(x, y, c, stacked(x, y, view.piles[id].cards.length));
      }
      for (let i = 0; i < 8; i++) {
        const id = `t${i + 1}`;
        const x = slotX(c, i < 4 ? i + 1 : i + 1 + k);
        out[id] = pile(x, top, c, fan(c, x, top, view.piles[id].cards, height));
      }
      out.spine = spineChain(view, c, slotX(c, 5), top + 16, k, height);
      return out;
    },
  };
}

/** Backbone on a wide, low screen: foundations, stock and waste in blocks at the sides,
 * the columns and the spine from the top edge. */
function backboneSide() {
  const inner = backboneArr();
  return {
    slots: 14,
    draw(view, c, height) {
      const out = {};
      const top = c.g + 14;
      const rowH = Math.max(c.idxH + 18, Math.min(c.h + c.g + 14, Math.floor((height - top - c.h) / 2)));
      const block = [["f1", 0, 0], ["f2", 1, 0], ["f3", 0, 1], ["f4", 1, 1], ["stock", 0, 2], ["waste", 1, 2],
        ["f5", 12, 0], ["f6", 13, 0], ["f7", 12, 1], ["f8", 13, 1]];
      for (const [id, slot, row] of block) {
        const x = slotX(c, slot);
        const y = top + row * rowH;
        const n = view.piles[id].cards.length;
        out[id] = pile(x, y, c, id === "stock" ? stacked(x, y, n, 1, 12) : stacked(x, y, n));
      }
      const shifted = { ...c, left: c.left + 2 * (c.w + c.g) };
      const mid = inner.drawColumns(view, shifted, height, top);
      return { ...out, ...mid };
    },
  };
}

const GAMES = {
  spine: [1, 2, 3, 4, 5].map(spineArr).concat([2, 3, 4].map(spineSide), [3, 4].map(spineWide)),
  backbone: [backboneArr(), backboneSide()],
  "backbone-classic": [backboneArr(), backboneSide()],
  spider: [spiderTop(), spiderSide()],
  nivernais: [nivernaisArr(), nivernaisSide()],
};

function extent(piles, c) {
  let maxX = 0;
  let maxY = 0;
  for (const p of Object.values(piles)) {
    maxX = Math.max(maxX, p.x + p.w);
    maxY = Math.max(maxY, p.y + p.h);
    for (const q of p.cards) {
      maxX = Math.max(maxX, q.x + (q.across ? c.h : c.w));
      maxY = Math.max(maxY, q.y + (q.across ? c.w : c.h));
    }
  }
  return { maxX, maxY };
}

/** The widest card of arrangement `a` whose table fits `height` (null when none does,
 * down to the floor). */
function fit(view, a, width, height, large, capW, base) {
  const top = Math.min(capW, widthFit(width, a.slots));
  // Large mode never goes below the normal card (`base.floorW`).
  const floor = base && base.floorW ? Math.min(base.floorW, top) : Math.min(top, 24);
  if (top < floor) return null;
  let least = null; // the shortest table tried, for when none fits
  const widths = [];
  for (let w = top; w > floor; w -= Math.max(1, Math.round(w * 0.03))) widths.push(w);
  widths.push(floor);
  for (const w of widths) {
    if (a.only && !a.only(w)) continue;
    const c = card(w, large, width, a.slots, base, a.span);
    if (c.idxH > c.h - 1) continue; // the index must fit on the card itself
    const piles = a.draw(view, c, height - c.g);
    const e = extent(piles, c);
    const f = { a, c, piles, e, fits: e.maxY + c.g <= height && e.maxX <= width };
    if (f.fits) return f;
    if (!least || e.maxY < least.e.maxY) least = f;
  }
  return least;
}

function best(view, arrs, width, height, large, capW, base = null) {
  let win = null;
  for (const a of arrs) {
    const f = fit(view, a, width, height, large, capW, base);
    if (!f) continue;
    // A table that fits beats one that does not; then the wider card; then the shorter.
    const better = !win || (f.fits && !win.fits) ||
      (f.fits === win.fits && (f.fits ? f.c.w > win.c.w : f.e.maxY < win.e.maxY));
    if (better) win = f;
  }
  if (win) return win;
  const a = arrs[0];
  const c = card(Math.min(capW, widthFit(width, a.slots)), large, width, a.slots, base);
  const piles = a.draw(view, c, height - c.g);
  return { a, c, piles, e: extent(piles, c), fits: false };
}

/** What the card size is chosen for: the table as it may become through the game's own
 * dealing, not only as it is now, so that no click on the stock rescales it. Nivernais'
 * stock deals 4 cards onto every column per click (72 cards: 3 clicks, 16 cards a column
 * at most); Spine's chain is planned at its starting length (as it shortens, the chain's
 * arrangement would otherwise change and the cards grow mid-game). Columns that grow by
 * the player's own moves are not planned for: their fans compress first. */
const COLUMN_PLAN = { nivernais: 16 };
// The arrangements where a column's covered cards are only read, and the columns' length
// at the start (Nivernais: 4, and each deal of the stock adds 4).
const READ = { nivernais: () => [nivernaisArr(true), nivernaisSide(true)] };
const STARTS = { nivernais: 4 };

/** The view with its columns grown to the game's plan (`columns`: every column at exactly
 * that many cards, longer ones cut). */
function planned(view, columns = null) {
  const want = (id, p) => {
    if (p.kind === "column") return columns ?? (COLUMN_PLAN[view.game] || 0);
    if (view.game === "spine" && id === "spine") return Number((view.options || {}).spine) || 0;
    return 0;
  };
  let changed = false;
  const piles = {};
  for (const [id, p] of Object.entries(view.piles)) {
    const n = want(id, p) - p.cards.length;
    const cut = columns !== null && p.kind === "column" && n < 0;
    piles[id] = n > 0 ? { ...p, cards: p.cards.concat(Array(n).fill("AS")) } : cut ? { ...p, cards: p.cards.slice(0, columns) } : p;
    changed = changed || n > 0 || cut;
  }
  return changed ? { ...view, piles } : view;
}

/** The card for the planned table (else, when that cannot fit, for the table as it is),
 * and the table as it is drawn with it. */
function choose(view, plan, arrs, width, height, large, capW, base = null, canRead = true) {
  let f = best(plan, arrs, width, height, large, capW, base);
  let sized = plan;
  const read = canRead && READ[view.game];
  if (!f.fits && read) {
    // Nivernais on a low screen (a phone on its side): the covered column cards show
    // their index only (only a column's top card plays); the card is the widest the
    // planned table fits so, else (large mode's taller strips) the widest the starting
    // table fits so. It never changes during the game: where the longest columns then
    // reach below the screen, the page scrolls. Large mode reads so only where normal
    // mode does (elsewhere its strips stay 1.25x normal mode's).
    f = best(plan, read(), width, height, large, capW, base);
    if (!f.fits) f = best(planned(view, STARTS[view.game]), read(), width, height, large, capW, base);
    f = { ...f, drawnFor: true }; // drawn below for the table as it is
  } else if (plan !== view && !f.fits) {
    f = best(view, arrs, width, height, large, capW, base);
    sized = view;
  }
  // The least strip of the table the card was sized for (large mode's strips are 1.25x it).
  const shown = shownUp(sized, f);
  if (sized === view && !f.drawnFor) return { ...f, shown, sized };
  const piles = f.a.draw(view, f.c, height - f.c.g);
  const e = extent(piles, f.c);
  // A read table keeps its card whatever the table now needs (it fits as it was sized).
  const fits = f.drawnFor ? f.fits : e.maxY + f.c.g <= height && e.maxX <= width;
  return { ...f, piles, e, shown, sized, fits };
}

/** The least offset between two face-up cards of a column on a laid-out table. */
function shownUp(view, g) {
  let least = g.c.minUp;
  let any = false;
  for (const [id, p] of Object.entries(g.piles)) {
    if (!view.piles[id] || view.piles[id].kind !== "column") continue;
    const cards = view.piles[id].cards;
    for (let i = 1; i < p.cards.length; i++) {
      if (cards[i - 1] === null) continue;
      const d = p.cards[i].y - p.cards[i - 1].y;
      least = any ? Math.min(least, d) : d;
      any = true;
    }
  }
  return least;
}

/** The normal and the large table. Large mode never makes a card smaller than normal
 * mode: it searches from 1.25x the normal card down to the normal card, no narrower, with
 * strips 1.25x normal mode's. Where the height allows no such table, normal mode yields:
 * both take the widest card the large table fits (so large mode still shows 1.25x index
 * and strips on the same card). Both modes run this same search, so the normal table does
 * not depend on the setting. Where no large table fits at all, large mode keeps the normal
 * card with its large index and strips (the page scrolls, as a normal table that does not
 * fit does). */
function sizes(view, plan, arrs, width, height) {
  let normal = choose(view, plan, arrs, width, height, false, CAP);
  const read = !!normal.drawnFor; // a low screen: large mode reads too
  // Large mode plans for what normal mode could plan for (else the table as it is).
  const lplan = normal.sized === plan ? plan : view;
  const ok = (f) => f && f.fits && f.sized === lplan;
  const base = (n, more) => ({ ...n.c, shown: n.shown, floorW: n.c.w, ...more });
  const big = (n) => choose(view, lplan, arrs, width, height, true, Math.ceil(n.c.w * 1.25), base(n), read);
  let large = big(normal);
  if (!ok(large) || large.c.w < normal.c.w) {
    const yielded = choose(view, lplan, arrs, width, height, true, normal.c.w, base(normal, { floorW: 0 }), read);
    // (Its margin below may be short of a gap: on the screen is enough.)
    if (yielded.sized === lplan && yielded.e.maxY <= height && yielded.c.w < normal.c.w) {
      normal = choose(view, plan, arrs, width, height, false, yielded.c.w, null, read);
      large = big(normal);
      if (!ok(large) || large.c.w < normal.c.w) large = yielded;
    } else {
      large = null;
    }
  }
  if (!large || large.c.w < normal.c.w) {
    const c = card(normal.c.w, true, width, normal.a.slots, base(normal), normal.a.span);
    const piles = normal.a.draw(view, c, height - c.g);
    large = { a: normal.a, c, piles, e: extent(piles, c) };
  }
  return { normal, large };
}

/** The whole table: {c: card size and metrics, piles: {id: {x,y,w,h,cards:[{x,y}]}},
 * width, height}. */
export function layout(view, width, height, large) {
  const arrs = GAMES[view.game] || GAMES.spider;
  const both = sizes(view, planned(view), arrs, width, height);
  const g = large ? both.large : both.normal;
  return {
    c: g.c,
    piles: g.piles,
    width: Math.max(width, g.e.maxX + g.c.g),
    height: g.e.maxY + g.c.g,
  };
}
