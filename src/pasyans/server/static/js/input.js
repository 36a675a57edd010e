// Pointer input on the table: press, tap/click, double-click, drag and drop (mouse, touch,
// pen). It knows nothing of the rules: `targets(pile, index)` says where a unit may go (to
// mark those piles while dragging), and every tap or drop goes to the controller, which
// queues it.
//
// - A press on a face-up card shows it held at once (class `held`), whatever is going on.
// - A press that moved past the threshold is a drag: the cards follow the pointer. Let go,
//   the drop goes to the controller with the pile it was let go over, even while a request
//   is out (then the cards glide back and the drop waits its turn).
// - The browser's click that follows a drag is not a tap: it is never taken at the point
//   where the drag ended.

const THRESHOLD = 6; // px before a press becomes a drag

function cardInfo(el) {
  const card = el.closest(".card");
  const pile = el.closest(".pile");
  if (!pile) return null;
  return {
    pile: pile.dataset.pile,
    index: card ? Number(card.dataset.index) : null,
    faceUp: card ? card.classList.contains("up") : false,
    code: card ? card.dataset.card || null : null,
    card,
  };
}

export class TableInput {
  /**
   * @param renderer TableRenderer
   * @param handlers {ready() -> bool, busy() -> bool, targets(pile, index) -> [pileId],
   *   click(info, event), dblclick(info), drop({pile, index, code, card, target}) ->
   *   Promise<boolean>, settle()}
   */
  constructor(renderer, handlers) {
    this.r = renderer;
    this.h = handlers;
    this.press = null; // the press in progress
    this.presses = new Map(); // pointerId -> the last press of that pointer {x, y, moved}
    const root = renderer.root;
    root.addEventListener("pointerdown", (e) => this.down(e));
    root.addEventListener("click", (e) => this.click(e), true);
    root.addEventListener("dblclick", (e) => this.dblclick(e));
    // Keys are the controller's (table-keys.js): Enter picks up, M plays the smart move.
    this.onMove = (e) => this.move(e);
    this.onUp = (e) => this.up(e);
    this.onCancel = (e) => this.cancel(e);
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
    // Kept by pointer until its click: a tap's click may come after the next finger's
    // press has begun (touch), and must be judged by its own press.
    this.presses.delete(e.pointerId);
    this.presses.set(e.pointerId, { x: e.clientX, y: e.clientY, moved: false });
    while (this.presses.size > 8) this.presses.delete(this.presses.keys().next().value);
    window.addEventListener("pointermove", this.onMove);
    window.addEventListener("pointerup", this.onUp);
    window.addEventListener("pointercancel", this.onCancel);
    if (!this.h.ready()) return;
    const target = this.settledTarget(e);
    const info = target && cardInfo(target);
    if (!info || !info.card || !info.faceUp) return;
    this.press = { ...info, id: e.pointerId, x0: e.clientX, y0: e.clientY, dragging: false };
    // Held, within this frame: the card answers the finger before anything else does.
    for (const q of this.unit()) q.el.classList.add("held");
  }

  unit(p = this.press) {
    return this.r.cardsOf(p.pile).filter((q) => q.index >= p.index);
  }

  move(e) {
    const l = this.presses.get(e.pointerId);
    if (l && Math.hypot(e.clientX - l.x, e.clientY - l.y) >= THRESHOLD) l.moved = true;
    const p = this.press;
    if (!p || e.pointerId !== p.id) return;
    const dx = e.clientX - p.x0;
    const dy = e.clientY - p.y0;
    if (!p.dragging) {
      if (Math.hypot(dx, dy) < THRESHOLD) return;
      p.dragging = true;
      p.targets = this.h.busy() ? [] : this.h.targets(p.pile, p.index);
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
    if (over && p.targets.includes(over)) this.r.markPile(over, "over");
  }

  /** The pile the dragged unit is over: the pile under the pointer, else the pile its
   * cards overlap most (a sixth of a card at least). Any pile: whether the move is legal
   * is the controller's to say, when the drop's turn comes. */
  targetAt(e, p = this.press) {
    const box = this.r.root.getBoundingClientRect();
    const px = e.clientX - box.left;
    const py = e.clientY - box.top;
    const c = this.r.geom.c;
    const first = this.unit(p)[0];
    const cx1 = first.x + p.dx;
    const cy1 = first.y + p.dy;
    const piles = Object.keys(this.r.geom.piles).filter((id) => id !== p.pile);
    // Legal targets first: where two piles' drop areas meet, the legal one wins.
    piles.sort((a, b) => (p.targets.includes(b) ? 1 : 0) - (p.targets.includes(a) ? 1 : 0));
    let best = null;
    let bestArea = 0;
    for (const t of piles) {
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
    if (!p || e.pointerId !== p.id) {
      if (!this.press) this.detach();
      return;
    }
    this.detach();
    this.press = null;
    const unit = this.unit(p);
    for (const q of unit) q.el.classList.remove("held");
    if (!p.dragging) {
      // A finger's tap acts on its release: the browser's click may come late, after the
      // next finger's press has begun. The click that follows is then not taken again.
      if (e.pointerType !== "mouse") {
        const l = this.presses.get(e.pointerId);
        if (l) l.tapped = true;
        const now = performance.now();
        const again = this.lastTap && now - this.lastTap.t < 400 && Math.hypot(e.clientX - this.lastTap.x, e.clientY - this.lastTap.y) < 24;
        this.lastTap = { t: now, x: e.clientX, y: e.clientY, n: again ? this.lastTap.n + 1 : 1 };
        this.h.click({ pile: p.pile, index: p.index, faceUp: p.faceUp, code: p.code, card: p.card }, { type: "tap", detail: this.lastTap.n });
      }
      return; // a mouse click: the click that follows plays it
    }
    const target = this.targetAt({ clientX: e.clientX, clientY: e.clientY }, p);
    this.r.clearMarks("target");
    this.r.clearMarks("over");
    const drag = { pile: p.pile, index: p.index, code: p.code, card: p.card, target };
    const now = target && p.targets.includes(target) && !this.h.busy();
    if (!now) {
      // Not a legal place now (or its turn is not yet): back to the pile at once; the
      // controller says why, or plays it when its turn comes.
      this.glideBack(unit);
      await this.h.drop(drag);
      return;
    }
    // The next drawing glides the cards on from where they were let go.
    for (const q of unit) {
      q.x += p.dx;
      q.y += p.dy;
    }
    const ok = await this.h.drop(drag);
    if (ok) return;
    for (const q of unit) {
      q.x -= p.dx;
      q.y -= p.dy;
    }
    this.glideBack(unit);
  }

  glideBack(unit) {
    for (const { el } of unit) {
      if (!el.isConnected) continue;
      el.classList.add("returning");
      el.classList.remove("dragging", "held");
      el.addEventListener("transitionend", () => el.classList.remove("returning"), { once: true });
      setTimeout(() => el.classList.remove("returning"), 400);
    }
  }

  cancel(e) {
    const p = this.press;
    const l = e && this.presses.get(e.pointerId);
    if (l) l.moved = true;
    this.detach();
    this.press = null;
    if (!p) return;
    const unit = this.unit(p);
    for (const q of unit) q.el.classList.remove("held");
    if (p.dragging) {
      this.r.clearMarks("target");
      this.r.clearMarks("over");
      this.glideBack(unit);
    }
  }

  detach() {
    window.removeEventListener("pointermove", this.onMove);
    window.removeEventListener("pointerup", this.onUp);
    window.removeEventListener("pointercancel", this.onCancel);
  }

  click(e) {
    // The click after a press that moved (a drag, on any card) is not a tap.
    const id = typeof e.pointerId === "number" && e.pointerId >= 0 ? e.pointerId : null;
    const l = id === null ? [...this.presses.values()].pop() : this.presses.get(id);
    if (id !== null) this.presses.delete(id);
    if (e.isTrusted && e.detail > 0 && l && (l.moved || l.tapped)) {
      e.stopPropagation();
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
