// The history page: the player's counted games, newest first, a page at a time, each with
// its replay, the same deal to play fresh, and a share link.
import { analyse } from "./analyse.js";
import { title } from "./catalog.js";
import { h, toast } from "./dom.js";
import { t } from "./i18n.js";
import {
  confirmDialog, copyLink, entryOf, errorText, formatDate, number, optionsLabel, playAgainLink, playUrl, request,
  shareUrl, time,
} from "./stats.js";

const PER_PAGE = 20;

function resultCell(item) {
  return h(
    "span",
    { class: `result ${item.result}` },
    t(`result.${item.result}`),
    item.clean ? h("span.clean", {}, ` · ${t("result.clean")}`) : null,
  );
}

/** Give up a game in progress (after a confirmation); true when done. */
async function giveUp(item) {
  const ok = await confirmDialog({
    titleText: t("stats.giveup_title"),
    text: t("stats.giveup_text"),
    confirm: t("act.giveup"),
    cancel: t("reset.cancel"),
  });
  if (!ok) return false;
  try {
    const g = await request("GET", `/api/games/${encodeURIComponent(item.id)}`);
    await request("POST", `/api/games/${encodeURIComponent(item.id)}/giveup`, { version: g.version });
    return true;
  } catch (e) {
    toast(errorText(e));
    return false;
  }
}

function row(games, item, refresh) {
  const entry = entryOf(games, item.game);
  const opts = optionsLabel(entry, item.options);
  const cell = (key, ...content) => h("td", { "data-label": t(`col.${key}`), "data-col": key }, ...content);
  const actions = [h("a.act", { href: `/replay/${encodeURIComponent(item.id)}`, "data-action": "replay" }, t("act.replay"))];
  if (item.result === "playing") {
    actions.push(
      h("a.act", { href: playUrl(entry, item), "data-action": "play" }, t("act.continue")),
      h("button.act.linkish", { type: "button", "data-action": "giveup", onclick: async () => (await giveUp(item)) && refresh() }, t("act.giveup")),
    );
  } else {
    actions.push(
      h("button.act.linkish", { type: "button", "data-action": "analyse", onclick: async (e) => {
        const err = await analyse(item.id);
        if (err) e.target.replaceWith(h("span.message.error", { role: "alert" }, err));
      } }, t("analysis.open")),
      playAgainLink(entry, item, t("act.play"), { class: "act" }),
      h("button.act.linkish", { type: "button", "data-action": "share", onclick: () => copyLink(shareUrl(entry, item)) }, t("act.share")),
    );
  }
  return h(
    "tr",
    { "data-id": item.id, "data-result": item.result },
    h("th", { scope: "row", "data-label": t("col.date") }, h("time", { datetime: item.date }, formatDate(item.date, "short"))),
    cell("game", h("span.title", {}, title(entry)), opts ? h("span.opts", {}, opts) : null),
    cell("deal", String(item.deal), item.kind === "solvable" && entry.default_deal_kind !== "solvable" ? h("span.opts", {}, ` (${t("stats.kind_solvable")})`) : null),
    cell("result", resultCell(item)),
    cell("time", time(item.time_ms)),
    cell("moves", number(item.moves)),
    cell("score", number(item.score)),
    cell("hints", number(item.hints)),
    cell("undos", number(item.undos)),
    h("td.actions", { "data-label": t("col.actions") }, h("div.row-actions", {}, actions)),
  );
}

function pager(data) {
  const link = (page, key, rel) =>
    page >= 1 && page <= data.pages
      ? h("a.btn", { href: page === 1 ? "/history" : `/history?page=${page}`, rel, "data-action": rel }, t(key))
      : h("span.btn.disabled", { "aria-disabled": "true" }, t(key));
  return h(
    "nav.pager",
    { "aria-label": t("history.title") },
    link(data.page - 1, "history.newer", "prev"),
    h("span.page-no", {}, t("history.page", { page: data.page, pages: data.pages })),
    link(data.page + 1, "history.older", "next"),
  );
}

export async function showHistory(main, games, params) {
  document.title = `${t("history.title")} · ${t("brand")}`;
  const asked = Number(params.get("page"));
  const page = Number.isInteger(asked) && asked >= 1 ? asked : 1;
  const head = h(
    "div.page-head",
    {},
    h("h1", {}, t("history.title")),
    h("div.page-links", {}, h("a", { href: "/stats" }, t("nav.stats"))),
  );
  main.replaceChildren(h("div.history-page", {}, head, h("p", {}, t("loading"))));
  let data;
  try {
    data = await request("GET", `/api/history?page=${page}&per_page=${PER_PAGE}`);
  } catch (e) {
    main.replaceChildren(h("div.history-page", {}, head, h("p.message.error", { role: "alert" }, errorText(e))));
    return null;
  }
  const parts = [head, h("p.lead", {}, t("history.lead"))];
  if (!data.total) {
    parts.push(h("p.empty", { "data-empty": "history" }, t("history.empty")));
  } else {
    const cols = ["date", "game", "deal", "result", "time", "moves", "score", "hints", "undos", "actions"];
    parts.push(
      h(
        "div.table-scroll",
        {},
        h(
          "table.history-table",
          {},
          h("caption.visually-hidden", {}, t("history.title")),
          h("thead", {}, h("tr", {}, cols.map((c) => h("th", { scope: "col" }, t(`col.${c}`))))),
          h("tbody", {}, data.items.map((item) => row(games, item, () => showHistory(main, games, params)))),
        ),
      ),
    );
    if (data.pages > 1) parts.push(pager(data));
  }
  main.replaceChildren(h("div.history-page", {}, parts));
  return null;
}
