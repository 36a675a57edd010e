"""Knowledge for up-and-down foundations (Nivernais): which foundation moves are forced,
and which columns the rules can no longer tell apart.

Each suit has an up foundation (Ace→King) and a down one (King→Ace); a win puts exactly
one copy of every card on each. With the up foundation at rank ``u`` (0 when empty) and
the down one at ``d`` (14 when empty), a card of rank ``r`` has two homes while
``u < r < d`` and a single one once its twin is on a foundation (``r <= u`` or
``r >= d``). See ``docs/solver.md`` ("Nivernais") for why each rule keeps a win.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

from pasyans.engine.moves import Move
from pasyans.position import State
from pasyans.rules.spec import GameSpec, PileKind


def final_pass(spec: GameSpec, state: State) -> bool:
    """No redeal is left: columns never get regathered, so their order no longer matters
    for the stock (only the deals still left in it go by place)."""
    return state.redeals >= spec.passes - 1


def settled(spec: GameSpec, state: State) -> bool:
    """Final pass and an empty stock: nothing is ever dealt or refilled again."""
    return final_pass(spec, state) and not state.piles[spec.index["stock"]]


def forced_move(
    spec: GameSpec,
    state: State,
    moves: list[Move],
    foundations: tuple[int, ...],
    reserves: tuple[int, ...],
    columns: tuple[int, ...],
) -> Move | None:
    """A foundation move that can be played at once without losing a win, or None.

    - a reserve cell's card whose twin is on a foundation or in another cell
      (any foundation that takes it);
    - in the final pass, a column's top card whose twin is on a foundation, when the card
      is not alone in its column or the stock is empty (no refill is triggered).
    """
    piles = state.piles
    placed: set[int] | None = None
    cell_cards: list[int] | None = None
    final = final_pass(spec, state)
    stock_empty = not piles[spec.index["stock"]]
    for m in moves:
        if m.dst is None:
            continue
        src = spec.index[m.src]
        pile = piles[src]
        card = pile[-1]
        if src in reserves:
            if placed is None:
                placed = {c for f in foundations for c in piles[f]}
            if card in placed:
                return m
            if cell_cards is None:
                cell_cards = [piles[r][-1] for r in reserves if piles[r]]
            if cell_cards.count(card) >= 2:
                return m
        elif src in columns and final and (stock_empty or len(pile) > 1):
            if spec.piles[spec.index[m.dst]].kind is not PileKind.FOUNDATION:
                continue
            if placed is None:
                placed = {c for f in foundations for c in piles[f]}
            if card in placed:
                return m
    return None


def _route_needs(card: int, up: list[int], down: list[int]) -> list[range]:
    """The ranks (1-13) that must reach a foundation before ``card`` can, one range per
    foundation still open to it."""
    r, s = (card >> 2) + 1, card & 3
    out = []
    if r > up[s]:
        out.append(range(up[s] + 1, r))
    if r < down[s]:
        out.append(range(r + 1, down[s]))
    return out


def dead(
    spec: GameSpec,
    state: State,
    foundations: tuple[int, ...],
    reserves: tuple[int, ...],
    columns: tuple[int, ...],
) -> bool:
    """Whether the position provably cannot be won (final pass only; see docs/solver.md).

    A card is *blocked* in column ``c`` when each foundation open to it first needs some
    card all of whose copies still in play lie deeper in ``c``; it is released no sooner
    than the shallowest such copy (``R``) is reached. Every column card above ``R`` must
    leave first, so a blocked card sits in a reserve cell from when it leaves until then.
    If digging ``c`` past some depth needs more cells at once than there are, the game is
    lost.

    Long because the blocked cards, their release depths and the cells needed per column are
    one argument (the proof in docs/solver.md) over the same local tables.
    """
    if not final_pass(spec, state):
        return False
    piles = state.piles
    up = [len(piles[f]) for f in foundations[:4]]
    down = [14 - len(piles[f]) for f in foundations[4:]]
    # Where the copies still in play are: one column and its shallowest index, or -1
    # when some copy is elsewhere (another column, a cell, the stock).
    col_of: dict[int, int] = {}
    shallow: dict[int, int] = {}
    for c in columns:
        for i, card in enumerate(piles[c]):
            prev = col_of.get(card)
            if prev is None:
                col_of[card] = c
                shallow[card] = i
            elif prev != c:
                col_of[card] = -1
            else:
                shallow[card] = i
    cell_cards = [piles[r][-1] for r in reserves if piles[r]]
    for card in cell_cards:
        col_of[card] = -1
    for card in piles[spec.index["stock"]]:
        col_of[card] = -1
    # Per column and suit, the (rank, shallowest index) of cards found only there.
    only: dict[int, dict[int, list[tuple[int, int]]]] = {c: {} for c in columns}
    for card, c in col_of.items():
        if c >= 0:
            only[c].setdefault(card & 3, []).append(((card >> 2) + 1, shallow[card]))

    def release(held: dict[int, list[tuple[int, int]]], card: int) -> int:
        """The depth of the column to reach before ``card`` can go up, or -1."""
        s = card & 3
        here = held.get(s)
        if not here:
            return -1
        worst = -1
        for ranks in _route_needs(card, up, down):
            need = -1
            for k, i in here:
                if k in ranks and (need < 0 or i < need):
                    need = i
            if need < 0:
                return -1  # this foundation does not wait on the column
            worst = max(worst, need)
        return worst

    cells = len(reserves)
    for c in columns:
        held = only[c]
        pile = piles[c]
        if not held or len(pile) < 2:
            continue
        deepest = min(i for here in held.values() for _, i in here)
        waits = functools.partial(release, held)
        if cells_overflow(pile, cell_cards, deepest, waits, cells):
            return True
    return False


def cells_overflow(
    pile: Sequence[int],
    cell_cards: Sequence[int],
    deepest: int,
    release: Callable[[int], int],
    cells: int,
) -> bool:
    """Whether digging ``pile`` down to its cards needs more than ``cells`` cells at
    once. ``release(card)``: the depth of the column to reach before ``card`` can go up,
    or -1 when it does not wait on this column. A card already in a cell waits there
    until its depth is reached; a card of the column above ``deepest`` (the deepest card
    the foundations wait for) whose depth lies below its own must wait in a cell from its
    own index to that depth."""
    # waiting[q] (a difference array): cards in a cell when index q leaves.
    waiting = [0] * (len(pile) + 1)
    for card in cell_cards:
        rel = release(card)
        if rel >= 0:
            waiting[rel + 1] += 1
    for j in range(deepest + 1, len(pile)):
        rel = release(pile[j])
        if 0 <= rel < j:
            waiting[rel + 1] += 1
            waiting[j + 1] -= 1
    running = 0
    for q in range(len(pile)):
        running += waiting[q]
        if running > cells:
            return True
    return False
