// The statistics page, and what the history and replay pages share with it: number and
// date formats, option labels, share links (their words are in the message catalogue).
import { call, createGame } from "./api.js";
import { options as optionList, setLinkGenerator, title } from "./catalog.js";
import { h, formatTime, toast } from "./dom.js";
import { getLang, plural, t } from "./i18n.js";
import { periodFor, timeChart, winsLossesChart } from "./charts.js";

/** The catalogue codes of "How games are counted", in order. */
const RULES = ["stats.rule1", "stats.rule2", "stats.rule3", "stats.rule4", "stats.rule5", "stats.rule6", "stats.rule7", "stats.rule8"];

// --- fetching -----------------------------------------------------------------------------

/** The API's own request function: one place for fetch, errors and JSON. */
export const request = call;

export function errorText(e) {
  if (e.status === 0) return t("msg.offline");
  const m = getLang() === "ru" ? e.messageRu || e.message : e.messageEn || e.message;
  return t("stats.error_load", { message: m || e.code });
}

// --- formats ------------------------------------------------------------------------------

export function locale() {
  return getLang() === "ru" ? "ru-RU" : "en-GB";
}

/** withTime: true (medium date and time), false (date only) or "short" (short both). */
export function formatDate(value, withTime = true) {
  const d = value instanceof Date ? value : new Date(value);
  const o = withTime === "short" ? { dateStyle: "short", timeStyle: "short" }
    : withTime ? { dateStyle: "medium", timeStyle: "short" } : { dateStyle: "medium" };
  return new Intl.DateTimeFormat(locale(), o).format(d);
}

export function formatPeriod(d, unit) {
  const o = {
    day: { day: "numeric", month: "short" },
    week: { day: "numeric", month: "short" },
    month: { month: "short", year: "numeric" },
    year: { year: "numeric" },
  }[unit];
  return new Intl.DateTimeFormat(locale(), o).format(d);
}

export function percent(rate) {
  if (rate === null || rate === undefined) return "—";
  return new Intl.NumberFormat(locale(), { style: "percent", maximumFractionDigits: 1 }).format(rate);
}

export function number(v, digits = 0) {
  if (v === null || v === undefined) return "—";
  return new Intl.NumberFormat(locale(), { maximumFractionDigits: digits }).format(v);
}

export function time(ms) {
  return ms === null || ms === undefined ? "—" : formatTime(ms);
}

/** The catalog entry of a game id (or a bare stand-in). */
export function entryOf(games, id) {
  return games.find((g) => g.id === id) || { id, titles: { en: id, ru: id }, options: [] };
}

/** Options in words: the one option's value ("two suits"), else the non-default ones. */
export function optionsLabel(entry, values) {
  const list = optionList(entry);
  if (!list.length) return "";
  const word = (o) => o.valueTitles[o.values.indexOf(String(values[o.name]))] ?? values[o.name];
  if (list.length === 1) return word(list[0]);
  const changed = list.filter((o) => values[o.name] !== undefined && String(values[o.name]) !== o.default);
  if (!changed.length) return t("opts.standard");
  return changed.map((o) => `${o.title}: ${word(o)}`).join("; ");
}

function defaultKind(entry) {
  return entry.default_deal_kind || entry.default_kind || "random";
}

/** /play/GAME?options&deal=N[&kind=K][&difficulty=D]: the same deal again, as a new game
 * (a solvable deal of the same difficulty). */
export function playUrl(entry, item) {
  const q = new URLSearchParams(item.options);
  if (item.kind === "solvable" && item.difficulty) q.set("difficulty", item.difficulty);
  q.set("deal", String(item.deal));
  if (item.kind && item.kind !== defaultKind(entry)) q.set("kind", item.kind);
  setLinkGenerator(q, item);
  return `/play/${entry.id}?${q}`;
}

/** A link to play the same deal again as a new game: the click starts the game first (the
 * table page would otherwise show this browser's finished game of that deal). */
export function playAgainLink(entry, item, label, attrs = {}) {
  const href = playUrl(entry, item);
  const start = async (e) => {
    if (e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey) return;
    e.preventDefault();
    const body = { game: entry.id, deal: item.deal, options: item.options };
    if (item.kind) body.solvable = item.kind === "solvable";
    if (item.kind === "solvable" && item.difficulty) body.difficulty = item.difficulty;
    if (item.kind === "solvable" && item.generator != null) body.generator = item.generator;
    try {
      await createGame(body);
    } catch (err) {
      toast(errorText(err));
      return;
    }
    window.dispatchEvent(new CustomEvent("pasyans:navigate", { detail: href }));
  };
  return h("a", { href, "data-action": "play", ...attrs, onclick: start }, label);
}

/** The same deal with the result's figures (no personal data): result, moves, time (s). */
export function shareUrl(entry, item) {
  const q = new URLSearchParams(playUrl(entry, item).split("?")[1]);
  q.set("result", item.result);
  q.set("moves", String(item.moves));
  q.set("time", String(Math.round(item.time_ms / 1000)));
  return `${location.origin}/play/${entry.id}?${q}`;
}

/** The page title of a shared result link, or null when the link carries none. */
export function sharedTitle(entry, params) {
  const result = params.get("result");
  const moves = Number(params.get("moves"));
  const secs = Number(params.get("time"));
  const deal = Number(params.get("deal"));
  if (!["won", "given_up", "abandoned"].includes(result)) return null;
  if (![moves, secs, deal].every((n) => Number.isInteger(n) && n >= 0 && n < 1e10)) return null;
  const figures = t(`share.${result}`, { moves: plural("n.moves", moves), n: moves, time: formatTime(secs * 1000) });
  return `${t("share.title", { result: figures, title: title(entry), deal })} · ${t("brand")}`;
}

export async function copyLink(url) {
  try {
    await navigator.clipboard.writeText(url);
    toast(t("share.copied"));
  } catch {
    toast(t("share.copy", { url }), 8000);
  }
}

/** A confirmation dialog; resolves true when the player confirms. */
export function confirmDialog({ titleText, text, confirm, cancel }) {
  return new Promise((resolve) => {
    let answer = false;
    const dialog = h(
      "dialog.end.confirm",
      { "aria-labelledby": "confirm-title", "data-dialog": "confirm" },
      h("h2", { id: "confirm-title" }, titleText),
      h("p", {}, text),
      h(
        "div.actions",
        {},
        h("button.btn.danger", { type: "button", "data-action": "confirm", onclick: () => { answer = true; dialog.close(); } }, confirm),
        h("button.btn", { type: "button", "data-action": "cancel", onclick: () => dialog.close() }, cancel),
      ),
    );
    dialog.addEventListener("close", () => {
      dialog.remove();
      resolve(answer);
    });
    document.body.append(dialog);
    dialog.showModal();
    dialog.querySelector('[data-action="cancel"]').focus();
  });
}

// --- the statistics page ------------------------------------------------------------------

const COLUMNS = [
  ["played", (f) => number(f.played)],
  ["won", (f) => number(f.won)],
  ["lost", (f) => number(f.lost)],
  ["win_rate", (f) => percent(f.win_rate)],
  ["clean", (f) => number(f.clean_wins)],
  ["streaks", (f) => `${number(f.current_streak)} / ${number(f.best_streak)}`],
  ["best_time", (f, games) => best(f.best_time, games, time)],
  ["fewest", (f, games) => best(f.fewest_moves, games, number)],
  ["avg_time", (f) => time(f.average_time_ms)],
  ["avg_moves", (f) => number(f.average_moves, 1)],
  ["hints_undos", (f) => `${number(f.hints)} / ${number(f.undos)}`],
];

function best(b, games, fmt) {
  if (!b) return "—";
  return h(
    "span.best",
    {},
    h("b", {}, fmt(b.value)),
    " ",
    h("a.deal", { href: `/replay/${encodeURIComponent(b.id)}`, title: title(entryOf(games, b.game)) }, t("stats.deal_n", { n: b.deal })),
  );
}

function groupName(games, f) {
  if (!f.game) return t("stats.total");
  const entry = entryOf(games, f.game);
  const opts = optionsLabel(entry, f.options);
  return opts ? `${title(entry)} · ${opts}` : title(entry);
}

function figuresTable(data, games) {
  const row = (f, cls, key) =>
    h(
      `tr${cls}`,
      { "data-group": key },
      h("th", { scope: "row", "data-label": t("col.game") }, groupName(games, f)),
      COLUMNS.map(([k, fn]) => h("td", { "data-label": t(`col.${k}`), "data-col": k }, fn(f, games))),
    );
  return h(
    "div.table-scroll",
    {},
    h(
      "table.stats-table",
      {},
      h("caption.visually-hidden", {}, t("stats.by_game")),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("col.game")), COLUMNS.map(([k]) => h("th", { scope: "col" }, t(`col.${k}`))))),
      h("tbody", {}, data.games.map((f) => row(f, "", `${f.game}?${f.options_key}`))),
      h("tfoot", {}, row(data.total, ".total", "total")),
    ),
  );
}

const BAND_COLUMNS = ["played", "won", "win_rate", "clean", "best_time", "avg_time", "avg_moves"];

/** "random", "solvable, hard": a band of /api/stats' ``bands``. */
export function bandName(band) {
  if (band.kind !== "solvable" || !band.difficulty) return t(`band.${band.kind}`);
  return t("band.solvable", { d: t(`difficulty.${band.difficulty}`) });
}

/** Each option set's figures per kind of deal and difficulty (random, easy, medium, hard):
 * one row group per option set, its name in a heading row. */
function bandsTable(data, games) {
  const byColumn = Object.fromEntries(COLUMNS);
  const groups = data.games
    .filter((f) => (f.bands || []).length)
    .map((f) => {
      const key = `${f.game}?${f.options_key}`;
      const head = h("tr.band-group", {}, h("th", { scope: "rowgroup", colspan: String(BAND_COLUMNS.length + 1) }, groupName(games, f)));
      const rows = f.bands.map((b) =>
        h(
          "tr",
          { "data-group": key, "data-band": b.kind === "solvable" ? b.difficulty || "solvable" : "random" },
          h("th", { scope: "row", "data-label": t("col.band") }, bandName(b)),
          BAND_COLUMNS.map((k) => h("td", { "data-label": t(`col.${k}`), "data-col": k }, byColumn[k](b, games))),
        ),
      );
      return h("tbody", { "data-group": key }, head, rows);
    });
  if (!groups.length) return null;
  return h(
    "div.bands-scroll",
    {},
    h(
      "table.bands-table",
      {},
      h("caption.visually-hidden", {}, t("stats.by_band")),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("col.band")), BAND_COLUMNS.map((k) => h("th", { scope: "col" }, t(`col.${k}`))))),
      groups,
    ),
  );
}

function tiles(total) {
  const tile = (key, value) => h("div.tile", { "data-tile": key }, h("span.label", {}, t(`col.${key}`)), h("span.value", {}, value));
  return h(
    "div.tiles",
    {},
    tile("played", number(total.played)),
    tile("won", number(total.won)),
    tile("win_rate", percent(total.win_rate)),
    tile("clean", number(total.clean_wins)),
    tile("streak", number(total.current_streak)),
    tile("best_streak", number(total.best_streak)),
  );
}

function chartsFor(f, width) {
  const points = f.points || [];
  const out = [];
  if (!points.length) return [h("p.chart-empty", {}, t("chart.none"))];
  const times = points.map((p) => new Date(p.at).getTime());
  const unit = periodFor(Math.min(...times), Math.max(...times));
  const won = points.filter((p) => p.result === "won").length;
  const wl = t("chart.wl", { unit: t(`unit.${unit}`) });
  out.push(
    h(
      "figure.chart-box",
      { "data-chart": "wins-losses" },
      h("figcaption", {}, wl, " ", h("span.legend.won", {}, t("legend.won")), " ", h("span.legend.lost", {}, t("legend.lost"))),
      winsLossesChart(points, {
        width,
        unit,
        label: `${wl}: ${t("chart.summary_wl", { won, lost: points.length - won })}`,
        formatPeriod,
        labels: { won: t("legend.won"), lost: t("legend.lost") },
      }),
    ),
  );
  const wins = points.filter((p) => p.result === "won");
  const caption = t("chart.time");
  out.push(
    h(
      "figure.chart-box",
      { "data-chart": "time" },
      h("figcaption", {}, caption, " ", h("span.legend.best", {}, t("chart.best"))),
      wins.length
        ? timeChart(points, {
            width,
            label: `${caption}: ${t("chart.summary_time", { n: wins.length, best: time(Math.min(...wins.map((p) => p.time_ms))) })}`,
            formatDate: (d) => formatDate(d, false),
            labels: { deal: t("stats.deal_n", { n: "" }).trim(), best: t("chart.best") },
          })
        : h("p.chart-empty", {}, t("chart.no_wins")),
    ),
  );
  return out;
}

function rulesBox() {
  return h(
    "details.count-rules",
    {},
    h("summary", {}, t("stats.rules_title")),
    h("ul", {}, RULES.map((r) => h("li", {}, t(r)))),
  );
}

class StatsPage {
  constructor(main, games) {
    this.main = main;
    this.games = games;
    this.data = null;
    this.group = "total";
    this.onResize = () => this.drawCharts();
    window.addEventListener("resize", this.onResize);
  }

  destroy() {
    window.removeEventListener("resize", this.onResize);
  }

  async load() {
    this.main.replaceChildren(h("h1", {}, t("stats.title")), h("p", {}, t("loading")));
    try {
      this.data = await request("GET", "/api/stats");
    } catch (e) {
      this.main.replaceChildren(h("h1", {}, t("stats.title")), h("p.message.error", { role: "alert" }, errorText(e)));
      return;
    }
    this.draw();
  }

  draw() {
    const d = this.data;
    const empty = !d.games.length;
    const reset = h("button.btn", { type: "button", "data-action": "reset", onclick: () => this.reset(), disabled: empty && !d.total.in_progress }, t("reset.button"));
    const head = h(
      "div.page-head",
      {},
      h("h1", {}, t("stats.title")),
      h("div.page-links", {}, h("a", { href: "/history" }, t("nav.history")), h("a", { href: "/devices", "data-link": "devices" }, t("devices.nav")), reset),
    );
    const parts = [head, h("p.lead", {}, t("stats.lead"))];
    if (empty) {
      parts.push(h("p.empty", { "data-empty": "stats" }, t("stats.empty")));
    } else {
      parts.push(tiles(d.total));
      if (d.total.in_progress) parts.push(h("p.note", {}, t("stats.in_progress", { n: d.total.in_progress })));
      parts.push(h("h2", {}, t("stats.by_game")), figuresTable(d, this.games));
      const bands = bandsTable(d, this.games);
      if (bands) parts.push(h("h2", { id: "by-band" }, t("stats.by_band")), h("p.note", {}, t("stats.by_band_lead")), bands);
      this.select = h(
        "select",
        { id: "chart-group", onchange: () => { this.group = this.select.value; this.drawCharts(); } },
        h("option", { value: "total" }, t("stats.total")),
        d.games.map((f) => h("option", { value: `${f.game}?${f.options_key}` }, groupName(this.games, f))),
      );
      this.select.value = this.group;
      if (this.select.value !== this.group) this.group = this.select.value = "total";
      this.chartsEl = h("div.charts");
      parts.push(
        h("div.charts-head", {}, h("h2", {}, t("charts.title")), h("label", { for: "chart-group" }, t("charts.for"), " ", this.select)),
        this.chartsEl,
      );
    }
    parts.push(rulesBox());
    this.main.replaceChildren(h("div.stats-page", {}, parts));
    this.drawCharts();
  }

  drawCharts() {
    if (!this.chartsEl || !this.data) return;
    const d = this.data;
    const f = this.group === "total" ? d.total : d.games.find((g) => `${g.game}?${g.options_key}` === this.group) || d.total;
    const wide = this.chartsEl.clientWidth || this.main.clientWidth || 320;
    const width = Math.max(260, Math.floor(wide >= 760 ? (wide - 20) / 2 : wide) - 2);
    this.chartsEl.replaceChildren(...chartsFor(f, width));
  }

  async reset() {
    const ok = await confirmDialog({
      titleText: t("reset.title"),
      text: t("reset.text"),
      confirm: t("reset.confirm"),
      cancel: t("reset.cancel"),
    });
    if (!ok) return;
    try {
      await request("POST", "/api/stats/reset", { confirm: true });
      toast(t("reset.done"));
      this.group = "total";
      await this.load();
    } catch (e) {
      toast(errorText(e));
    }
  }
}

export async function showStats(main, games) {
  document.title = `${t("stats.title")} · ${t("brand")}`;
  const page = new StatsPage(main, games);
  await page.load();
  return page;
}

