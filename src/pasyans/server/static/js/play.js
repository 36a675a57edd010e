// The table page: loads or starts a game, draws it, and turns input into API calls.
import * as api from "./api.js";
import { dealKinds, defaultKind, optionsFrom, title } from "./catalog.js";
import { confirmGiveUp, showHelp, showStuck, showWon, closeDialogs } from "./dialogs.js";
import { announce, formatTime, h } from "./dom.js";
import { cardName, getLang, pileName, t } from "./i18n.js";
import { TableInput } from "./input.js";
import { KEYS, cardLabel, describeEvents, pileLabel, readTable, step, stops } from "./keyboard.js";
import { layout } from "./layout.js";
import { clickMoves, findMove, foundationMove, stockMove, targetsOf } from "./moves.js";
import { prefs, setPref } from "./prefs.js";
import { TableRenderer } from "./render.js";
import { GameTimer } from "./timer.js";

export class PlayPage {
  constructor(main, entry, params) {
    this.main = main;
    this.entry = entry;
    this.options = optionsFrom(entry, params);
    const kind = params.get("kind");
    this.kind = kind && dealKinds(entry).includes(kind) ? kind : null;
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

  // --- page ---------------------------------------------------------------------------

  build() {
    const ICONS = { new: "+", replay: "↺", undo: "↶", redo: "↷", hint: "?", winnable: "✓?", giveup: "⚑", keys: "⌨" };
    const b = (key, fn, extra = {}) =>
      h(
        "button.btn",
        { type: "button", "data-action": key, "aria-label": t(`btn.${key}`), onclick: fn, ...extra },
        ICONS[key] ? h("span.ico", { "aria-hidden": "true" }, ICONS[key]) : null,
        h("span.lbl", {}, t(`btn.${key}`)),
      );
    this.els = {
      undo: b("undo", () => this.undo(), { "aria-keyshortcuts": "Z Control+Z" }),
      redo: b("redo", () => this.redo(), { "aria-keyshortcuts": "Y Control+Y" }),
      hint: b("hint", () => this.hint(), { "aria-keyshortcuts": "H" }),
      winnable: b("winnable", () => this.winnable(), { "aria-keyshortcuts": "W" }),
      autocollect: b("autocollect", () => this.autocollect(), { hidden: true, "aria-keyshortcuts": "A" }),
      giveup: b("giveup", () => this.giveUp()),
      dealInput: h("input", {
        type: "number", min: "1", inputmode: "numeric", name: "deal", id: "deal-input",
        "aria-label": t("deal.label"), placeholder: t("deal.label"),
      }),
      moves: h("b", { "data-stat": "moves" }, "0"),
      score: h("b", { "data-stat": "score" }, "0"),
      time: h("b", { "data-stat": "time" }, "0:00"),
      deal: h("span.deal-no", {}, ""),
      message: h("div.message", { role: "status", id: "message" }),
    };
    this.els.autocollect.classList.add("accent");
    const dealForm = h(
      "form.deal-form",
      { onsubmit: (e) => { e.preventDefault(); this.gotoDeal(); } },
      this.els.dealInput,
      h(
        "button.btn",
        { type: "submit", "aria-label": t("btn.goto") },
        h("span.ico", { "aria-hidden": "true" }, "→"),
        h("span.lbl", {}, t("btn.goto")),
      ),
    );
    const toolbar = h(
      "div.toolbar",
      { role: "toolbar", "aria-label": title(this.entry) },
      h("a.game-title", { href: `/rules/${this.entry.id}`, title: t("btn.rules") }, title(this.entry)),
      h("div.group", {}, b("new", () => this.newGame()), b("replay", () => this.replay()), dealForm),
      h("div.group", {}, this.els.undo, this.els.redo, this.els.hint, this.els.winnable, this.els.giveup,
        b("keys", () => this.help(), { "aria-keyshortcuts": "Shift+?" })),
      this.els.autocollect,
      h(
        "div.stats",
        {},
        this.els.deal,
        h("span", {}, `${t("stat.moves")}: `, this.els.moves),
        h("span", {}, `${t("stat.score")}: `, this.els.score),
        h("span.stat-time", {}, `${t("stat.time")}: `, this.els.time),
      ),
    );
    this.tableEl = h("section.table", { "aria-label": title(this.entry), "data-game": this.entry.id });
    this.main.replaceChildren(
      h("div.play", {}, toolbar, this.els.message, h("div.table-wrap", {}, this.tableEl)),
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
    });
    this.onKey = (e) => this.key(e);
    this.onResize = () => this.draw({ instant: true });
    document.addEventListener("keydown", this.onKey);
    window.addEventListener("resize", this.onResize);
  }

  destroy() {
    document.removeEventListener("keydown", this.onKey);
    window.removeEventListener("resize", this.onResize);
    if (this.timer) this.timer.stop();
    closeDialogs();
  }

  // --- loading ------------------------------------------------------------------------

  async load() {
    this.say(t("loading"));
    try {
      let g = await api.currentGame(this.entry.id, this.options);
      const want = this.askedDeal;
      const kindOk = (x) => !this.kind || !x.kind || x.kind === this.kind;
      if (want !== null && !(g && g.view.deal === want && kindOk(g))) g = null;
      if (!g && want !== null) g = await this.lastGame(want, kindOk);
      if (!g) g = await api.newGame(this.entry.id, this.createArgs(want));
      this.setGame(g, { instant: true });
      this.say("");
    } catch (e) {
      this.fail(e);
    }
  }

  /** The game this browser last showed for this game and options (it may be finished:
   * reloading a won game shows it won), when it has the asked deal. */
  async lastGame(deal, kindOk) {
    const id = prefs()[this.lastKey()];
    if (!id) return null;
    try {
      const g = await api.getGame(id);
      return g.view.deal === deal && kindOk(g) ? g : null;
    } catch {
      return null;
    }
  }

  lastKey() {
    return `last:${this.entry.id}?${new URLSearchParams(this.options)}`;
  }

  /** Draw everything again in the current language, keeping the game. */
  retranslate() {
    const g = this.game;
    this.destroy();
    this.game = null;
    this.build();
    if (g) this.setGame(g, { instant: true });
  }

  createArgs(deal) {
    const args = { options: this.options };
    if (deal !== null && deal !== undefined) args.deal = deal;
    if (this.kind) args.solvable = this.kind === "solvable";
    return args;
  }

  setGame(g, opts = {}) {
    const fresh = !this.game || this.game.id !== g.id;
    this.game = { ...this.game, ...g };
    if (fresh) {
      if (this.timer) this.timer.stop();
      this.timer = new GameTimer(
        (ms) => (this.els.time.textContent = formatTime(ms)),
        () => api.active(this.game.id).then((r) => r.time_ms).catch(() => null),
      );
      this.shownEnd = null;
      this.cycle = null;
    }
    if (g.kind) this.kind = g.kind;
    if (prefs()[this.lastKey()] !== g.id) setPref(this.lastKey(), g.id);
    this.updateUrl();
    this.update(opts);
  }

  updateUrl() {
    const q = new URLSearchParams(this.options);
    q.set("deal", String(this.game.view.deal));
    if (this.kind && dealKinds(this.entry).length > 1 && this.kind !== defaultKind(this.entry)) {
      q.set("kind", this.kind);
    }
    const url = `/play/${this.entry.id}?${q}`;
    if (location.pathname + location.search !== url) history.replaceState(null, "", url);
  }

  // --- drawing ------------------------------------------------------------------------

  draw({ events = [], instant = false } = {}) {
    if (!this.game) return;
    const view = this.game.view;
    const box = this.tableEl.parentElement.getBoundingClientRect();
    const width = Math.max(320, this.tableEl.parentElement.clientWidth);
    const height = Math.max(360, window.innerHeight - (box.top + window.scrollY) - 8);
    const geom = layout(view, width, height, !!prefs().large);
    this.tableEl.classList.toggle("small", geom.c.w < 64);
    this.tableEl.classList.toggle("large", !!prefs().large);
    const hadFocus = this.tableEl.contains(document.activeElement);
    this.animationMs = this.renderer.render(view, geom, { events, instant });
    for (const p of this.renderer.placed) {
      if (!p.code) continue;
      p.el.setAttribute("aria-label", cardLabel(view, p.pile, p.index));
      if (targetsOf(view, p.pile, p.index).length) p.el.classList.add("playable");
    }
    for (const id of Object.keys(view.piles)) {
      const pel = this.renderer.pileEl(id);
      if (!pel) continue;
      for (const i of stops(view, id)) {
        const el = i === null ? pel.querySelector(":scope > .pile-base") : pel.querySelector(`:scope > .card[data-index="${i}"]`);
        if (!el) continue;
        el.setAttribute("role", "button");
        el.tabIndex = -1;
        if (i === null) {
          el.removeAttribute("aria-hidden");
          const badge = el.querySelector(".stock-badge");
          const more = badge ? `, ${badge.dataset.t[0].toLowerCase()}${badge.dataset.t.slice(1)}` : "";
          el.setAttribute("aria-label", pileLabel(id, view.piles[id]) + more);
        }
      }
      for (const el of pel.querySelectorAll(':scope > .card.up:not([role="button"])')) el.setAttribute("role", "img");
    }
    this.cursor = this.validSpot(this.cursor);
    const el = this.spotEl(this.cursor);
    if (el) {
      el.tabIndex = 0;
      if (hadFocus) el.focus({ preventScroll: true });
    }
    if (this.held) this.markHeld();
  }

  /** The keyboard stop nearest to `spot` on the current table. */
  validSpot(spot) {
    const view = this.game.view;
    if (spot && view.piles[spot.pile]) {
      const s = stops(view, spot.pile);
      return { pile: spot.pile, index: s.includes(spot.index) ? spot.index : s[s.length - 1] };
    }
    const first = Object.keys(view.piles).find((id) => view.piles[id].kind === "column") || Object.keys(view.piles)[0];
    const s = stops(view, first);
    return { pile: first, index: s[s.length - 1] };
  }

  spotEl(spot) {
    const pel = spot && this.renderer.pileEl(spot.pile);
    if (!pel) return null;
    return spot.index === null
      ? pel.querySelector(":scope > .pile-base")
      : pel.querySelector(`:scope > .card[data-index="${spot.index}"]`);
  }

  focusSpot(spot) {
    this.cursor = this.validSpot(spot);
    const el = this.spotEl(this.cursor);
    if (el) el.focus();
  }

  update({ events = [], instant = false } = {}) {
    const g = this.game;
    if (this.held && this.held.version !== g.version) this.held = null;
    const v = g.view;
    this.tableEl.dataset.gameId = g.id;
    this.tableEl.dataset.version = String(g.version);
    this.tableEl.setAttribute("aria-label", t("table.label", { title: title(this.entry), deal: v.deal }));
    this.draw({ events, instant });
    this.els.undo.disabled = !v.flags.can_undo;
    this.els.redo.disabled = !v.flags.can_redo;
    this.els.autocollect.hidden = !v.flags.autocollect;
    this.els.giveup.disabled = !!(v.flags.won || (g.status && g.status !== "playing"));
    this.els.moves.textContent = String(v.counters.moves);
    this.els.score.textContent = String(v.counters.score);
    this.els.deal.textContent = t("deal.n", { n: v.deal });
    this.els.dealInput.value = "";
    document.body.classList.toggle("no-timer", prefs().timer === false);
    if (typeof g.time_ms === "number") this.timer.sync(g.time_ms);
    if (v.flags.won || (g.status && g.status !== "playing")) this.timer.stop();
    else this.timer.start();
    this.els.time.textContent = formatTime(this.timer.elapsed());
    this.checkEnd(events.length);
  }

  checkEnd(animating) {
    const v = this.game.view;
    const key = `${this.game.id}@${this.game.version}`;
    if (!(v.flags.won || v.flags.stuck)) {
      closeDialogs();
      return;
    }
    if (this.shownEnd === key) return;
    this.shownEnd = key;
    const delay = animating ? Math.min(3000, this.animationMs || 0) : 0;
    setTimeout(() => {
      if (!this.game || `${this.game.id}@${this.game.version}` !== key) return;
      const actions = { newGame: () => this.newGame(), replay: () => this.replay(), undo: () => this.undo() };
      if (v.flags.won) {
        showWon(v, this.timer.elapsed(), actions);
        announce(t("won.title"));
      } else {
        showStuck(actions);
        announce(t("stuck.title"));
      }
    }, delay);
  }

  say(text, cls = "") {
    this.els.message.textContent = text;
    this.els.message.className = `message ${cls}`.trim();
  }

  fail(e) {
    if (e.status === 0) this.say(t("msg.offline"), "error");
    else {
      const msg = getLang() === "ru" ? e.messageRu || e.message : e.messageEn || e.message;
      this.say(msg || t("msg.error", { message: e.code }), "error");
    }
    announce(this.els.message.textContent);
  }

  clearHints() {
    this.renderer.clearMarks("hint");
    this.renderer.clearMarks("hint-target");
  }

  // --- calling the server -------------------------------------------------------------

  /** Run one API call at a time; a stale version (409) takes the server's position. */
  async run(fn, { quiet = false } = {}) {
    if (this.busy || !this.game) return null;
    this.setBusy(true);
    this.clearHints();
    try {
      const res = await fn(this.game);
      if (!quiet) this.say("");
      return res;
    } catch (e) {
      if (e.status === 409 && e.body && e.body.view) {
        this.game = { ...this.game, ...e.body, version: e.body.version, view: e.body.view };
        this.update({ instant: true });
        this.say(t(e.code === "game_over" ? "msg.game_over" : "msg.stale"), "error");
        announce(this.els.message.textContent);
      } else {
        this.fail(e);
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

  async play(move, { cycle = null } = {}) {
    const res = await this.run((g) => api.playMove(g.id, move.text ?? move, g.version));
    if (!res) return false;
    this.game = { ...this.game, ...res };
    this.cycle = cycle;
    this.update({ events: res.events || [] });
    this.describe(move, res.events || []);
    return true;
  }

  /** Announce what a move did, follow-ups included, in words from the new view. */
  describe(move, events) {
    const m = move.json || {};
    const list = events.some((e) => e.type === "move") || !m.to
      ? events
      : [{ type: "move", from: m.from, to: m.to, cards: m.cards || 1 }, ...events];
    const text = describeEvents(this.game.view, list);
    if (text) announce(text);
  }

  async simple(name) {
    const res = await this.run((g) => api.action(g.id, name, g.version));
    if (!res) return null;
    this.game = { ...this.game, ...res };
    this.cycle = null;
    this.update({ events: res.events || [], instant: name === "restart" });
    if (name === "undo") announce(t("kb.undone"));
    else if (name === "redo") announce(`${t("kb.redone")} ${describeEvents(this.game.view, res.events || [])}`.trim());
    else if (name === "autocollect") {
      const n = (res.events || []).filter((e) => e.type === "move").reduce((a, e) => a + (e.cards || 1), 0);
      announce(t("kb.collected", { n }));
    }
    return res;
  }

  undo() {
    if (this.game && !this.game.view.flags.can_undo) return this.say(t("msg.nothing_undo"));
    return this.simple("undo");
  }

  redo() {
    if (this.game && !this.game.view.flags.can_redo) return this.say(t("msg.nothing_redo"));
    return this.simple("redo");
  }

  autocollect() {
    if (this.game && !this.game.view.flags.autocollect) {
      this.say(t("kb.no_autocollect"));
      announce(t("kb.no_autocollect"));
      return null;
    }
    return this.simple("autocollect");
  }

  async giveUp() {
    if (!this.game || this.busy) return;
    if (!(await confirmGiveUp())) return;
    const res = await this.run((g) => api.action(g.id, "giveup", g.version));
    if (!res) return;
    this.game = { ...this.game, ...res, status: res.status || "given_up" };
    this.update({ instant: true });
    this.say(t("giveup.done"));
    announce(t("giveup.done"));
  }

  help() {
    showHelp(KEYS);
  }

  /** The same deal again, as a new game (a finished game cannot be restarted). */
  replay() {
    return this.startGame(this.game ? this.game.view.deal : null);
  }

  async hint() {
    const res = await this.run((g) => api.action(g.id, "hint", g.version), { quiet: true });
    if (!res) return;
    const hint = res.hint || {};
    if (res.view) {
      this.game = { ...this.game, version: res.version ?? this.game.version, view: res.view };
      this.update({ instant: true });
    }
    const m = hint.move;
    if (!m) {
      this.say(getLang() === "ru" ? hint.message_ru || t("msg.no_hint") : hint.message || t("msg.no_hint"));
      announce(t("msg.no_hint"));
      return;
    }
    const j = m.json || {};
    if (!j.to) {
      this.renderer.markPile("stock", "hint-target");
    } else {
      const n = this.game.view.piles[j.from].cards.length;
      this.renderer.markCards(j.from, n - (j.cards || 1), "hint");
      this.renderer.markPile(j.to, "hint-target");
    }
    const src = this.game.view.piles[j.from];
    const code = src && src.cards[src.cards.length - (j.cards || 1)];
    const words = j.to
      ? t("move.done", { card: cardName(code), pile: pileName(j.to, this.game.view.piles[j.to]) })
      : t("hint.stock");
    const text = t("msg.hint", { move: words });
    this.say(text);
    announce(text);
  }

  /** "Is this still winnable?": the solver's answer within the server's budget. */
  async winnable() {
    const res = await this.run((g) => api.action(g.id, "winnable", g.version), { quiet: true });
    if (!res) return;
    const text = t(`msg.winnable_${res.result}`);
    this.say(text);
    announce(text);
  }

  newGame() {
    return this.startGame(null);
  }

  gotoDeal() {
    const n = Number(this.els.dealInput.value);
    if (!Number.isInteger(n) || n < 1) return null;
    return this.startGame(n);
  }

  async startGame(deal) {
    if (this.busy) return;
    this.setBusy(true);
    closeDialogs();
    try {
      const g = await api.newGame(this.entry.id, this.createArgs(deal));
      this.game = null;
      this.setGame(g, { instant: true });
      this.say("");
    } catch (e) {
      this.fail(e);
    } finally {
      this.setBusy(false);
    }
  }

  // --- input --------------------------------------------------------------------------

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
    if (info.index === null || !info.faceUp) return;
    const v = this.game.view;
    // The second click of a double-click that already reached a foundation does nothing.
    if (e && e.detail >= 2 && this.lastSmart && this.lastSmart.foundation) return;
    const c = this.cycle;
    if (c && c.version === this.game.version && c.pile === info.pile && c.index === info.index) {
      return this.cycleNext(c);
    }
    const list = clickMoves(v, info.pile, info.index);
    if (!list.length) {
      info.card.classList.remove("shake");
      void info.card.offsetWidth;
      info.card.classList.add("shake");
      this.say(t("msg.no_move"));
      announce(t("msg.no_move"));
      return;
    }
    return this.smartPlay(list, 0, info.pile);
  }

  async smartPlay(list, k, origin) {
    const m = list[k];
    const n = m.json.cards || 1;
    const ok = await this.play(m);
    if (ok) this.afterCycle({ list: list.map((x) => x.json.to), n }, k, origin, m.json.to);
  }

  /** The next click on the card just moved: its next destination. Played straight from
   * where the card lies when that is legal; otherwise the last move is taken back and the
   * destination played from the place before. When every destination has been tried, the
   * click counts as a fresh one from where the card lies now. */
  async cycleNext(c) {
    const v = this.game.view;
    let k = c.k + 1;
    while (k < c.list.length && c.list[k] === c.pile) k++;
    if (k >= c.list.length) {
      this.cycle = null;
      const list = clickMoves(v, c.pile, c.index);
      if (list.length) await this.smartPlay(list, 0, c.pile);
      return;
    }
    const to = c.list[k];
    const direct = findMove(v, c.pile, to, c.n);
    if (direct) {
      if (await this.play(direct)) this.afterCycle(c, k, c.pile, to);
      return;
    }
    if (!(await this.simple("undo"))) return;
    const m = findMove(this.game.view, c.prev, to, c.n);
    if (m && (await this.play(m))) this.afterCycle(c, k, c.prev, to);
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
    if (!this.game || this.busy || info.index === null || !info.faceUp) return;
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

  // --- keyboard ---------------------------------------------------------------------

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

/** The table page for `gameId` (an entry of the catalog). */
export async function showPlay(main, entry, params) {
  const page = new PlayPage(main, entry, params);
  await page.load();
  return page;
}
