// Keyboard input on the table: shortcuts, arrow-key focus, picking cards up and putting
// them down. A mixin of PlayPage (play.js).
import { announce } from "./dom.js";
import { cardName, pileName, t } from "./i18n.js";
import { pileLabel, readTable, step } from "./keyboard.js";
import { findMove, targetsOf } from "./moves.js";

export class TableKeys {
  key(e) {
    if (!this.game || e.altKey) return;
    const tag = (e.target && e.target.tagName) || "";
    if (["INPUT", "TEXTAREA", "SELECT"].includes(tag) || document.querySelector("dialog[open]")) return;
    const inTable = this.tableEl.contains(e.target);
    const ctrl = e.ctrlKey || e.metaKey;
    const k = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    if (inTable && k.startsWith("Arrow") && !ctrl) this.focusSpot(step(this.game.view, this.renderer.geom, this.cursor, k));
    else if (inTable && (k === "Enter" || k === " ") && !ctrl) this.enter();
    else if (k === "Escape" && this.held) this.cancelHold(true);
    else if (ctrl) {
      if (k === "z" && e.shiftKey) this.redo();
      else if (k === "z") this.undo();
      else if (k === "y") this.redo();
      else return;
    } else if (k === "z") this.undo();
    else if (k === "y") this.redo();
    else if (k === "h") this.hint();
    else if (k === "w") this.winnable();
    else if (k === "a") this.autocollect();
    else if (k === "s" || k === "d") this.stockKey();
    else if (k === "m") this.smartKey();
    else if (k === "r") announce(readTable(this.game.view, this.renderer.geom));
    else if (k === "?") this.help();
    else return;
    e.preventDefault();
  }

  stockKey() {
    if (this.busy) return;
    if (this.held) this.cancelHold(false);
    if (!this.game.view.piles.stock) {
      this.say(t("refusal.no_stock"), "error");
      announce(t("refusal.no_stock"));
      return;
    }
    this.clickStock();
  }

  smartKey() {
    if (this.busy) return;
    if (this.held) this.cancelHold(false);
    const spot = this.cursor;
    if (!spot) return;
    if (spot.pile === "stock") return this.clickStock();
    const el = this.spotEl(spot);
    if (spot.index === null || !el) {
      announce(t("msg.no_move"));
      return;
    }
    this.onClick({ pile: spot.pile, index: spot.index, faceUp: true, card: el }, { type: "keydown" });
  }

  /** Enter/Space: pick up the focused card or run; with cards held, put them down here. */
  enter() {
    if (this.busy) return;
    const v = this.game.view;
    const spot = this.cursor;
    if (!spot) return;
    const held = this.held;
    if (held) {
      if (spot.pile === held.pile) return this.cancelHold(true);
      const m = findMove(v, held.pile, spot.pile, held.n);
      const from = v.piles[held.pile];
      if (!m) {
        const text = t("kb.not_here", { card: cardName(from.cards[held.index]), pile: pileName(spot.pile, v.piles[spot.pile]) });
        this.say(text, "error");
        announce(text);
        return;
      }
      this.cancelHold(false);
      this.byKeyboard = true;
      this.cursor = { pile: spot.pile, index: v.piles[spot.pile].cards.length };
      return this.play(m);
    }
    if (spot.pile === "stock") return this.clickStock();
    const el = this.spotEl(spot);
    if (spot.index === null || !el) {
      announce(pileLabel(spot.pile, v.piles[spot.pile]));
      return;
    }
    const targets = [...new Set(targetsOf(v, spot.pile, spot.index))];
    if (!targets.length) {
      el.classList.remove("shake");
      void el.offsetWidth;
      el.classList.add("shake");
      this.say(t("msg.no_move"));
      announce(t("msg.no_move"));
      return;
    }
    const n = v.piles[spot.pile].cards.length - spot.index;
    this.held = { pile: spot.pile, index: spot.index, n, targets, version: this.game.version };
    this.markHeld();
    const card = cardName(v.piles[spot.pile].cards[spot.index]) + (n > 1 ? t("move.more", { n: n - 1 }) : "");
    const text = t("kb.picked", { card, targets: targets.map((id) => pileName(id, v.piles[id])).join(", ") });
    this.say(text);
    announce(text);
  }

  markHeld() {
    const hd = this.held;
    this.renderer.clearMarks("selected");
    this.renderer.clearMarks("target");
    this.renderer.markCards(hd.pile, hd.index, "selected");
    for (const id of hd.targets) this.renderer.markPile(id, "target");
  }

  cancelHold(say) {
    this.held = null;
    this.renderer.clearMarks("selected");
    this.renderer.clearMarks("target");
    if (say) {
      this.say(t("kb.cancel"));
      announce(t("kb.cancel"));
    }
  }
}
