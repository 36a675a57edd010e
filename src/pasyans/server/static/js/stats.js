// The statistics page, and what the history and replay pages share with it: the RU/EN
// strings of these pages, number and date formats, option labels, share links.
import { call, createGame } from "./api.js";
import { options as optionList, title } from "./catalog.js";
import { h, formatTime, toast } from "./dom.js";
import { getLang, t } from "./i18n.js";
import { periodFor, timeChart, winsLossesChart } from "./charts.js";

const STRINGS = {
  en: {
    "nav.stats": "Statistics",
    "nav.history": "History",
    "stats.title": "Statistics",
    "stats.lead": "Your records in this browser, per game and option set.",
    "stats.empty": "No counted games yet: a game counts once you have made a move in it.",
    "stats.by_game": "By game",
    "stats.by_band": "By kind of deal and difficulty",
    "stats.by_band_lead": "Solvable deals come in three difficulties (chosen on the home page); random deals have none.",
    "col.band": "Deal",
    "band.random": "random",
    "band.solvable": "solvable, {d}",
    "stats.total": "All games",
    "stats.in_progress": "Games in progress (counted when they end): {n}",
    "col.game": "Game",
    "col.played": "Played",
    "col.won": "Won",
    "col.lost": "Lost",
    "col.win_rate": "Win %",
    "col.clean": "Clean wins",
    "col.streak": "Streak",
    "col.best_streak": "Best streak",
    "col.streaks": "Streak: now / best",
    "col.best_time": "Best time",
    "col.fewest": "Fewest moves",
    "col.avg_time": "Average time",
    "col.avg_moves": "Average moves",
    "col.hints": "Hints",
    "col.undos": "Undos",
    "col.hints_undos": "Hints / undos",
    "col.date": "Date",
    "col.deal": "Deal",
    "col.result": "Result",
    "col.time": "Time",
    "col.moves": "Moves",
    "col.score": "Score",
    "col.actions": "Actions",
    "deal.n": "deal {n}",
    "kind.solvable": "solvable",
    "kind.random": "random",
    "opts.standard": "standard rules",
    "charts.title": "Charts",
    "charts.for": "Show",
    "chart.wl": "Wins and losses, by {unit}",
    "chart.time": "Time of won games",
    "chart.best": "best time so far",
    "chart.none": "No finished games yet.",
    "chart.no_wins": "No won games yet.",
    "chart.summary_wl": "{won} won, {lost} lost",
    "chart.summary_time": "{n} won games; best {best}",
    "unit.day": "day",
    "unit.week": "week",
    "unit.month": "month",
    "unit.year": "year",
    "legend.won": "won",
    "legend.lost": "lost",
    "rules.title": "How games are counted",
    rules: [
      "A game counts once you have made a move in it (a card move, a deal from the stock, a redo or autocollect). A game with no move is not counted, whatever becomes of it.",
      "It is won when it is finished.",
      "It is lost when you give it up, or abandon it by starting another game of the same game and options.",
      "Played = won + lost. A counted game still in progress is shown apart and joins the figures when it ends.",
      "A clean win is a win with no hint, no undo and no restart; clean wins are counted apart.",
      "Streaks follow the order in which games ended: each win extends the current streak, each loss breaks it.",
      "Moves are the moves of the final line, as the table shows them (undone moves are not in it). A best time or fewest moves is replaced only by a strictly better result.",
      "Hints and undos are the totals of the games played.",
    ],
    "reset.button": "Reset statistics…",
    "reset.title": "Reset statistics?",
    "reset.text": "This deletes your finished games: the figures, charts, history and replays start again. A game in progress stays. This cannot be undone.",
    "reset.confirm": "Reset",
    "reset.cancel": "Cancel",
    "reset.done": "Statistics reset.",
    "history.title": "History",
    "history.lead": "Every counted game, newest first.",
    "history.empty": "No counted games yet.",
    "history.page": "Page {page} of {pages}",
    "history.newer": "← Newer",
    "history.older": "Older →",
    "result.won": "Won",
    "result.given_up": "Given up",
    "result.abandoned": "Abandoned",
    "result.playing": "In progress",
    "result.clean": "clean",
    "act.replay": "Replay",
    "act.play": "Play again",
    "act.continue": "Continue",
    "act.giveup": "Give up",
    "giveup.title": "Give up this game?",
    "giveup.text": "It ends now and counts as a loss.",
    "act.share": "Copy link",
    "share.copied": "Link copied.",
    "share.copy": "Copy this link: {url}",
    "share.won": "Won in {moves}, {time}",
    "share.given_up": "Given up after {moves}, {time}",
    "share.abandoned": "Left after {moves}, {time}",
    "n.moves": ["{n} move", "{n} moves"],
    "share.title": "{result} · {title}, deal {deal}",
    "replay.title": "Replay: {title}, deal {deal}",
    "replay.first": "First",
    "replay.back": "Back",
    "replay.play": "Play",
    "replay.pause": "Pause",
    "replay.forward": "Forward",
    "replay.last": "Last",
    "replay.step": "Move {k} of {n}",
    "replay.start": "Start position ({n} moves)",
    "replay.slider": "Move number",
    "replay.notfound": "This game is not in your history.",
    "error.load": "The figures could not be loaded: {message}",
  },
  ru: {
    "nav.stats": "Статистика",
    "nav.history": "История",
    "stats.title": "Статистика",
    "stats.lead": "Ваши результаты в этом браузере — по каждой игре и набору правил.",
    "stats.empty": "Засчитанных партий пока нет: партия засчитывается после вашего первого хода.",
    "stats.by_game": "По играм",
    "stats.by_band": "По виду раздачи и сложности",
    "stats.by_band_lead": "Решаемые раздачи бывают трёх уровней сложности (выбирается на главной странице); у случайных раздач сложности нет.",
    "col.band": "Раздача",
    "band.random": "случайная",
    "band.solvable": "решаемая, {d}",
    "stats.total": "Все игры",
    "stats.in_progress": "Неоконченных партий (засчитаются, когда закончатся): {n}",
    "col.game": "Игра",
    "col.played": "Сыграно",
    "col.won": "Выиграно",
    "col.lost": "Проиграно",
    "col.win_rate": "% побед",
    "col.clean": "Чистые победы",
    "col.streak": "Серия",
    "col.best_streak": "Лучшая серия",
    "col.streaks": "Серия: сейчас / лучшая",
    "col.best_time": "Лучшее время",
    "col.fewest": "Меньше всего ходов",
    "col.avg_time": "Среднее время",
    "col.avg_moves": "Среднее число ходов",
    "col.hints": "Подсказки",
    "col.undos": "Отмены",
    "col.hints_undos": "Подсказки / отмены",
    "col.date": "Дата",
    "col.deal": "Раздача",
    "col.result": "Итог",
    "col.time": "Время",
    "col.moves": "Ходы",
    "col.score": "Очки",
    "col.actions": "Действия",
    "deal.n": "раздача {n}",
    "kind.solvable": "решаемая",
    "kind.random": "случайная",
    "opts.standard": "обычные правила",
    "charts.title": "Графики",
    "charts.for": "Показать",
    "chart.wl": "Победы и поражения, по {unit}",
    "chart.time": "Время выигранных партий",
    "chart.best": "лучшее время на тот момент",
    "chart.none": "Оконченных партий пока нет.",
    "chart.no_wins": "Выигранных партий пока нет.",
    "chart.summary_wl": "побед: {won}, поражений: {lost}",
    "chart.summary_time": "выигранных партий: {n}; лучшее время {best}",
    "unit.day": "дням",
    "unit.week": "неделям",
    "unit.month": "месяцам",
    "unit.year": "годам",
    "legend.won": "победы",
    "legend.lost": "поражения",
    "rules.title": "Как считаются партии",
    rules: [
      "Партия засчитывается, когда вы сделали в ней ход (переложили карту, сдали из колоды, вернули ход или нажали автосбор). Партия без хода не засчитывается, чем бы она ни кончилась.",
      "Партия выиграна, когда пасьянс сошёлся.",
      "Партия проиграна, если вы сдались или бросили её, начав другую партию той же игры с теми же правилами.",
      "Сыграно = выиграно + проиграно. Засчитанная партия, которая ещё идёт, показана отдельно и войдёт в цифры, когда закончится.",
      "Чистая победа — победа без подсказок, отмен и начала заново; чистые победы считаются отдельно.",
      "Серии идут в порядке окончания партий: победа продлевает текущую серию, поражение прерывает её.",
      "Ходы — это ходы итоговой линии, как их показывает стол (отменённые ходы в неё не входят). Лучшее время и наименьшее число ходов заменяются только строго лучшим результатом.",
      "Подсказки и отмены — сумма по сыгранным партиям.",
    ],
    "reset.button": "Сбросить статистику…",
    "reset.title": "Сбросить статистику?",
    "reset.text": "Все оконченные партии будут удалены: цифры, графики, история и повторы начнутся заново. Неоконченная партия останется. Отменить это нельзя.",
    "reset.confirm": "Сбросить",
    "reset.cancel": "Отмена",
    "reset.done": "Статистика сброшена.",
    "history.title": "История",
    "history.lead": "Все засчитанные партии, новые сверху.",
    "history.empty": "Засчитанных партий пока нет.",
    "history.page": "Страница {page} из {pages}",
    "history.newer": "← Новее",
    "history.older": "Раньше →",
    "result.won": "Победа",
    "result.given_up": "Сдана",
    "result.abandoned": "Брошена",
    "result.playing": "Идёт",
    "result.clean": "чистая",
    "act.replay": "Повтор",
    "act.play": "Сыграть снова",
    "act.continue": "Продолжить",
    "act.giveup": "Сдаться",
    "giveup.title": "Сдаться в этой партии?",
    "giveup.text": "Партия закончится и будет засчитана как поражение.",
    "act.share": "Ссылка",
    "share.copied": "Ссылка скопирована.",
    "share.copy": "Скопируйте ссылку: {url}",
    "share.won": "Победа за {moves}, {time}",
    "share.given_up": "Сдана, ходов: {n}, {time}",
    "share.abandoned": "Брошена, ходов: {n}, {time}",
    "n.moves": ["{n} ход", "{n} хода", "{n} ходов"],
    "share.title": "{result} · {title}, раздача {deal}",
    "replay.title": "Повтор: {title}, раздача {deal}",
    "replay.first": "В начало",
    "replay.back": "Назад",
    "replay.play": "Пуск",
    "replay.pause": "Пауза",
    "replay.forward": "Вперёд",
    "replay.last": "В конец",
    "replay.step": "Ход {k} из {n}",
    "replay.start": "Начальная позиция (ходов: {n})",
    "replay.slider": "Номер хода",
    "replay.notfound": "Этой партии нет в вашей истории.",
    "error.load": "Не удалось загрузить данные: {message}",
  },
};

/** A string of the statistics pages, with {name} placeholders filled. */
export function s(key, params = {}) {
  const table = STRINGS[getLang()] || STRINGS.en;
  const value = key in table ? table[key] : STRINGS.en[key] ?? key;
  if (typeof value !== "string") return value;
  return value.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

/** "1 move", "5 moves"; Russian: "1 ход", "3 хода", "5 ходов". */
export function plural(key, n) {
  const forms = s(key);
  let i;
  if (forms.length === 2) i = n === 1 ? 0 : 1;
  else if (n % 10 === 1 && n % 100 !== 11) i = 0;
  else if (n % 10 >= 2 && n % 10 <= 4 && (n % 100 < 12 || n % 100 > 14)) i = 1;
  else i = 2;
  return forms[i].replace("{n}", String(n));
}

/** Fill the nav links (and any element) marked data-stats-i18n. */
export function translateNav(root = document) {
  for (const e of root.querySelectorAll("[data-stats-i18n]")) e.textContent = s(e.dataset.statsI18n);
}

// --- fetching -----------------------------------------------------------------------------

/** The API's own request function: one place for fetch, errors and JSON. */
export const request = call;

export function errorText(e) {
  if (e.status === 0) return t("msg.offline");
  const m = getLang() === "ru" ? e.messageRu || e.message : e.messageEn || e.message;
  return s("error.load", { message: m || e.code });
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
  if (!changed.length) return s("opts.standard");
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
  const figures = s(`share.${result}`, { moves: plural("n.moves", moves), n: moves, time: formatTime(secs * 1000) });
  return `${s("share.title", { result: figures, title: title(entry), deal })} · ${t("brand")}`;
}

export async function copyLink(url) {
  try {
    await navigator.clipboard.writeText(url);
    toast(s("share.copied"));
  } catch {
    toast(s("share.copy", { url }), 8000);
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
    h("a.deal", { href: `/replay/${encodeURIComponent(b.id)}`, title: title(entryOf(games, b.game)) }, s("deal.n", { n: b.deal })),
  );
}

function groupName(games, f) {
  if (!f.game) return s("stats.total");
  const entry = entryOf(games, f.game);
  const opts = optionsLabel(entry, f.options);
  return opts ? `${title(entry)} · ${opts}` : title(entry);
}

function figuresTable(data, games) {
  const row = (f, cls, key) =>
    h(
      `tr${cls}`,
      { "data-group": key },
      h("th", { scope: "row", "data-label": s("col.game") }, groupName(games, f)),
      COLUMNS.map(([k, fn]) => h("td", { "data-label": s(`col.${k}`), "data-col": k }, fn(f, games))),
    );
  return h(
    "div.table-scroll",
    {},
    h(
      "table.stats-table",
      {},
      h("caption.visually-hidden", {}, s("stats.by_game")),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, s("col.game")), COLUMNS.map(([k]) => h("th", { scope: "col" }, s(`col.${k}`))))),
      h("tbody", {}, data.games.map((f) => row(f, "", `${f.game}?${f.options_key}`))),
      h("tfoot", {}, row(data.total, ".total", "total")),
    ),
  );
}

const BAND_COLUMNS = ["played", "won", "win_rate", "clean", "best_time", "avg_time", "avg_moves"];

/** "random", "solvable, hard": a band of /api/stats' ``bands``. */
export function bandName(band) {
  if (band.kind !== "solvable" || !band.difficulty) return s(`band.${band.kind}`);
  return s("band.solvable", { d: t(`difficulty.${band.difficulty}`) });
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
          h("th", { scope: "row", "data-label": s("col.band") }, bandName(b)),
          BAND_COLUMNS.map((k) => h("td", { "data-label": s(`col.${k}`), "data-col": k }, byColumn[k](b, games))),
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
      h("caption.visually-hidden", {}, s("stats.by_band")),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, s("col.band")), BAND_COLUMNS.map((k) => h("th", { scope: "col" }, s(`col.${k}`))))),
      groups,
    ),
  );
}

function tiles(total) {
  const tile = (key, value) => h("div.tile", { "data-tile": key }, h("span.label", {}, s(`col.${key}`)), h("span.value", {}, value));
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
  if (!points.length) return [h("p.chart-empty", {}, s("chart.none"))];
  const times = points.map((p) => new Date(p.at).getTime());
  const unit = periodFor(Math.min(...times), Math.max(...times));
  const won = points.filter((p) => p.result === "won").length;
  const wl = s("chart.wl", { unit: s(`unit.${unit}`) });
  out.push(
    h(
      "figure.chart-box",
      { "data-chart": "wins-losses" },
      h("figcaption", {}, wl, " ", h("span.legend.won", {}, s("legend.won")), " ", h("span.legend.lost", {}, s("legend.lost"))),
      winsLossesChart(points, {
        width,
        unit,
        label: `${wl}: ${s("chart.summary_wl", { won, lost: points.length - won })}`,
        formatPeriod,
        labels: { won: s("legend.won"), lost: s("legend.lost") },
      }),
    ),
  );
  const wins = points.filter((p) => p.result === "won");
  const caption = s("chart.time");
  out.push(
    h(
      "figure.chart-box",
      { "data-chart": "time" },
      h("figcaption", {}, caption, " ", h("span.legend.best", {}, s("chart.best"))),
      wins.length
        ? timeChart(points, {
            width,
            label: `${caption}: ${s("chart.summary_time", { n: wins.length, best: time(Math.min(...wins.map((p) => p.time_ms))) })}`,
            formatDate: (d) => formatDate(d, false),
            labels: { deal: s("deal.n", { n: "" }).trim(), best: s("chart.best") },
          })
        : h("p.chart-empty", {}, s("chart.no_wins")),
    ),
  );
  return out;
}

function rulesBox() {
  return h(
    "details.count-rules",
    {},
    h("summary", {}, s("rules.title")),
    h("ul", {}, s("rules").map((r) => h("li", {}, r))),
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
    this.main.replaceChildren(h("h1", {}, s("stats.title")), h("p", {}, t("loading")));
    try {
      this.data = await request("GET", "/api/stats");
    } catch (e) {
      this.main.replaceChildren(h("h1", {}, s("stats.title")), h("p.message.error", { role: "alert" }, errorText(e)));
      return;
    }
    this.draw();
  }

  draw() {
    const d = this.data;
    const empty = !d.games.length;
    const reset = h("button.btn", { type: "button", "data-action": "reset", onclick: () => this.reset(), disabled: empty && !d.total.in_progress }, s("reset.button"));
    const head = h(
      "div.page-head",
      {},
      h("h1", {}, s("stats.title")),
      h("div.page-links", {}, h("a", { href: "/history" }, s("nav.history")), reset),
    );
    const parts = [head, h("p.lead", {}, s("stats.lead"))];
    if (empty) {
      parts.push(h("p.empty", { "data-empty": "stats" }, s("stats.empty")));
    } else {
      parts.push(tiles(d.total));
      if (d.total.in_progress) parts.push(h("p.note", {}, s("stats.in_progress", { n: d.total.in_progress })));
      parts.push(h("h2", {}, s("stats.by_game")), figuresTable(d, this.games));
      const bands = bandsTable(d, this.games);
      if (bands) parts.push(h("h2", { id: "by-band" }, s("stats.by_band")), h("p.note", {}, s("stats.by_band_lead")), bands);
      this.select = h(
        "select",
        { id: "chart-group", onchange: () => { this.group = this.select.value; this.drawCharts(); } },
        h("option", { value: "total" }, s("stats.total")),
        d.games.map((f) => h("option", { value: `${f.game}?${f.options_key}` }, groupName(this.games, f))),
      );
      this.select.value = this.group;
      if (this.select.value !== this.group) this.group = this.select.value = "total";
      this.chartsEl = h("div.charts");
      parts.push(
        h("div.charts-head", {}, h("h2", {}, s("charts.title")), h("label", { for: "chart-group" }, s("charts.for"), " ", this.select)),
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
      titleText: s("reset.title"),
      text: s("reset.text"),
      confirm: s("reset.confirm"),
      cancel: s("reset.cancel"),
    });
    if (!ok) return;
    try {
      await request("POST", "/api/stats/reset", { confirm: true });
      toast(s("reset.done"));
      this.group = "total";
      await this.load();
    } catch (e) {
      toast(errorText(e));
    }
  }
}

export async function showStats(main, games) {
  document.title = `${s("stats.title")} · ${t("brand")}`;
  const page = new StatsPage(main, games);
  await page.load();
  return page;
}

// The nav links follow the page's language: <html lang> changes whenever it is switched.
translateNav();
new MutationObserver(() => translateNav()).observe(document.documentElement, { attributes: true, attributeFilter: ["lang"] });
