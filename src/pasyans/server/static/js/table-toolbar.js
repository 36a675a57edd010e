// The table's toolbar: the game's title, the action buttons, the deal form and the
// counters. Buttons queue the controller's actions; `els` holds what the page updates.
import { title } from "./catalog.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import * as actions from "./table-actions.js";

const ICONS = { new: "+", replay: "↺", undo: "↶", redo: "↷", hint: "?", winnable: "✓?", giveup: "⚑", keys: "⌨", autocollect: "⇈", auto: "⇡" };
const KEYS = { undo: "Z", redo: "Y", hint: "H", winnable: "W", autocollect: "A", keys: "?" };

/** True on a screen driven by touch (no fine pointer): the bar then sits at the bottom,
 * within thumb reach, with an icon and a short label per button and no keyboard button. */
export function touchScreen() {
  return window.matchMedia("(pointer: coarse)").matches && !window.matchMedia("(any-pointer: fine)").matches;
}

/** The toolbar of the table controller `c`: returns {toolbar, els}. Its buttons are inputs
 * of the controller's queue (`c.act`). */
export function buildToolbar(c) {
  const touch = touchScreen();
  const b = (key, fn, extra = {}) => {
    const label = t(`btn.${key}`);
    const tip = KEYS[key] ? `${label} (${KEYS[key]})` : label;
    return h(
      "button.btn",
      { type: "button", "data-action": key, "aria-label": label, title: tip, onclick: fn, ...extra },
      // Icon and short label are generated content: the button's text stays its name.
      h("span.ico", { "aria-hidden": "true", "data-t": ICONS[key] }),
      h("span.lbl", {}, label),
      h("span.short", { "aria-hidden": "true", "data-t": t(`btn.short.${key}`) }),
    );
  };
  const els = {
    undo: b("undo", () => c.act("undo"), { "aria-keyshortcuts": "Z Control+Z" }),
    redo: b("redo", () => c.act("redo"), { "aria-keyshortcuts": "Y Control+Y" }),
    hint: b("hint", () => c.act("hint"), { "aria-keyshortcuts": "H" }),
    winnable: b("winnable", () => c.act("winnable"), { "aria-keyshortcuts": "W" }),
    autocollect: b("autocollect", () => c.act("autocollect"), { hidden: true, "aria-keyshortcuts": "A" }),
    giveup: b("giveup", () => c.act("giveUp")),
    auto: b("auto", () => actions.toggleAuto(c), { "aria-pressed": "true" }),
    notice: h("div.notice", { role: "status", "data-notice": "stuck", hidden: true }),
    dealInput: h("input", {
      type: "number", min: "1", inputmode: "numeric", name: "deal", id: "deal-input",
      "aria-label": t("deal.label"), placeholder: touch ? "№" : t("deal.label"),
    }),
    moves: h("b", { "data-stat": "moves" }, "0"),
    score: h("b", { "data-stat": "score" }, "0"),
    time: h("b", { "data-stat": "time" }, "0:00"),
    deal: h("span.deal-no", {}, ""),
    message: h("div.message", { role: "status", id: "message" }),
  };
  els.autocollect.classList.add("accent");
  const dealForm = h(
    "form.deal-form",
    { onsubmit: (e) => { e.preventDefault(); c.act("gotoDeal"); } },
    els.dealInput,
    // On a phone the top line is narrow: the button shows an arrow, its name stays the label.
    h("button.btn", { type: "submit", "aria-label": t("btn.goto") }, h("span.lbl", {}, touch ? "→" : t("btn.goto"))),
  );
  const buttons = h(
    "div.actions",
    {},
    b("new", () => c.act("newGame")),
    b("replay", () => c.act("replay")),
    els.undo, els.redo, els.hint, els.winnable, els.giveup, els.auto,
    touch ? null : b("keys", () => actions.help(), { "aria-keyshortcuts": "Shift+?" }),
    els.autocollect,
  );
  const toolbar = h(
    `div.toolbar${touch ? ".touch" : ""}`,
    { role: "toolbar", "aria-label": title(c.entry) },
    h("a.game-title", { href: `/rules/${c.entry.id}`, title: t("btn.rules") }, title(c.entry)),
    buttons,
    dealForm,
    h(
      "div.stats",
      {},
      els.deal,
      h("span", {}, `${t("stat.moves")}: `, els.moves),
      h("span.stat-score", {}, `${t("stat.score")}: `, els.score),
      h("span.stat-time", {}, `${t("stat.time")}: `, els.time),
    ),
  );
  return { toolbar, els };
}
