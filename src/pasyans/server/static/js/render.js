// Draws a player view into the table element and animates the change from the last one
// (FLIP: cards start where they were and glide to where they are now).
import { cardElement } from "./cards.js";
import { cardName, pileName, t, SUIT_SYMBOL } from "./i18n.js";
import { reducedMotion } from "./prefs.js";

/** Set an inline custom property only when it changes: custom properties inherit, so
 * any write restyles everything under the element (a pile: all its cards). */
function setVar(el, k, v) {
  if (el.style.getPropertyValue(k) !== v) el.style.setProperty(k, v);
}

function unsetVar(el, k) {
  if (el.style.getPropertyValue(k)) el.style.removeProperty(k);
}

function setPos(el, x, y) {
  setVar(el, "--x", `${x}px`);
  setVar(el, "--y", `${y}px`);
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

// What a card element says of the moment rather than of the card: dropped when the element
// is drawn again. A card that stays in its place keeps its press and drag (`KEEP`).
const TRANSIENT = ["from", "gliding", "flip-in", "hint", "selected", "shake"];
const KEEP = ["held", "dragging", "returning"];

/** A card element of the last render, made ready to be drawn again (`stays`: at the same
 * place; else it moved, and anything a press or drag did to it is over). */
function reset(el, stays) {
  for (const k of [...TRANSIENT, ...(stays ? [] : KEEP)]) if (el.classList.contains(k)) el.classList.remove(k);
  for (const k of ["--fx", "--fy", "--delay", "--zs", ...(stays ? [] : ["--dx", "--dy"])]) unsetVar(el, k);
  el.setAttribute("role", "img");
  el.removeAttribute("tabindex");
  return el;
}

/** Make `kids` the children of `parent`, moving as few elements as it takes: those after
 * the first difference (re-inserting every child would restyle the whole pile). */
function setChildren(parent, kids) {
  const now = parent.children;
  // A pile's new base (its count or badge changed) takes the old one's place alone.
  const first = now[0];
  if (kids[0] && first && first !== kids[0] && first.classList.contains("pile-base") && kids[0].classList.contains("pile-base")) {
    first.replaceWith(kids[0]);
  }
  let k = 0;
  while (k < kids.length && now[k] === kids[k]) k++;
  while (now.length > k) now[now.length - 1].remove();
  if (k < kids.length) parent.append(...kids.slice(k));
}

const FRAME_MS = 16;

export class TableRenderer {
  constructor(root) {
    this.root = root;
    this.placed = []; // [{pile, index, code, x, y}] of the last render
    this.geom = null;
  }

  /** Draw `view` laid out as `geom`; animate from the last render unless `instant`.
   * Returns how long the animation runs, in ms.
   *
   * Only what changed is touched: a pile keeps its element, a card that stays where it
   * was keeps its element (and a press or drag on it), a card that moves takes its element
   * along, and only cards that appear (a turned card, a stock deal) are built. A move
   * therefore restyles a handful of elements, not the whole table, and its glide can start
   * in the frame of the tap. */
  render(view, geom, { events = [], instant = false } = {}) {
    const old = this.placed;
    const animate = !instant && old.length > 0 && !reducedMotion();
    this.geom = geom;
    const root = this.root;
    const vars = {
      "--cw": `${geom.c.w}px`, "--ch": `${geom.c.h}px`,
      "--strip": `${geom.c.strip || 16}px`, "--font": `${geom.c.font || 14}px`,
    };
    for (const [k, v] of Object.entries(vars)) setVar(root, k, v);
    // The table's size is no custom property: a column growing restyles the table alone.
    if (root.style.width !== `${geom.width}px`) root.style.width = `${geom.width}px`;
    if (root.style.height !== `${geom.height}px`) root.style.height = `${geom.height}px`;
    if (geom.c.minUp) root.dataset.strip = String(geom.c.minUp); // the least visible strip
    root.classList.toggle("stack", geom.c.side === false);
    // The last render's elements, to be taken again: by place, then by card.
    const oldAt = new Map();
    const oldByCode = new Map();
    for (const o of old) {
      oldAt.set(`${o.pile}/${o.index}`, o);
      if (o.code) (oldByCode.get(o.code) || oldByCode.set(o.code, []).get(o.code)).push(o);
    }
    // Cards in the same place keep their elements first; moved cards then take theirs.
    const stays = new Set();
    for (const [id, pile] of Object.entries(view.piles)) {
      pile.cards.forEach((code, i) => {
        const o = oldAt.get(`${id}/${i}`);
        if (o && o.code === code) stays.add(o);
      });
    }
    const taken = new Set(stays);
    const pileEls = this.pileEls || new Map();
    const placed = [];
    const byPile = {};
    const order = [];
    for (const [id, pile] of Object.entries(view.piles)) {
      const g = geom.piles[id];
      if (!g) continue;
      const pel = pileEls.get(id) || document.createElement("div");
      pileEls.set(id, pel);
      order.push(pel);
      const cls = [`pile kind-${pile.kind}`];
      if (pile.locked) cls.push("locked");
      if (g.chain) cls.push("chain");
      if (g.across) cls.push("across");
      if (g.index) cls.push(g.index.side ? "chain-side" : "chain-stack");
      if (pel.className !== cls.join(" ")) pel.className = cls.join(" ");
      pel.dataset.pile = id;
      pel.setAttribute("role", "group");
      pel.setAttribute("aria-label", pileLabel(id, pile));
      const own = {
        "--strip": g.stripH ? `${g.stripH}px` : null,
        // Wider chain cells than the table's cards (layout.js, a narrow screen).
        "--cw": g.cw ? `${g.cw}px` : null,
        "--ch": g.cw ? `${g.ch}px` : null,
        "--chain-font": g.index ? `${g.index.font}px` : null,
      };
      for (const [k, v] of Object.entries(own)) v === null ? unsetVar(pel, k) : setVar(pel, k, v);
      setPos(pel, g.x, g.y);
      const base = document.createElement("div");
      base.className = "pile-base";
      base.style.setProperty("--w", `${g.w}px`);
      base.style.setProperty("--h", `${g.h}px`);
      base.setAttribute("aria-hidden", "true");
      this.decorate(base, id, pile, view, g);
      // The pile's base as it was, when it shows the same (its focus and role are draw's).
      const was = pel.firstElementChild;
      const sig = base.outerHTML;
      const kids = [was && was.classList.contains("pile-base") && was.dataset.sig === sig ? was : base];
      kids[0].dataset.sig = sig;
      if (kids[0] === was) {
        for (const a of ["role", "tabindex", "aria-label"]) was.removeAttribute(a);
        was.setAttribute("aria-hidden", "true");
      }
      byPile[id] = [];
      pile.cards.forEach((code, i) => {
        const q = g.cards[i];
        const here = oldAt.get(`${id}/${i}`);
        const moved = here && here.code === code ? null : (oldByCode.get(code) || []).find((o) => !taken.has(o));
        let el;
        if (!moved && here && here.code === code) el = reset(here.el, true);
        else if (moved) {
          taken.add(moved);
          el = reset(moved.el, false);
        } else el = cardElement(code);
        el.dataset.index = String(i);
        setPos(el, q.x - g.x, q.y - g.y);
        setVar(el, "--z", q.across ? "80" : String(q.z ?? i + 1));
        el.classList.toggle("across", !!q.across);
        el.classList.toggle("strip", !!q.strip);
        el.classList.toggle("read", !!q.read); // covered, only read (layout.js)
        kids.push(el);
        placed.push({ pile: id, index: i, code, x: q.x, y: q.y, z: q.z ?? i + 1, el });
        byPile[id].push(placed[placed.length - 1]);
      });
      setChildren(pel, kids);
    }
    for (const id of [...pileEls.keys()]) if (!view.piles[id] || !geom.piles[id]) pileEls.delete(id);
    // The piles in the view's order; unchanged when they are (no element leaves the page).
    const now = [...root.children];
    if (now.length !== order.length || order.some((el, i) => now[i] !== el)) setChildren(root, order);
    this.pileEls = pileEls;
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
      // The first step starts one frame in: the first frame drawn after the tap already
      // shows the cards on their way, not still where they were.
      p.el.style.setProperty("--delay", `${k ? Math.round(k * ms) : -FRAME_MS}ms`);
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
