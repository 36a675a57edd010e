// Pointer input on the table: clicks, the smart-move cycle, double-clicks and drops,
// turned into moves. A mixin of PlayPage (play.js).
import { announce } from "./dom.js";
import { t } from "./i18n.js";
import { clickMoves, foundationMove, findMove, stockMove } from "./moves.js";

export class TablePointer {
  clickStock() {
    const v = this.game.view;
    const m = stockMove(v);
    if (m) return this.play(m);
    const r = v.stock && v.stock.refusal;
    if (r) {
      const key = `refusal.${r.code}`;
      const text = t(key) === key ? r.message : t(key);
      this.say(text, "error");
      announce(text);
    }
    return null;
  }

  onClick(info, e) {
    if (!this.game || this.busy) return;
    if (this.held) this.cancelHold(false);
    this.byKeyboard = !!e && e.type === "keydown";
    if (info.pile === "stock") return this.clickStock();
    if (this.over()) return this.refuse("msg.game_over");
    info = this.stillThere(info); // queued behind a move: is the card still where it was?
    if (!info) return;
    if (info.index === null || !info.faceUp) return;
    const v = this.game.view;
    // The second click of a double-click that already reached a foundation does nothing.
    if (e && e.detail >= 2 && this.lastSmart && this.lastSmart.foundation) return;
    const c = this.cycle;
    if (c && c.version === this.game.version && c.pile === info.pile && c.index === info.index) {
      return this.cycleNext(c);
    }
    const list = clickMoves(v, info.pile, info.index);
    if (!list.length) return this.noMove(info.card);
    return this.smartPlay(list, 0, info.pile);
  }

  /** A click on a card that can go nowhere: it shakes, and the page says so. */
  noMove(card) {
    if (card) {
      card.classList.remove("shake");
      void card.offsetWidth;
      card.classList.add("shake");
    }
    this.say(t("msg.no_move"));
    announce(t("msg.no_move"));
  }

  async smartPlay(list, k, origin) {
    const m = list[k];
    const n = m.json.cards || 1;
    const ok = await this.play(m);
    if (ok) this.afterCycle({ list: list.map((x) => x.json.to), n }, k, origin, m.json.to);
  }

  /** The next click on the card just moved: its next destination, as a retarget of the
   * last move (one move, not an undo). The destinations go round; a card with no other
   * destination counts as a fresh click from where it lies now. */
  async cycleNext(c) {
    const n = c.list.length;
    let k = -1;
    for (let step = 1; step <= n; step++) {
      const j = (c.k + step) % n;
      if (c.list[j] !== c.pile) {
        k = j;
        break;
      }
    }
    if (k < 0) {
      this.cycle = null;
      const list = clickMoves(this.game.view, c.pile, c.index);
      if (list.length) await this.smartPlay(list, 0, c.pile);
      // Nowhere else to go: said, as for any click on a card with no move (a silent
      // click here once made a quick-click test see 11 outcomes for 12 clicks).
      else this.noMove(this.renderer.pileEl(c.pile)?.querySelector(`:scope > .card[data-index="${c.index}"]`));
      return;
    }
    const to = c.list[k];
    const move = { text: `${c.prev}>${to}${c.n > 1 ? `:${c.n}` : ""}`, json: { from: c.prev, to, cards: c.n } };
    if (await this.retarget(move)) this.afterCycle(c, k, c.prev, to);
  }

  afterCycle(c, k, prev, to) {
    const pile = this.game.view.piles[to];
    this.cycle = { ...c, k, prev, pile: to, index: pile.cards.length - c.n, version: this.game.version };
    this.lastSmart = { foundation: pile.kind === "foundation" };
    // From the keyboard, focus follows the card, so Enter again tries its next place.
    if (this.byKeyboard) {
      const el = this.renderer.pileEl(to)?.querySelector(`:scope > .card[data-index="${this.cycle.index}"]`);
      if (el) {
        el.tabIndex = 0;
        el.focus({ preventScroll: true });
      }
    }
  }

  onDblClick(info) {
    if (!this.game || this.busy || this.over()) return;
    info = this.stillThere(info, { quiet: true }); // its clicks may have moved it already
    if (!info || info.index === null || !info.faceUp) return;
    const m = foundationMove(this.game.view, info.pile, info.index);
    if (m) this.play(m);
  }

  async onDrop(pile, index, target) {
    const v = this.game.view;
    const n = v.piles[pile].cards.length - index;
    const m = findMove(v, pile, target, n);
    if (!m) return false;
    return this.play(m);
  }
}
