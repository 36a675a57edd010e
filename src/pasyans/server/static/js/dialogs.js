// The end-of-game dialogs: won (summary, new game, replay) and stuck (undo, replay, new).
import { h, formatTime } from "./dom.js";
import { getLang, t } from "./i18n.js";

function open(dialog) {
  document.body.append(dialog);
  dialog.addEventListener("close", () => dialog.remove());
  dialog.showModal();
  return dialog;
}

function closeAll() {
  for (const d of document.querySelectorAll("dialog.end")) d.close();
}

/** The summary's bests for this game and option set: "time", "moves", "streak" rows, each
 * marked when this game beat it. */
function bestRows(bests) {
  if (!bests) return [];
  const rows = [];
  const row = (key, text, b) => {
    if (!b || b.value === null || b.value === undefined) return;
    rows.push(
      h("dt", {}, t(`best.${key}`)),
      h("dd", { "data-best": key, "data-beaten": String(!!b.beaten) }, text,
        b.beaten ? h("span.beaten", {}, ` ${t("best.beaten")}`) : null),
    );
  };
  row("time", bests.time && formatTime(bests.time.value), bests.time);
  row("moves", bests.moves && String(bests.moves.value), bests.moves);
  row("streak", bests.streak && String(bests.streak.value), bests.streak);
  return rows;
}

/** A row of choice buttons: each `[answer, label key, action, look]` (look: "primary",
 * "danger" or ""); `before(answer)` runs first (closing the dialog). */
function choices(list, before) {
  return list.map(([answer, label, fn, look]) => h(`button.btn${look ? `.${look}` : ""}`,
    { type: "button", "data-answer": answer, onclick: () => { before(answer); fn(); } }, t(label)));
}

/** The won dialog's "Share result" (a ranked daily win, docs/daily.md): one tap copies
 * `text`, which the dialog then shows (selectable when the copy fails). */
function shareButton(text) {
  const status = h("output.daily-shared", { hidden: true });
  const note = h("p.daily-copied", { role: "status" });
  const button = h("button.btn", {
    type: "button",
    "data-action": "share",
    onclick: async () => {
      let copied = true;
      try {
        await navigator.clipboard.writeText(text);
      } catch {
        copied = false;
      }
      status.textContent = text;
      status.hidden = false;
      note.textContent = t(copied ? "daily.copied" : "daily.copy_failed");
    },
  }, t("daily.share_result"));
  return { button, status: [note, status] };
}

export function showWon(view, elapsedMs, actions, bests = null, shareText = null) {
  closeAll();
  const share = shareText ? shareButton(shareText) : null;
  const c = view.counters;
  const dialog = h(
    "dialog.end.won",
    { "aria-labelledby": "won-title", "data-dialog": "won" },
    h("h2", { id: "won-title" }, t("won.title")),
    h("p", {}, t("won.text", { deal: view.deal })),
    h(
      "dl",
      {},
      h("dt", {}, t("stat.time")), h("dd", { "data-stat": "time" }, formatTime(elapsedMs)),
      h("dt", {}, t("stat.moves")), h("dd", { "data-stat": "moves" }, c.moves),
      h("dt", {}, t("stat.score")), h("dd", { "data-stat": "score" }, c.score),
      h("dt", {}, t("stat.hints")), h("dd", { "data-stat": "hints" }, c.hints),
      h("dt", {}, t("stat.undos")), h("dd", { "data-stat": "undos" }, c.undos),
      ...bestRows(bests),
    ),
    h("div.actions", {}, ...choices([
      ["new", "btn.new", actions.newGame, "primary"],
    ], () => dialog.close()), share ? share.button : null, ...choices([
      ["replay", "btn.replay", actions.replay, ""],
      ...(actions.analyse ? [["analyse", "analysis.open", actions.analyse, ""]] : []),
      ["close", "btn.close", () => {}, ""],
    ], () => dialog.close())),
    ...(share ? share.status : []),
  );
  return open(dialog);
}

/** The stuck choices as buttons: Undo only when there is a move to undo (never a choice
 * that does nothing), then replay and new game. `before` runs first (closing a dialog). */
export function stuckActions(actions, before) {
  return choices([
    ...(actions.undo ? [["undo", "btn.undo", actions.undo, "primary"]] : []),
    ["replay", "btn.replay", actions.replay, actions.undo ? "" : "primary"],
    ["new", "btn.new", actions.newGame, ""],
    ...(actions.analyse ? [["analyse", "analysis.open", actions.analyse, ""]] : []),
  ], before);
}

export function showStuck(actions) {
  closeAll();
  const dialog = h(
    "dialog.end.stuck",
    { "aria-labelledby": "stuck-title", "data-dialog": "stuck" },
    h("h2", { id: "stuck-title" }, t("stuck.title")),
    h("p", {}, t("stuck.text")),
    h("div.actions", {}, ...stuckActions(actions, () => dialog.close())),
  );
  return open(dialog);
}

/** A yes/no question (`name`: its strings `name.title`, `.text`, `.no`, `.yes` and its
 * `data-dialog`); resolves true when the player says yes. "No" looks as `noLook`. */
function ask(name, noLook) {
  closeAll();
  return new Promise((resolve) => {
    let answer = false;
    const dialog = h(
      `dialog.end.${name}`,
      { "aria-labelledby": `${name}-title`, "aria-describedby": `${name}-text`, "data-dialog": name },
      h("h2", { id: `${name}-title` }, t(`${name}.title`)),
      h("p", { id: `${name}-text` }, t(`${name}.text`)),
      h("div.actions", {}, ...choices([
        ["no", `${name}.no`, () => {}, noLook],
        ["yes", `${name}.yes`, () => {}, "danger"],
      ], (a) => { answer = a === "yes"; dialog.close(); })),
    );
    dialog.addEventListener("close", () => resolve(answer));
    open(dialog);
  });
}

/** Asks before leaving a game in progress (new game, replay, another deal); resolves true
 * when the player confirms. The game then counts as lost. */
export function confirmAbandon() {
  return ask("abandon", "primary");
}

/** Asks before giving up; resolves true when the player confirms. */
export function confirmGiveUp() {
  return ask("giveup", "");
}

/** The keyboard help: every key, in English and in Russian (the page's language first). */
export function showHelp(keys) {
  closeAll();
  const ru = getLang() === "ru";
  const [first, second] = ru ? ["ru", "en"] : ["en", "ru"]; // both languages, the page's first
  const dialog = h(
    "dialog.end.help",
    { "aria-labelledby": "help-title", "data-dialog": "help" },
    h("h2", { id: "help-title" }, t("help.title")),
    h(
      "table.keys",
      {},
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("help.key")),
        h("th", { scope: "col", lang: ru ? "ru" : "en" }, ru ? t("help.ru") : t("help.en")),
        h("th", { scope: "col", lang: ru ? "en" : "ru" }, ru ? t("help.en") : t("help.ru")))),
      h("tbody", {}, keys.map((k) => h("tr", {}, h("th", { scope: "row" }, h("kbd", {}, k[0])),
        h("td", { lang: first }, t(k[1], {}, first)), h("td", { lang: second }, t(k[1], {}, second))))),
    ),
    h("div.actions", {}, h("button.btn.primary", { type: "button", onclick: () => dialog.close() }, t("btn.close"))),
  );
  return open(dialog);
}

export { closeAll as closeDialogs };
