// The analysis page (docs/analysis.md): the chance the player could see, move by move, as
// an inline SVG chart; the marked moves; the verdict; the table at any position, "Show
// the way" (the solver's winning line, animated, with step and pause) and "Try again from
// here" (a practice game). Reached by its shared link, /analysis/<share>: that game alone.
import { title } from "./catalog.js";
import { announce, h } from "./dom.js";
import { t } from "./i18n.js";
import { layout } from "./layout.js";
import { prefs, reducedMotion } from "./prefs.js";
import { TableRenderer } from "./render.js";
import { copyLink, entryOf, errorText, optionsLabel, request } from "./stats.js";

const WAY_MS = 650;
const WAY_MS_REDUCED = 300; // no animation to wait for
// The slider's positions are requests of the `history` limit (120 a minute by default,
// docs/security.md): a drag asks for the position under it at most this often, and the
// last one when it stops; the way comes in chunks (GET /way), one request for many moves.
const SEEK_MS = 600;
const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
const SVG = "http://www.w3.org/2000/svg";

/** A move in words: its first card with its suit's sign, and where it went. */
export function playWords(text, cards) {
  const card = cards && cards[0] ? `${cards[0][0] === "T" ? "10" : cards[0][0]}${SUITS[cards[0][1]] || ""}` : "";
  const to = text.includes(">") ? text.split(">")[1].split(":")[0] : "";
  return card ? `${card} → ${to}` : text;
}

function svg(tag, attrs = {}, ...kids) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const kid of kids) if (kid) el.append(kid);
  return el;
}

/** A point's bounds on the chance (where samples were left undecided; an analysis stored
 * before they existed has only the chance). */
const lowOf = (p) => (p.low === undefined ? p.chance : p.low);
const highOf = (p) => (p.high === undefined ? p.chance : p.high);

/** How the chance was estimated, in words (an unknown method: its name). */
function methodWords(method) {
  const code = `analysis.method.${method}`;
  const words = t(code);
  return words === code ? method : words;
}

class AnalysisPage {
  constructor(main, games, share) {
    this.main = main;
    this.games = games;
    this.share = share;
    this.step = 0; // the game's position shown
    this.along = 0; // then moves of the winning line
    this.timer = null;
    this.poller = null;
    this.ahead = { step: -1, from: 0, views: [] }; // the way's views fetched in one request
    this.target = null; // the slider's position still to show
    this.seeking = null;
    this.seekAt = 0; // when the slider last asked for a position
    this.onResize = () => {
      this.draw(true);
      this.redrawChart();
    };
  }

  destroy() {
    this.pause();
    clearTimeout(this.poller);
    window.removeEventListener("resize", this.onResize);
  }

  api(tail = "") {
    return `/api/analyses/${encodeURIComponent(this.share)}${tail}`;
  }

  async load() {
    let a;
    try {
      a = await request("GET", this.api());
    } catch (e) {
      this.main.replaceChildren(h("h1", {}, t("analysis.title")),
        h("p.message.error", { role: "alert" }, e.status === 404 ? t("analysis.notfound") : errorText(e)));
      return;
    }
    if (a.status === "queued" || a.status === "running") {
      const pct = Math.round(100 * a.progress);
      this.main.replaceChildren(h("h1", {}, t("analysis.title")),
        h("p.analysis-progress", { role: "status", "data-progress": String(pct) },
          a.status === "queued" ? t("analysis.queued") : t("analysis.running", { percent: pct })),
        h("progress", { max: "100", value: String(pct), "aria-label": t("analysis.title") }));
      this.poller = setTimeout(() => this.load(), 1000);
      return;
    }
    if (a.status === "failed") {
      this.main.replaceChildren(h("h1", {}, t("analysis.title")),
        h("p.message.error", { role: "alert" }, t("analysis.failed", { message: a.error || "" })));
      return;
    }
    this.a = a;
    this.r = a.result;
    this.step = this.r.worst ? this.r.worst - 1 : 0;
    this.build();
    window.addEventListener("resize", this.onResize);
    await this.go(this.step, 0, true);
  }

  verdictText() {
    const v = this.r.verdict;
    const p = { ...v.params };
    if (p.text !== undefined) p.play = playWords(p.text, p.cards);
    return t(`analysis.verdict.${v.code}`, p);
  }

  build() {
    const r = this.r;
    const entry = entryOf(this.games, r.game);
    this.entry = entry;
    const heading = `${t("analysis.title")}: ${title(entry)} #${r.deal}`;
    document.title = `${heading} · ${t("brand")}`;
    const opts = optionsLabel(entry, r.options);
    const b = (action, key, fn) => h("button.btn", { type: "button", "data-action": action, onclick: fn }, t(key));
    this.els = {
      way: b("way", "analysis.show_way", () => this.toggleWay()),
      stepWay: b("step", "analysis.step", () => this.stepWay()),
      practice: b("practice", "analysis.try_again", () => this.practice()),
      share: b("share", "analysis.share", () => copyLink(`${location.origin}/analysis/${this.share}`)),
      status: h("p.analysis-step", { "aria-live": "polite", id: "analysis-step" }),
      slider: h("input", { type: "range", min: "0", max: String(r.moves), step: "1", value: String(this.step), "aria-label": t("replay.slider") }),
      error: h("p.message.error", { role: "alert", hidden: true }),
    };
    this.els.slider.addEventListener("input", () => this.seek(Number(this.els.slider.value)));
    this.tableEl = h("section.table.replay-table", { "aria-label": heading, "data-game": r.game });
    this.main.replaceChildren(h("div.analysis-page", {},
      h("div.replay-head", {}, h("h1", {}, heading), opts ? h("p.opts", {}, opts) : null),
      h("p.analysis-verdict", { "data-verdict": r.verdict.code }, this.verdictText()),
      this.chart(),
      this.marks(),
      h("div.replay-controls", { role: "toolbar", "aria-label": heading },
        this.els.slider, h("div.group", {}, this.els.way, this.els.stepWay, this.els.practice, this.els.share), this.els.status),
      this.els.error,
      h("div.replay-felt", {}, h("div.table-wrap", {}, this.tableEl)),
      h("p.analysis-note", {}, t("analysis.decided", { percent: Math.round(100 * r.decided), method: methodWords(r.method) })),
    ));
    this.renderer = new TableRenderer(this.tableEl);
  }

  /** The chance over the moves: a line where it is known, the outcome strip under it,
   * the graded moves as dots and the "lost here" move as a red line. */
  chart() {
    const r = this.r;
    const n = Math.max(1, r.moves);
    // As wide as the page (a phone's chart is not a shrunk desktop one), 150 units high.
    const W = Math.round(Math.max(320, Math.min(900, this.main.clientWidth || 600))), H = 150, top = 8, bottom = 118;
    this.chartWidth = this.main.clientWidth || 0;
    const x = (k) => 40 + (k / n) * (W - 50);
    const y = (c) => bottom - c * (bottom - top);
    const el = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "analysis-chart", role: "img", "aria-label": t("analysis.chart"), "data-chart": "chance" });
    el.append(svg("title", {}, t("analysis.chart")));
    for (const c of [0, 0.5, 1]) {
      el.append(svg("line", { x1: 40, x2: W - 10, y1: y(c), y2: y(c), class: "grid" }));
      const label = svg("text", { x: 36, y: y(c) + 4, class: "axis", "text-anchor": "end" });
      label.textContent = `${Math.round(c * 100)}%`;
      el.append(label);
    }
    // Where samples were left undecided, the chance lies between its bounds: a band.
    const lo = lowOf, hi = highOf;
    let run = [], banded = false;
    const closeBand = () => {
      if (run.some((k) => hi(r.points[k]) - lo(r.points[k]) > 0.001)) {
        const edge = (f, ks) => ks.map((k) => `${x(k).toFixed(1)},${y(f(r.points[k])).toFixed(1)}`).join(" ");
        el.append(svg("polygon", { points: `${edge(hi, run)} ${edge(lo, [...run].reverse())}`, class: "band" }));
        banded = true;
      }
      run = [];
    };
    r.points.forEach((p, k) => { if (lo(p) === null || hi(p) === null) closeBand(); else run.push(k); });
    closeBand();
    let path = "";
    r.points.forEach((p, k) => {
      if (p.chance === null) { path += " "; return; }
      const cmd = k === 0 || r.points[k - 1].chance === null ? "M" : "L";
      path += `${cmd}${x(k).toFixed(1)},${y(p.chance).toFixed(1)}`;
    });
    el.append(svg("path", { d: path.trim() || "M0,0", class: "chance" }));
    const w = Math.max(1, (W - 50) / (n + 1));
    r.points.forEach((p, k) => el.append(svg("rect", { x: x(k) - w / 2, y: 126, width: w, height: 10, class: `outcome ${p.outcome}` })));
    if (r.lost_at) {
      el.append(svg("line", { x1: x(r.lost_at), x2: x(r.lost_at), y1: top, y2: 138, class: "lost-here", "data-lost-at": r.lost_at },
        svg("title", {}, `${t("analysis.lost_here")}: ${r.lost_at}`)));
    }
    r.steps.forEach((s, i) => {
      if (!s.grade) return;
      const k = i + 1;
      const c = r.points[k].chance ?? hi(r.points[k]);  // a range: its top, the most left
      el.append(svg("circle", { cx: x(k), cy: y(c ?? 0), r: 5, class: `mark ${s.grade}`, "data-move": k },
        svg("title", {}, `${t(`analysis.grade.${s.grade}`)}: ${k}`)));
    });
    this.cursor = svg("line", { y1: top, y2: 138, class: "cursor" });
    el.append(this.cursor);
    el.addEventListener("click", (e) => {
      const box = el.getBoundingClientRect();
      const k = Math.round(((e.clientX - box.left) / box.width * W - 40) / (W - 50) * n);
      this.go(Math.max(0, Math.min(r.moves, k)), 0);
    });
    this.xOf = x;
    const swatch = (o) => h("span.swatch", { "data-outcome": o }, h("i", { class: `sw ${o}`, "aria-hidden": "true" }), t(`analysis.outcome.${o}`));
    const marks = ["inaccuracy", "mistake", "blunder"].map((g) => h("span.swatch", {}, h("i", { class: `sw dot ${g}`, "aria-hidden": "true" }), t(`analysis.grade.${g}`)));
    return h("figure.analysis-figure", {}, el, h("figcaption", {}, h("span", {}, t("analysis.chart")),
      h("span.legend", {}, t("analysis.legend"), " ", swatch("won"), swatch("lost"), swatch("unknown")), h("span.legend", {}, ...marks),
      banded ? h("span.legend", {}, h("span.swatch", { "data-band": "" }, h("i", { class: "sw band", "aria-hidden": "true" }), t("analysis.band"))) : null));
  }

  /** The chart again when the page's width changed (a phone turned, a window resized). */
  redrawChart() {
    const fig = this.main.querySelector(".analysis-figure");
    if (!fig || Math.abs((this.main.clientWidth || 0) - this.chartWidth) < 40) return;
    fig.replaceWith(this.chart());
    if (this.view) this.showStatus();
  }

  marks() {
    const r = this.r;
    const items = [];
    r.steps.forEach((s, i) => {
      const k = i + 1;
      if (!s.grade && k !== r.lost_at) return;
      const pct = (p) => {
        const lo = lowOf(p), hi = highOf(p), r100 = (c) => String(Math.round(100 * c));
        if (p.chance !== null) return r100(p.chance);
        return lo === null || hi === null ? "–" : `${r100(lo)}–${r100(hi)}`;
      };
      const what = [s.grade ? t(`analysis.grade.${s.grade}`) : null, k === r.lost_at ? t("analysis.lost_here") : null].filter(Boolean).join(" · ");
      items.push(h("li", { "data-move": String(k), class: s.grade || "lost" },
        h("button.linkish", { type: "button", onclick: () => this.go(k - 1, 0) }, t("analysis.move", { move: k, play: playWords(s.text, s.cards) })),
        ` ${what} (${t("analysis.drop", { before: pct(r.points[k - 1]), after: pct(r.points[k]) })})`));
    });
    return h("section.analysis-marks", {}, h("h2", {}, t("analysis.moves")),
      items.length ? h("ol", {}, items) : h("p", {}, t("analysis.no_marks")));
  }

  async go(step, along, instant = false, seeking = false) {
    if (along === 0) this.pause();
    try {
      const p = await request("GET", this.api(`/position?step=${step}&along=${along}`));
      this.step = p.step;
      this.along = p.along;
      this.wayLength = p.way;
      this.view = p.view;
    } catch (e) {
      // Dragging the slider and asked to slow down: seek() asks again after Retry-After.
      if (e.status === 429 && seeking) return e.retryAfter || 1;
      this.pause();
      this.els.error.hidden = false;
      this.els.error.textContent = errorText(e);
      return;
    }
    this.els.error.hidden = true;
    this.draw(instant || along === 0);
    this.showStatus();
    return 0;
  }

  showStatus() {
    const r = this.r;
    const k = this.step;
    this.els.slider.value = String(k);
    const x = this.xOf(k);
    this.cursor.setAttribute("x1", x);
    this.cursor.setAttribute("x2", x);
    const o = r.points[k].outcome;
    let text = k === 0 ? t("replay.start", { n: r.moves }) : t("analysis.position", { move: k });
    text += ` · ${t(`analysis.outcome.${o}`)}`;
    if (this.along) text += ` · ${t("analysis.show_way")}: ${this.along}/${this.wayLength}`;
    this.els.status.textContent = text;
    this.tableEl.dataset.step = String(k);
    this.tableEl.dataset.along = String(this.along);
    this.tableEl.dataset.won = String(!!this.view.flags.won);
    const noWay = this.wayLength === 0;
    this.els.way.disabled = this.els.stepWay.disabled = noWay || this.along >= this.wayLength;
    this.els.way.title = noWay ? t("analysis.no_way") : "";
  }

  draw(instant) {
    if (!this.view || !this.tableEl.isConnected) return;
    const wrap = this.tableEl.parentElement;
    const width = Math.max(320, wrap.clientWidth);
    const height = Math.max(320, Math.min(window.innerHeight * 0.8, 720));
    const geom = layout(this.view, width, height, !!prefs().large);
    this.tableEl.classList.toggle("small", geom.c.w < 64);
    this.renderer.render(this.view, geom, { instant: instant || reducedMotion() });
  }

  /** Where the slider was dragged: the position under it, at most one request per
   * SEEK_MS however fast it moves (the last position always), waiting out a 429. */
  seek(k) {
    this.target = k;
    if (this.seeking) return this.seeking;
    const sleep = (ms) => new Promise((done) => { setTimeout(done, ms); });
    this.seeking = (async () => {
      let shown = null;
      while (this.target !== shown) {
        await sleep(Math.max(0, SEEK_MS - (Date.now() - this.seekAt)));
        shown = this.target;
        this.seekAt = Date.now();
        const wait = await this.go(shown, 0, false, true);
        if (wait) { shown = null; await sleep(wait * 1000); }
      }
      this.seeking = null;
    })();
    return this.seeking;
  }

  /** The view ``along`` moves into the way, fetching the line's next chunk (one request
   * for up to 60 moves) when it is not here yet; the seconds to wait after a 429. */
  async wayView(along) {
    const a = this.ahead;
    if (a.step !== this.step || along <= a.from || along > a.from + a.views.length) {
      try {
        const w = await request("GET", this.api(`/way?step=${this.step}&along=${along - 1}`));
        this.ahead = { step: w.step, from: w.along, views: w.views };
        this.wayLength = w.way;
      } catch (e) {
        if (e.status === 429) return { wait: e.retryAfter || 1, error: e };
        this.pause();
        this.els.error.hidden = false;
        this.els.error.textContent = errorText(e);
        return { failed: true };
      }
    }
    const view = this.ahead.views[along - this.ahead.from - 1];
    return view ? { view } : { failed: true };
  }

  /** One move along the way, shown from the fetched chunk: 0 when shown, else the
   * seconds to wait (a 429) or null (no such move). */
  async advance() {
    if (this.along >= this.wayLength) return null;
    const got = await this.wayView(this.along + 1);
    if (got.wait) {
      this.lastError = got.error;
      return got.wait;
    }
    if (!got.view) return null;
    this.along += 1;
    this.view = got.view;
    this.els.error.hidden = true;
    this.draw(false);
    this.showStatus();
    return 0;
  }

  async stepWay() {
    this.pause();
    const wait = await this.advance();
    if (wait) {
      this.els.error.hidden = false;
      this.els.error.textContent = errorText(this.lastError);
    }
    return null;
  }

  toggleWay() {
    if (this.timer) return this.pause();
    this.els.way.textContent = t("analysis.pause");
    this.els.way.setAttribute("aria-pressed", "true");
    this.els.way.disabled = false;
    announce(t("analysis.show_way"));
    const tick = async () => {
      const wait = await this.advance();
      if (wait === null) return this.pause();
      const next = reducedMotion() ? WAY_MS_REDUCED : WAY_MS;
      if (this.timer) this.timer = setTimeout(tick, wait ? wait * 1000 : next);
      return null;
    };
    this.timer = setTimeout(tick, 0);
    return null;
  }

  pause() {
    if (!this.timer) return;
    clearTimeout(this.timer);
    this.timer = null;
    this.els.way.textContent = t("analysis.show_way");
    this.els.way.setAttribute("aria-pressed", "false");
    if (this.view) this.showStatus();
  }

  async practice() {
    this.pause();
    try {
      const g = await request("POST", this.api("/practice"), { step: this.step });
      const q = new URLSearchParams(g.options || {});
      q.set("id", g.id);
      window.dispatchEvent(new CustomEvent("pasyans:navigate", { detail: `/play/${g.game}?${q}` }));
    } catch (e) {
      this.els.error.hidden = false;
      this.els.error.textContent = errorText(e);
    }
  }
}

export async function showAnalysis(main, games, share) {
  document.title = `${t("analysis.title")} · ${t("brand")}`;
  const page = new AnalysisPage(main, games, share);
  await page.load();
  return page;
}
