"""Nivernais' own search: packed positions and a best-first search over them.

The engine's ``legal_moves``/``apply`` expand about 3,200 Nivernais positions a CPU
second; this module's positions are plain tuples and its moves a few tuple slices, about
ten times as fast (docs/solver-nivernais.md, "Nivernais' packed search"). The engine stays the
reference: tests compare the children of both along random play-outs, and every winning
line found here is replayed through the engine (:func:`solve`) before it is returned.

A position is ``(columns, cells, up, down, stock, redeals)``: the six columns bottom to
top, the reserve cells' cards sorted (no rule reads a cell's place), the rank on top of
each suit's up foundation (0 when empty) and down foundation (14 when empty), the stock
(its last card dealt first) and the redeals used.

The search is best-first on :func:`score` (cards on the foundations first, free cells
next) with a table of every position reached: all children of a position are pushed when
it is expanded, so when the queue runs dry without a win the position is lost, exactly as
for the depth-first search of :mod:`pasyans.solver.search`. :func:`portfolio` runs it
once per score of :data:`WEIGHTS`, each with a share of the budget: the scores find
different wins, and each caps the positions spent on one final pass (:data:`CAP`: a
win, when there is one, usually depends on how the first two passes went). The pruning
rules are those of :mod:`pasyans.domains.updown` (forced moves, settled columns; its
dead-position test is here too, off by default: :data:`DEAD_TEST`), shown sound in
``docs/solver.md`` ("Nivernais").

Over 400 lines because a packed domain keeps its position layout, move generator, apply
and search together: they share the tuple layout, and the engine-comparison test reads
them as one unit.
"""

from __future__ import annotations

import heapq
import time
from array import array
from collections.abc import Hashable
from typing import cast

from pasyans.domains._core_abi import NV_CELL_STEP, NV_STOCK_STEP
from pasyans.domains.built import compiled
from pasyans.domains.registry import NIVERNAIS, domain_for
from pasyans.domains.updown import cells_overflow
from pasyans.engine.core import apply, legal_moves
from pasyans.engine.moves import Move
from pasyans.position import State
from pasyans.rules.spec import GameSpec, PileKind

Cols = tuple[tuple[int, ...], ...]
Pos = tuple[Cols, tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...], int]

CELLS = 8
PER = 4  # cards dealt onto each column, and refilled into an empty one
LAST_PASS = 2  # redeals allowed


def applies(spec: GameSpec) -> bool:
    """Whether this domain plays ``spec``: the spec declares it (``GameSpec.domain``,
    :func:`pasyans.domains.registry.domain_for`)."""
    return domain_for(spec) == NIVERNAIS


def pack(spec: GameSpec, state: State) -> Pos:
    """The packed position of an engine ``state``."""
    p = state.piles
    cols = tuple(p[c] for c in spec.indexes_of(PileKind.COLUMN))
    cells = tuple(sorted(p[r][-1] for r in spec.indexes_of(PileKind.RESERVE) if p[r]))
    founds = spec.indexes_of(PileKind.FOUNDATION)
    up = tuple(len(p[f]) for f in founds[:4])
    down = tuple(14 - len(p[f]) for f in founds[4:])
    return (cols, cells, up, down, p[spec.index["stock"]], state.redeals)


def _refill(cols: list[tuple[int, ...]], stock: tuple[int, ...]) -> tuple[Cols, tuple[int, ...]]:
    for i in range(6):
        if not cols[i] and stock:
            n = min(PER, len(stock))
            cols[i] = stock[: -n - 1 : -1] if n < len(stock) else stock[::-1]
            stock = stock[:-n]
    return tuple(cols), stock


def stock_click(pos: Pos) -> Pos | None:
    """The position after a click on the stock (a deal, or a redeal and its deal), or
    None when the stock cannot be clicked."""
    cols, cells, up, down, stock, red = pos
    if not stock:
        if red >= LAST_PASS or not any(cols):
            return None
        gathered: tuple[int, ...] = ()
        for c in cols:
            gathered += c
        stock = gathered[::-1]
        red += 1
        cl: list[tuple[int, ...]] = [(), (), (), (), (), ()]
    else:
        cl = list(cols)
    for k in range(6):
        if not stock:
            break
        n = min(PER, len(stock))
        cl[k] = cl[k] + (stock[: -n - 1 : -1] if n < len(stock) else stock[::-1])
        stock = stock[:-n]
    return (tuple(cl), cells, up, down, stock, red)


def children(pos: Pos) -> list[Pos]:
    """Every position one move away (duplicates of a cell card's twin dropped)."""
    return [child for _, child in steps(pos)]


UP, DOWN, CELL = 0, 1, 2
"""Where a step's card goes: its suit's up or down foundation, or a free cell."""

STOCK_STEP = NV_STOCK_STEP
"""The step code of a click on the stock (a deal, or a redeal and its deal)."""


def step_code(column: int, to: int, card: int = 0) -> int:
    """A step's code: the top card of ``column`` (0..5; -1: the cell holding ``card``)
    going ``to`` (:data:`UP`, :data:`DOWN` or, from a column, :data:`CELL`). Column steps
    are 0..17, cell steps ``NV_CELL_STEP`` (18) up to 121, the stock :data:`STOCK_STEP`:
    one small int, the same in csrc/nivernais.c."""
    return NV_CELL_STEP + card * 2 + to if column < 0 else column * 3 + to


def steps(pos: Pos) -> list[tuple[int, Pos]]:
    """Every move of ``pos`` as (its :func:`step_code`, the position after it), in the
    order of :func:`children` (the compiled core's order too)."""
    if pos[4] and not all(pos[0]):
        return [(code, _refilled(c)) for code, c in _steps(pos)]
    return _steps(pos)


def play(pos: Pos, code: int) -> Pos:
    """The position after the step ``code`` of ``pos`` (ValueError: not one of its steps)."""
    for c, child in steps(pos):
        if c == code:
            return child
    raise ValueError(f"step {code} is not a move of this position")


def _refilled(pos: Pos) -> Pos:
    """``pos`` after the engine's refill of every empty column: only for positions made
    up with empty columns and cards in the stock (end games), which play never reaches."""
    cols, cells, up, down, stock, red = pos
    if not stock or all(cols):
        return pos
    ncols, nst = _refill(list(cols), stock)
    return (ncols, cells, up, down, nst, red)


def _steps(pos: Pos) -> list[tuple[int, Pos]]:
    cols, cells, up, down, stock, red = pos
    out: list[tuple[int, Pos]] = []
    for j, c in enumerate(cells):
        if j and cells[j - 1] == c:
            continue
        r, s = (c >> 2) + 1, c & 3
        rest = cells[:j] + cells[j + 1 :]
        if up[s] == r - 1:
            out.append((step_code(-1, UP, c), (cols, rest, _set(up, s, r), down, stock, red)))
        if down[s] == r + 1:
            out.append((step_code(-1, DOWN, c), (cols, rest, up, _set(down, s, r), stock, red)))
    room = len(cells) < CELLS
    for i, col in enumerate(cols):
        if not col:
            continue
        c = col[-1]
        r, s = (c >> 2) + 1, c & 3
        to_up, to_down = up[s] == r - 1, down[s] == r + 1
        if not (to_up or to_down or room):
            continue
        nl = list(cols)
        nl[i] = col[:-1]
        if len(col) == 1 and stock:
            ncols, nst = _refill(nl, stock)
        else:
            ncols, nst = tuple(nl), stock
        if to_up:
            out.append((step_code(i, UP), (ncols, cells, _set(up, s, r), down, nst, red)))
        if to_down:
            out.append((step_code(i, DOWN), (ncols, cells, up, _set(down, s, r), nst, red)))
        if room:
            out.append(
                (step_code(i, CELL), (ncols, tuple(sorted((*cells, c))), up, down, nst, red))
            )
    dealt = stock_click(pos)
    if dealt is not None:
        out.append((STOCK_STEP, dealt))
    return out


def _set(t: tuple[int, ...], i: int, v: int) -> tuple[int, ...]:
    return (*t[:i], v, *t[i + 1 :])


def on_foundations(pos: Pos) -> int:
    up, down = pos[2], pos[3]
    return sum(up) + 56 - sum(down)


def is_won(pos: Pos) -> bool:
    return on_foundations(pos) == 104


def settled(pos: Pos) -> bool:
    """The final pass with an empty stock: the columns are interchangeable."""
    return pos[5] >= LAST_PASS and not pos[4]


def key(pos: Pos) -> Hashable:
    """Equal for positions the rules cannot tell apart (cells are already sorted)."""
    if settled(pos):
        return (tuple(sorted(pos[0])), *pos[1:4])
    return pos


def _placed(up: tuple[int, ...], down: tuple[int, ...], card: int) -> bool:
    """A copy of ``card`` is on a foundation (its twin has one home left)."""
    r, s = (card >> 2) + 1, card & 3
    return r <= up[s] or r >= down[s]


def forced(pos: Pos) -> Pos | None:
    """The position after a forced foundation move (``updown.forced_move``), or None:
    a cell card whose twin is on a foundation or in another cell, or in the final pass a
    column's top card whose twin is on a foundation, when the card is not alone in its
    column or the stock is empty."""
    if pos[4] and not all(pos[0]):
        f = _forced(pos)
        return None if f is None else _refilled(f)
    return _forced(pos)


def _forced(pos: Pos) -> Pos | None:
    cols, cells, up, down, stock, red = pos
    for j, c in enumerate(cells):
        r, s = (c >> 2) + 1, c & 3
        fits_up, fits_down = up[s] == r - 1, down[s] == r + 1
        if not (fits_up or fits_down):
            continue
        twin_in_cell = (j and cells[j - 1] == c) or (j + 1 < len(cells) and cells[j + 1] == c)
        if twin_in_cell or _placed(up, down, c):
            rest = cells[:j] + cells[j + 1 :]
            if fits_up:
                return (cols, rest, _set(up, s, r), down, stock, red)
            return (cols, rest, up, _set(down, s, r), stock, red)
    if red < LAST_PASS:
        return None
    for i, col in enumerate(cols):
        if not col or (len(col) == 1 and stock):
            continue
        c = col[-1]
        r, s = (c >> 2) + 1, c & 3
        fits_up, fits_down = up[s] == r - 1, down[s] == r + 1
        if (fits_up or fits_down) and _placed(up, down, c):
            nl = list(cols)
            nl[i] = col[:-1]
            ncols, nst = _refill(nl, stock) if len(col) == 1 else (tuple(nl), stock)
            if fits_up:
                return (ncols, cells, _set(up, s, r), down, nst, red)
            return (ncols, cells, up, _set(down, s, r), nst, red)
    return None


def dead(pos: Pos) -> bool:
    """Whether ``pos`` provably cannot be won: ``updown.dead`` (final pass, one column
    at a time) on packed positions."""
    cols, cells, up, down, stock, red = pos
    if red < LAST_PASS:
        return False
    col_of: dict[int, int] = {}
    for c, pile in enumerate(cols):
        for card in pile:
            prev = col_of.get(card)
            if prev is None:
                col_of[card] = c
            elif prev != c:
                col_of[card] = -1
    for card in cells:
        col_of[card] = -1
    for card in stock:
        col_of[card] = -1
    for c, pile in enumerate(cols):
        if len(pile) < 2:
            continue
        # first[s][r]: the depth (index from the bottom) of the copy nearest the top of
        # rank r of suit s, where every copy in play is in this column (_FAR when not).
        first: dict[int, list[int]] = {}
        for i, card in enumerate(pile):
            if col_of[card] == c:
                s = card & 3
                row = first.get(s)
                if row is None:
                    row = first[s] = [_FAR] * 15
                row[(card >> 2) + 1] = i  # the copy nearest the top, reached first
        if not first:
            continue
        deepest = min(min(row) for row in first.values())

        def release(card: int, first: dict[int, list[int]] = first) -> int:
            row = first.get(card & 3)
            return -1 if row is None else _release(card, row, up, down)

        if cells_overflow(pile, cells, deepest, release, CELLS):
            return True
    return False


def locked(pos: Pos) -> bool:
    """Whether ``pos`` is lost by a cell lock (docs/solver-search.md, rule 5, "Nivernais,
    cell lock"): in the final pass with all eight cells full, no cell card can ever go
    home. Until one does, every move is a foundation move from a column's top or a deal,
    so a card leaves its column only for a foundation. The over-approximation: the
    columns and the stock's chunks of four (dealt in that order whatever is clicked or
    refilled) as piles of their own, a pile's card free once every card above it went
    home, and each suit's up and down foundations raised as far as free cards take them
    (a free copy serving both). A cell card beyond both reaches stays put, and with it
    the eight cells: nothing else can go home past them."""
    cols, cells, up, down, stock, red = pos
    if red < LAST_PASS or len(cells) < CELLS:
        return False
    piles = [list(c) for c in cols if c]
    rest = stock
    while rest:
        n = min(PER, len(rest))
        piles.append(list(rest[: -n - 1 : -1]))  # bottom to top, as a deal lays them
        rest = rest[:-n]
    reach_up, reach_down = list(up), list(down)
    free = [0] * 52  # free copies of each card (each counted once, when it comes free)
    for pile in piles:
        free[pile[-1]] += 1
    moved = True
    while moved:
        moved = False
        for s in range(4):
            while reach_up[s] < 13 and free[reach_up[s] << 2 | s]:
                reach_up[s] += 1
            while reach_down[s] > 1 and free[(reach_down[s] - 2) << 2 | s]:
                reach_down[s] -= 1
        for pile in piles:
            while pile:
                r, s = (pile[-1] >> 2) + 1, pile[-1] & 3
                if not (up[s] < r <= reach_up[s] or reach_down[s] <= r < down[s]):
                    break
                pile.pop()
                moved = True
                if pile:
                    free[pile[-1]] += 1
    return all(reach_up[c & 3] + 1 < (c >> 2) + 1 < reach_down[c & 3] - 1 for c in cells)


_FAR = 1 << 20


def _release(card: int, row: list[int], up: tuple[int, ...], down: tuple[int, ...]) -> int:
    """The depth of the column to dig to before ``card`` can go up (every foundation open
    to it waits on a rank all of whose copies lie in the column; ``row`` their shallowest
    depths by rank), or -1."""
    r, s = (card >> 2) + 1, card & 3
    worst = -1
    u, d = up[s], down[s]
    if r > u:
        if r - u < 2:
            return -1
        need = min(row[u + 1 : r])
        if need == _FAR:
            return -1
        worst = need
    if r < d:
        if d - r < 2:
            return -1
        need = min(row[r + 1 : d])
        if need == _FAR:
            return -1
        worst = max(worst, need)
    return worst


def dig(pos: Pos) -> int:
    """How deep the cards the foundations take next lie: for each of the eight
    foundations still open, the fewest cards above a copy of its next card in a column
    (0 in a cell; at most :data:`DIG_CAP`, also when no copy is in sight)."""
    cols, cells, up, down = pos[0], pos[1], pos[2], pos[3]
    depth: dict[int, int] = {}
    for s in range(4):
        if up[s] < 13:
            depth[up[s] << 2 | s] = DIG_CAP
        if down[s] > 1:
            depth[(down[s] - 2) << 2 | s] = DIG_CAP
    if not depth:
        return 0
    for c in cells:
        if c in depth:
            depth[c] = 0
    for col in cols:
        top = len(col) - 1
        for i in range(top, max(top - DIG_CAP, -1), -1):
            c = col[i]
            if c in depth and top - i < depth[c]:
                depth[c] = top - i
    return sum(depth.values())


DIG_CAP = 12

WEIGHTS: tuple[tuple[int, int, int, int], ...] = (
    (4, 2, 3, 1),
    (4, 4, 3, 1),
    (4, 1, 3, 1),
    (4, 2, 12, 1),
    (2, 2, 3, 1),
    (4, 0, 3, 1),
    (4, 2, 3, 0),
    (4, 6, 3, 0),
)
"""The portfolio's scores (:func:`score`): weights of the cards on the foundations, free
cells, redeals used (a cost) and :func:`dig` (a cost). Each search of the portfolio gets
an equal share of the budget (measured: docs/solver.md)."""


def score(pos: Pos, w: tuple[int, int, int, int] = WEIGHTS[0]) -> int:
    """How good ``pos`` looks, higher first: cards on the foundations weigh most, then
    free cells; each redeal used and each card above a wanted one costs a little."""
    value = w[0] * on_foundations(pos) + w[1] * (CELLS - len(pos[1])) - w[2] * pos[5]
    if w[3]:
        value -= w[3] * dig(pos)
    return value


CAP: int | None = 500
"""The final-pass cap each search of :func:`portfolio` starts from (:func:`best_first`;
measured: docs/solver.md)."""

USE_COMPILED = True
"""Whether :func:`best_first` runs in C when the core is built (False: the Python
reference, e.g. for ``benchmarks/solver.py --before``)."""

MEMORY = 3 << 29
"""Bytes the compiled search (:func:`best_first`) may take: 1.5 GB, as for Spider (about
220 MB per million positions: one search may take the whole 10-s budget; docs/solver.md)."""

SHARE_FINAL_PASSES = True
"""Whether the searches of :func:`portfolio` share a memo of the final passes explored
(:func:`best_first`'s ``memo``): a later search does not search again a final pass an
earlier one explored up to its cap (measured: docs/solver.md)."""

DEAD_TEST = False
"""Whether :func:`expand` runs the dead-position test (measured: docs/solver.md)."""

GO_ON = True
"""Whether a search of :func:`portfolio` that comes to know every final pass goes on
with the rest of the budget (:func:`best_first`'s ``more``; measured:
docs/notes/2026-12-04-nivernais-decided.md)."""

LOCK_TEST = True
"""Whether :func:`best_first` drops the children :func:`locked` finds lost (before they
are queued, so they cost no expansion; measured: docs/notes/2026-12-04-nivernais-decided.md)."""


def expand(pos: Pos) -> list[Pos]:
    """The children the search keeps: none for a dead position, the forced move alone if
    there is one, else every child (:func:`best_first` then drops the cell-locked ones)."""
    if DEAD_TEST and dead(pos):
        return []
    f = forced(pos)
    if f is not None:
        return [f]
    return children(pos)


def best_first(
    root: Pos,
    nodes: int | None,
    deadline: float | None,
    weights: tuple[int, int, int, int] = WEIGHTS[0],
    cap: int | None = None,
    use_compiled: bool | None = None,
    memo: set[Hashable] | None = None,
    more: tuple[int | None, float | None] | None = None,
) -> tuple[str, list[Pos], int]:
    """``("won", line of positions from the root, nodes)``, ``("lost", …)`` when every
    reachable position was expanded, else ``("unknown", …)``; when not won, the line
    leads to the position with the most cards on the foundations the search reached
    (the best :func:`score` among those). Long because it is the reference the compiled
    search (``csrc/nivernais.c``) is checked against position for position: its loop is
    kept in one piece to read side by side with the C.

    ``cap``: each final pass (the positions from one made by the last redeal) is
    expanded at most ``cap`` times before its positions are set aside, so the search
    turns back to the earlier passes' other choices; when nothing else is left the cap
    doubles and the set-aside positions return. Nothing is dropped: "lost" still means
    every position was expanded.

    ``use_compiled``: run the search in C (``csrc/nivernais.c``, the same search: the
    same outcome, count and line; tests compare them); None: when the core is built.
    The compiled search answers "unknown" past :data:`MEMORY` bytes.

    ``memo`` (with a cap; :func:`portfolio` shares one between its searches): the final
    passes an earlier search explored, by their entry's key (the compiled search: a
    64-bit hash of it). A new final pass whose entry is in it is not searched again (and
    then "lost" becomes "unknown": that pass was not proven lost); when not won, the
    final passes this search explored as far as its cap lets it (the starting cap
    reached, or none of their positions left in the queue) are added to it.

    ``more`` (``(nodes, deadline)``, :func:`portfolio` gives what is left of the whole
    budget): when ``nodes`` or ``deadline`` is reached with no position before the final
    pass left in the queue (every final pass is known: a later score would only find the
    same ones), the search goes on to these limits instead of stopping."""
    if use_compiled is None:
        use_compiled = USE_COMPILED and compiled is not None
    more_nodes, more_deadline = (nodes, deadline) if more is None else more
    if use_compiled:
        # The compiled search's memo holds ints (hashes), the Python one's keys.
        skip = array("Q", sorted(cast(set[int], memo))) if memo else array("Q")
        status, line, count, _, seen = compiled.nivernais_search(
            root,
            -1 if nodes is None else nodes,
            float("inf") if deadline is None else deadline,
            -1 if more_nodes is None else more_nodes,
            float("inf") if more_deadline is None else more_deadline,
            weights,
            -1 if cap is None else cap,
            MEMORY,
            (1 if DEAD_TEST else 0) | (2 if LOCK_TEST else 0),
            skip.tobytes(),
        )
        if memo is not None:
            memo.update(array("Q", seen))
        return ("unknown" if status == "memory" else status), line, count
    rkey = key(root)
    if is_won(root):
        return "won", [root], 0
    parent: dict[Hashable, tuple[Hashable | None, Pos]] = {rkey: (None, root)}
    # With a cap, each final pass (its positions from the one a redeal made, the
    # "entry") gets at most ``cap`` expansions before its positions wait in ``deferred``;
    # when the queue runs dry the cap doubles and they all come back. Nothing is dropped,
    # so an empty queue with nothing deferred still proves the loss. A queue item holds
    # its entry's index in ``spent`` (-1: not in the final pass, or no cap).
    spent: list[int] = []
    entries: list[Hashable] = []  # entry -> its key (None: the root)
    skipped = 0
    deferred: list[tuple[int, int, Pos, int]] = []
    root_entry = -1
    start_cap = cap
    if cap is not None and root[5] >= LAST_PASS:
        spent.append(0)
        entries.append(None)
        root_entry = 0
    heap: list[tuple[int, int, Pos, int]] = [(-score(root, weights), 0, root, root_entry)]
    best, best_key = (on_foundations(root), score(root, weights)), rkey
    tick = 0
    count = 0
    before_final = int(root[5] < LAST_PASS)  # queued positions before the final pass
    outcome = "lost"
    while heap or deferred:
        if not heap:
            assert cap is not None
            heap, deferred = deferred, []
            heapq.heapify(heap)
            cap *= 2
        if (nodes is not None and count >= nodes) or (
            deadline is not None and count and count % 8 == 0 and time.perf_counter() > deadline
        ):
            if before_final or (more_nodes, more_deadline) == (nodes, deadline):
                outcome = "unknown"
                break
            nodes, deadline = more_nodes, more_deadline  # every final pass is known
            continue
        item = heapq.heappop(heap)
        pos, entry = item[2], item[3]
        if entry >= 0:
            assert cap is not None
            if spent[entry] >= cap:
                deferred.append(item)
                continue
            spent[entry] += 1
        count += 1
        pkey = key(pos)
        final = pos[5] >= LAST_PASS
        before_final -= not final
        for t in expand(pos):
            tk = key(t)
            if tk in parent:
                continue
            parent[tk] = (pkey, t)
            if is_won(t):
                return "won", _line(parent, tk), count
            if LOCK_TEST and locked(t):
                continue  # lost: in the table, so never reached again, and not expanded
            e = -1
            if cap is not None and t[5] >= LAST_PASS:
                if final:
                    e = entry
                elif memo and tk in memo:
                    skipped += 1
                    continue  # searched by an earlier search of the portfolio
                else:
                    e = len(spent)
                    spent.append(0)
                    entries.append(tk)
            tick += 1
            before_final += t[5] < LAST_PASS
            sc = score(t, weights)
            mark = (on_foundations(t), sc)
            if mark > best:
                best, best_key = mark, tk
            heapq.heappush(heap, (-sc, -tick, t, e))
    if memo is not None and start_cap is not None:
        queued = {item[3] for item in (*heap, *deferred)}
        memo.update(
            k
            for e, k in enumerate(entries)
            if k is not None and spent[e] and (spent[e] >= start_cap or e not in queued)
        )
    if outcome == "lost" and skipped:
        outcome = "unknown"  # a skipped final pass is not proven lost
    return outcome, _line(parent, best_key), count


def _line(parent: dict[Hashable, tuple[Hashable | None, Pos]], end: Hashable) -> list[Pos]:
    line = []
    k: Hashable | None = end
    while k is not None:
        k, p = parent[k]
        line.append(p)
    return line[::-1]


def portfolio(
    root: Pos, nodes: int | None, seconds: float | None, start: float
) -> tuple[str, list[Pos], int]:
    """:func:`best_first` once per score of :data:`WEIGHTS`, each with an equal share of
    the budget (``nodes``, and ``seconds`` from ``start``), until one wins or proves the
    loss (any of them exhausting the positions is a proof: the pruning does not depend on
    the order). Not won: the line with the most cards home of all the searches. With
    the memo (:data:`SHARE_FINAL_PASSES`), a budget the searches left unspent goes to the
    first score again without it."""
    k = len(WEIGHTS)
    used = 0
    memo: set[Hashable] | None = set() if SHARE_FINAL_PASSES else None
    best: tuple[int, list[Pos]] = (-1, [root])
    for i, w in enumerate(WEIGHTS):
        share = None if nodes is None else (nodes - used) // (k - i)
        deadline = None if seconds is None else start + seconds * (i + 1) / k
        if i and deadline is not None and time.perf_counter() > deadline:
            break  # its share of the time is gone already
        # ``more``: all that is left, should this search come to know every final pass.
        more = (
            None if nodes is None else nodes - used,
            None if seconds is None else start + seconds,
        )
        outcome, line, n = best_first(
            root, share, deadline, w, CAP, memo=memo, more=more if GO_ON else None
        )
        used += n
        if outcome != "unknown":
            return outcome, line, used
        if on_foundations(line[-1]) > best[0]:
            best = (on_foundations(line[-1]), line)
        if nodes is None and seconds is None:
            break  # pragma: no cover - an unbounded search always decides
    left = None if nodes is None else nodes - used
    end = None if seconds is None else start + seconds
    spare = left > 0 if left is not None else end is not None and time.perf_counter() < end
    if memo and spare:
        # What the memo left unspent (later searches ran dry on final passes it held, so
        # they could not prove a loss): the first score again, without the memo.
        outcome, line, n = best_first(root, left, end, WEIGHTS[0], CAP)
        used += n
        if outcome != "unknown":
            return outcome, line, used
        if on_foundations(line[-1]) > best[0]:
            best = (on_foundations(line[-1]), line)
    return "unknown", best[1], used


def engine_line(spec: GameSpec, state: State, line: list[Pos]) -> tuple[Move, ...]:
    """The engine moves that play ``line`` (packed positions from ``state``): at each
    step the first legal move whose position has the next one's key."""
    moves: list[Move] = []
    for nxt in line[1:]:
        want = key(nxt)
        for m in legal_moves(spec, state):
            after = apply(spec, state, m)
            if key(pack(spec, after)) == want:
                moves.append(m)
                state = after
                break
        else:  # pragma: no cover - the packed rules and the engine disagree
            raise AssertionError("a packed move has no engine move")
    return tuple(moves)


def solve(
    spec: GameSpec, state: State, *, seconds: float | None, nodes: int | None, start: float
) -> tuple[str, tuple[Move, ...], int]:
    """Search ``state`` (see :func:`best_first`); a win comes back as engine moves."""
    outcome, line, used = portfolio(pack(spec, state), nodes, seconds, start)
    moves = engine_line(spec, state, line) if outcome == "won" else ()
    return outcome, moves, used
