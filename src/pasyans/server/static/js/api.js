// The JSON API of the server (same origin, cookie identity). No rules here.
// State-changing calls carry an action id and are sent until answered (net.js).
import { actionId, lost, reached, untilAnswered } from "./net.js";
import { keep, kept, keptGame } from "./offline.js";

export class ApiError extends Error {
  constructor(status, body) {
    const err = (body && body.error) || {};
    super(err.message || `HTTP ${status}`);
    this.status = status;
    this.code = err.code || (status === 0 ? "offline" : `http_${status}`);
    this.messageRu = err.message_ru || err.message || "";
    this.messageEn = err.message_en || err.message || "";
    this.body = body || {};
  }
}

/** Answers that are the server's kept answer to an action sent before (a lost answer
 * found again): the page says "your move was kept". */
const replayed = new WeakSet();
export const wasReplayed = (data) => !!data && typeof data === "object" && replayed.has(data);

export async function call(method, path, body, signal = undefined) {
  let res;
  try {
    res = await fetch(path, {
      method,
      signal,
      credentials: "same-origin",
      headers: body === undefined ? { Accept: "application/json" } : {
        Accept: "application/json",
        "Content-Type": "application/json",
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    if (!signal || !signal.aborted) lost();
    throw new ApiError(0, null);
  }
  reached();
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (!res.ok) throw new ApiError(res.status, data);
  if (res.headers.get("Pasyans-Replayed") === "1" && data && typeof data === "object") replayed.add(data);
  if (res.status === 202 && data && data.error) {
    // Accepted, not done: e.g. a solvable deal still being prepared (deal_preparing).
    const e = new ApiError(res.status, data);
    e.retryAfter = Number(res.headers.get("Retry-After")) || 1;
    throw e;
  }
  return data;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

let catalogPromise = null;

/** The list of games with their titles, options, deal kinds and rules. */
export function catalog() {
  if (!catalogPromise) {
    // Kept in the browser for a reload without network (offline.js).
    catalogPromise = call("GET", "/api/catalog")
      .then((d) => {
        const games = Array.isArray(d) ? d : d.games || [];
        keep("catalog", games);
        return games;
      })
      .catch((e) => {
        const games = e.status === 0 ? kept("catalog") : null;
        if (!games) throw e;
        return games;
      });
    catalogPromise.catch(() => (catalogPromise = null));
  }
  return catalogPromise;
}

export const newGame = (game, { deal, options, solvable, difficulty, generator } = {}) => {
  const body = { game };
  if (deal != null) body.deal = deal;
  if (options) body.options = options;
  if (solvable != null) body.solvable = solvable;
  if (difficulty != null) body.difficulty = difficulty;
  if (generator != null) body.generator = generator;
  return createGame(body);
};

/** POST /api/games, waiting while the server prepares a solvable deal (202, at most
 * about a minute; then the last answer is the error shown). */
export async function createGame(body) {
  const until = Date.now() + 60000;
  for (;;) {
    try {
      return await call("POST", "/api/games", body);
    } catch (e) {
      if (e.code !== "deal_preparing" || Date.now() > until) throw e;
      await sleep(Math.min(5, Math.max(1, e.retryAfter)) * 1000);
    }
  }
}

/** The player's games, newest first (the home page's "Continue" list). */
export const listGames = (limit = 50) => call("GET", `/api/games?limit=${limit}`);

export const getGame = (id) => call("GET", `/api/games/${encodeURIComponent(id)}`);

/** The player's unfinished game of this game and options, or null (the server answers
 * 200 with null on a first visit: no failed request in the console). */
export async function currentGame(game, options) {
  const q = new URLSearchParams({ game, ...options });
  try {
    return (await call("GET", `/api/current?${q}`)) || null;
  } catch (e) {
    // No network: the game as this browser last showed it (its player view), marked.
    const g = e.status === 0 ? keptGame(game, options) : null;
    if (!g) throw e;
    fromBrowser.add(g);
    return g;
  }
}

/** Game objects read from the browser's storage, not from the server (offline). */
const fromBrowser = new WeakSet();
export const wasKeptInBrowser = (g) => !!g && typeof g === "object" && fromBrowser.has(g);

/** A state-changing POST with a new action id, sent again (same id) until answered:
 * applied once however often it is sent (net.js). Resolves with the answer; one that is
 * the server's kept answer is marked (`wasReplayed`), one that came after a lost try too
 * (`cameAfterLoss`). */
export async function act(path, body, opts = {}) {
  const sent = { ...body, action: actionId() };
  const { out, retried } = await untilAnswered((signal) => call("POST", path, sent, signal), opts);
  if (retried && out && typeof out === "object") afterLoss.add(out);
  return out;
}

/** Answers that came after a lost try: the page then asks the server for the game. */
const afterLoss = new WeakSet();
export const cameAfterLoss = (data) => !!data && typeof data === "object" && afterLoss.has(data);

const gamePath = (id, name) => `/api/games/${encodeURIComponent(id)}/${name}`;

export const playMove = (id, move, version, auto = false) => act(gamePath(id, "moves"), { move, version, auto });

/** Smart-move cycling: the last move's cards go to `move`'s destination instead. */
export const retarget = (id, move, version, auto = false) => act(gamePath(id, "retarget"), { move, version, auto });

/** The player's figures for one game and option set (bests, streaks). */
export function stats(game, options) {
  const q = new URLSearchParams({ game, ...options });
  return call("GET", `/api/stats?${q}`);
}

/** Changes nothing: sent again until answered, without an id. */
const QUESTIONS = new Set(["winnable"]);

/** undo, redo, autocollect, restart, giveup, hint (with an action id), winnable */
export function action(id, name, version) {
  if (QUESTIONS.has(name)) {
    return untilAnswered((signal) => call("POST", gamePath(id, name), { version }, signal), { stallMs: 60000 }).then((r) => r.out);
  }
  // A hint may think for seconds: no second try alongside before 15 s.
  return act(gamePath(id, name), { version }, name === "hint" ? { stallMs: 15000 } : {});
}

/** The page's heartbeat while it is in use; answers {time_ms}. */
export const active = (id) => call("POST", `/api/games/${encodeURIComponent(id)}/active`, {});
