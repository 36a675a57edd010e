// Reading the view's legal-move list: the browser's only source of what may be played.
// The server decides every rule: `view.moves` lists the moves (each with the cards it
// carries), `view.smart` the order a click plays them in. Nothing here ranks or judges.

/** Number of cards that leave `pileId` when the card at `index` is taken. */
export function unitSize(view, pileId, index) {
  return view.piles[pileId].cards.length - index;
}

/** What clicks on the card at (pileId, index) play, in order (the server's smart-move
 * order, `view.smart`); the stock's click under the stock's key. */
export function clickMoves(view, pileId, index) {
  return (view.smart?.[`${pileId}:${index}`] || []).map((k) => view.moves[k]);
}

/** Every legal move of the unit at (pileId, index), in the view's order. */
export function movesOf(view, pileId, index) {
  const n = unitSize(view, pileId, index);
  return view.moves.filter((m) => m.json.from === pileId && m.json.to && (m.json.cards ?? 1) === n);
}

/** Pile ids the unit at (pileId, index) may be dropped on. */
export function targetsOf(view, pileId, index) {
  return movesOf(view, pileId, index).map((m) => m.json.to);
}

export function findMove(view, from, to, cards) {
  return view.moves.find((m) => m.json.from === from && m.json.to === to && (m.json.cards ?? 1) === cards) || null;
}

/** The move of the card at (pileId, index) onto a foundation, if it has one. */
export function foundationMove(view, pileId, index) {
  return movesOf(view, pileId, index).find((m) => view.piles[m.json.to].kind === "foundation") || null;
}

export function stockMove(view) {
  return view.moves.find((m) => m.json.from === "stock" && !m.json.to) || null;
}

/** The table as it will look once `move` (a card move of the view) is made, before the
 * server says what follows it (turned cards, completed runs, auto-moves): its cards leave
 * the top of their pile for the top of the destination. Null for a stock click (its cards
 * are hidden). */
export function afterMove(view, move) {
  const j = move.json || {};
  if (!j.to || !view.piles[j.from] || !view.piles[j.to]) return null;
  const n = j.cards ?? 1;
  const from = view.piles[j.from].cards;
  const cards = move.cards && move.cards.length === n ? move.cards : from.slice(from.length - n);
  if (cards.length !== n || cards.some((c) => !c)) return null;
  const piles = { ...view.piles };
  piles[j.from] = { ...piles[j.from], cards: from.slice(0, from.length - n) };
  piles[j.to] = { ...piles[j.to], cards: [...piles[j.to].cards, ...cards] };
  return { ...view, piles, moves: [], smart: {} };
}
