// Keyboard and screen-reader helpers for the table: where focus may go, how the arrow keys
// move it, names that say what and where a card is, and the position read out in words.
import { cardName, pileName, t } from "./i18n.js";

const FANNED = new Set(["column", "spine"]);

/** Focus stops of a pile: indices of its face-up cards (every one for fanned piles, the
 * top one for stacked piles), or [null] (the pile itself) when it shows no face-up card. */
export function stops(view, id) {
  const pile = view.piles[id];
  if (!pile || pile.kind === "stock") return [null];
  const cards = pile.cards;
  const up = [];
  if (FANNED.has(pile.kind)) cards.forEach((c, i) => c && up.push(i));
  else if (cards.length && cards[cards.length - 1]) up.push(cards.length - 1);
  return up.length ? up : [null];
}

/** Piles in rows, top to bottom, each row left to right, from the drawn geometry. */
export function rows(view, geom) {
  const ids = Object.keys(view.piles).filter((id) => geom.piles[id]);
  ids.sort((a, b) => geom.piles[a].y - geom.piles[b].y || geom.piles[a].x - geom.piles[b].x);
  const out = [];
  const tol = geom.c.h / 2;
  for (const id of ids) {
    const row = out[out.length - 1];
    if (row && Math.abs(geom.piles[row[0]].y - geom.piles[id].y) < tol) row.push(id);
    else out.push([id]);
  }
  for (const row of out) row.sort((a, b) => geom.piles[a].x - geom.piles[b].x);
  return out;
}

/** Where an arrow key takes focus from {pile, index}. */
export function step(view, geom, spot, key) {
  const rs = rows(view, geom);
  const order = rs.flat();
  const ri = rs.findIndex((r) => r.includes(spot.pile));
  if (ri < 0) return { pile: order[0], index: last(stops(view, order[0])) };
  const here = stops(view, spot.pile);
  const k = Math.max(0, here.indexOf(spot.index));
  if (key === "ArrowLeft" || key === "ArrowRight") {
    const i = order.indexOf(spot.pile);
    const j = (i + (key === "ArrowRight" ? 1 : -1) + order.length) % order.length;
    return { pile: order[j], index: last(stops(view, order[j])) };
  }
  const down = key === "ArrowDown";
  if (down && k < here.length - 1) return { pile: spot.pile, index: here[k + 1] };
  if (!down && k > 0) return { pile: spot.pile, index: here[k - 1] };
  const row = rs[(ri + (down ? 1 : -1) + rs.length) % rs.length];
  const x = geom.piles[spot.pile].x;
  let best = row[0];
  for (const id of row) if (Math.abs(geom.piles[id].x - x) < Math.abs(geom.piles[best].x - x)) best = id;
  const s = stops(view, best);
  return { pile: best, index: down ? s[0] : last(s) };
}

function last(list) {
  return list[list.length - 1];
}

/** "Queen of hearts, column 3, 2 of 5"; a face-down card is never named. */
export function cardLabel(view, id, index) {
  const pile = view.piles[id];
  const code = pile.cards[index];
  if (!code) return t("card.down");
  return t("card.where", { card: cardName(code), pile: pileName(id, pile), k: index + 1, n: pile.cards.length });
}

/** "Spine, 56 cards, top: 7 of clubs" (a face-down top is not named). */
export function pileLabel(id, pile) {
  const name = pileName(id, pile);
  const n = pile.cards.length;
  if (!n) return t("pile.empty", { name });
  const top = pile.cards[n - 1];
  let s = top ? t("pile.summary_top", { name, count: n, top: cardName(top) }) : t("pile.summary", { name, count: n });
  if (pile.locked) s += `, ${t("pile.locked")}`;
  return s;
}

/** The whole position in words, pile by pile in reading order. */
export function readTable(view, geom) {
  const parts = [];
  for (const id of rows(view, geom).flat()) {
    const pile = view.piles[id];
    const name = pileName(id, pile);
    const cards = pile.cards;
    if (!cards.length) {
      parts.push(t("pile.empty", { name }) + ".");
      continue;
    }
    if (pile.kind === "stock") {
      parts.push(t("pile.summary", { name, count: cards.length }) + ".");
      continue;
    }
    const down = cards.filter((c) => !c).length;
    const up = cards.filter((c) => c).map(cardName);
    if (FANNED.has(pile.kind)) {
      const bits = [];
      if (down) bits.push(t("read.down", { n: down }));
      if (up.length) bits.push(up.join(", "));
      parts.push(`${name}: ${bits.join("; ")}.`);
    } else {
      parts.push(pileLabel(id, pile) + ".");
    }
  }
  const c = view.counters;
  parts.push(t("read.counters", { moves: c.moves, score: c.score }));
  return parts.join(" ");
}

/** Words for what a move or action did, from the events and the NEW view. */
export function describeEvents(view, events) {
  const parts = [];
  const top = (id, n = 1) => {
    const p = view.piles[id];
    return p ? p.cards[p.cards.length - n] : null;
  };
  for (const e of events) {
    const pile = e.to && view.piles[e.to];
    if (e.type === "move" && pile) {
      const code = top(e.to, e.cards || 1);
      const extra = (e.cards || 1) > 1 ? t("move.more", { n: e.cards - 1 }) : "";
      parts.push(t("move.done", { card: cardName(code) + extra, pile: pileName(e.to, pile) }));
    } else if (e.type === "flip") {
      const code = top(e.pile);
      parts.push(code ? t("follow.flip_card", { card: cardName(code) }) : t("follow.flip"));
    } else if (e.type === "complete") {
      const code = top("done");
      parts.push(code ? t("follow.complete_suit", { suit: t(`suit.${code[1]}`) }) : t("follow.complete"));
    } else if (e.type === "refill" && pile) {
      parts.push(t("follow.refill_pile", { pile: pileName(e.to, pile), card: cardName(top(e.to)) }));
    } else if (e.type === "turn") {
      parts.push(t("follow.turn", { card: cardName(top("waste")) }));
    } else if (e.type === "redeal") {
      parts.push(t("follow.redeal", { n: e.cards }));
    } else if (e.type === "deal" && pile) {
      parts.push(t("follow.refill_pile", { pile: pileName(e.to, pile), card: cardName(top(e.to)) }));
    } else if (e.type === "deal") {
      parts.push(t("follow.deal", { n: e.cards }));
    }
  }
  return parts.join(" ");
}

/** Every key of the table, [keys, the catalogue code of what it does]. */
export const KEYS = [
  ["Tab", "keys.tab"],
  ["← →", "keys.left_right"],
  ["↑ ↓", "keys.up_down"],
  ["Enter, Space", "keys.enter"],
  ["Esc", "keys.esc"],
  ["M", "keys.smart"],
  ["S, D", "keys.stock"],
  ["Z, Ctrl+Z", "keys.undo"],
  ["Y, Ctrl+Y, Ctrl+Shift+Z", "keys.redo"],
  ["H", "keys.hint"],
  ["W", "keys.winnable"],
  ["A", "keys.autocollect"],
  ["R", "keys.read"],
  ["?", "keys.help"],
];
