// The table's drawing: the game through the renderer, the counters, the messages and the
// end-of-game dialogs. Functions of the controller `c` (table-controller.js).
import { title } from "./catalog.js";
import { analyse } from "./analyse.js";
import * as api from "./api.js";
import { showStuck, showWon, closeDialogs, stuckActions } from "./dialogs.js";
import { announce, formatTime, h } from "./dom.js";
import { getLang, t } from "./i18n.js";
import { cardLabel, pileLabel, stops } from "./keyboard.js";
import { targetsOf } from "./moves.js";
import { keepGame } from "./offline.js";
import { prefs, reducedMotion } from "./prefs.js";
import { tableGeometry } from "./table-viewport.js";

/** Draw the game (or `view`, a table shown before the server's answer: the game is not
 * changed), animated from the last drawing unless `instant`. */
export function draw(c, { events = [], instant = false, view = null } = {}) {
  if (!c.game) return;
  view = view || c.game.view;
  const geom = tableGeometry(c.tableEl, view, !!prefs().large);
  c.tableEl.classList.toggle("small", geom.c.w < 64);
  c.tableEl.classList.toggle("large", !!prefs().large);
  const hadFocus = c.tableEl.contains(document.activeElement);
  c.animationMs = c.renderer.render(view, geom, { events, instant });
  c.animationEnd = performance.now() + c.animationMs;
  for (const p of c.renderer.placed) {
    if (!p.code) continue;
    p.el.setAttribute("aria-label", cardLabel(view, p.pile, p.index));
    const playable = targetsOf(view, p.pile, p.index).length > 0;
    if (p.el.classList.contains("playable") !== playable) p.el.classList.toggle("playable", playable);
  }
  for (const id of Object.keys(view.piles)) {
    const pel = c.renderer.pileEl(id);
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
  c.cursor = validSpot(c, c.cursor);
  const el = spotEl(c, c.cursor);
  if (el) {
    el.tabIndex = 0;
    if (hadFocus) el.focus({ preventScroll: true });
  }
  if (c.held) markHeld(c);
}
/** The keyboard stop nearest to `spot` on the current table. */
export function validSpot(c, spot) {
  const view = c.game.view;
  if (spot && view.piles[spot.pile]) {
    const s = stops(view, spot.pile);
    return { pile: spot.pile, index: s.includes(spot.index) ? spot.index : s[s.length - 1] };
  }
  const first = Object.keys(view.piles).find((id) => view.piles[id].kind === "column") || Object.keys(view.piles)[0];
  const s = stops(view, first);
  return { pile: first, index: s[s.length - 1] };
}

export function spotEl(c, spot) {
  const pel = spot && c.renderer.pileEl(spot.pile);
  if (!pel) return null;
  return spot.index === null
    ? pel.querySelector(":scope > .pile-base")
    : pel.querySelector(`:scope > .card[data-index="${spot.index}"]`);
}

export function focusSpot(c, spot) {
  c.cursor = validSpot(c, spot);
  const el = spotEl(c, c.cursor);
  if (el) el.focus();
}

export function update(c, { events = [], instant = false } = {}) {
  const g = c.game;
  if (c.held && c.held.version !== g.version) c.held = null;
  const v = g.view;
  c.tableEl.dataset.gameId = g.id;
  c.tableEl.dataset.version = String(g.version);
  c.tableEl.setAttribute("aria-label", t("table.label", { title: title(c.entry), deal: v.deal }));
  draw(c, { events, instant });
  const over = c.over();
  c.els.undo.disabled = over || !v.flags.can_undo;
  c.els.redo.disabled = over || !v.flags.can_redo;
  c.els.hint.disabled = over;
  c.els.winnable.disabled = over;
  c.els.autocollect.hidden = over || !v.flags.autocollect;
  c.els.giveup.disabled = over;
  c.els.auto.setAttribute("aria-pressed", String(autoMoves()));
  c.els.moves.textContent = String(v.counters.moves);
  c.els.score.textContent = String(v.counters.score);
  // The touch line is narrow (a phone on its side shares it with the site's bar): "№ 5".
  const dealName = t("deal.n", { n: v.deal });
  const touch = c.toolbar.classList.contains("touch");
  c.els.deal.textContent = touch ? `№ ${v.deal}` : dealName;
  if (touch) c.els.deal.title = dealName;
  c.els.dealInput.value = "";
  document.body.classList.toggle("no-timer", prefs().timer === false);
  keepGame(g, c.options); // for a reload without network (offline.js)
  if (typeof g.time_ms === "number") c.timer.sync(g.time_ms);
  // The clock stops when the game is won, over or stuck (an undo out of it restarts it).
  if (over || v.flags.stuck) c.timer.stop();
  else c.timer.start();
  c.els.time.textContent = formatTime(c.timer.elapsed());
  showNotice(c);
  checkEnd(c, events.length);
}

/** The choices of the end dialog, for this position: never one that does nothing. */
export function endActions(c) {
  // The dialog's choices are inputs like any other: they wait their turn.
  const out = { newGame: () => c.act("newGame"), replay: () => c.act("replay") };
  if (c.game.view.flags.can_undo) out.undo = () => c.act("undo");
  // The analysis of this game (docs/analysis.md); a stuck game is given up first.
  const g = c.game;
  out.analyse = () => analyse(g.id, { giveUpAt: g.status === "playing" ? g.version : null }).then((e) => e && say(c, e));
  return out;
}

/** A lasting notice under the toolbar while the game is stuck, with the stuck dialog's
 * choices: closing the dialog (Escape) leaves it there. */
export function showNotice(c) {
  const v = c.game.view;
  const stuck = v.flags.stuck && !c.over();
  if (!stuck) c.stuckDismissed = false;
  const show = stuck && c.stuckDismissed;
  c.els.notice.hidden = !show;
  if (!show) {
    c.els.notice.replaceChildren();
    return;
  }
  c.els.notice.replaceChildren(
    h("span", {}, `${t("stuck.title")}. ${t("stuck.text")}`),
    ...stuckActions(endActions(c), () => {}),
  );
}

export function checkEnd(c, animating) {
  const v = c.game.view;
  const key = `${c.game.id}@${c.game.version}`;
  if (!(v.flags.won || v.flags.stuck)) {
    closeDialogs();
    return;
  }
  if (c.shownEnd === key) return;
  c.shownEnd = key;
  const delay = animating ? Math.min(3000, c.animationMs || 0) : 0;
  const still = () => c.game && `${c.game.id}@${c.game.version}` === key;
  setTimeout(async () => {
    if (!still()) return;
    const actions = endActions(c);
    if (v.flags.won) {
      announce(t("won.title"));
      const [best, share] = await Promise.all([bests(c), dailyShare(c), celebrate(c)]);
      if (still()) showWon(v, c.timer.elapsed(), actions, best, share);
    } else {
      const dialog = showStuck(actions);
      dialog.addEventListener("close", () => {
        c.stuckDismissed = true;
        if (c.game) showNotice(c);
      });
      announce(t("stuck.title"));
    }
  }, delay);
}

/** The share text of a ranked daily deal just won (docs/daily.md), read before the won
 * dialog opens so that one tap copies it; null for any other game. */
async function dailyShare(c) {
  if (!c.game.daily) return null;
  const daily = await import("./daily.js");
  return daily.wonShareText(c.entry, c.game);
}

/** The win celebration: the foundations' cards leap in a wave (skipped when the player
 * prefers reduced motion). Resolves when it is over. */
export function celebrate(c) {
  if (reducedMotion()) return Promise.resolve();
  const cards = [...c.tableEl.querySelectorAll('.pile.kind-foundation > .card:last-child, .pile.kind-done > .card:last-child')];
  cards.forEach((el, i) => el.style.setProperty("--wave", `${i * 90}ms`));
  c.tableEl.classList.add("celebrate");
  c.tableEl.dataset.celebrating = "true";
  return new Promise((resolve) =>
    setTimeout(() => {
      c.tableEl.classList.remove("celebrate");
      delete c.tableEl.dataset.celebrating;
      resolve();
    }, 1400),
  );
}

/** The player's bests for this game and option set, after this win: {time, moves,
 * streak}, each {value, beaten} (beaten: this game set it), or null if unknown. */
export async function bests(c) {
  try {
    const s = await api.stats(c.entry.id, c.options);
    const f = (s.games || [])[0];
    if (!f) return null;
    const id = c.game.id;
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

export function say(c, text, cls = "") {
  if (text) c.said = (c.said || 0) + 1; // messages shown (the queue counts outcomes)
  c.els.message.textContent = text;
  c.els.message.className = `message ${cls}`.trim();
}

export function fail(c, e) {
  if (e.status === 0) say(c, t("msg.offline"), "error");
  else {
    const msg = getLang() === "ru" ? e.messageRu || e.message : e.messageEn || e.message;
    say(c, msg || t("msg.error", { message: e.code }), "error");
  }
  announce(c.els.message.textContent);
}

export function clearHints(c) {
  c.renderer.clearMarks("hint");
  c.renderer.clearMarks("hint-target");
}

/** A message the player sees and hears. */
export function tell(c, text, cls = "") {
  say(c, text, cls);
  announce(text);
}

/** A refusal the player sees and hears (`key`: its catalogue code). */
export function refuse(c, key, params = {}) {
  tell(c, t(key, params), "error");
  return null;
}

/** A card that cannot go anywhere: it shakes, and the page says so. */
export function noMove(c, card) {
  if (card) {
    card.classList.remove("shake");
    void card.offsetWidth;
    card.classList.add("shake");
  }
  tell(c, t("msg.no_move"));
}

/** The safe auto-moves setting: on unless the player switched it off (remembered). */
export function autoMoves() {
  return prefs().auto !== false;
}

/** Show the cards picked up from the keyboard and where they may go. */
export function markHeld(c) {
  const hd = c.held;
  c.renderer.clearMarks("selected");
  c.renderer.clearMarks("target");
  c.renderer.markCards(hd.pile, hd.index, "selected");
  for (const id of hd.targets) c.renderer.markPile(id, "target");
}

/** Put the cards picked up from the keyboard back (`say`: and say so). */
export function cancelHold(c, say) {
  c.held = null;
  c.renderer.clearMarks("selected");
  c.renderer.clearMarks("target");
  if (say) tell(c, t("kb.cancel"));
}
