// Offline, honestly: the banner while the network is gone, what the browser keeps to show
// a game after a reload without network, and the service worker's registration.
//
// Kept in localStorage (never a hidden card: the player view has face-down cards as
// null): the catalog, the message catalogue, and per game and option set the last game
// object the table showed. The service worker (static/sw.js) keeps pages and static files
// only, never an /api/ answer.
import { netState, onNet, unsettledActions } from "./net.js";

const PREFIX = "pasyans.kept.";

/** Keep `value` under `key` in this browser (quietly nothing when storage is refused). */
export function keep(key, value) {
  try {
    localStorage.setItem(PREFIX + key, JSON.stringify(value));
  } catch {
    /* private mode or full: the page works, only an offline reload cannot */
  }
}

/** What `keep` kept under `key`, or null. */
export function kept(key) {
  try {
    return JSON.parse(localStorage.getItem(PREFIX + key) || "null");
  } catch {
    return null;
  }
}

const gameKey = (game, options) => `game:${game}?${new URLSearchParams(options)}`;

/** Keep the game object the table shows (its player view), for a reload offline. */
export function keepGame(game, options) {
  if (!game || !game.id || !game.view) return;
  const { id, game: gameId, options: opts, deal, kind, difficulty, status, version, time_ms: timeMs, view } = game;
  keep(gameKey(gameId || "", options), { id, game: gameId, options: opts, deal, kind, difficulty, status, version, time_ms: timeMs, view });
}

/** The game object kept for this game and option set, or null. */
export const keptGame = (game, options) => kept(gameKey(game, options));

let banner = null;

/** The banner's text for the network's state; none while online. */
function showBanner(state, t) {
  if (!banner) {
    banner = document.createElement("div");
    banner.id = "net-banner";
    banner.className = "net-banner";
    banner.setAttribute("role", "status");
    document.body.prepend(banner);
  }
  banner.hidden = state === "online";
  if (state === "online") banner.textContent = "";
  else {
    const gone = t(state === "offline" ? "net.offline" : "net.waiting");
    banner.textContent = unsettledActions() ? `${gone} ${t("net.resending")}` : gone;
  }
}

/** Show the banner whenever the network is gone (`t` names the page's words). */
export function watchNetwork(t) {
  showBanner(netState(), t);
  onNet((state) => showBanner(state, t));
}

/** Install the service worker (pages and static files for a reload offline). */
export function registerWorker() {
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {});
  // This page loaded before the worker could keep it: name it and its files.
  navigator.serviceWorker.ready.then((reg) => {
    const urls = [location.pathname, ...performance.getEntriesByType("resource").map((e) => e.name)]
      .filter((u) => new URL(u, location.href).pathname.match(/^\/(static\/|play\/|rules\/|stats$|history$|$)/));
    if (reg.active) reg.active.postMessage({ type: "keep", urls });
  });
}
