// Entry point: routes on location.pathname and wires the page-wide settings.
import * as api from "./api.js";
import { optionsFrom, title } from "./catalog.js";
import { h } from "./dom.js";
import { getLang, loadMessages, setLang, t, translate } from "./i18n.js";
import { loadStyle } from "./assets.js";
import { registerWorker, watchNetwork } from "./offline.js";
import { prefs, setPref } from "./prefs.js";

const main = document.getElementById("main");
let page = null;
let sharedParams = null; // the result a shared link carries, kept for its page title
let sharedTitle = () => null; // stats.js's, loaded only for a shared result

// Each page loads only its own modules (the server packs them per page).
const pages = {
  home: () => import("./home.js"),
  play: () => import("./play.js"),
  rules: () => import("./rules.js"),
  stats: () => import("./stats.js"),
  history: () => import("./history.js"),
  replay: () => import("./replay.js"),
  devices: () => import("./devices.js"),
  analysis: () => import("./analysis.js"),
  daily: () => import("./daily.js"),
};
const statsPage = (name) => Promise.all([pages[name](), loadStyle("css/stats.css")]).then(([m]) => m);

function message(key, textKey) {
  main.replaceChildren(h("h1", {}, t(key)), textKey ? h("p", {}, t(textKey)) : null, h("p", {}, h("a", { href: "/" }, t("nav.games"))));
}

async function route() {
  if (page && page.destroy) page.destroy();
  page = null;
  const path = location.pathname.replace(/\/+$/, "") || "/";
  const params = new URLSearchParams(location.search);
  const catalog = api.catalog(); // asked first: every page needs it
  catalog.catch(() => {});
  document.body.classList.toggle("at-table", path.startsWith("/play/"));
  translate();
  syncPrefButtons();
  // The page's own scripts load while the catalog is asked for.
  const early = path === "/" ? pages.home() : path.startsWith("/play/") ? pages.play() : null;
  if (early) early.catch(() => {});
  let games;
  try {
    games = await catalog;
  } catch {
    main.replaceChildren(h("p.message.error", {}, t("msg.offline")));
    return;
  }
  const m = /^\/(play|rules)\/([\w-]+)$/.exec(path);
  if (path === "/") return (await pages.home()).showHome(main, games);
  if (m) {
    const entry = games.find((g) => g.id === m[2]);
    if (!entry) return message("notfound.title");
    if (m[1] === "rules") return (await pages.rules()).showRules(main, entry);
    sharedParams = params;
    if (params.get("result")) sharedTitle = (await pages.stats()).sharedTitle;
    document.title = sharedTitle(entry, params) || `${title(entry)} · ${t("brand")}`;
    // The player's game in progress is asked for now, while the table's scripts load.
    const current = api.currentGame(entry.id, optionsFrom(entry, params));
    current.catch(() => {});
    const { showPlay } = await pages.play();
    page = await showPlay(main, entry, params, current);
    return;
  }
  if (path === "/daily") return (await pages.daily()).showDaily(main, games, params);
  if (path === "/stats") return (page = await (await statsPage("stats")).showStats(main, games));
  if (path === "/devices") return (page = await (await statsPage("devices")).showDevices(main));
  if (path === "/history") return (await statsPage("history")).showHistory(main, games, params);
  const replay = /^\/replay\/([\w-]+)$/.exec(path);
  if (replay) return (page = await (await statsPage("replay")).showReplay(main, games, replay[1], params));
  const analysis = /^\/analysis\/([\w-]+)$/.exec(path);
  if (analysis) return (page = await (await statsPage("analysis")).showAnalysis(main, games, analysis[1]));
  return message("notfound.title");
}

function syncPrefButtons() {
  const p = prefs();
  document.getElementById("pref-large").setAttribute("aria-pressed", String(!!p.large));
  document.getElementById("pref-timer").setAttribute("aria-pressed", String(p.timer !== false));
  const lang = document.getElementById("pref-lang");
  lang.textContent = getLang() === "ru" ? "EN" : "RU";
  lang.setAttribute("lang", getLang() === "ru" ? "en" : "ru");
  // Named in the language it switches to, starting with its visible text.
  lang.setAttribute("aria-label", getLang() === "ru" ? t("lang.switch_en") : t("lang.switch_ru"));
  document.body.classList.toggle("no-timer", p.timer === false);
  document.body.classList.toggle("large", !!p.large);
  document.getElementById("pref-four").setAttribute("aria-pressed", String(!!p.four));
  document.body.classList.toggle("four-colour", !!p.four);
}

function navigate(url) {
  history.pushState(null, "", url);
  route();
}

document.getElementById("pref-lang").addEventListener("click", () => {
  setLang(getLang() === "ru" ? "en" : "ru");
  if (page && page.retranslate) {
    translate();
    syncPrefButtons();
    document.title = (sharedParams && sharedTitle(page.entry, sharedParams)) || `${title(page.entry)} · ${t("brand")}`;
    page.retranslate();
  } else {
    route();
  }
});
document.getElementById("pref-large").addEventListener("click", () => {
  setPref("large", !prefs().large);
  syncPrefButtons();
  if (page) page.draw({ instant: true });
});
document.getElementById("pref-four").addEventListener("click", () => {
  setPref("four", !prefs().four);
  syncPrefButtons();
});
document.getElementById("pref-timer").addEventListener("click", () => {
  setPref("timer", prefs().timer === false);
  syncPrefButtons();
});

// Same-origin links are handled here, without a page load.
document.addEventListener("click", (e) => {
  const a = e.target.closest && e.target.closest("a[href]");
  if (!a || e.defaultPrevented || e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey) return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin || url.pathname.startsWith("/api/") || url.pathname.startsWith("/static/")) return;
  e.preventDefault();
  navigate(url.pathname + url.search);
});
window.addEventListener("pasyans:navigate", (e) => navigate(e.detail));
window.addEventListener("popstate", route);

document.documentElement.lang = getLang();
// Nothing is drawn before the words are here (no flash of codes); without them, the
// page says so in both languages (index.html's #no-messages).
registerWorker();
loadMessages().then((ok) => {
  if (ok) {
    watchNetwork(t);
    return route();
  }
  document.getElementById("no-messages").hidden = false;
});
