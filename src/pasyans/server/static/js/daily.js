// Daily deals (docs/daily.md): the home page's section (today's deals of each game at the
// options last used, which are won, the streak, the last 30 days) and the leaderboard page
// /daily?game=&difficulty=&day=&<options>, with the player's result, its share text and
// the display name. Every figure is the server's: the page posts no time.
import * as api from "./api.js";
import { defaultKind, options, setLinkGenerator, title } from "./catalog.js";
import { formatTime, h, toast } from "./dom.js";
import { plural, t } from "./i18n.js";
import { prefs } from "./prefs.js";

export const BANDS = ["easy", "medium", "hard"];

const go = (path) => window.dispatchEvent(new CustomEvent("pasyans:navigate", { detail: path }));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The options last used for a game (the table saves them), else its defaults. */
export function chosenOptions(entry) {
  const saved = (prefs()[`choice:${entry.id}`] || {}).options || {};
  const opts = {};
  for (const o of options(entry)) opts[o.name] = o.values.includes(saved[o.name]) ? saved[o.name] : o.default;
  return opts;
}

const sameOptions = (a, b) => Object.keys({ ...a, ...b }).every((k) => String(a[k]) === String(b[k]));

/** The leaderboard page's address of a daily deal. */
export function boardPath(game, difficulty, day, opts) {
  const q = new URLSearchParams({ game, difficulty, day, ...opts });
  return `/daily?${q}`;
}

/** Start (or resume) a daily deal, waiting while the server prepares it, then open it. */
export async function playDaily(entry, opts, difficulty, day) {
  let g = null;
  for (let i = 0; i < 30 && !g; i++) {
    try {
      g = await api.call("POST", "/api/daily/games", { game: entry.id, options: opts, difficulty, day });
    } catch (e) {
      if (e.status !== 202) throw e;
      toast(t("daily.preparing"));
      await sleep(1000 * (e.retryAfter || 2));
    }
  }
  if (!g) throw new Error(t("daily.preparing"));
  const q = new URLSearchParams({ deal: String(g.deal), difficulty, ...opts });
  if (defaultKind(entry) !== "solvable") q.set("kind", "solvable");
  setLinkGenerator(q, g);
  go(`/play/${entry.id}?${q}`);
}

function failed(e) {
  toast(e && e.message ? e.message : t("msg.offline"));
}

function streakLine(n) {
  return h("p.daily-streak", { "data-streak": n }, n ? plural("daily.streak", n) : t("daily.no_streak"));
}

/** The home page's section: one row per game, one cell per difficulty. */
export async function dailySection(games) {
  let over;
  try {
    over = await api.call("GET", "/api/daily");
  } catch {
    return null;
  }
  const today = over.today;
  const mine = (entry, opts, band, day) =>
    over.games.find((g) => g.day === day && g.game === entry.id && g.difficulty === band && sameOptions(g.options, opts));
  const rows = games
    .filter((entry) => (entry.deal_kinds || []).includes("solvable"))
    .map((entry) => {
      const opts = chosenOptions(entry);
      const cells = BANDS.map((band) => {
        const g = mine(entry, opts, band, today);
        const label = t(`difficulty.${band}`);
        if (g && g.status === "won") {
          return h(
            "a.daily-cell.won",
            { href: boardPath(entry.id, band, today, opts), "data-band": band, "data-status": "won" },
            h("span.band", {}, label),
            h("span.res", {}, `✓ ${formatTime(g.time_ms)}`),
          );
        }
        const status = g ? g.status : "new";
        const text = status === "playing" ? t("daily.continue") : status === "new" ? t("daily.play") : t("daily.practice");
        return h(
          "button.daily-cell",
          {
            type: "button",
            "data-band": band,
            "data-status": status,
            onclick: () => playDaily(entry, opts, band, today).catch(failed),
          },
          h("span.band", {}, label),
          h("span.res", {}, text),
        );
      });
      return h("li.daily-row", { "data-game": entry.id }, h("a.daily-game", { href: boardPath(entry.id, "medium", today, opts) }, title(entry)), h("div.daily-cells", {}, cells));
    });
  const won = new Map();
  for (const g of over.games) if (g.status === "won") won.set(g.day, (won.get(g.day) || 0) + 1);
  const spine = games.find((e) => e.id === "spine") || games[0];
  const calendar = h(
    "ol.daily-calendar",
    { "aria-label": t("daily.calendar") },
    [...over.days].reverse().map((day) => {
      const n = won.get(day) || 0;
      const name = `${day}: ${n ? plural("daily.won_n", n) : day === today ? t("daily.today") : t("daily.practice")}`;
      return h(
        "li",
        {},
        h("a", {
          href: boardPath(spine.id, "medium", day, chosenOptions(spine)),
          class: `${n ? "won" : ""} ${day === today ? "today" : ""}`.trim(),
          title: name,
          "aria-label": name,
        }, day.slice(8)),
      );
    }),
  );
  return h(
    "section.daily",
    { "aria-labelledby": "daily-title" },
    h("h2", { id: "daily-title" }, t("daily.title", { day: today })),
    streakLine(over.streak),
    h("ul.daily-rows", {}, rows),
    h("h3", {}, t("daily.calendar")),
    calendar,
    h("p.daily-note", {}, t("daily.note")),
  );
}

/** The share text: game, date, difficulty, time, moves and a link; never the layout. */
export function shareText(entry, opts, board, mine) {
  const url = new URL(boardPath(entry.id, board.difficulty, board.day, opts), location.origin).href;
  const figures = t("daily.share_figures", { time: formatTime(mine.time_ms), moves: mine.moves });
  const rank = mine.rank ? ` · #${mine.rank}` : "";
  return `${t("daily.share_title", { game: title(entry), day: board.day, difficulty: t(`difficulty.${board.difficulty}`) })}\n${figures}${rank}\n${url}`;
}

/** The share text of the player's ranked result of a daily game just won (its board
 * read from the server: the rank, time and moves are the server's), or null. */
export async function wonShareText(entry, game) {
  const q = new URLSearchParams({ game: entry.id, difficulty: game.difficulty, day: game.daily, ...game.options });
  try {
    const board = await api.call("GET", `/api/daily/board?${q}`);
    return board.you ? shareText(entry, game.options, board, board.you) : null;
  } catch {
    return null;
  }
}

async function copy(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

function nameForm(me, onSaved) {
  const input = h("input", { type: "text", name: "name", maxlength: "20", value: me.name || "", autocomplete: "nickname", id: "daily-name" });
  const form = h(
    "form.daily-name",
    {},
    h("label", { for: "daily-name" }, t("daily.your_name")),
    input,
    h("button.btn", { type: "submit" }, t("daily.save_name")),
  );
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const value = input.value.trim();
    try {
      await api.call("PUT", "/api/player/name", { name: value || null });
      toast(t("daily.name_saved"));
      onSaved();
    } catch (err) {
      failed(err);
    }
  });
  return form;
}

function boardTable(board, onReport) {
  const rows = board.top.map((r) =>
    h(
      "tr",
      { class: r.you ? "you" : null },
      h("td.rank", {}, String(r.rank)),
      h("td.name", {}, r.name || t("daily.player", { n: r.player }), r.you ? ` (${t("daily.you")})` : ""),
      h("td.num", {}, formatTime(r.time_ms)),
      h("td.num", {}, String(r.moves)),
      h(
        "td.report",
        {},
        r.name && !r.you
          ? h("button.link", { type: "button", title: t("daily.report"), "aria-label": `${t("daily.report")}: ${r.name}`, onclick: () => onReport(r.player) }, "⚑")
          : null,
      ),
    ),
  );
  return h(
    "table.daily-board",
    {},
    h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, t("daily.col_player")), h("th", {}, t("daily.col_time")), h("th", {}, t("daily.col_moves")), h("th", {}, ""))),
    h("tbody", {}, rows.length ? rows : h("tr", {}, h("td", { colspan: "5" }, t("daily.empty")))),
  );
}

/** The leaderboard page. */
export async function showDaily(main, games, params) {
  const entry = games.find((g) => g.id === params.get("game")) || games[0];
  const band = BANDS.includes(params.get("difficulty")) ? params.get("difficulty") : "medium";
  const by = params.get("by") === "moves" ? "moves" : "time";
  const opts = {};
  for (const o of options(entry)) opts[o.name] = o.values.includes(params.get(o.name)) ? params.get(o.name) : o.default;
  const q = new URLSearchParams({ game: entry.id, difficulty: band, by, ...opts });
  if (params.get("day")) q.set("day", params.get("day"));
  main.replaceChildren(h("p.message", {}, t("daily.loading")));
  let board, me, over;
  try {
    [board, me, over] = await Promise.all([
      api.call("GET", `/api/daily/board?${q}`),
      api.call("GET", "/api/player"),
      api.call("GET", "/api/daily"),
    ]);
  } catch (e) {
    main.replaceChildren(h("p.message.error", {}, e.message));
    return;
  }
  const reload = () => showDaily(main, games, params);
  const isToday = board.day === over.today;
  const ranked = over.games.find((g) => g.day === board.day && g.game === entry.id && g.difficulty === band && sameOptions(g.options, opts));
  document.title = `${t("daily.board_title", { game: title(entry), day: board.day })} · ${t("brand")}`;
  const tabs = h(
    "nav.daily-tabs",
    { "aria-label": t("home.difficulty") },
    BANDS.map((b) => h("a.chip", { href: boardPath(entry.id, b, board.day, opts), "aria-current": b === band ? "page" : null }, t(`difficulty.${b}`))),
    h("span.sep", {}, "·"),
    ["time", "moves"].map((k) =>
      h("a.chip", { href: `${boardPath(entry.id, band, board.day, opts)}&by=${k}`, "aria-current": k === by ? "page" : null }, t(`daily.by_${k}`)),
    ),
  );
  const playLabel = !isToday ? t("daily.practice") : ranked && ranked.status === "playing" ? t("daily.continue") : ranked ? t("daily.practice") : t("daily.play");
  const play = h("button.btn.primary", { type: "button", "data-action": "play-daily", onclick: () => playDaily(entry, opts, band, board.day).catch(failed) }, playLabel);
  let result = null;
  if (board.you) {
    const mine = board.you;
    const status = h("output.daily-shared", { hidden: true });
    const share = h("button.btn", {
      type: "button",
      "data-action": "share",
      onclick: async () => {
        const text = shareText(entry, opts, board, mine);
        status.textContent = text;
        status.hidden = false;
        toast((await copy(text)) ? t("daily.copied") : t("daily.copy_failed"));
      },
    }, t("daily.share"));
    result = h(
      "section.daily-result",
      { "aria-label": t("daily.your_result") },
      h(
        "p.big",
        {},
        mine.rank
          ? t("daily.rank", { rank: mine.rank, total: board.total })
          : mine.rank_over
            ? t("daily.rank_over", { n: mine.rank_over, total: board.total })
            : t("daily.not_ranked"),
      ),
      h("p", {}, t("daily.share_figures", { time: formatTime(mine.time_ms), moves: mine.moves })),
      h("div.actions", {}, share, h("a", { href: `/replay/${mine.game_id}` }, t("daily.replay"))),
      status,
    );
  }
  const onReport = async (player) => {
    try {
      await api.call("POST", "/api/daily/report", { player });
      toast(t("daily.reported"));
      reload();
    } catch (e) {
      failed(e);
    }
  };
  main.replaceChildren(
    h("h1", {}, t("daily.board_title", { game: title(entry), day: board.day })),
    h("p.lead", {}, isToday ? t("daily.lead_today") : t("daily.lead_past"), " ", t(`daily.board_${by}`)),
    streakLine(over.streak),
    tabs,
    h("div.actions", {}, play),
    result,
    boardTable(board, onReport),
    h("p.daily-total", {}, plural("daily.clean_wins", board.total)),
    nameForm(me, reload),
    h("p.daily-note", {}, t("daily.clean_rule")),
  );
}
