// The replay page: steps through a stored game's line with the server's engine (each step
// is a player view: face-down cards stay hidden), drawn by the table renderer.
import { title } from "./catalog.js";
import { announce, h } from "./dom.js";
import { t } from "./i18n.js";
import { layout } from "./layout.js";
import { prefs, reducedMotion } from "./prefs.js";
import { TableRenderer } from "./render.js";
import {
  copyLink, entryOf, errorText, number, optionsLabel, playAgainLink, request, shareUrl, time,
} from "./stats.js";

const AUTOPLAY_MS = 700;
const ICONS = { first: "⇤", back: "←", play: "▶", pause: "❚❚", forward: "→", last: "⇥" };

class ReplayPage {
  constructor(main, games, id, params) {
    this.main = main;
    this.games = games;
    this.id = id;
    const asked = Number(params.get("step"));
    this.step = Number.isInteger(asked) && asked >= 0 ? asked : 0;
    this.views = new Map(); // step → view
    this.data = null;
    this.shown = -1;
    this.want = this.step;
    this.loading = false;
    this.timer = null;
    this.onKey = (e) => this.key(e);
    this.onResize = () => this.draw(true);
  }

  destroy() {
    this.stop();
    document.removeEventListener("keydown", this.onKey);
    window.removeEventListener("resize", this.onResize);
  }

  url(step) {
    return `/api/games/${encodeURIComponent(this.id)}/replay?step=${step}`;
  }

  async load() {
    this.main.replaceChildren(h("p", {}, t("loading")));
    try {
      this.data = await request("GET", this.url(this.step));
    } catch (e) {
      const text = e.status === 404 ? t("replay.notfound") : errorText(e);
      this.main.replaceChildren(
        h("h1", {}, t("notfound.title")),
        h("p.message.error", { role: "alert" }, text),
        h("p", {}, h("a", { href: "/history" }, t("nav.history"))),
      );
      return;
    }
    this.step = this.data.step;
    this.want = this.step;
    this.views.set(this.step, this.data.view);
    this.build();
    document.addEventListener("keydown", this.onKey);
    window.addEventListener("resize", this.onResize);
    this.show(this.step, true);
  }

  build() {
    const d = this.data;
    const entry = entryOf(this.games, d.game);
    this.entry = entry;
    const heading = t("replay.title", { title: title(entry), deal: d.deal });
    document.title = `${heading} · ${t("brand")}`;
    const opts = optionsLabel(entry, d.options);
    const b = (key, fn) =>
      h("button.btn", { type: "button", "data-action": key, onclick: fn, "aria-label": t(`replay.${key}`) },
        h("span.icon", { "aria-hidden": "true" }, ICONS[key]), h("span.label", {}, t(`replay.${key}`)));
    this.els = {
      first: b("first", () => this.go(0)),
      back: b("back", () => this.go(this.want - 1)),
      play: b("play", () => this.toggle()),
      forward: b("forward", () => this.go(this.want + 1)),
      last: b("last", () => this.go(d.steps)),
      slider: h("input", {
        type: "range", min: "0", max: String(d.steps), value: String(this.step), step: "1",
        "aria-label": t("replay.slider"), id: "replay-slider",
      }),
      status: h("p.replay-step", { "aria-live": "polite", id: "replay-step" }),
    };
    this.els.play.setAttribute("aria-pressed", "false");
    this.els.slider.addEventListener("input", () => this.go(Number(this.els.slider.value)));
    const figures = [
      h("span", { class: `result ${d.result}`, "data-stat": "result" }, t(`result.${d.result}`)),
      h("span", { "data-stat": "time" }, `${t("col.time")}: ${time(d.time_ms)}`),
      h("span", { "data-stat": "moves" }, `${t("col.moves")}: ${number(d.steps)}`),
      h("span", { "data-stat": "score" }, `${t("col.score")}: ${number(d.score)}`),
      h("span", { "data-stat": "hints" }, `${t("col.hints")}: ${number(d.hints)}`),
      h("span", { "data-stat": "undos" }, `${t("col.undos")}: ${number(d.undos)}`),
    ];
    const links = [playAgainLink(entry, d, t("act.play"), { "data-action": "play-fresh" }), h("a", { href: "/history" }, t("nav.history"))];
    if (d.result !== "playing") {
      const item = { ...d, moves: d.steps };
      links.splice(1, 0, h("button.linkish", { type: "button", "data-action": "share", onclick: () => copyLink(shareUrl(entry, item)) }, t("act.share")));
    }
    this.tableEl = h("section.table.replay-table", { "aria-label": heading, "data-game": d.game });
    this.main.replaceChildren(
      h(
        "div.replay-page",
        {},
        h("div.replay-head", {}, h("h1", {}, heading), opts ? h("p.opts", {}, opts) : null, h("p.replay-figures", {}, figures)),
        h(
          "div.replay-controls",
          { role: "toolbar", "aria-label": heading },
          h("div.group", {}, this.els.first, this.els.back, this.els.play, this.els.forward, this.els.last),
          this.els.slider,
          this.els.status,
        ),
        h("div.replay-felt", {}, h("div.table-wrap", {}, this.tableEl)),
        h("p.replay-links", {}, links),
      ),
    );
    this.renderer = new TableRenderer(this.tableEl);
  }

  /** Ask for step k (clamped); the latest request wins, one fetch at a time. */
  go(k, { fromTimer = false } = {}) {
    if (!this.data) return;
    if (!fromTimer) this.stop();
    this.want = Math.max(0, Math.min(this.data.steps, k));
    this.els.slider.value = String(this.want);
    this.pump();
  }

  async pump() {
    if (this.loading) return;
    while (this.want !== this.shown) {
      const k = this.want;
      if (!this.views.has(k)) {
        this.loading = true;
        try {
          const r = await request("GET", this.url(k));
          this.views.set(r.step, r.view);
        } catch (e) {
          this.loading = false;
          this.stop();
          this.els.status.textContent = errorText(e);
          return;
        }
        this.loading = false;
        if (this.want !== k) continue;
      }
      this.show(k, false);
    }
  }

  show(k, instant) {
    this.step = k;
    this.shown = k;
    this.draw(instant || Math.abs(k - this.drawnStep) > 1);
    const n = this.data.steps;
    const move = k > 0 ? this.data.moves[k - 1] : null;
    this.els.status.textContent = k === 0 ? t("replay.start", { n }) : `${t("replay.step", { k, n })}: ${move}`;
    this.els.first.disabled = this.els.back.disabled = k === 0;
    this.els.forward.disabled = this.els.last.disabled = k === n;
    this.els.play.disabled = n === 0;
    this.els.slider.value = String(k);
    this.tableEl.dataset.step = String(k);
    const url = `/replay/${encodeURIComponent(this.id)}${k ? `?step=${k}` : ""}`;
    if (location.pathname + location.search !== url) history.replaceState(null, "", url);
  }

  draw(instant) {
    const view = this.views.get(this.step);
    if (!view || !this.tableEl.isConnected) return;
    const wrap = this.tableEl.parentElement;
    const box = wrap.getBoundingClientRect();
    const width = Math.max(320, wrap.clientWidth);
    const height = Math.max(320, window.innerHeight - (box.top + window.scrollY) - 60);
    const geom = layout(view, width, height, !!prefs().large);
    this.tableEl.classList.toggle("small", geom.c.w < 64);
    this.renderer.render(view, geom, { instant: instant || reducedMotion() });
    this.drawnStep = this.step;
  }

  toggle() {
    if (this.timer) return this.stop();
    if (this.want >= this.data.steps) this.go(0);
    this.label(this.els.play, "pause");
    this.els.play.setAttribute("aria-pressed", "true");
    announce(t("replay.play"));
    this.timer = setInterval(() => {
      if (this.loading) return;
      if (this.want >= this.data.steps) return this.stop();
      this.go(this.want + 1, { fromTimer: true });
    }, AUTOPLAY_MS);
    return null;
  }

  label(button, key) {
    button.querySelector(".icon").textContent = ICONS[key];
    button.querySelector(".label").textContent = t(`replay.${key}`);
    button.setAttribute("aria-label", t(`replay.${key}`));
  }

  stop() {
    if (!this.timer) return;
    clearInterval(this.timer);
    this.timer = null;
    if (this.els) {
      this.label(this.els.play, "play");
      this.els.play.setAttribute("aria-pressed", "false");
    }
  }

  key(e) {
    if (e.altKey || e.ctrlKey || e.metaKey || document.querySelector("dialog[open]")) return;
    const tag = (e.target && e.target.tagName) || "";
    if (["INPUT", "TEXTAREA", "SELECT"].includes(tag)) return; // the slider has its own keys
    const k = e.key;
    if (k === "ArrowRight") this.go(this.want + 1);
    else if (k === "ArrowLeft") this.go(this.want - 1);
    else if (k === "Home") this.go(0);
    else if (k === "End") this.go(this.data.steps);
    else if (k === " " && tag !== "BUTTON" && tag !== "A") this.toggle();
    else return;
    e.preventDefault();
  }
}

export async function showReplay(main, games, id, params) {
  document.title = `${t("act.replay")} · ${t("brand")}`;
  const page = new ReplayPage(main, games, id, params);
  await page.load();
  return page;
}
