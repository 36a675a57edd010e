// The JSON API of the server (same origin, cookie identity). No rules here.

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

export async function call(method, path, body) {
  let res;
  try {
    res = await fetch(path, {
      method,
      credentials: "same-origin",
      headers: body === undefined ? { Accept: "application/json" } : {
        Accept: "application/json",
        "Content-Type": "application/json",
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, null);
  }
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (!res.ok) throw new ApiError(res.status, data);
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
    catalogPromise = call("GET", "/api/catalog").then((d) => (Array.isArray(d) ? d : d.games || []));
    catalogPromise.catch(() => (catalogPromise = null));
  }
  return catalogPromise;
}

export const newGame = (game, { deal, options, solvable, difficulty } = {}) => {
  const body = { game };
  if (deal != null) body.deal = deal;
  if (options) body.options = options;
  if (solvable != null) body.solvable = solvable;
  if (difficulty != null) body.difficulty = difficulty;
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
  return (await call("GET", `/api/current?${q}`)) || null;
}

export const playMove = (id, move, version, auto = false) =>
  call("POST", `/api/games/${encodeURIComponent(id)}/moves`, { move, version, auto });

/** Smart-move cycling: the last move's cards go to `move`'s destination instead. */
export const retarget = (id, move, version, auto = false) =>
  call("POST", `/api/games/${encodeURIComponent(id)}/retarget`, { move, version, auto });

/** The player's figures for one game and option set (bests, streaks). */
export function stats(game, options) {
  const q = new URLSearchParams({ game, ...options });
  return call("GET", `/api/stats?${q}`);
}

/** undo, redo, autocollect, restart, giveup, hint, winnable */
export const action = (id, name, version) =>
  call("POST", `/api/games/${encodeURIComponent(id)}/${name}`, { version });

/** The page's heartbeat while it is in use; answers {time_ms}. */
export const active = (id) => call("POST", `/api/games/${encodeURIComponent(id)}/active`, {});
