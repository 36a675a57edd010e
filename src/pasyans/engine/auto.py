"""Safe auto-moves: foundation moves no later play can regret (``docs/rules-decisions.md``).

A card is *safe* to send up when no later play can need it on the table:

- foundations that build up in suit from any Ace (Spine, Backbone, Backbone classic): an
  Ace always; any other card once both copies of the card one rank lower in its suit are
  on the foundations (nothing can be built on it any more, and the only cards that could
  come back down onto it in Backbone are those two, which nothing then needs either);
- up-and-down foundations fixed by suit (Nivernais): a card has one foundation left once
  its twin is on a foundation (the twin took the other one). Such a card in a reserve cell
  is safe (cells are never regathered), and so is a pair of twins both in cells. A column
  card is safe only in the last pass (no redeal will regather the columns) and when taking
  it triggers no refill (it is not alone in its column, or the stock is empty);
- Spider has no foundations: completed runs already leave by themselves.

The rule is checked against an exhaustive search on end games of every game
(``tests/engine/test_engine_auto.py``): an auto-move never turns a winnable position into
a lost one.
"""

from __future__ import annotations

from pasyans.cards import Card
from pasyans.engine.core import apply, foundation_targets
from pasyans.engine.moves import Move
from pasyans.position import State
from pasyans.rules.spec import Foundations, GameSpec, PileKind

LIMIT = 104
"""At most this many auto-moves follow one move (a table holds 104 cards)."""


def safe_move(spec: GameSpec, state: State) -> Move | None:
    """The first safe foundation move (by source pile, then the leftmost foundation that
    takes the card), or None."""
    if spec.foundations is Foundations.NONE:
        return None
    feeds = spec.feeds.get(PileKind.FOUNDATION, frozenset())
    targets = foundation_targets(spec, state)
    if not targets:
        return None
    found = spec.indexes_of(PileKind.FOUNDATION)
    placed: dict[Card, int] | None = None
    for i, p in enumerate(spec.piles):
        pile = state.piles[i]
        if p.kind not in feeds or not pile or state.down[i] >= len(pile):
            continue
        if p.locked_by is not None and state.piles[spec.index[p.locked_by]]:
            continue
        card = pile[-1]
        fs = targets.get(card)
        if not fs:
            continue
        if placed is None:
            placed = _on_foundations(state, found)
        if _safe(spec, state, i, card, placed):
            return Move(p.id, spec.piles[fs[0]].id, 1)
    return None


def _on_foundations(state: State, found: tuple[int, ...]) -> dict[Card, int]:
    """How many copies of each card are on the foundations."""
    out: dict[Card, int] = {}
    for f in found:
        for c in state.piles[f]:
            out[c] = out.get(c, 0) + 1
    return out


def _safe(spec: GameSpec, state: State, i: int, card: Card, placed: dict[Card, int]) -> bool:
    if spec.foundations is Foundations.UP:
        return card >> 2 == 0 or placed.get(card - 4, 0) >= 2
    # Foundations.UP_DOWN (Nivernais): the twin must already be on a foundation, or both
    # twins wait in cells (either may then take either foundation: they are alike).
    kind = spec.piles[i].kind
    if kind is PileKind.RESERVE:
        if placed.get(card, 0) >= 1:
            return True
        cells = [state.piles[r][-1] for r in spec.indexes_of(PileKind.RESERVE) if state.piles[r]]
        return cells.count(card) >= 2
    if kind is PileKind.COLUMN:
        if placed.get(card, 0) < 1 or state.redeals < spec.passes - 1:
            return False
        stock = state.piles[spec.index["stock"]] if spec.has_pile("stock") else ()
        return not stock or len(state.piles[i]) > 1
    return False


def follow_ups(spec: GameSpec, state: State, after: Move) -> list[Move]:
    """The safe auto-moves that follow ``after`` from ``state`` (the position after it),
    in order. None after a move off a foundation: the player took that card down on
    purpose, and it must not fly straight back."""
    if after.dst is not None and spec.piles[spec.index[after.src]].kind is PileKind.FOUNDATION:
        return []
    out: list[Move] = []
    while len(out) < LIMIT:
        m = safe_move(spec, state)
        if m is None:
            break
        out.append(m)
        state = apply(spec, state, m)
    return out
