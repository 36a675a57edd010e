// Pointer input on the table: click/tap, double-click, drag and drop (mouse, touch, pen).
// It knows nothing of the rules: `targets(pile, index)` says where a unit may go.

const THRESHOLD = 6; // px before a press becomes a drag

function cardInfo(el) {
  const card = el.closest(".card");
  const pile = el.closest(".pile");
  if (!pile) return null;
  return {
    pile: pile.dataset.pile,
    index: card ? Number(card.dataset.index) : null,
    faceUp: card ? card.classList.contains("up") : false,
    card,
  };
}

export class TableInput {
  /**
   * @param renderer TableRenderer
   * @param handlers {targets(pile, index) -> [pileId], click(info, event), dblclick(info),
   *   drop(pile, index, target) -> Promise<boolean>, busy() -> bool, settle()}
   */
  constructor(renderer, handlers) {
    this.r = renderer;
    this.h = handlers;
    this.press = null;
    this.justDragged = false;
    const root = renderer.root;
    root.addEventListener("pointerdown", (e) => this.down(e));
    root.addEventListener("click", (e) => this.click(e));
    root.addEventListener("dblclick", (e) => this.dblclick(e));
    // Keys are the table page's (play.js): Enter picks up, M plays the smart move.
    this.onMove = (e) => this.move(e);
    this.onUp = (e) => this.up(e);
    this.onCancel = () => this.cancel();
  }

  /** The element really under the pointer once every animation has settled: a card still
   * gliding over the stock must not take a click meant for the stock. */
  settledTarget(e) {
    this.h.settle();
    if (!e.isTrusted || (e.type === "click" && e.detail === 0)) return e.target;
    const el = document.elementFromPoint(e.clientX, e.clientY);
    return el && this.r.root.contains(el) ? el : null;
  }

  down(e) {
    if (e.button !== 0 || this.press) return;
    const target = this.settledTarget(e);
    if (!target || this.h.busy()) return; // while busy a press is a click: it is queued
    const info = cardInfo(target);
    this.justDragged = false;
    if (!info || !info.card || !info.faceUp) return;
    const targets = this.h.targets(info.pile, info.index);
    if (!targets.length) return;
    this.press = { ...info, id: e.pointerId, x0: e.clientX, y0: e.clientY, targets, dragging: false };
    window.addEventListener("pointermove", this.onMove);
    window.addEventListener("pointerup", this.onUp);
    window.addEventListener("pointercancel", this.onCancel);
  }

  unit(p = this.press) {
    return this.r.cardsOf(p.pile).filter((q) => q.index >= p.index);
  }

  move(e) {
    const p = this.press;
    if (!p || e.pointerId !== p.id) return;
    const dx = e.clientX - p.x0;
    const dy = e.clientY - p.y0;
    if (!p.dragging) {
      if (Math.hypot(dx, dy) < THRESHOLD) return;
      p.dragging = true;
      for (const q of this.unit()) q.el.classList.add("dragging");
      for (const t of p.targets) this.r.markPile(t, "target");
    }
    e.preventDefault();
    p.dx = dx;
    p.dy = dy;
    for (const q of this.unit()) {
      q.el.style.setProperty("--dx", `${dx}px`);
      q.el.style.setProperty("--dy", `${dy}px`);
    }
    const over = this.targetAt(e);
    this.r.clearMarks("over");
    if (over) this.r.markPile(over, "over");
  }

  targetAt(e) {
    const p = this.press;
    const box = this.r.root.getBoundingClientRect();
    const px = e.clientX - box.left;
    const py = e.clientY - box.top;
    const c = this.r.geom.c;
    const first = this.unit()[0];
    const cx1 = first.x + p.dx;
    const cy1 = first.y + p.dy;
    let best = null;
    let bestArea = 0;
    for (const t of p.targets) {
      const r = this.r.dropRect(t);
      if (px >= r.x1 && px <= r.x2 && py >= r.y1 && py <= r.y2) return t;
      const w = Math.min(cx1 + c.w, r.x2) - Math.max(cx1, r.x1);
      const h = Math.min(cy1 + c.h, r.y2) - Math.max(cy1, r.y1);
      const area = w > 0 && h > 0 ? w * h : 0;
      if (area > bestArea) {
        bestArea = area;
        best = t;
      }
    }
    return bestArea > (c.w * c.h) / 6 ? best : null;
  }

  async up(e) {
    const p = this.press;
    if (!p || e.pointerId !== p.id) return;
    this.detach();
    if (!p.dragging) {
      this.press = null;
      return;
    }
    this.justDragged = true;
    const target = this.targetAt(e);
    this.r.clearMarks("target");
    this.r.clearMarks("over");
    if (target) {
      // The next render glides the cards from where they were dropped.
      for (const q of this.unit()) {
        q.x += p.dx;
        q.y += p.dy;
      }
      this.press = null;
      const ok = await this.h.drop(p.pile, p.index, target);
      if (ok) return;
      for (const q of this.unit(p)) {
        q.x -= p.dx;
        q.y -= p.dy;
      }
    } else {
      this.press = null;
    }
    this.glideBack(p);
  }

  glideBack(p) {
    const els = this.unit(p).map((q) => q.el);
    for (const el of els) {
      if (!el.isConnected) continue;
      el.classList.add("returning");
      el.classList.remove("dragging");
      el.addEventListener("transitionend", () => el.classList.remove("returning"), { once: true });
      setTimeout(() => el.classList.remove("returning"), 400);
    }
  }

  cancel() {
    const p = this.press;
    this.detach();
    this.press = null;
    if (p && p.dragging) {
      this.r.clearMarks("target");
      this.r.clearMarks("over");
      this.glideBack(p);
    }
  }

  detach() {
    window.removeEventListener("pointermove", this.onMove);
    window.removeEventListener("pointerup", this.onUp);
    window.removeEventListener("pointercancel", this.onCancel);
  }

  click(e) {
    if (this.justDragged) {
      this.justDragged = false;
      return;
    }
    const target = this.settledTarget(e);
    const info = target && cardInfo(target);
    if (info) this.h.click(info, e);
  }

  dblclick(e) {
    const target = this.settledTarget(e);
    const info = target && cardInfo(target);
    if (info && info.card) this.h.dblclick(info);
  }
}
