// The table's input queue: every input (click, tap, drop, key, button) waits its turn and
// acts on the settled table, in the order it was made. While a request is out, input is
// queued, never dropped; an input that no longer applies when its turn comes is refused
// with a visible reason. A mixin of PlayPage (play.js).
import * as api from "./api.js";
import { announce } from "./dom.js";
import { t } from "./i18n.js";

/** The page's entry points that are inputs: each call is queued. */
export const QUEUED = [
  "onClick", "onDblClick", "onDrop", "undo", "redo", "hint", "winnable", "autocollect",
  "giveUp", "newGame", "replay", "gotoDeal", "enter", "smartKey", "stockKey", "refresh",
];

export class TableQueue {
  /** Run `fn` after every input queued before it; resolves with its result. */
  enqueue(fn) {
    if (!this.queue) this.queue = [];
    return new Promise((resolve) => {
      this.queue.push({ fn, resolve });
      this.showQueue();
      if (!this.draining) this.drain();
    });
  }

  async drain() {
    this.draining = true;
    try {
      while (this.queue.length) {
        const { fn, resolve } = this.queue.shift();
        // Cards still gliding snap to their places: the input acts on the settled table.
        this.renderer.settle();
        let out = null;
        const before = [this.game && this.game.id, this.game && this.game.version, this.said || 0];
        try {
          out = await fn();
        } catch (e) {
          this.fail(e);
        }
        this.inputsDone = (this.inputsDone || 0) + 1;
        this.tableEl.dataset.inputs = String(this.inputsDone);
        // An outcome the player can see: the game changed, or a message said why not.
        const after = [this.game && this.game.id, this.game && this.game.version, this.said || 0];
        if (after.some((x, i) => x !== before[i])) {
          this.outcomes = (this.outcomes || 0) + 1;
          this.tableEl.dataset.outcomes = String(this.outcomes);
        }
        resolve(out);
      }
    } finally {
      this.draining = false;
      this.showQueue();
    }
  }

  /** `data-queue`: inputs waiting or acting (0 when the table is idle; tests wait on it).
   * `data-inputs` counts the inputs handled, `data-outcomes` those that changed the game or
   * showed a message. */
  showQueue() {
    this.tableEl.dataset.queue = String(this.queue.length + (this.draining ? 1 : 0));
  }

  /** The card a queued click meant, on the table as it is now: the same card at the same
   * place, or null (then the input is refused with a reason). */
  stillThere(info, { quiet = false } = {}) {
    if (!info.card || info.card.isConnected) return info;
    const el = this.renderer.pileEl(info.pile)?.querySelector(`:scope > .card[data-index="${info.index}"]`);
    if (el && el.dataset.card && el.dataset.card === info.card.dataset.card) {
      return { ...info, card: el, faceUp: el.classList.contains("up") };
    }
    if (quiet) return null;
    const text = t("msg.moved_meanwhile");
    this.say(text, "error");
    announce(text);
    return null;
  }

  /** A tab that comes back into view checks the game's version first, and redraws with a
   * short notice when another tab changed it. */
  async refresh() {
    if (!this.game || !this.game.id) return;
    let g;
    try {
      g = await api.getGame(this.game.id);
    } catch {
      return;
    }
    // Shown from the browser's copy (a reload offline): the server's game takes its place;
    // whether another tab moved meanwhile cannot be told, so the page does not say so.
    const fromBrowser = this.fromBrowser;
    this.fromBrowser = false;
    if (!this.game || g.id !== this.game.id) return;
    // `data-synced` counts the times the table checked the server's game (tests wait on it).
    this.tableEl.dataset.synced = String(Number(this.tableEl.dataset.synced || 0) + 1);
    if (g.version === this.game.version) {
      if (fromBrowser) this.say("");
      return;
    }
    this.game = { ...this.game, ...g };
    this.cycle = null;
    this.update({ instant: true });
    // Every action of this page is settled before the next is sent (net.js): a version
    // it did not make is another tab's (or device's).
    const text = t(fromBrowser ? "net.resynced" : "msg.stale");
    this.say(text);
    announce(text);
  }
}

/** Replace each queued entry point of `proto` by one that waits its turn. */
export function queueEntryPoints(proto) {
  for (const name of QUEUED) {
    const inner = proto[name];
    if (typeof inner !== "function") continue;
    Object.defineProperty(proto, name, {
      configurable: true,
      writable: true,
      value: function queued(...args) {
        return this.enqueue(() => inner.apply(this, args));
      },
    });
  }
}
