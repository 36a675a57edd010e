// The table page's one owner of state: the game, the input queue and the busy state.
// Its parts are modules of functions that receive the controller as their first argument:
//   table-actions.js   the server calls that change the game (moves, undo, hint, new game)
//   table-view.js      drawing the game, the counters, messages and end dialogs
//   table-pointer.js   taps, double-taps and drops turned into moves
//   table-keys.js      the keyboard
//   table-toolbar.js   the toolbar (buttons, deal form, counters)
//   table-viewport.js  the layout for the room the screen leaves
// Every input (tap, drop, key, button) goes through `input()`: inputs wait their turn and
// act on the settled table, in the order they were made; none is dropped.
import { optionsFrom, dealKinds, linkGenerator, title } from "./catalog.js";
import { closeDialogs } from "./dialogs.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { TableInput } from "./input.js";
import { targetsOf } from "./moves.js";
import * as actions from "./table-actions.js";
import * as keys from "./table-keys.js";
import * as pointer from "./table-pointer.js";
import { buildToolbar } from "./table-toolbar.js";
import * as view from "./table-view.js";
import { TableRenderer } from "./render.js";
import * as api from "./api.js";
import { isOnline, onNet } from "./net.js";

export class TableController {
  constructor(main, entry, params) {
    this.main = main;
    this.entry = entry;
    this.options = optionsFrom(entry, params);
    const kind = params.get("kind");
    this.kind = kind && dealKinds(entry).includes(kind) ? kind : null;
    const difficulty = params.get("difficulty");
    this.difficulty = ["easy", "medium", "hard"].includes(difficulty) ? difficulty : null;
    const deal = Number(params.get("deal"));
    this.askedDeal = Number.isInteger(deal) && deal > 0 ? deal : null;
    this.askedGen = linkGenerator(params, this.askedDeal); // a solvable deal's version
    const id = params.get("id");
    this.askedId = id && /^[\w-]{8,32}$/.test(id) ? id : null;
    this.game = null; // {id, version, view, kind?, status?, difficulty?}
    this.busy = false; // a request is out
    this.queue = []; // inputs waiting their turn: {fn, resolve}
    this.draining = false;
    this.inputsDone = 0;
    this.outcomes = 0;
    this.said = 0; // messages shown (the queue counts outcomes)
    this.cycle = null; // smart-move cycling of the card just moved
    this.lastSmart = null;
    this.shownEnd = null;
    this.timer = null;
    this.cursor = null; // {pile, index}: the table's keyboard focus stop
    this.held = null; // cards picked up from the keyboard
    this.byKeyboard = false;
    this.animationEnd = 0; // performance.now() when the running animation ends
    this.build();
  }

  build() {
    const { toolbar, els } = buildToolbar(this);
    this.toolbar = toolbar;
    this.els = els;
    this.tableEl = h("section.table", { "aria-label": title(this.entry), "data-game": this.entry.id, "data-queue": "0" });
    this.main.replaceChildren(
      h("div.play", {}, toolbar, this.els.message, this.els.notice, h("div.table-wrap", {}, this.tableEl)),
    );
    this.renderer = new TableRenderer(this.tableEl);
    this.tableEl.addEventListener("focusin", (e) => {
      const pile = e.target.closest(".pile");
      if (!pile) return;
      const i = e.target.dataset.index;
      this.cursor = { pile: pile.dataset.pile, index: i === undefined ? null : Number(i) };
      for (const el of this.tableEl.querySelectorAll('[tabindex="0"]')) el.tabIndex = -1;
      e.target.tabIndex = 0;
    });
    this.pointer = new TableInput(this.renderer, {
      ready: () => !!this.game,
      busy: () => this.busy || this.draining,
      targets: (pile, index) => (this.game ? targetsOf(this.game.view, pile, index) : []),
      click: (info, e) => this.input(() => pointer.click(this, info, e)),
      dblclick: (info) => this.input(() => pointer.dblclick(this, info)),
      drop: (drag) => this.input(() => pointer.drop(this, drag)),
      settle: () => this.settle(),
    });
    this.onKey = (e) => keys.key(this, e);
    this.onResize = () => view.draw(this, { instant: true });
    this.onVisible = () => {
      if (document.visibilityState === "visible") this.input(() => actions.refresh(this));
    };
    document.addEventListener("keydown", this.onKey);
    window.addEventListener("resize", this.onResize);
    // What stands above the table may change height (a line wraps, a font loads, the
    // stuck notice shows or goes): lay out again.
    const bars = [toolbar, this.els.message, this.els.notice];
    const barsHeight = () => bars.reduce((sum, el) => sum + el.offsetHeight, 0);
    let barHeight = barsHeight();
    this.barWatch = new ResizeObserver(() => {
      if (barsHeight() !== barHeight) {
        barHeight = barsHeight();
        this.onResize();
      }
    });
    for (const el of bars) this.barWatch.observe(el);
    document.addEventListener("visibilitychange", this.onVisible);
    window.addEventListener("focus", this.onVisible);
    // The network is back: ask the server for the game at once (net.js, offline.js).
    this.unwatchNet = onNet((state, prev) => {
      if (state !== "online" || prev === "online") return;
      if (this.game) this.act("refresh");
      else actions.load(this); // the first load found no network and nothing kept
    });
  }

  destroy() {
    document.removeEventListener("keydown", this.onKey);
    window.removeEventListener("resize", this.onResize);
    this.barWatch.disconnect();
    document.removeEventListener("visibilitychange", this.onVisible);
    window.removeEventListener("focus", this.onVisible);
    this.unwatchNet();
    if (this.timer) this.timer.stop();
    closeDialogs();
  }

  /** Draw everything again in the current language, keeping the game. */
  retranslate() {
    const g = this.game;
    this.destroy();
    this.game = null;
    this.build();
    if (g) actions.setGame(this, g, { instant: true });
  }

  /** Queue the action `name` of table-actions.js (a button, a key, a dialog's choice). */
  act(name) {
    return this.input(() => actions[name](this));
  }

  /** Say what went wrong with a server call. */
  fail(e) {
    view.fail(this, e);
  }

  /** Draw the table again (the page's preferences changed). */
  draw(opts = {}) {
    view.draw(this, opts);
  }

  // --- the input queue -------------------------------------------------------------------

  /** Run the input `fn` after every input queued before it; resolves with its result. */
  input(fn) {
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
        this.settle();
        let out = null;
        const before = this.mark();
        try {
          out = await fn();
        } catch (e) {
          view.fail(this, e);
        }
        this.inputsDone += 1;
        this.tableEl.dataset.inputs = String(this.inputsDone);
        // An outcome the player can see: the game changed, or a message said why not.
        if (this.mark().some((x, i) => x !== before[i])) {
          this.outcomes += 1;
          this.tableEl.dataset.outcomes = String(this.outcomes);
        }
        resolve(out);
      }
    } finally {
      this.draining = false;
      this.showQueue();
    }
  }

  mark() {
    return [this.game && this.game.id, this.game && this.game.version, this.said];
  }

  /** `data-queue`: inputs waiting or acting (0 when the table is idle; tests wait on it).
   * `data-inputs` counts the inputs handled, `data-outcomes` those that changed the game or
   * showed a message. */
  showQueue() {
    this.tableEl.dataset.queue = String(this.queue.length + (this.draining ? 1 : 0));
  }

  // --- the busy state --------------------------------------------------------------------

  /** Run one server call `fn(game)`; a stale version (409) takes the server's position.
   * `undo()` is called before that when the call fails (e.g. to take back a move shown
   * before the answer). Returns the answer, or null when it failed (the page said why). */
  async run(fn, { quiet = false, undo = null } = {}) {
    if (!this.game) return null;
    // Without network the table is read-only (net.js); it resumes by itself.
    if (!isOnline()) {
      if (undo) undo();
      return view.refuse(this, "net.readonly");
    }
    this.setBusy(true);
    view.clearHints(this);
    try {
      const res = await fn(this.game);
      // A lost answer found again: the server had kept the move (never applied twice).
      if (api.wasReplayed(res)) view.say(this, t("net.kept"));
      else if (!quiet) view.say(this, "");
      // After a failure, the server's game is asked for (queued: after this input).
      if (api.cameAfterLoss(res)) this.act("refresh");
      return res;
    } catch (e) {
      if (e.status === 409 && e.body && e.body.view) {
        this.game = { ...this.game, ...e.body, version: e.body.version, view: e.body.view };
        view.update(this, {});
        view.tell(this, t(e.code === "game_over" ? "msg.game_over" : "msg.stale"), "error");
      } else {
        if (undo) undo();
        view.fail(this, e);
      }
      return null;
    } finally {
      this.setBusy(false);
    }
  }

  /** While a request is out, input waits; `data-busy` lets tests wait too. */
  setBusy(on) {
    this.busy = on;
    if (on) this.tableEl.dataset.busy = "true";
    else delete this.tableEl.dataset.busy;
  }

  /** Whether the game is over (won, given up, abandoned): nothing more is played. */
  over() {
    const g = this.game;
    return !!(g && (g.view.flags.won || (g.status && g.status !== "playing")));
  }

  /** Every running animation ends at once (cards snap to their places). */
  settle() {
    this.renderer.settle();
    this.animationEnd = 0;
  }

  /** Resolves once the running animation has ended (a move shown before its answer is
   * seen whole before the answer's follow-ups start). */
  animationDone() {
    if (this.queue.length) return Promise.resolve(); // the player is ahead: no waiting
    const left = this.animationEnd - performance.now();
    return left > 0 ? new Promise((resolve) => setTimeout(resolve, left)) : Promise.resolve();
  }
}

/** The table page; `current` is the answer of `/api/current` for these options when the
 * caller already asked for it (app.js asks while this module loads). */
export async function showTable(main, entry, params, current = null) {
  const c = new TableController(main, entry, params);
  await actions.load(c, current); // before any input: no input acts without a game
  return c;
}
