// Inline SVG charts drawn here (no library): wins and losses per period, and the time of
// won games over time. Each function returns an <svg> sized to the width it is given.
const NS = "http://www.w3.org/2000/svg";

function el(name, attrs = {}, ...children) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) e.setAttribute(k, String(v));
  for (const c of children) if (c !== null && c !== undefined) e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return e;
}

function svgRoot(width, height, label) {
  return el("svg", {
    xmlns: NS,
    viewBox: `0 0 ${width} ${height}`,
    width,
    height,
    role: "img",
    "aria-label": label,
    class: "chart",
  });
}

const DAY = 86400000;

function startOf(unit, d) {
  const x = new Date(d);
  x.setHours(0, 0, 0, 0);
  if (unit === "week") x.setDate(x.getDate() - ((x.getDay() + 6) % 7));
  if (unit === "month") x.setDate(1);
  if (unit === "year") x.setMonth(0, 1);
  return x;
}

function next(unit, d) {
  const x = new Date(d);
  if (unit === "day") x.setDate(x.getDate() + 1);
  if (unit === "week") x.setDate(x.getDate() + 7);
  if (unit === "month") x.setMonth(x.getMonth() + 1);
  if (unit === "year") x.setFullYear(x.getFullYear() + 1);
  return x;
}

/** The period that keeps a span of dates to at most ~40 bars (local time). */
export function periodFor(first, last) {
  const days = (last - first) / DAY;
  if (days < 31) return "day";
  if (days < 7 * 30) return "week";
  if (days < 365 * 4) return "month";
  return "year";
}

/** Points [{at, result}] → [{start: Date, won, lost}] for every period from first to last. */
export function buckets(points, unit) {
  if (!points.length) return [];
  const times = points.map((p) => new Date(p.at).getTime());
  const first = startOf(unit, Math.min(...times));
  const last = Math.max(...times);
  const out = [];
  for (let d = first; d.getTime() <= last; d = next(unit, d)) out.push({ start: d, won: 0, lost: 0 });
  for (const p of points) {
    const t = new Date(p.at).getTime();
    let i = out.length - 1;
    while (i > 0 && out[i].start.getTime() > t) i--;
    if (p.result === "won") out[i].won++;
    else out[i].lost++;
  }
  return out;
}

function niceMax(v) {
  if (v <= 4) return Math.max(1, v);
  const step = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 2.5, 5, 10]) if (v <= m * step) return m * step;
  return v;
}

/**
 * Wins (up, green) and losses (down, red) per period.
 * opts: {width, height, label, formatPeriod(date, unit), labels: {won, lost}}
 */
export function winsLossesChart(points, opts) {
  const { width, height = 200 } = opts;
  const svg = svgRoot(width, height, opts.label);
  const pad = { l: 34, r: 8, t: 8, b: 22 };
  const times = points.map((p) => new Date(p.at).getTime());
  const unit = opts.unit || periodFor(Math.min(...times), Math.max(...times));
  const list = buckets(points, unit);
  const top = niceMax(Math.max(1, ...list.map((b) => b.won)));
  const bottom = niceMax(Math.max(1, ...list.map((b) => b.lost)));
  const plotH = height - pad.t - pad.b;
  const zero = pad.t + (plotH * top) / (top + bottom);
  const scale = plotH / (top + bottom);
  const plotW = width - pad.l - pad.r;
  const slot = plotW / list.length;
  const barW = Math.max(2, Math.min(28, slot * 0.7));
  const g = el("g", { class: "bars" });
  list.forEach((b, i) => {
    const x = pad.l + i * slot + (slot - barW) / 2;
    const name = opts.formatPeriod(b.start, unit);
    if (b.won) {
      g.append(el("rect", { class: "won", x, y: zero - b.won * scale, width: barW, height: b.won * scale },
        el("title", {}, `${name}: ${opts.labels.won} ${b.won}`)));
    }
    if (b.lost) {
      g.append(el("rect", { class: "lost", x, y: zero, width: barW, height: b.lost * scale },
        el("title", {}, `${name}: ${opts.labels.lost} ${b.lost}`)));
    }
  });
  const axes = el("g", { class: "axes" });
  axes.append(el("line", { x1: pad.l, x2: width - pad.r, y1: zero, y2: zero, class: "zero" }));
  axes.append(el("text", { x: pad.l - 6, y: pad.t + 10, "text-anchor": "end" }, `+${top}`));
  axes.append(el("text", { x: pad.l - 6, y: height - pad.b, "text-anchor": "end" }, `−${bottom}`));
  axes.append(el("text", { x: pad.l - 6, y: zero + 4, "text-anchor": "end" }, "0"));
  const ticks = list.length <= 1 ? [0] : [0, list.length - 1];
  if (list.length > 6 && width > 420) ticks.splice(1, 0, Math.floor((list.length - 1) / 2));
  for (const i of ticks) {
    const anchor = ticks.length > 1 && i === list.length - 1 ? "end" : i === 0 ? "start" : "middle";
    const x = anchor === "start" ? pad.l : anchor === "end" ? width - pad.r : pad.l + (i + 0.5) * slot;
    axes.append(el("text", { x, y: height - 6, "text-anchor": anchor }, opts.formatPeriod(list[i].start, unit)));
  }
  svg.append(axes, g);
  return svg;
}

const TIME_STEPS = [15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 18000, 36000].map((x) => x * 1000);

/** "m:ss" or "h:mm:ss" for an axis. */
function clock(ms) {
  const s = Math.round(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}

/**
 * The time of each won game (dots) and the best time so far (a step line), over the date
 * the game ended. opts: {width, height, label, formatDate(date), labels: {deal, best}}
 */
export function timeChart(points, opts) {
  const { width, height = 200 } = opts;
  const svg = svgRoot(width, height, opts.label);
  const wins = points.filter((p) => p.result === "won");
  const pad = { l: 46, r: 10, t: 10, b: 22 };
  const times = wins.map((p) => new Date(p.at).getTime());
  let t0 = Math.min(...times);
  let t1 = Math.max(...times);
  if (t1 - t0 < 60000) {
    t0 -= 60000;
    t1 += 60000;
  }
  const slowest = Math.max(...wins.map((p) => p.time_ms));
  const step = TIME_STEPS.find((ms) => slowest / ms <= 4) || TIME_STEPS[TIME_STEPS.length - 1];
  const top = Math.max(step, Math.ceil(slowest / step) * step);
  const x = (t) => pad.l + ((t - t0) / (t1 - t0)) * (width - pad.l - pad.r);
  const y = (ms) => height - pad.b - (ms / top) * (height - pad.t - pad.b);
  const axes = el("g", { class: "axes" });
  for (let ms = 0; ms <= top; ms += step) {
    axes.append(el("line", { x1: pad.l, x2: width - pad.r, y1: y(ms), y2: y(ms), class: ms ? "grid" : "zero" }));
    axes.append(el("text", { x: pad.l - 6, y: y(ms) + 4, "text-anchor": "end" }, clock(ms)));
  }
  axes.append(el("text", { x: pad.l, y: height - 6, "text-anchor": "start" }, opts.formatDate(new Date(t0))));
  axes.append(el("text", { x: width - pad.r, y: height - 6, "text-anchor": "end" }, opts.formatDate(new Date(t1))));
  svg.append(axes);
  let best = Infinity;
  const steps = [];
  for (const p of wins) {
    const px = x(new Date(p.at).getTime());
    if (p.time_ms < best) {
      if (steps.length) steps.push(`${px},${y(best)}`);
      best = p.time_ms;
      steps.push(`${px},${y(best)}`);
    }
  }
  if (steps.length) {
    steps.push(`${width - pad.r},${y(best)}`);
    svg.append(el("polyline", { class: "best", points: steps.join(" ") }, el("title", {}, opts.labels.best)));
  }
  const dots = el("g", { class: "dots" });
  for (const p of wins) {
    dots.append(
      el("circle", { cx: x(new Date(p.at).getTime()), cy: y(p.time_ms), r: 4 },
        el("title", {}, `${clock(p.time_ms)} · ${opts.labels.deal} ${p.deal} · ${opts.formatDate(new Date(p.at))}`)),
    );
  }
  svg.append(dots);
  return svg;
}
