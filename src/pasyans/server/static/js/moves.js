// Reading the view's legal-move list: the browser's only source of what may be played.

/** Number of cards that leave `pileId` when the card at `index` is taken. */
export function unitSize(view, pileId, index) {
  return view.piles[pileId].cards.length - index;
}

/** Legal moves of the card at (pileId, index), in smart-move order: foundations, then
 * non-empty columns, then empty columns, then reserve cells; ties by pile order. */
export function smartMoves(view, pileId, index) {
  const n = unitSize(view, pileId, index);
  const order = Object.keys(view.piles);
  const rank = (m) => {
    const dst = view.piles[m.json.to];
    let r = 3;
    if (dst.kind === "foundation") r = 0;
    else if (dst.kind === "column") r = dst.cards.length ? 1 : 2;
    return r * 100 + order.indexOf(m.json.to);
  };
  return view.moves
    .filter((m) => m.json.from === pileId && m.json.to && (m.json.cards ?? 1) === n)
    .sort((a, b) => rank(a) - rank(b));
}

/** Smart moves for clicking: empty piles of one kind are interchangeable, so only the
 * first of them is kept (cycling then visits only destinations that differ). */
export function clickMoves(view, pileId, index) {
  const seen = new Set();
  return smartMoves(view, pileId, index).filter((m) => {
    const dst = view.piles[m.json.to];
    if (dst.cards.length) return true;
    const key = `${dst.kind}/${dst.build || ""}/${dst.suit || ""}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Pile ids the unit at (pileId, index) may be dropped on. */
export function targetsOf(view, pileId, index) {
  return smartMoves(view, pileId, index).map((m) => m.json.to);
}

export function findMove(view, from, to, cards) {
  return view.moves.find((m) => m.json.from === from && m.json.to === to && (m.json.cards ?? 1) === cards) || null;
}

export function foundationMove(view, pileId, index) {
  return smartMoves(view, pileId, index).find((m) => view.piles[m.json.to].kind === "foundation") || null;
}

export function stockMove(view) {
  return view.moves.find((m) => m.json.from === "stock" && !m.json.to) || null;
}
