// The table's rendering: draws the game through the renderer, the counters, the messages
// and the end-of-game dialogs. A mixin of PlayPage (play.js).
import { title } from "./catalog.js";
import * as api from "./api.js";
import { showStuck, showWon, closeDialogs, stuckActions } from "./dialogs.js";
import { announce, formatTime, h } from "./dom.js";
import { getLang, t } from "./i18n.js";
import { cardLabel, pileLabel, stops } from "./keyboard.js";
import { targetsOf } from "./moves.js";
import { keepGame } from "./offline.js";
import { prefs, reducedMotion } from "./prefs.js";
import { tableGeometry } from "./play-viewport.js";

export class TableView {
  draw({ events = [], instant = false } = {}) {
    if (!this.game) return;
    const view = this.game.view;
    const geom = tableGeometry(this.tableEl, view, !!prefs().large);
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
    const over = this.over();
    this.els.undo.disabled = over || !v.flags.can_undo;
    this.els.redo.disabled = over || !v.flags.can_redo;
    this.els.hint.disabled = over;
    this.els.winnable.disabled = over;
    this.els.autocollect.hidden = over || !v.flags.autocollect;
    this.els.giveup.disabled = over;
    this.els.auto.setAttribute("aria-pressed", String(this.autoMoves()));
    this.els.moves.textContent = String(v.counters.moves);
    this.els.score.textContent = String(v.counters.score);
    // The touch line is narrow (a phone on its side shares it with the site's bar): "№ 5".
    const dealName = t("deal.n", { n: v.deal });
    const touch = this.toolbar.classList.contains("touch");
    this.els.deal.textContent = touch ? `№ ${v.deal}` : dealName;
    if (touch) this.els.deal.title = dealName;
    this.els.dealInput.value = "";
    document.body.classList.toggle("no-timer", prefs().timer === false);
    keepGame(g, this.options); // for a reload without network (offline.js)
    if (typeof g.time_ms === "number") this.timer.sync(g.time_ms);
    // The clock stops when the game is won, over or stuck (an undo out of it restarts it).
    if (over || v.flags.stuck) this.timer.stop();
    else this.timer.start();
    this.els.time.textContent = formatTime(this.timer.elapsed());
    this.showNotice();
    this.checkEnd(events.length);
  }

  /** The choices of the end dialog, for this position: never one that does nothing. */
  endActions() {
    const actions = { newGame: () => this.newGame(), replay: () => this.replay() };
    if (this.game.view.flags.can_undo) actions.undo = () => this.undo();
    return actions;
  }

  /** A lasting notice under the toolbar while the game is stuck, with the stuck dialog's
   * choices: closing the dialog (Escape) leaves it there. */
  showNotice() {
    const v = this.game.view;
    const stuck = v.flags.stuck && !this.over();
    if (!stuck) this.stuckDismissed = false;
    const show = stuck && this.stuckDismissed;
    this.els.notice.hidden = !show;
    if (!show) {
      this.els.notice.replaceChildren();
      return;
    }
    this.els.notice.replaceChildren(
      h("span", {}, `${t("stuck.title")}. ${t("stuck.text")}`),
      ...stuckActions(this.endActions(), () => {}),
    );
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
    const still = () => this.game && `${this.game.id}@${this.game.version}` === key;
    setTimeout(async () => {
      if (!still()) return;
      const actions = this.endActions();
      if (v.flags.won) {
        announce(t("won.title"));
        const [bests] = await Promise.all([this.bests(), this.celebrate()]);
        if (still()) showWon(v, this.timer.elapsed(), actions, bests);
      } else {
        const dialog = showStuck(actions);
        dialog.addEventListener("close", () => {
          this.stuckDismissed = true;
          if (this.game) this.showNotice();
        });
        announce(t("stuck.title"));
      }
    }, delay);
  }

  /** The win celebration: the foundations' cards leap in a wave (skipped when the player
   * prefers reduced motion). Resolves when it is over. */
  celebrate() {
    if (reducedMotion()) return Promise.resolve();
    const cards = [...this.tableEl.querySelectorAll('.pile.kind-foundation > .card:last-child, .pile.kind-done > .card:last-child')];
    cards.forEach((el, i) => el.style.setProperty("--wave", `${i * 90}ms`));
    this.tableEl.classList.add("celebrate");
    this.tableEl.dataset.celebrating = "true";
    return new Promise((resolve) =>
      setTimeout(() => {
        this.tableEl.classList.remove("celebrate");
        delete this.tableEl.dataset.celebrating;
        resolve();
      }, 1400),
    );
  }

  /** The player's bests for this game and option set, after this win: {time, moves,
   * streak}, each {value, beaten} (beaten: this game set it), or null if unknown. */
  async bests() {
    try {
      const s = await api.stats(this.entry.id, this.options);
      const f = (s.games || [])[0];
      if (!f) return null;
      const id = this.game.id;
      const rec = (b) => (b ? { value: b.value, beaten: b.id === id } : null);
      return {
        time: rec(f.best_time),
        moves: rec(f.fewest_moves),
        streak: { value: f.best_streak, beaten: f.current_streak === f.best_streak && f.best_streak > 1 },
      };
    } catch {
      return null;
    }
  }

  say(text, cls = "") {
    if (text) this.said = (this.said || 0) + 1; // messages shown (the queue counts outcomes)
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
}
