// Keyboard input on the table: shortcuts, arrow-key focus, picking cards up and putting
// them down. Functions of the controller `c` (table-controller.js); every key that acts
// on the game is one input of its queue.
import { announce } from "./dom.js";
import { cardName, pileName, t } from "./i18n.js";
import { pileLabel, readTable, step } from "./keyboard.js";
import { findMove, targetsOf } from "./moves.js";
import * as actions from "./table-actions.js";
import * as pointer from "./table-pointer.js";
import { cancelHold, focusSpot, markHeld, noMove, refuse, spotEl, tell } from "./table-view.js";

export function key(c, e) {
  if (!c.game || e.altKey) return;
  const tag = (e.target && e.target.tagName) || "";
  if (["INPUT", "TEXTAREA", "SELECT"].includes(tag) || document.querySelector("dialog[open]")) return;
  const inTable = c.tableEl.contains(e.target);
  const ctrl = e.ctrlKey || e.metaKey;
  const k = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  if (inTable && k.startsWith("Arrow") && !ctrl) focusSpot(c, step(c.game.view, c.renderer.geom, c.cursor, k));
  else if (inTable && (k === "Enter" || k === " ") && !ctrl) c.input(() => enter(c));
  else if (k === "Escape" && c.held) cancelHold(c, true);
  else if (ctrl) {
    if (k === "z" && e.shiftKey) c.act("redo");
    else if (k === "z") c.act("undo");
    else if (k === "y") c.act("redo");
    else return;
  } else if (k === "z") c.act("undo");
  else if (k === "y") c.act("redo");
  else if (k === "h") c.act("hint");
  else if (k === "w") c.act("winnable");
  else if (k === "a") c.act("autocollect");
  else if (k === "s" || k === "d") c.input(() => stockKey(c));
  else if (k === "m") c.input(() => smartKey(c));
  else if (k === "r") announce(readTable(c.game.view, c.renderer.geom));
  else if (k === "?") actions.help();
  else return;
  e.preventDefault();
}

export function stockKey(c) {
  if (c.held) cancelHold(c, false);
  if (!c.game.view.piles.stock) return refuse(c, "refusal.no_stock");
  return pointer.clickStock(c);
}

export function smartKey(c) {
  if (c.held) cancelHold(c, false);
  const spot = c.cursor;
  if (!spot) return;
  if (spot.pile === "stock") return pointer.clickStock(c);
  const el = spotEl(c, spot);
  if (spot.index === null || !el) {
    announce(t("msg.no_move"));
    return;
  }
  return pointer.click(c, { pile: spot.pile, index: spot.index, faceUp: true, card: el }, { type: "keydown" });
}

/** Enter/Space: pick up the focused card or run; with cards held, put them down here. */
export function enter(c) {
  const v = c.game.view;
  const spot = c.cursor;
  if (!spot) return;
  const held = c.held;
  if (held) {
    if (spot.pile === held.pile) return cancelHold(c, true);
    const m = findMove(v, held.pile, spot.pile, held.n);
    const from = v.piles[held.pile];
    if (!m) return refuse(c, "kb.not_here", { card: cardName(from.cards[held.index]), pile: pileName(spot.pile, v.piles[spot.pile]) });
    cancelHold(c, false);
    c.byKeyboard = true;
    c.cursor = { pile: spot.pile, index: v.piles[spot.pile].cards.length };
    return actions.play(c, m);
  }
  if (spot.pile === "stock") return pointer.clickStock(c);
  const el = spotEl(c, spot);
  if (spot.index === null || !el) {
    announce(pileLabel(spot.pile, v.piles[spot.pile]));
    return;
  }
  const targets = [...new Set(targetsOf(v, spot.pile, spot.index))];
  if (!targets.length) return noMove(c, el);
  const n = v.piles[spot.pile].cards.length - spot.index;
  c.held = { pile: spot.pile, index: spot.index, n, targets, version: c.game.version };
  markHeld(c);
  const card = cardName(v.piles[spot.pile].cards[spot.index]) + (n > 1 ? t("move.more", { n: n - 1 }) : "");
  const text = t("kb.picked", { card, targets: targets.map((id) => pileName(id, v.piles[id])).join(", ") });
  tell(c, text);
}
