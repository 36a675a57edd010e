"""Spider as a packed search domain: its own move generator and apply, for speed.

The engine's generic ``legal_moves``/``apply`` on :class:`~pasyans.position.State` cost
most of the search's time in Spider. Here a position is a plain tuple
``(cols, down, stock_left, done)``:

- ``cols``: the ten columns (bottom to top), tuples of card ints;
- ``down``: face-down counts per column;
- ``stock_left``: how many cards are still in the stock (the stock's cards never change
  order, so ``stock[:stock_left]`` is the stock; a deal gives ``t1`` the last of them);
- ``done``: how many cards are in completed runs.

The moves and positions are exactly the engine's (``tests/solver/test_spider_domain.py``
checks them along random playouts for 1, 2 and 4 suits); the moves handed to the search
are engine :class:`~pasyans.engine.moves.Move` objects, so a win replays through the
engine.

The guidance lives here too (see ``docs/solver-spider.md``): :func:`shuffle` (an *unproven*
pruning rule: a search that used it may not conclude "lost"), :func:`order` and
:func:`distance`, the evaluation of the guided search, which reads every card, face-down
and stock included (the search is for positions where every card is known).

So does the search: :func:`solve` runs :func:`staged`, the staged best-first search whose
attempts grow without end and never redo work. It runs in C (``csrc/spider.c``, the
compiled core) when the extension is built, else in Python (:func:`_staged_python`, the
reference: the same positions in the same order, about 30 times slower). Given other
weights (``SpiderGame(..., other=...)``; measured, not the solver's default: :data:`JOINT_SUITS`)
the search ranks its attempts by both weight sets over one table
(:func:`joint_evaluation`).

Over 400 lines because the packed Spider domain and its staged search mirror
``csrc/spider.c`` one for one (the Python is the reference the C is tested against).
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Hashable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

from pasyans import caches
from pasyans.domains import _core_abi as abi
from pasyans.domains.built import compiled
from pasyans.domains.registry import SPIDER, domain_for
from pasyans.engine.moves import Move
from pasyans.position import State
from pasyans.rules.spec import GameSpec, PileKind

Cols = tuple[tuple[int, ...], ...]
Pos = tuple[Cols, tuple[int, ...], int, int, int]
Step = tuple[int, int, int]
"""A move in packed form: ``(src, dst, cards)`` column indexes; ``(-1, -1, 0)`` deals."""

DEAL: Step = (-1, -1, 0)
WON = abi.WON


def applies(spec: GameSpec) -> bool:
    """Whether the packed Spider domain plays ``spec``: the spec declares it
    (``GameSpec.domain``, :func:`pasyans.domains.registry.domain_for`)."""
    return domain_for(spec) == SPIDER


def _complete(col: tuple[int, ...], down: int) -> bool:
    """The column ends in a face-up King-to-Ace run of one suit."""
    n = len(col)
    if n - down < 13 or col[-1] >= 4 or col[-13] != col[-1] + 48:
        return False
    return all(col[j] - col[j + 1] == 4 for j in range(n - 13, n - 1))


def run_length(col: tuple[int, ...], down: int) -> int:
    """Length of the same-suit descending run at the top of a column (face-up only)."""
    n = len(col)
    if n <= down:
        return 0
    i = n - 1
    while i > down and col[i - 1] - col[i] == 4:
        i -= 1
    return n - i


class SpiderGame:
    """One Spider deal (its stock's fixed order) and the packed rules."""

    def __init__(
        self,
        spec: GameSpec,
        state: State,
        weights: Weights | None = None,
        other: Weights | None = None,
        swap: bool = False,
    ) -> None:
        self.spec = spec
        self.weights = WEIGHTS if weights is None else weights
        self.other = other  # the joint search's second weights (joint_evaluation), or None
        self.swap = swap  # with other: swap_evaluation instead
        self.columns = spec.indexes_of(PileKind.COLUMN)
        self.stock_index = spec.indexes_of(PileKind.STOCK)[0]
        self.done_index = spec.indexes_of(PileKind.DONE)[0]
        self.stock = state.piles[self.stock_index]
        self.ids = [spec.piles[c].id for c in self.columns]
        self.width = len(self.ids)
        self._moves: dict[Step, Move] = {}
        cols = tuple(state.piles[c] for c in self.columns)
        down = tuple(state.down[c] for c in self.columns)
        left, done = len(self.stock), len(state.piles[self.done_index])
        self.root: Pos = (cols, down, left, done, distance(cols, down, left, done, self.weights))

    # --- Rules ---------------------------------------------------------------------------

    def steps(self, pos: Pos) -> list[Step]:
        """Every legal move (the engine's set, in an order of its own: by source column
        and unit, builds before moves into empty columns; the deal last)."""
        cols, down, left, _, _ = pos
        out: list[Step] = []
        width = self.width
        by_rank: list[list[int]] = [[] for _ in range(15)]
        empty: list[int] = []
        for c in range(width):
            t = cols[c]
            if t:
                by_rank[t[-1] >> 2].append(c)
            else:
                empty.append(c)
        for i in range(width):
            col = cols[i]
            n = len(col)
            free = n - down[i]
            if free <= 0:
                continue
            k = 1
            while k < free and col[-k - 1] - col[-k] == 4:
                k += 1
            for m in range(1, k + 1):
                for c in by_rank[(col[-m] >> 2) + 1]:
                    out.append((i, c, m))
                if m != n:
                    for c in empty:
                        out.append((i, c, m))
        if left and not empty:
            out.append(DEAL)
        return out

    def play(self, pos: Pos, step: Step) -> Pos:
        """The position after ``step`` and its automatic follow-ups (as the engine)."""
        cols_t, down_t, left, done, h = pos
        cols = list(cols_t)
        down = list(down_t)
        i, c, m = step
        if m == 0:
            stock = self.stock
            for j in range(self.width):
                if left:
                    left -= 1
                    cols[j] = cols[j] + (stock[left],)
            touched: range | tuple[int, int] = range(self.width)
        else:
            src = cols[i]
            cols[c] = cols[c] + src[-m:]
            cols[i] = src[:-m]
            touched = (i, c) if i < c else (c, i)
        for j in touched:
            col = cols[j]
            if col and col[-1] < 4 and _complete(col, down[j]):
                col = cols[j] = col[:-13]
                done += 13
            if col and down[j] >= len(col):
                down[j] = len(col) - 1
        w = self.weights
        if m == 0:
            h = distance(cols, down, left, done, w)
        else:
            h += (
                column_cost(cols[i], down[i], w)
                + column_cost(cols[c], down[c], w)
                - column_cost(cols_t[i], down_t[i], w)
                - column_cost(cols_t[c], down_t[c], w)
                - w.done * (done // 13 - pos[3] // 13)
            )
        return (tuple(cols), tuple(down), left, done, h)

    def state(self, pos: Pos) -> State:
        """The engine's :class:`State` of a packed position."""
        cols, down, left, done, _ = pos
        piles: list[tuple[int, ...]] = [()] * len(self.spec.piles)
        downs = [0] * len(self.spec.piles)
        for j, c in enumerate(self.columns):
            piles[c] = cols[j]
            downs[c] = down[j]
        piles[self.stock_index] = self.stock[:left]
        runs: list[int] = []
        for _ in range(done // 13):
            runs.extend(range(48, -1, -4))  # placeholder suits: only the count is packed
        piles[self.done_index] = tuple(runs)
        return State(tuple(piles), tuple(downs), 0)

    def move(self, step: Step) -> Move:
        """The engine's move of a step (made once, then kept)."""
        m = self._moves.get(step)
        if m is None:
            i, c, n = step
            m = self._moves[step] = Move.stock() if n == 0 else Move(self.ids[i], self.ids[c], n)
        return m

    @staticmethod
    def is_won(pos: Pos) -> bool:
        return pos[3] == WON

    @staticmethod
    def key(pos: Pos) -> Hashable:
        """The transposition key: columns in place while the stock deals by place, sorted
        once it is empty (then nothing reads a column's place). ``done`` follows from the
        rest."""
        cols, down, left, _, _ = pos
        if left:
            return (cols, down, left)
        return tuple(sorted(zip(cols, down, strict=True)))

    # --- Search helpers ------------------------------------------------------------------

    def children(self, pos: Pos, *, prune: bool) -> tuple[Iterator[tuple[Move, Pos]], bool]:
        """The moves to search from ``pos`` with their positions, best first, and whether
        an unproven rule dropped one (:func:`shuffle`; a second empty column while the
        stock still deals by place)."""
        steps, dropped = self.child_steps(pos, prune=prune)
        return self._pairs(pos, steps), dropped

    def child_steps(self, pos: Pos, *, prune: bool) -> tuple[list[Step], bool]:
        """:meth:`children` as steps."""
        steps = self.steps(pos)
        cols, down, left, _, _ = pos
        kept: list[tuple[int, Step]] = []
        dropped = False
        empty_seen: set[tuple[int, int]] = set()
        for st in steps:
            i, c, m = st
            if m and not cols[c]:
                # Moves of one unit to different empty columns: one is enough. Proven
                # once the stock is empty (the columns are alike); a guess before.
                if (i, m) in empty_seen:
                    if left:
                        if not prune:
                            kept.append((order(cols, down, st), st))
                            continue
                        dropped = True
                    continue
                empty_seen.add((i, m))
            if prune and m and shuffle(cols, down, st):
                dropped = True
                continue
            kept.append((order(cols, down, st), st))
        kept.sort(key=_first, reverse=True)
        return [st for _, st in kept], dropped

    def _pairs(self, pos: Pos, steps: list[Step]) -> Iterator[tuple[Move, Pos]]:
        for st in steps:
            yield self.move(st), self.play(pos, st)


def _first(item: tuple[int, Step]) -> int:
    return item[0]


def shuffle(cols: Cols, down: tuple[int, ...], step: Step) -> bool:
    """A column-to-column move of a unit that already sits on its same-suit parent (the
    card one rank higher of its suit): it breaks a run to go somewhere no better.

    Moves off a parent of another suit stay (freeing that parent is how a player digs out
    a suit), and so do moves that empty a column or turn a card up. Dropping these moves
    is *not* proven safe (it can make room for another move), so a search that drops
    them may not conclude "lost".
    """
    i, _, m = step
    src = cols[i]
    left = len(src) - m
    if left == 0 or down[i] >= left:
        return False
    return src[left - 1] - src[left] == 4


def order(cols: Cols, down: tuple[int, ...], step: Step) -> int:
    """A move's place in the depth-first order (higher first): joins in suit (longer runs
    first), turning a card up, emptying a column, other builds; moving a unit off its
    parent and moves into empty columns late; the deal last."""
    i, c, m = step
    if m == 0:
        return -100
    src = cols[i]
    left = len(src) - m
    lowest = src[left]
    dst = cols[c]
    value = 0
    if dst:
        if dst[-1] - lowest == 4:
            value += 60 + 3 * (m + run_length(dst, down[c]))
        else:
            value += 10
    else:
        value -= 30
    if left == 0:
        value += 40
    elif down[i] >= left:
        value += 50 - 2 * down[i]
    else:
        below = src[left - 1]
        if below - lowest == 4:
            value -= 60
        elif (below >> 2) - (lowest >> 2) == 1:
            value -= 20
    return value


class Weights(NamedTuple):
    """The evaluation's weights (``csrc/spider.h``'s ``W_*`` order; the compiled search
    takes them as a tuple): :func:`column_cost`'s and :func:`distance`'s terms, the
    second evaluation's weight of a face-down card (:func:`evaluation`) and
    :data:`SHAPE`'s."""

    brk: int  # two cards that do not follow at all
    offsuit: int  # one rank apart but of another suit (the pair cannot move as one unit)
    tangle: int  # each pair of such places in one column: tall tangled columns cost more
    down: int  # a face-down card
    empty: int  # an empty column (a bonus)
    stock: int  # a card still in the stock
    done: int  # a completed run (a bonus)
    buried: int  # a column with face-down cards
    second: int  # the second evaluation: each face-down card adds this
    shape: int  # each seed already kept of a candidate's shape adds this (_keep_by_shape)


V1 = Weights(
    abi.SP_BREAK,
    abi.SP_OFFSUIT,
    abi.SP_TANGLE,
    abi.SP_DOWN,
    abi.SP_EMPTY,
    abi.SP_STOCK,
    0,
    0,
    1,
    abi.SP_SHAPE,
)
"""The weights up to session 4 (the ``SP_*`` of ``csrc/abi.toml``): the solvable-deal
generator's versions 2-4 search by them, so their layouts do not move."""

WEIGHTS = Weights(5, 8, 0, 2, 16, 8, 0, 0, 2, 7)
"""The weights a :class:`SpiderGame` searches by unless told: fitted on a training range
(4-suit deals 6357157-6357256, ``benchmarks/spider_fit.py``; ``docs/solver-spider.md``). On
V1's scale (times 2): a break 2.5, off-suit 4, no tangle term, face-down 1, empty 8;
the second evaluation and the shape weight as V1's but for shape 3.5."""

BREAK, OFFSUIT, TANGLE, DOWN, EMPTY, STOCK = V1[:6]  # V1's, by name

_COLUMN_COST: dict[tuple[tuple[int, ...], int, Weights], int] = caches.register(
    "domains.spider_column_cost", {}, bound=2_000_000, memory=False
)


def column_cost(col: tuple[int, ...], down: int, w: Weights = WEIGHTS) -> int:
    """How far one column looks from done (lower is better), face-down cards included:
    every place where two cards do not follow in suit (less when they follow in rank),
    every face-down card (and, by ``w.buried``, the column holding any); an empty column
    is worth a bonus."""
    key = (col, down, w)
    cost = _COLUMN_COST.get(key)
    if cost is not None:
        return cost
    if not col:
        cost = -w.empty
    else:
        cost = w.down * down + (w.buried if down else 0)
        b = 0
        for j in range(1, len(col)):
            gap = col[j - 1] - col[j]
            if gap != 4:
                b += 1
                cost += w.offsuit if (col[j - 1] >> 2) - (col[j] >> 2) == 1 else w.brk
        cost += w.tangle * b * (b - 1) // 2
    if len(_COLUMN_COST) > 2_000_000:
        _COLUMN_COST.clear()
    _COLUMN_COST[key] = cost
    return cost


def distance(
    cols: Sequence[tuple[int, ...]],
    down: Sequence[int],
    left: int,
    done: int,
    w: Weights = WEIGHTS,
) -> int:
    """How far a position looks from a win (lower is better)."""
    score = w.stock * left - w.done * (done // 13)
    for j in range(len(cols)):
        score += column_cost(cols[j], down[j], w)
    return score


# --- The staged search ---------------------------------------------------------------------


COARSE = abi.SP_COARSE
"""The last attempt of the four-fold growth, (16,000, 16); after it the attempts grow
two-fold (kept positions by sqrt(2)), so the attempt the budget cuts off wastes less."""


def attempt(k: int) -> tuple[int, int]:
    """The ``k``-th attempt's size: (positions expanded per stage, positions kept per
    deal), growing without end. Each attempt resumes every stage where the last one left
    it, so nothing is thrown away.

    >>> [attempt(k) for k in range(10)]  # doctest: +NORMALIZE_WHITESPACE
    [(100, 1), (250, 2), (1000, 4), (4000, 8), (16000, 16), (32000, 22), (64000, 32),
     (128000, 45), (256000, 64), (512000, 90)]
    """
    if k == 0:
        return 100, 1
    if k == 1:
        return 250, 2
    if k <= COARSE:
        return 1000 << (2 * (k - 2)), 1 << k
    j = k - COARSE
    kept = 16 << (j // 2) if j % 2 == 0 else (23170 << (j // 2)) >> 10
    return 16000 << j, kept


def evaluation(a: int) -> tuple[int, bool]:
    """Attempt ``a``'s size (the ``k`` of :func:`attempt`) and whether it ranks positions
    by the second evaluation, :func:`distance` plus the face-down cards (a face-down card
    counts twice), instead of :func:`distance`. Up to ``COARSE`` each size is tried once;
    past it twice, first by the distance, then by the second evaluation: a portfolio over
    one table, so what one expands the other walks through for free.

    >>> [evaluation(a) for a in range(4, 10)]  # doctest: +NORMALIZE_WHITESPACE
    [(4, False), (5, False), (5, True), (6, False), (6, True), (7, False)]
    """
    if a <= COARSE:
        return a, False
    return COARSE + 1 + (a - COARSE - 1) // 2, (a - COARSE - 1) % 2 == 1


def joint_evaluation(a: int) -> tuple[int, bool, bool]:
    """:func:`evaluation` for a game with other weights (``SpiderGame.other``): attempt
    ``a``'s size, whether it ranks by the second evaluation, and whether by the other
    weights. Each attempt :func:`evaluation` makes is made twice over the one table, by the
    game's weights and then by the other ones (equal shares of the attempts: what one
    expands the other walks through for free).

    >>> [joint_evaluation(a) for a in (0, 1, 9, 10, 11, 12, 13, 14)]
    ... # doctest: +NORMALIZE_WHITESPACE
    [(0, False, False), (0, False, True), (4, False, True), (5, False, False),
     (5, True, False), (5, False, True), (5, True, True), (6, False, False)]
    """
    if a < 2 * (COARSE + 1):
        return a // 2, False, a % 2 == 1
    b = a - 2 * (COARSE + 1)
    return COARSE + 1 + b // 4, b % 2 == 1, b % 4 >= 2


def swap_evaluation(a: int) -> tuple[int, bool, bool]:
    """:func:`joint_evaluation` with ``SpiderGame.swap``: the attempts of the single search
    (:func:`evaluation`), the attempts of its second evaluation made by the other weights'
    distance instead (the same sizes and number of attempts as one evaluation's search).

    >>> [swap_evaluation(a) for a in (0, 4, 5, 6, 7)]  # doctest: +NORMALIZE_WHITESPACE
    [(0, False, False), (4, False, False), (5, False, False), (5, False, True),
     (6, False, False)]
    """
    k, second = evaluation(a)
    return k, False, second


SHAPE = abi.SP_SHAPE
"""Past the (16,000, 16) attempt, each position already kept after a deal with the same
face-down counts and completed runs as a candidate adds this much to the candidate's
distance when the next stage's seeds are chosen: the kept positions spread over
different cards turned up instead of clustering on one line's variants (``SP_SHAPE``
declared in ``csrc/abi.toml``)."""

_CLOCK_EVERY = 256
_TICKS = (1 << 40) - 1
MEMORY = 3 << 29
"""Bytes the compiled search's tables may take, 1.5 GB (about 6 million positions
expanded; a search that needs more answers "unknown")."""

Status = Literal["won", "unknown", "exhausted", "memory"]


@dataclass(frozen=True)
class Found:
    """What one staged search found: ``won`` (with ``line``), ``exhausted`` (every
    position it could reach was expanded), or ``unknown``/``memory`` (budget spent).
    Without a win, ``line`` leads to the expanded position nearest one (lowest
    :func:`distance`; the search's progress, empty when only the root was expanded, and
    after ``memory``)."""

    status: Status
    line: tuple[Step, ...]
    nodes: int
    dropped: bool  # an unproven rule dropped a move somewhere (so exhausted is no proof)
    positions: int = 0  # positions reached (the table's size; 0 when no search ran)


def staged(
    game: SpiderGame,
    *,
    nodes: int | None,
    seconds: float | None,
    prune: bool,
    use_compiled: bool | None = None,
) -> Found:
    """Staged best-first search from ``game.root`` (see ``docs/solver-spider.md``), in C when the
    compiled core is built (``use_compiled`` None), else in Python. Both expand the same
    positions in the same order and find the same line."""
    if (nodes is not None and nodes <= 0) or (seconds is not None and seconds <= 0):
        return Found("unknown", (), 0, False)  # (the C search reads 0 as "no limit")
    if use_compiled is None:
        use_compiled = compiled is not None
    if use_compiled:
        if compiled is None:
            raise RuntimeError("the compiled core (pasyans.domains._core) is not built")
        cols, down, left, done, _ = game.root
        r: dict[str, Any] = compiled.spider_search(
            game.stock,
            (cols, down, left, done),
            WON,
            nodes or 0,
            seconds or 0.0,
            MEMORY,
            prune,
            weights=game.weights,
            other=game.other,
            swap=game.swap,
        )
        line: tuple[Step, ...] = tuple((i, c, m) for i, c, m in r["line"])
        return Found(r["status"], line, r["nodes"], r["dropped"], r["positions"])
    return _staged_python(game, nodes, seconds, prune)


def lost_table() -> object:
    """An empty table of positions proven lost for :func:`prove` (one game's: its
    positions' stocks are the first cards of one stock)."""
    if compiled is None:
        raise RuntimeError("the compiled core (pasyans.domains._core) is not built")
    return compiled.spider_table()


def prove(game: SpiderGame, table: object, *, nodes: int | None, seconds: float | None) -> Found:
    """The exhaustive loss prover (``csrc/spiderproof.c``, compiled only): a depth-first
    search over every legal move that adds each closed strongly connected component of
    positions to ``table`` (from :func:`lost_table`) as lost, also when its budget runs
    out; a later call skips them. ``exhausted`` proves the root lost. Not the staged
    search: the solvable-deal generator never calls it."""
    if (nodes is not None and nodes <= 0) or (seconds is not None and seconds <= 0):
        return Found("unknown", (), 0, False)
    if compiled is None:
        raise RuntimeError("the compiled core (pasyans.domains._core) is not built")
    cols, down, left, done, _ = game.root
    r = compiled.spider_prove(
        game.stock, (cols, down, left, done), WON, nodes or 0, seconds or 0.0, MEMORY, table
    )
    line: tuple[Step, ...] = tuple((i, c, m) for i, c, m in r["line"])
    return Found(r["status"], line, r["nodes"], False, r["positions"])


def _staged_python(
    game: SpiderGame, nodes: int | None, seconds: float | None, prune: bool
) -> Found:
    """The reference search (``csrc/spider.c`` does the same). Attempt ``k`` searches
    every stage from the positions kept at the last deal (by distance, and past
    ``COARSE`` by shape too: :func:`_keep_by_shape`); a position's children are
    generated once (counted as expanded) and kept, so a later attempt walks again through
    what earlier ones expanded at no cost and only pays for new positions."""
    deadline = None if seconds is None else time.perf_counter() + seconds
    root = game.root
    stages = (root[2] + game.width - 1) // game.width + 1
    index: dict[Hashable, int] = {game.key(root): 0}
    parent = [0]
    step: list[Step] = [DEAL]
    dist = [root[4]]
    second_down = game.weights.second
    dist2 = [root[4] + second_down * sum(root[1])]  # the second evaluation
    other = game.other
    odist: list[int] = []  # the other weights' distance and second evaluation
    odist2: list[int] = []
    if other is not None:
        odist.append(distance(*root[:4], other))
        odist2.append(odist[0] + other.second * sum(root[1]))
    pos = [root]
    kids: list[list[int] | None] = [None]
    seen = [-1]
    count = pops = 0
    dropped = False
    best = 0  # the expanded position nearest a win: without a win, the line to it

    def end(status: Status) -> Found:
        return Found(status, tuple(line(best)) if best else (), count, dropped, len(parent))

    def line(e: int) -> list[Step]:
        out: list[Step] = []
        while e:
            out.append(step[e])
            e = parent[e]
        out.reverse()
        return out

    a = 0  # the attempt: its size k, and past COARSE each size twice (see evaluation())
    while True:
        if other is None:
            k, second = evaluation(a)
            by_other = False
        elif game.swap:
            k, second, by_other = swap_evaluation(a)
        else:
            k, second, by_other = joint_evaluation(a)
        per, width = attempt(k)
        w = other if by_other and other is not None else game.weights
        prio = (odist2 if second else odist) if by_other else (dist2 if second else dist)
        tick = 0
        limited = False
        seeds = [0]
        for _ in range(stages):
            if not seeds:
                break
            opened: list[tuple[int, int, int]] = []
            nexts: list[tuple[int, int, int]] = []
            for e in seeds:
                seen[e] = a
                heapq.heappush(opened, (prio[e], _TICKS - tick, e))
                tick += 1
            spent = 0
            while opened and spent < per:
                if deadline is not None:
                    pops += 1
                    if pops % _CLOCK_EVERY == 0 and time.perf_counter() > deadline:
                        return end("unknown")
                e = heapq.heappop(opened)[2]
                spent += 1
                children = kids[e]
                if children is None:
                    if nodes is not None and count >= nodes:
                        return end("unknown")
                    count += 1
                    if e and (not best or dist[e] < dist[best]):
                        best = e
                    p = pos[e]
                    steps, drop = game.child_steps(p, prune=prune)
                    dropped = dropped or drop
                    children = []
                    for st in steps:
                        t = game.play(p, st)
                        if t[3] == WON:
                            return Found("won", (*line(e), st), count, dropped, len(parent))
                        tkey = game.key(t)
                        c = index.get(tkey)
                        if c is None:
                            c = index[tkey] = len(parent)
                            parent.append(e)
                            step.append(st)
                            dist.append(t[4])
                            dist2.append(t[4] + second_down * sum(t[1]))
                            if other is not None:
                                odist.append(distance(*t[:4], other))
                                odist2.append(odist[-1] + other.second * sum(t[1]))
                            pos.append(t)
                            kids.append(None)
                            seen.append(-1)
                        children.append(c)
                    kids[e] = children
                for c in children:
                    if step[c][2] == 0 and c != 0:  # a deal: a candidate for the next stage
                        heapq.heappush(nexts, (prio[c], tick, c))
                    elif seen[c] != a:
                        seen[c] = a
                        # Ties: the newest first (it goes deeper).
                        heapq.heappush(opened, (prio[c], _TICKS - tick, c))
                    else:
                        continue
                    tick += 1
            limited = limited or bool(opened)
            # The best positions the stage's deals reach start the next stage.
            seeds = []
            if k > COARSE:
                tick = _keep_by_shape(
                    nexts,
                    seeds,
                    width,
                    seen,
                    a,
                    prio,
                    pos,
                    parent,
                    tick,
                    shape_weight=w.shape,
                )
            while nexts and len(seeds) < width:
                c = heapq.heappop(nexts)[2]
                if seen[c] != a:
                    seen[c] = a
                    seeds.append(c)
            while nexts and seen[nexts[0][2]] == a:
                heapq.heappop(nexts)
            limited = limited or bool(nexts)
        if not limited:
            return end("exhausted")
        a += 1


def _keep_by_shape(
    nexts: list[tuple[int, int, int]],
    seeds: list[int],
    width: int,
    seen: list[int],
    k: int,
    dist: list[int],
    pos: list[Pos],
    parent: list[int],
    tick: int,
    shape_weight: int = abi.SP_SHAPE,
) -> int:
    """Moves up to ``width`` positions from the heap ``nexts`` (positions after a deal)
    to ``seeds``, lowest distance first, where each seed already kept of the same
    *shape* (the same face-down counts and cards in completed runs: the same cards turned
    up) adds :data:`SHAPE` to a candidate's distance. A candidate whose shape gained
    seeds since it was queued is queued again with its new priority. Returns ``tick``
    advanced by the requeued ones (``csrc/spider.c`` does the same; it tells shapes
    apart by a 64-bit hash). A deal keeps the dealing position's shape but for a run
    it completes, so a candidate's shape is read from its parent."""
    taken: dict[tuple[int, tuple[int, ...]], int] = {}
    while nexts and len(seeds) < width:
        key, _, c = heapq.heappop(nexts)
        if seen[c] == k:
            continue
        p = pos[parent[c]]
        shape = (p[3], p[1])
        n = taken.get(shape, 0)
        want = dist[c] + shape_weight * n
        if key < want:
            heapq.heappush(nexts, (want, tick, c))
            tick += 1
            continue
        taken[shape] = n + 1
        seen[c] = k
        seeds.append(c)
    return tick


Outcome = Literal["won", "lost", "unknown"]


def solve(
    game: SpiderGame,
    *,
    seconds: float | None,
    nodes: int | None,
    use_compiled: bool | None = None,
    pruned: float = 1.0,
) -> tuple[Outcome, tuple[Move, ...], int, bool]:
    """Search ``game`` from its root: (outcome, winning moves, positions expanded, whether
    an "unknown" is only due to the unproven rules).

    The staged search with the unproven rules runs first and widens until it wins or the
    budget is spent. Only if it runs out of positions (every stage exhausted) does the same
    search run again without them, with what is left: its exhaustion proves a loss.
    ``pruned`` below 1 gives the first search at most that share of the budget, and the
    second the rest also when the first ran out of it (0: the second alone).
    """
    start = time.perf_counter()
    used, again = 0, True
    if pruned > 0:
        cut = pruned < 1
        r = staged(
            game,
            nodes=max(1, int(nodes * pruned)) if cut and nodes is not None else nodes,
            seconds=seconds * pruned if cut and seconds is not None else seconds,
            prune=True,
            use_compiled=use_compiled,
        )
        used = r.nodes
        out = r.status in ("unknown", "memory")  # its budget ran out
        again = (r.status == "exhausted" and r.dropped) or (cut and out)
    if again:
        left_nodes = None if nodes is None else nodes - used
        left_time = None if seconds is None else seconds - (time.perf_counter() - start)
        if (left_nodes is None or left_nodes > 0) and (left_time is None or left_time > 0):
            r = staged(
                game, nodes=left_nodes, seconds=left_time, prune=False, use_compiled=use_compiled
            )
            used += r.nodes
        else:
            return "unknown", (), used, True
    if r.status == "won":
        return "won", tuple(game.move(st) for st in r.line), used, False
    if r.status == "exhausted":
        return "lost", (), used, False
    return "unknown", (), used, False


JOINT_SUITS: frozenset[int] = frozenset()
"""The suit counts :func:`pasyans.solver.search.solve` searches by the joint search
(:data:`WEIGHTS` and :data:`JOINT_OTHER` over one table, :func:`joint_evaluation`) unless
told the weights: none. Measured on 4 suits and not adopted
(``docs/notes/2026-12-03-spider-portfolio.md``): at 1 s of one core by the node budget it
ties :data:`WEIGHTS` alone over the 1,200 deals measured (1,144 each), wins fewer at 0.1 s
(166 against 199 of 300), and the post-game analysis decides no more with it (78.0% of
positions against 78.7% on 12 follower games). ``{4}``
makes it 4 suits' way."""

JOINT_OTHER = V1
"""The joint search's other weights."""
