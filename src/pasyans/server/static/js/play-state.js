// The table's state: the game being played, loading it, and the server calls that change it.
// A mixin of PlayPage (play.js); see there for the fields it shares.
import * as api from "./api.js";
import { dealKinds, defaultKind } from "./catalog.js";
import { confirmAbandon, confirmGiveUp, showHelp, closeDialogs } from "./dialogs.js";
import { announce, formatTime } from "./dom.js";
import { cardName, getLang, pileName, t } from "./i18n.js";
import { KEYS, describeEvents } from "./keyboard.js";
import { prefs, setPref } from "./prefs.js";
import { isOnline } from "./net.js";
import { GameTimer } from "./timer.js";

export class TableState {
  async load(current = null) {
    this.say(t("loading"));
    try {
      let g = await (current || api.currentGame(this.entry.id, this.options));
      const want = this.askedDeal;
      const kindOk = (x) => !this.kind || !x.kind || x.kind === this.kind;
      if (want !== null && !(g && g.view.deal === want && kindOk(g))) g = null;
      if (!g && want !== null) g = await this.lastGame(want, kindOk);
      if (!g) g = await api.newGame(this.entry.id, this.createArgs(want));
      this.setGame(g, { instant: true });
      // Without network: the game as this browser last showed it, until the network returns.
      this.fromBrowser = api.wasKeptInBrowser(g);
      this.say(this.fromBrowser ? t("net.from_browser") : "");
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
  createArgs(deal) {
    const args = { options: this.options };
    if (deal !== null && deal !== undefined) args.deal = deal;
    if (this.kind) args.solvable = this.kind === "solvable";
    // Only where the catalog lists difficulties does the server take one. With no kind in
    // the address the game's default kind applies (Spine: solvable), so the difficulty
    // goes too (issue 28, defect 7).
    const kind = this.kind || defaultKind(this.entry);
    if (this.difficulty && kind === "solvable" && Array.isArray(this.entry.difficulties)) {
      args.difficulty = this.difficulty;
    }
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
    // A solvable deal's difficulty, as the game says (when the server tells it) or as asked.
    const difficulty = this.game.difficulty || (this.kind === "solvable" ? this.difficulty : null);
    if (difficulty) q.set("difficulty", difficulty);
    // The home page's "Play" starts with the choice used last.
    setPref(`choice:${this.entry.id}`, {
      options: this.options, kind: this.kind || defaultKind(this.entry), difficulty: difficulty || this.difficulty || "medium",
    });
    const url = `/play/${this.entry.id}?${q}`;
    if (location.pathname + location.search !== url) history.replaceState(null, "", url);
  }
  /** Run one API call at a time; a stale version (409) takes the server's position. */
  async run(fn, { quiet = false } = {}) {
    if (this.busy || !this.game) return null;
    // Without network the table is read-only (net.js); it resumes by itself.
    if (!isOnline()) return this.refuse("net.readonly");
    this.setBusy(true);
    this.clearHints();
    try {
      const res = await fn(this.game);
      // A lost answer found again: the server had kept the move (never applied twice).
      if (api.wasReplayed(res)) this.say(t("net.kept"));
      else if (!quiet) this.say("");
      // After a failure, the server's game is asked for (queued: after this input).
      if (api.cameAfterLoss(res)) this.refresh();
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

  /** Whether the game is over (won, given up, abandoned): nothing more is played. */
  over() {
    const g = this.game;
    return !!(g && (g.view.flags.won || (g.status && g.status !== "playing")));
  }

  /** The safe auto-moves setting: on unless the player switched it off (remembered). */
  autoMoves() {
    return prefs().auto !== false;
  }

  async play(move, { cycle = null } = {}) {
    const res = await this.run((g) => api.playMove(g.id, move.text ?? move, g.version, this.autoMoves()));
    if (!res) return false;
    this.game = { ...this.game, ...res };
    this.cycle = cycle;
    this.update({ events: res.events || [] });
    this.describe(move, res.events || []);
    return true;
  }

  /** Switch the safe auto-moves on or off (remembered in this browser). */
  toggleAuto() {
    setPref("auto", !this.autoMoves());
    this.els.auto.setAttribute("aria-pressed", String(this.autoMoves()));
    const text = t(this.autoMoves() ? "msg.auto_on" : "msg.auto_off");
    this.say(text);
    announce(text);
  }

  /** Smart-move cycling: the last move's cards go to `move`'s destination instead (one
   * move, not an undo: the server's retarget). */
  async retarget(move) {
    const res = await this.run((g) => api.retarget(g.id, move.text ?? move, g.version, this.autoMoves()));
    if (!res) return false;
    this.game = { ...this.game, ...res };
    const events = (res.events || []).filter((e) => e.type !== "retarget");
    this.update({ events });
    this.describe(move, events);
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

  /** A refusal the player sees and hears. */
  refuse(key) {
    this.say(t(key), "error");
    announce(t(key));
    return null;
  }

  undo() {
    if (this.over()) return this.refuse("msg.game_over");
    if (this.game && !this.game.view.flags.can_undo) return this.refuse("msg.nothing_undo");
    return this.simple("undo");
  }

  redo() {
    if (this.over()) return this.refuse("msg.game_over");
    if (this.game && !this.game.view.flags.can_redo) return this.refuse("msg.nothing_redo");
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
    if (this.over()) return this.refuse("msg.game_over");
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

  /** A costly answer (hint, winnable): "thinking…" shows once it takes over 150 ms. */
  async ask(action) {
    const timer = setTimeout(() => this.say(t("msg.thinking")), 150);
    try {
      return await this.run((g) => api.action(g.id, action, g.version), { quiet: true });
    } finally {
      clearTimeout(timer);
    }
  }

  async hint() {
    if (this.over()) return this.refuse("msg.game_over");
    const res = await this.ask("hint");
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

  /** "Is this still winnable?": the solver's answer within the server's budget; with
   * hidden cards, an estimate from samples of how they could lie. */
  async winnable() {
    if (this.over()) return this.refuse("msg.game_over");
    const res = await this.ask("winnable");
    if (!res) return;
    const e = res.estimate;
    let text = t(`msg.winnable_${res.result}`);
    if (e) {
      text = t("msg.winnable_estimate", { percent: e.percent, won: e.won, samples: e.samples });
      const open = e.samples - e.won - e.lost;
      if (open > 0) text += " " + t("msg.winnable_open", { open });
    }
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

  /** Whether leaving this game now abandons one in progress (it would count as lost). */
  inProgress() {
    const g = this.game;
    if (!g || this.over() || g.view.flags.stuck) return false;
    return g.view.counters.moves > 0 || g.view.counters.undos > 0;
  }

  async startGame(deal) {
    if (this.busy) return;
    if (this.inProgress() && !(await confirmAbandon())) return;
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
}
