// Pointer input on the table turned into moves: taps (the smart move and its cycle),
// double-taps and drops. Functions of the controller `c` (table-controller.js), each run
// as one input of its queue, so it acts on the table as it is when its turn comes.
import { cardName, pileName, t } from "./i18n.js";
import { clickMoves, findMove, foundationMove, movesOf, stockMove } from "./moves.js";
import * as actions from "./table-actions.js";
import { cancelHold, noMove, refuse, tell } from "./table-view.js";

export function clickStock(c) {
  const v = c.game.view;
  const m = stockMove(v);
  if (m) return actions.play(c, m);
  const r = v.stock && v.stock.refusal;
  if (r) {
    const key = `refusal.${r.code}`;
    tell(c, t(key) === key ? r.message : t(key), "error");
  }
  return null;
}

/** The card a queued input meant, on the table as it is now: the same card at the same
 * place (its element may have been drawn again), or null (then the input is refused with
 * a reason unless `quiet`). */
export function stillThere(c, info, { quiet = false } = {}) {
  if (!info.card) return info;
  const code = info.code ?? info.card.dataset.card;
  const pile = c.game.view.piles[info.pile];
  if (pile && info.index !== null && pile.cards[info.index] === code && code) {
    const el = c.renderer.pileEl(info.pile)?.querySelector(`:scope > .card[data-index="${info.index}"]`);
    return { ...info, card: el || info.card, faceUp: true };
  }
  if (!quiet) refuse(c, "msg.moved_meanwhile");
  return null;
}

/** A tap or click on the table (or M on a focused card). */
export function click(c, info, e) {
  if (!c.game) return;
  if (c.held) cancelHold(c, false);
  c.byKeyboard = !!e && e.type === "keydown";
  if (info.pile === "stock") return clickStock(c);
  if (c.over()) return refuse(c, "msg.game_over");
  info = stillThere(c, info); // queued behind a move: is the card still where it was?
  if (!info) return;
  if (info.index === null || !info.faceUp) return;
  const v = c.game.view;
  // The second click of a double-click that already reached a foundation does nothing.
  if (e && e.detail >= 2 && c.lastSmart && c.lastSmart.foundation) return;
  const cy = c.cycle;
  if (cy && cy.version === c.game.version && cy.pile === info.pile && cy.index === info.index) {
    return cycleNext(c, cy);
  }
  const list = clickMoves(v, info.pile, info.index);
  if (!list.length) return noMove(c, info.card);
  return smartPlay(c, list, 0, info.pile);
}

async function smartPlay(c, list, k, origin) {
  const m = list[k];
  const n = m.json.cards || 1;
  const ok = await actions.play(c, m);
  if (ok) afterCycle(c, { list: list.map((x) => x.json.to), n }, k, origin, m.json.to);
}

/** The next click on the card just moved: its next destination, as a retarget of the
 * last move (one move, not an undo). The destinations go round; a card with no other
 * destination counts as a fresh click from where it lies now. */
async function cycleNext(c, cy) {
  const n = cy.list.length;
  let k = -1;
  for (let step = 1; step <= n; step++) {
    const j = (cy.k + step) % n;
    if (cy.list[j] !== cy.pile) {
      k = j;
      break;
    }
  }
  if (k < 0) {
    c.cycle = null;
    const list = clickMoves(c.game.view, cy.pile, cy.index);
    if (list.length) await smartPlay(c, list, 0, cy.pile);
    // Nowhere else to go: said, as for any click on a card with no move.
    else noMove(c, c.renderer.pileEl(cy.pile)?.querySelector(`:scope > .card[data-index="${cy.index}"]`));
    return;
  }
  const to = cy.list[k];
  const move = { text: `${cy.prev}>${to}${cy.n > 1 ? `:${cy.n}` : ""}`, json: { from: cy.prev, to, cards: cy.n } };
  if (await actions.retarget(c, move)) afterCycle(c, cy, k, cy.prev, to);
}

function afterCycle(c, cy, k, prev, to) {
  const pile = c.game.view.piles[to];
  c.cycle = { ...cy, k, prev, pile: to, index: pile.cards.length - cy.n, version: c.game.version };
  c.lastSmart = { foundation: pile.kind === "foundation" };
  // From the keyboard, focus follows the card, so Enter again tries its next place.
  if (c.byKeyboard) {
    const el = c.renderer.pileEl(to)?.querySelector(`:scope > .card[data-index="${c.cycle.index}"]`);
    if (el) {
      el.tabIndex = 0;
      el.focus({ preventScroll: true });
    }
  }
}

export function dblclick(c, info) {
  if (!c.game || c.over()) return;
  info = stillThere(c, info, { quiet: true }); // its clicks may have moved it already
  if (!info || info.index === null || !info.faceUp) return;
  const m = foundationMove(c.game.view, info.pile, info.index);
  if (m) return actions.play(c, m);
}

/** A drag let go: `drag` is {pile, index, code, target, shown} (`target`: the pile it was
 * let go over, or null; `shown`: the cards were left where they were let go, so a move
 * glides them on from there). Returns whether a move was played. */
export async function drop(c, drag) {
  if (!c.game) return false;
  if (c.held) cancelHold(c, false);
  if (c.over()) {
    refuse(c, "msg.game_over");
    return false;
  }
  const info = stillThere(c, { pile: drag.pile, index: drag.index, code: drag.code, card: drag.card });
  if (!info) return false;
  const v = c.game.view;
  if (!movesOf(v, drag.pile, drag.index).length) {
    noMove(c, info.card);
    return false;
  }
  if (!drag.target || drag.target === drag.pile) return false;
  const m = findMove(v, drag.pile, drag.target, v.piles[drag.pile].cards.length - drag.index);
  if (!m) {
    const card = cardName(drag.code);
    refuse(c, "kb.not_here", { card, pile: pileName(drag.target, v.piles[drag.target]) });
    return false;
  }
  c.cycle = null;
  return actions.play(c, m);
}
