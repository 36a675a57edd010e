// The table page: builds the page and wires its parts together. Each part is a module
// with one job, mixed into PlayPage so they share the page's state:
//   play-toolbar.js   the toolbar (buttons, deal form, counters)
//   play-state.js     the game: loading it and the server calls that change it
//   play-view.js      rendering the game, the counters, messages and end dialogs
//   play-viewport.js  the layout for the room the screen leaves
//   play-pointer.js   clicks, double-clicks and drops turned into moves
//   play-keys.js      the keyboard
//   play-queue.js     the input queue: inputs wait their turn and act on the settled table
// Shared fields: entry, options, kind, difficulty, askedDeal, game {id, version, view, kind?, status?},
// busy, cycle, lastSmart, shownEnd, timer, cursor {pile, index}, held, els, tableEl,
// renderer, input, animationMs, byKeyboard.
import { optionsFrom, dealKinds, title } from "./catalog.js";
import { closeDialogs } from "./dialogs.js";
import { h } from "./dom.js";
import { TableInput } from "./input.js";
import { targetsOf } from "./moves.js";
import { TableKeys } from "./play-keys.js";
import { TablePointer } from "./play-pointer.js";
import { TableQueue, queueEntryPoints } from "./play-queue.js";
import { TableState } from "./play-state.js";
import { buildToolbar } from "./play-toolbar.js";
import { TableView } from "./play-view.js";
import { TableRenderer } from "./render.js";
import { onNet } from "./net.js";

export class PlayPage {
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
    this.game = null; // {id, version, view, kind?}
    this.busy = false;
    this.cycle = null;
    this.lastSmart = null;
    this.shownEnd = null;
    this.timer = null;
    this.cursor = null; // {pile, index}: the table's keyboard focus stop
    this.held = null; // cards picked up from the keyboard
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
    this.input = new TableInput(this.renderer, {
      busy: () => this.busy || !this.game,
      targets: (pile, index) => (this.game ? targetsOf(this.game.view, pile, index) : []),
      click: (info, e) => this.onClick(info, e),
      dblclick: (info) => this.onDblClick(info),
      drop: (pile, index, target) => this.onDrop(pile, index, target),
      settle: () => this.renderer.settle(),
    });
    this.onKey = (e) => this.key(e);
    this.onResize = () => this.draw({ instant: true });
    this.onVisible = () => {
      if (document.visibilityState === "visible") this.refresh();
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
      if (this.game) this.refresh();
      else this.load(); // the first load found no network and nothing kept
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
    if (g) this.setGame(g, { instant: true });
  }
}

// Mix the parts in: their methods become PlayPage's own.
for (const part of [TableState, TableView, TablePointer, TableKeys, TableQueue]) {
  for (const name of Object.getOwnPropertyNames(part.prototype)) {
    if (name !== "constructor") Object.defineProperty(PlayPage.prototype, name, Object.getOwnPropertyDescriptor(part.prototype, name));
  }
}
// Inputs wait their turn (play-queue.js): clicks, drops, keys and buttons, in order.
queueEntryPoints(PlayPage.prototype);

/** The table page for `gameId` (an entry of the catalog). */
/** The table page; `current` is the answer of `/api/current` for these options when the
 * caller already asked for it (app.js asks while this module loads). */
export async function showPlay(main, entry, params, current = null) {
  const page = new PlayPage(main, entry, params);
  await page.load(current);
  return page;
}
