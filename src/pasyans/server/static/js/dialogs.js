// The end-of-game dialogs: won (summary, new game, replay) and stuck (undo, replay, new).
import { h, formatTime } from "./dom.js";
import { t } from "./i18n.js";

function open(dialog) {
  document.body.append(dialog);
  dialog.addEventListener("close", () => dialog.remove());
  dialog.showModal();
  return dialog;
}

function closeAll() {
  for (const d of document.querySelectorAll("dialog.end")) d.close();
}

export function showWon(view, elapsedMs, actions) {
  closeAll();
  const c = view.counters;
  const act = (fn) => () => {
    dialog.close();
    fn();
  };
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
    ),
    h(
      "div.actions",
      {},
      h("button.btn.primary", { type: "button", onclick: act(actions.newGame) }, t("btn.new")),
      h("button.btn", { type: "button", onclick: act(actions.replay) }, t("btn.replay")),
      h("button.btn", { type: "button", onclick: () => dialog.close() }, t("btn.close")),
    ),
  );
  return open(dialog);
}

export function showStuck(actions) {
  closeAll();
  const act = (fn) => () => {
    dialog.close();
    fn();
  };
  const dialog = h(
    "dialog.end.stuck",
    { "aria-labelledby": "stuck-title", "data-dialog": "stuck" },
    h("h2", { id: "stuck-title" }, t("stuck.title")),
    h("p", {}, t("stuck.text")),
    h(
      "div.actions",
      {},
      h("button.btn.primary", { type: "button", onclick: act(actions.undo) }, t("btn.undo")),
      h("button.btn", { type: "button", onclick: act(actions.replay) }, t("btn.replay")),
      h("button.btn", { type: "button", onclick: act(actions.newGame) }, t("btn.new")),
    ),
  );
  return open(dialog);
}

export { closeAll as closeDialogs };
