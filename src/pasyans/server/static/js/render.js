// Draws a player view into the table element and animates the change from the last one
// (FLIP: cards start where they were and glide to where they are now).
import { cardElement } from "./cards.js";
import { cardName, pileName, t, SUIT_SYMBOL } from "./i18n.js";
import { reducedMotion } from "./prefs.js";

function setPos(el, x, y) {
  el.style.setProperty("--x", `${x}px`);
  el.style.setProperty("--y", `${y}px`);
}

function pileLabel(id, pile) {
  const name = pileName(id, pile);
  const n = pile.cards.length;
  if (!n) return t("pile.empty", { name });
  const top = pile.cards[n - 1];
  let s = top ? t("pile.summary_top", { name, count: n, top: cardName(top) }) : t("pile.summary", { name, count: n });
  if (pile.locked) s += `, ${t("pile.locked")}`;
  return s;
}

export class TableRenderer {
  constructor(root) {
    this.root = root;
    this.placed = []; // [{pile, index, code, x, y}] of the last render
    this.geom = null;
  }

  /** Draw `view` laid out as `geom`; animate from the last render unless `instant`.
   * Returns how long the animation runs, in ms. */
  render(view, geom, { events = [], instant = false } = {}) {
    const old = this.placed;
    const animate = !instant && old.length > 0 && !reducedMotion();
    this.geom = geom;
    const root = this.root;
    root.replaceChildren();
    root.style.setProperty("--cw", `${geom.c.w}px`);
    root.style.setProperty("--ch", `${geom.c.h}px`);
    root.style.setProperty("--tw", `${geom.width}px`);
    root.style.setProperty("--th", `${geom.height}px`);
    root.style.setProperty("--strip", `${geom.c.strip || 16}px`);
    root.style.setProperty("--font", `${geom.c.font || 14}px`);
    if (geom.c.minUp) root.dataset.strip = String(geom.c.minUp); // the least visible strip
    root.classList.toggle("stack", geom.c.side === false);
    const placed = [];
    const byPile = {};
    for (const [id, pile] of Object.entries(view.piles)) {
      const g = geom.piles[id];
      if (!g) continue;
      const pel = document.createElement("div");
      pel.className = `pile kind-${pile.kind}`;
      pel.dataset.pile = id;
      pel.setAttribute("role", "group");
      pel.setAttribute("aria-label", pileLabel(id, pile));
      if (pile.locked) pel.classList.add("locked");
      if (g.chain) pel.classList.add("chain");
      if (g.across) pel.classList.add("across");
      if (g.stripH) pel.style.setProperty("--strip", `${g.stripH}px`);
      if (g.cw) {
        // Wider chain cells than the table's cards (layout.js, a narrow screen).
        pel.style.setProperty("--cw", `${g.cw}px`);
        pel.style.setProperty("--ch", `${g.ch}px`);
      }
      if (g.index) {
        pel.style.setProperty("--chain-font", `${g.index.font}px`);
        pel.classList.add(g.index.side ? "chain-side" : "chain-stack");
      }
      setPos(pel, g.x, g.y);
      const base = document.createElement("div");
      base.className = "pile-base";
      base.style.setProperty("--w", `${g.w}px`);
      base.style.setProperty("--h", `${g.h}px`);
      base.setAttribute("aria-hidden", "true");
      this.decorate(base, id, pile, view, g);
      pel.append(base);
      byPile[id] = [];
      pile.cards.forEach((code, i) => {
        const q = g.cards[i];
        const el = cardElement(code);
        el.dataset.index = String(i);
        setPos(el, q.x - g.x, q.y - g.y);
        el.style.setProperty("--z", String(q.z ?? i + 1));
        if (q.across) {
          el.classList.add("across");
          el.style.setProperty("--z", "80");
        }
        if (q.strip) el.classList.add("strip");
        pel.append(el);
        placed.push({ pile: id, index: i, code, x: q.x, y: q.y, z: q.z ?? i + 1, el });
        byPile[id].push(placed[placed.length - 1]);
      });
      root.append(pel);
    }
    this.placed = placed;
    this.byPile = byPile;
    return animate ? this.animate(old, placed, byPile, events) : 0;
  }

  decorate(base, id, pile, view, g) {
    if (pile.kind === "foundation" && pile.build && pile.suit) {
      const b = document.createElement("span");
      b.className = `fbadge ${pile.build} s-${pile.suit} ${pile.suit === "D" || pile.suit === "H" ? "red" : "black"}`;
      b.dataset.t = `${pile.build === "up" ? "↑ A" : "↓ K"}${SUIT_SYMBOL[pile.suit]}`;
      base.append(b);
      base.classList.add(`build-${pile.build}`);
    } else if (pile.kind === "foundation") {
      const mk = Object.assign(document.createElement("span"), { className: "mark" });
      mk.dataset.t = "A";
      base.append(mk);
    } else if (pile.kind === "stock") {
      // What the stock shows (deals, redeals or passes left) is the server's to say.
      const badge = view.stock && view.stock.badge;
      if (badge) {
        const b = document.createElement("span");
        b.className = "stock-badge";
        b.dataset.t = t(`stock.${badge.unit}`, { n: badge.n });
        base.append(b);
      }
      const n = pile.cards.length;
      const c = document.createElement("span");
      c.className = "stock-count";
      c.dataset.t = String(n);
      base.append(c);
      if (!n && view.stock && view.stock.action === "redeal") base.classList.add("can-redeal");
    } else if (pile.kind === "done") {
      for (let i = 0; i < 8; i++) {
        const s = document.createElement("span");
        s.className = "done-slot";
        s.style.setProperty("--i", String(i));
        base.append(s);
      }
    } else if (g.chain) {
      const s = document.createElement("span");
      s.className = "chain-label";
      s.dataset.t = t("pile.spine");
      base.append(s);
    }
  }

  animate(old, placed, byPile, events) {
    // Match every new card to where it was: same place first, then the same code.
    const oldAt = new Map(old.map((o) => [`${o.pile}/${o.index}`, o]));
    const oldByCode = new Map();
    const used = new Set();
    for (const o of old) {
      if (!o.code) continue;
      if (!oldByCode.has(o.code)) oldByCode.set(o.code, []);
      oldByCode.get(o.code).push(o);
    }
    const start = new Map();
    for (const p of placed) {
      const o = oldAt.get(`${p.pile}/${p.index}`);
      if (o && o.code === p.code) {
        start.set(p, { x: o.x, y: o.y, same: true });
        used.add(o);
      }
    }
    const stock = this.geom.piles.stock;
    for (const p of placed) {
      if (start.has(p)) continue;
      let from = null;
      if (p.code) from = (oldByCode.get(p.code) || []).find((o) => !used.has(o)) || null;
      if (from) {
        used.add(from);
        start.set(p, { x: from.x, y: from.y, z: from.z });
        continue;
      }
      const o = oldAt.get(`${p.pile}/${p.index}`);
      if (o && o.code === null && p.code) start.set(p, { x: o.x, y: o.y, flip: true });
      else if (stock) start.set(p, { x: stock.x, y: stock.y, flip: !!p.code });
    }
    // Arrivals get a step from the event that brought them, so follow-ups come after.
    const arrivals = {};
    for (const p of placed) {
      const s = start.get(p);
      if (!s || (s.same && s.x === p.x && s.y === p.y)) continue;
      (arrivals[p.pile] ||= []).push(p);
    }
    const step = new Map();
    const take = (pid, n, k) => {
      const list = arrivals[pid] || [];
      for (const p of list.filter((q) => !step.has(q)).slice(0, n)) step.set(p, k);
    };
    events.forEach((e, k) => {
      const pid = e.to || e.pile;
      if (e.type === "flip") take(e.pile, 1, k);
      else if (pid && pid !== "stock") take(pid, e.cards || 1, k);
      else if (e.type === "deal") {
        Object.keys(arrivals).forEach((id, j) => take(id, e.cards || 1, k + j * 0.25));
      }
    });
    let last = 0;
    for (const v of step.values()) last = Math.max(last, v);
    const ms = last > 8 ? Math.max(25, Math.min(90, 1800 / last)) : 170;
    for (const p of placed) {
      const s = start.get(p);
      if (!s) continue;
      const dx = s.x - p.x;
      const dy = s.y - p.y;
      if (!dx && !dy && !s.flip) continue;
      const k = step.has(p) ? step.get(p) : dx || dy ? 0 : last;
      p.el.style.setProperty("--fx", `${dx}px`);
      p.el.style.setProperty("--fy", `${dy}px`);
      p.el.style.setProperty("--delay", `${Math.round(k * ms)}ms`);
      if (s.z) p.el.style.setProperty("--zs", String(s.z));
      p.el.classList.add("from");
      if (s.flip) p.el.classList.add("flip-in");
    }
    if (!start.size) return 0;
    void this.root.offsetWidth; // commit the start positions
    for (const p of placed) {
      if (!p.el.classList.contains("from")) continue;
      p.el.classList.add("gliding");
      p.el.classList.remove("from");
      const done = () => p.el.classList.remove("gliding", "flip-in");
      p.el.addEventListener("transitionend", done, { once: true });
      setTimeout(done, Math.round(last * ms) + 600);
    }
    return Math.round(last * ms) + 260;
  }

  /** Every running animation ends at once: cards snap to their places (before an input
   * acts, so it never lands on a card in flight). */
  settle() {
    const moving = this.root.querySelectorAll(".card.gliding, .card.from, .card.flip-in, .card.returning");
    for (const el of moving) el.classList.remove("gliding", "from", "flip-in", "returning");
  }

  pileEl(id) {
    return this.root.querySelector(`.pile[data-pile="${id}"]`);
  }

  cardsOf(id) {
    return this.byPile?.[id] || [];
  }

  /** Table-relative rectangle a drop onto pile `id` may land in. */
  dropRect(id) {
    const g = this.geom.piles[id];
    const c = this.geom.c;
    let x1 = g.x;
    let y1 = g.y;
    let x2 = g.x + g.w;
    let y2 = g.y + g.h;
    for (const q of g.cards) {
      x2 = Math.max(x2, q.x + c.w);
      y2 = Math.max(y2, q.y + c.h);
    }
    return { x1: x1 - c.g / 2, y1: y1 - c.g / 2, x2: x2 + c.g / 2, y2: y2 + c.g / 2 };
  }

  clearMarks(cls) {
    for (const el of this.root.querySelectorAll(`.${cls}`)) el.classList.remove(cls);
  }

  markPile(id, cls) {
    this.pileEl(id)?.classList.add(cls);
  }

  markCards(id, fromIndex, cls) {
    for (const p of this.cardsOf(id)) if (p.index >= fromIndex) p.el.classList.add(cls);
  }
}
