// The table's server calls: loading the game and every action that changes it. Functions
// of the controller `c` (table-controller.js); each runs as one input of its queue.
// A move is shown at once (its cards glide before the server answers: `afterMove`); the
// answer then brings what the page could not know (turned cards, completed runs,
// auto-moves), and a refusal takes the cards back with the reason.
import * as api from "./api.js";
import { dealKinds, defaultKind, setLinkGenerator } from "./catalog.js";
import { confirmAbandon, confirmGiveUp, showHelp, closeDialogs } from "./dialogs.js";
import { announce, formatTime } from "./dom.js";
import { cardName, getLang, pileName, t } from "./i18n.js";
import { KEYS, describeEvents } from "./keyboard.js";
import { afterMove } from "./moves.js";
import { prefs, setPref } from "./prefs.js";
import { GameTimer } from "./timer.js";
import { autoMoves, refuse, say, tell, update } from "./table-view.js";

export async function load(c, current = null) {
  say(c, t("loading"));
  try {
    // A practice game ("Try again from here", docs/analysis.md) is opened by its id.
    let g = c.askedId ? await api.getGame(c.askedId) : await (current || api.currentGame(c.entry.id, c.options));
    const want = c.askedId ? null : c.askedDeal;
    // A solvable deal of the number is the link's only when made by the link's version.
    const kindOk = (x) => (!c.kind || !x.kind || x.kind === c.kind)
      && (x.kind !== "solvable" || c.askedGen === null || x.generator === c.askedGen);
    if (want !== null && !(g && g.view.deal === want && kindOk(g))) g = null;
    if (!g && want !== null) g = await lastGame(c, want, kindOk);
    if (!g) g = await api.newGame(c.entry.id, createArgs(c, want, c.askedGen));
    setGame(c, g, { instant: true });
    // Without network: the game as this browser last showed it, until the network returns.
    c.fromBrowser = api.wasKeptInBrowser(g);
    say(c, c.fromBrowser ? t("net.from_browser") : g.kind === "practice" ? t("analysis.practice") : "");
  } catch (e) {
    c.fail(e);
  }
}

/** The game this browser last showed for this game and options (it may be finished:
 * reloading a won game shows it won), when it has the asked deal. */
async function lastGame(c, deal, kindOk) {
  const id = prefs()[lastKey(c)];
  if (!id) return null;
  try {
    const g = await api.getGame(id);
    return g.view.deal === deal && kindOk(g) ? g : null;
  } catch {
    return null;
  }
}

function lastKey(c) {
  return `last:${c.entry.id}?${new URLSearchParams(c.options)}`;
}

/** The new game's request; `generator`: the version of solvable deal `deal` (a link's, or
 * the game's own when played again; null: the current one). */
export function createArgs(c, deal, generator = null) {
  const args = { options: c.options };
  if (deal !== null && deal !== undefined) args.deal = deal;
  if (c.kind) args.solvable = c.kind === "solvable";
  // Only where the catalog lists difficulties does the server take one. With no kind in
  // the address the game's default kind applies (Spine: solvable), so the difficulty
  // goes too (issue 28, defect 7).
  const kind = c.kind || defaultKind(c.entry);
  if (c.difficulty && kind === "solvable" && Array.isArray(c.entry.difficulties)) {
    args.difficulty = c.difficulty;
  }
  if (generator !== null && args.deal !== undefined && kind === "solvable") args.generator = generator;
  return args;
}

export function setGame(c, g, opts = {}) {
  const fresh = !c.game || c.game.id !== g.id;
  c.game = { ...c.game, ...g };
  if (fresh) {
    if (c.timer) c.timer.stop();
    c.timer = new GameTimer(
      (ms) => (c.els.time.textContent = formatTime(ms)),
      () => api.active(c.game.id).then((r) => r.time_ms).catch(() => null),
    );
    c.shownEnd = null;
    c.cycle = null;
  }
  if (g.kind) c.kind = g.kind;
  if (prefs()[lastKey(c)] !== g.id) setPref(lastKey(c), g.id);
  updateUrl(c);
  update(c, opts);
}

function updateUrl(c) {
  const q = new URLSearchParams(c.options);
  q.set("deal", String(c.game.view.deal));
  if (c.kind && dealKinds(c.entry).length > 1 && c.kind !== defaultKind(c.entry)) {
    q.set("kind", c.kind);
  }
  // A solvable deal's difficulty, as the game says (when the server tells it) or as asked.
  const difficulty = c.game.difficulty || (c.kind === "solvable" ? c.difficulty : null);
  if (difficulty) q.set("difficulty", difficulty);
  setLinkGenerator(q, c.game);
  // The home page's "Play" starts with the choice used last.
  setPref(`choice:${c.entry.id}`, {
    options: c.options, kind: c.kind || defaultKind(c.entry), difficulty: difficulty || c.difficulty || "medium",
  });
  const url = `/play/${c.entry.id}?${q}`;
  if (location.pathname + location.search !== url) history.replaceState(null, "", url);
}

/** Show `move`'s cards on their way before the answer (not for a stock click, whose cards
 * are hidden); returns how to take them back, or null. */
function showAhead(c, move) {
  const before = c.game.view;
  const ahead = afterMove(before, move);
  if (!ahead) return null;
  c.draw({ view: ahead });
  return () => c.draw({ view: before });
}

/** The answer's follow-ups, less the move already shown. */
function followUps(move, events) {
  const j = move.json || {};
  const [first, ...rest] = events;
  const same = first && first.type === "move" && first.from === j.from && first.to === j.to;
  return same ? rest : events;
}

/** Send `move` with `request` (api.playMove or api.retarget); the request leaves first,
 * then the cards are drawn on their way while it is out. Returns the answer (null when
 * refused) and whether the cards were drawn ahead. */
async function sendAhead(c, move, request) {
  let back = null;
  const res = await c.run(
    async (g) => {
      const req = request(g.id, move.text ?? move, g.version, autoMoves());
      back = showAhead(c, move);
      const out = await req;
      if (back) await c.animationDone(); // the move seen whole, unless input waits
      return out;
    },
    { undo: () => back && back() },
  );
  return { res, ahead: back !== null };
}

export async function play(c, move, { cycle = null } = {}) {
  const { res, ahead } = await sendAhead(c, move, api.playMove);
  if (!res) return false;
  c.game = { ...c.game, ...res };
  c.cycle = cycle;
  const events = res.events || [];
  update(c, { events: ahead ? followUps(move, events) : events });
  describe(c, move, events);
  return true;
}

/** Switch the safe auto-moves on or off (remembered in this browser). */
export function toggleAuto(c) {
  setPref("auto", !autoMoves());
  c.els.auto.setAttribute("aria-pressed", String(autoMoves()));
  tell(c, t(autoMoves() ? "msg.auto_on" : "msg.auto_off"));
}

/** Smart-move cycling: the last move's cards go to `move`'s destination instead (one
 * move, not an undo: the server's retarget). */
export async function retarget(c, move) {
  const { res, ahead } = await sendAhead(c, move, api.retarget);
  if (!res) return false;
  c.game = { ...c.game, ...res };
  const events = (res.events || []).filter((e) => e.type !== "retarget");
  update(c, { events: ahead ? followUps(move, events) : events });
  describe(c, move, events);
  return true;
}

/** Announce what a move did, follow-ups included, in words from the new view. */
function describe(c, move, events) {
  const m = move.json || {};
  const list = events.some((e) => e.type === "move") || !m.to
    ? events
    : [{ type: "move", from: m.from, to: m.to, cards: m.cards || 1 }, ...events];
  const text = describeEvents(c.game.view, list);
  if (text) announce(text);
}

async function simple(c, name) {
  const res = await c.run((g) => api.action(g.id, name, g.version));
  if (!res) return null;
  c.game = { ...c.game, ...res };
  c.cycle = null;
  update(c, { events: res.events || [], instant: name === "restart" });
  if (name === "undo") announce(t("kb.undone"));
  else if (name === "redo") announce(`${t("kb.redone")} ${describeEvents(c.game.view, res.events || [])}`.trim());
  else if (name === "autocollect") {
    const n = (res.events || []).filter((e) => e.type === "move").reduce((a, e) => a + (e.cards || 1), 0);
    announce(t("kb.collected", { n }));
  }
  return res;
}

export function undo(c) {
  if (c.over()) return refuse(c, "msg.game_over");
  if (c.game && !c.game.view.flags.can_undo) return refuse(c, "msg.nothing_undo");
  return simple(c, "undo");
}

export function redo(c) {
  if (c.over()) return refuse(c, "msg.game_over");
  if (c.game && !c.game.view.flags.can_redo) return refuse(c, "msg.nothing_redo");
  return simple(c, "redo");
}

export function autocollect(c) {
  if (c.game && !c.game.view.flags.autocollect) {
    tell(c, t("kb.no_autocollect"));
    return null;
  }
  return simple(c, "autocollect");
}

export async function giveUp(c) {
  if (!c.game) return;
  if (c.over()) return refuse(c, "msg.game_over");
  if (!(await confirmGiveUp())) return;
  const res = await c.run((g) => api.action(g.id, "giveup", g.version));
  if (!res) return;
  c.game = { ...c.game, ...res, status: res.status || "given_up" };
  update(c, { instant: true });
  tell(c, t("giveup.done"));
}

export function help() {
  showHelp(KEYS);
}

/** The same deal again, as a new game (a finished game cannot be restarted). */
export function replay(c) {
  return startGame(c, c.game ? c.game.view.deal : null, c.game ? c.game.generator : null);
}

/** A costly answer (hint, winnable): "thinking…" shows once it takes over 150 ms. */
async function ask(c, action) {
  const timer = setTimeout(() => say(c, t("msg.thinking")), 150);
  try {
    return await c.run((g) => api.action(g.id, action, g.version), { quiet: true });
  } finally {
    clearTimeout(timer);
  }
}

export async function hint(c) {
  if (c.over()) return refuse(c, "msg.game_over");
  const res = await ask(c, "hint");
  if (!res) return;
  const hint = res.hint || {};
  if (res.view) {
    c.game = { ...c.game, version: res.version ?? c.game.version, view: res.view };
    update(c, { instant: true });
  }
  const m = hint.move;
  if (!m) {
    say(c, getLang() === "ru" ? hint.message_ru || t("msg.no_hint") : hint.message || t("msg.no_hint"));
    announce(t("msg.no_hint"));
    return;
  }
  const j = m.json || {};
  if (!j.to) {
    c.renderer.markPile("stock", "hint-target");
  } else {
    const n = c.game.view.piles[j.from].cards.length;
    c.renderer.markCards(j.from, n - (j.cards || 1), "hint");
    c.renderer.markPile(j.to, "hint-target");
  }
  const src = c.game.view.piles[j.from];
  const code = src && src.cards[src.cards.length - (j.cards || 1)];
  const words = j.to
    ? t("move.done", { card: cardName(code), pile: pileName(j.to, c.game.view.piles[j.to]) })
    : t("hint.stock");
  tell(c, t("msg.hint", { move: words }));
}

/** "Is this still winnable?": the solver's answer within the server's budget; with
 * hidden cards, an estimate from samples of how they could lie. */
export async function winnable(c) {
  if (c.over()) return refuse(c, "msg.game_over");
  const res = await ask(c, "winnable");
  if (!res) return;
  const e = res.estimate;
  let text = t(`msg.winnable_${res.result}`);
  if (e) {
    const open = e.samples - e.won - e.lost;
    // A sample left undecided is neither won nor lost: the share lies between two bounds.
    const high = Math.round((100 * (e.samples - e.lost)) / e.samples);
    text = open > 0
      ? t("msg.winnable_range", { low: e.percent, high, won: e.won, lost: e.lost, open, samples: e.samples })
      : t("msg.winnable_estimate", { percent: e.percent, won: e.won, samples: e.samples });
  }
  tell(c, text);
}

export function newGame(c) {
  return startGame(c, null);
}

export function gotoDeal(c) {
  const n = Number(c.els.dealInput.value);
  if (!Number.isInteger(n) || n < 1) return null;
  return startGame(c, n);
}

/** Whether leaving this game now abandons one in progress (it would count as lost). */
function inProgress(c) {
  const g = c.game;
  if (!g || c.over() || g.view.flags.stuck) return false;
  return g.view.counters.moves > 0 || g.view.counters.undos > 0;
}

async function startGame(c, deal, generator = null) {
  if (inProgress(c) && !(await confirmAbandon())) return;
  c.setBusy(true);
  closeDialogs();
  try {
    const g = await api.newGame(c.entry.id, createArgs(c, deal, generator ?? null));
    c.game = null;
    setGame(c, g, { instant: true });
    say(c, "");
  } catch (e) {
    c.fail(e);
  } finally {
    c.setBusy(false);
  }
}

/** A tab that comes back into view checks the game's version first, and redraws with a
 * short notice when another tab changed it. */
export async function refresh(c) {
  if (!c.game || !c.game.id) return;
  let g;
  try {
    g = await api.getGame(c.game.id);
  } catch {
    return;
  }
  // Shown from the browser's copy (a reload offline): the server's game takes its place;
  // whether another tab moved meanwhile cannot be told, so the page does not say so.
  const fromBrowser = c.fromBrowser;
  c.fromBrowser = false;
  if (!c.game || g.id !== c.game.id) return;
  // `data-synced` counts the times the table checked the server's game (tests wait on it).
  c.tableEl.dataset.synced = String(Number(c.tableEl.dataset.synced || 0) + 1);
  if (g.version === c.game.version) {
    if (fromBrowser) say(c, "");
    return;
  }
  c.game = { ...c.game, ...g };
  c.cycle = null;
  update(c, { instant: true });
  // Every action of this page is settled before the next is sent (net.js): a version
  // it did not make is another tab's (or device's).
  tell(c, t(fromBrowser ? "net.resynced" : "msg.stale"));
}
