"""Each position's full-information outcome along a game, with as few searches as the
game allows (docs/analysis.md, "Outcome with every card known").

Three sound facts let one search decide many positions:

1. **Monotone.** Position ``k + 1`` follows ``k`` by a legal move, so if ``k + 1`` can be
   won so can ``k``, and if ``k`` is lost so is ``k + 1``: along a game the outcomes are
   a won prefix, then (where a budget ran out) unknowns, then a lost suffix.
2. **Blocks.** Where move ``k`` can be undone (a legal move from position ``k`` leads back
   to ``k - 1``), the two positions reach the same positions and share their outcome;
   so do two equal positions of the game, and with (1) every position between them. The
   game splits into blocks of positions with one outcome; a stalled game's circles fall
   into one block. A search of one position decides its whole block.
3. **Lines.** A found win's line passes through positions; every later position of the
   game equal to one of them is won as well.

The boundary between won and lost blocks is searched for from both sides at once, the
last block first (a stuck end is proven lost at once), then alternately from the last
block proven won forward and from the first proven lost backward, by galloping steps (1,
2, 4, … blocks) that halve again after an unknown: a position next to a decided one is
the cheapest to decide (a win is easiest to find early, a loss easiest to prove late),
where a bisection's middle probes mostly ran out of budget. When both sides are stuck at
unknowns, the widest gap left is split. Only searched outcomes and these inferences are
ever written.

A Spider position whose stock is empty, searched without a kept table (for a win), gets
the staged search with its unproven rules for at most half its seconds
(:data:`PRUNED_FIRST`; it finds most wins there, and often runs out of moves at once),
then without them for the rest (:func:`pasyans.domains.spider.solve` with ``pruned``):
only that search's exhaustion proves a loss, and the rules drop moves some wins need.

**Kept tables** (:func:`table_for`). Spider's searches for a loss (the lost side's) are
its exhaustive loss prover (:func:`pasyans.domains.spider.prove`) and Backbone's every
search is its restarting search, each with one table of positions proven lost kept
along the game: a later search skips them, so an earlier position's proof reuses the
later ones', and a search that ran out is resumed rather than thrown away. A Spider
probe for a loss first gives the staged search a tenth more of its time
(:data:`WIN_FIRST`): the prover walks depth first and can miss a win the staged search
finds at once. With a table,
once both sides are stuck at unknowns, the block next to the decided ones on the side
that has spent less time is searched again with twice the seconds of its last search
(instead of splitting the gap).

**Backbone's draws and dives** (``DRAWS_GAMES``): its searches take a run of stock
clicks and the waste move it leads to as one move (a click commutes with every move
but the waste's, so any winning line can be reordered into such moves: the same
outcomes, fewer positions), and its searches for a loss are one depth-first dive. A
position of the stock's last pass that the column-capacity rule proves lost
(:mod:`pasyans.domains.wastelock`, ``WASTELOCK``) is not expanded.
"""

from __future__ import annotations

import itertools
import time
from collections import deque
from typing import Literal

from pasyans.analysis.model import Proof
from pasyans.analysis.verdict import Outcome
from pasyans.domains import packed, registry, spider
from pasyans.domains.packed import PackedDomain
from pasyans.engine import core
from pasyans.engine.moves import Move
from pasyans.position import State
from pasyans.rules.spec import GameSpec
from pasyans.solver import search as solver
from pasyans.solver.search import Result, solve

COMPRESS = True
"""Backbone's searches treat a run of stock clicks and the waste move it leads to as one
move (``PackedDomain.restarting``'s ``compress``): the same outcomes, fewer positions."""

PROVE_DIVE = True
"""Backbone's searches for a loss are one depth-first dive, without restarts."""

WASTELOCK = True
"""Backbone's searches do not expand a position of the stock's last pass that the column
capacity rule proves lost (:mod:`pasyans.domains.wastelock`)."""

RETURNING_SAFE = True
"""Backbone's searches play a card whose suit's cards of every lower rank are all on the
foundations to a foundation at once, alone (the safe move the solver makes only where
foundation cards never leave), although Backbone's foundation cards may come back to the
columns: no winning line needs such a card or those below it off the foundations
(``fp_children_rule`` in csrc/engine.c; tests/analysis/test_returning_safe.py). Only
the analysis's searches: the solver's elsewhere make the solvable deals and the hints,
whose results are kept as they are."""

SPLIT_GAPS = True
"""Backbone (``DRAWS_GAMES``), once a search has run out: every other probe splits the
widest gap between the blocks settled or left unknown (its middle searched for a win or
a loss, with the kept table), the others go on as before. A position further along a
game can be far quicker to win than the one next to the last won (fewer cards left to
place): on Backbone's games with a band, a win there settles every block before it."""

DRAWS_GAMES = frozenset({"backbone"})
"""The games ``COMPRESS``, ``PROVE_DIVE``, ``RETURNING_SAFE`` and ``WASTELOCK`` apply to:
where they were measured (docs/notes/2026-12-04-backbone-boundary.md); Backbone classic
keeps its searches."""

PRUNED_FIRST = 0.5
"""Spider, a stock-empty position searched without a kept table: the most of its seconds
(and nodes) the staged search with its unproven rules gets before the search without
them has the rest (0: without them only, as before 2026-12-07 19:00 UTC)."""

WIN_FIRST = 0.1
"""Spider: a probe for a loss first gives the staged search for a win this share of its
seconds (and nodes), on top of them; the exhaustive loss prover then has them all (0: the
prover alone)."""

ONE_DIVE = 1 << 62
"""The first dive's positions for a search for a loss: no budget of its own."""


def search(
    spec: GameSpec,
    state: State,
    seconds: float,
    nodes: int | None,
    table: object | None = None,
    *,
    prove: bool = False,
) -> Result:
    """The full-information search of one position (see the module's text); with
    ``table`` (:func:`table_for`) Spider's exhaustive loss prover or the packed games'
    restarting search, which keep what they prove lost there for the next call;
    Backbone's (``DRAWS_GAMES``) with the stock's draws as moves. ``prove``: a search
    for a loss (the lost side's), for Backbone one depth-first dive without restarts (a
    restart throws away the components it did not close, and a lost position's closure
    is mostly one big component)."""
    if table is not None and core.is_won(spec, state):
        return Result("won", (), 0)
    is_spider = registry.domain_for(spec) == registry.SPIDER
    if table is not None and not is_spider:
        d = solver.domain_for(spec, state)  # table_for gave a table: the restarting search
        assert isinstance(d, PackedDomain)
        ours = spec.id in DRAWS_GAMES
        outcome, moves, used = restarts(
            d,
            nodes,
            prove=prove and PROVE_DIVE and ours,
            deadline=time.perf_counter() + seconds,
            table=table,
            compress=COMPRESS and ours,
            wastelock=WASTELOCK and ours,
            returning=RETURNING_SAFE and ours,
        )
        return Result(outcome, moves, used)
    if table is not None:
        game = spider.SpiderGame(spec, state)
        r = spider.prove(game, table, nodes=nodes, seconds=seconds)
        if r.status == "won":
            return Result("won", tuple(game.move(st) for st in r.line), r.nodes)
        return Result("lost" if r.status == "exhausted" else "unknown", (), r.nodes)
    if is_spider and not state.piles[spec.index["stock"]]:
        game = spider.SpiderGame(spec, state)
        if not core.is_won(spec, state):
            outcome, moves, used, _ = spider.solve(
                game, seconds=seconds, nodes=nodes, pruned=PRUNED_FIRST
            )
            return Result(outcome, moves, used)
    return solve(spec, state, seconds=seconds, nodes=nodes)


def restarts(
    d: PackedDomain,
    nodes: int | None,
    *,
    prove: bool,
    deadline: float | None = None,
    table: object | None = None,
    compress: bool = False,
    wastelock: bool = False,
    returning: bool = False,
) -> tuple[Literal["won", "lost", "unknown"], tuple[Move, ...], int]:
    """The packed games' restarting search of ``d`` with the solver's restart constants:
    for a loss (``prove``) one dive with no budget of its own (:data:`ONE_DIVE`), else
    the solver's first dive; the rules as :meth:`PackedDomain.restarting` names them.
    :func:`search`'s, and the tests' that compare the rules with and without."""
    first = ONE_DIVE if prove else solver.FIRST_DIVE
    return d.restarting(
        deadline, nodes, first, solver.RESTART_UNIT, solver.DETOUR, solver.EARLY, table,
        compress, wastelock, returning,
    )  # fmt: skip


def table_for(spec: GameSpec, state: State) -> object | None:
    """A table of positions proven lost for :func:`search` along one game: Spider's loss
    prover's, or the packed restarting search's (Backbone); None for the other games, or
    without the compiled core."""
    try:
        if registry.domain_for(spec) == registry.SPIDER:
            return spider.lost_table()
        d = solver.domain_for(spec, state)
        if isinstance(d, PackedDomain) and d.restarts and d.compiled_search:
            return packed.lost_table()
    except RuntimeError:  # pragma: no cover - the compiled core is not built
        pass
    return None


def checked(spec: GameSpec, states: list[State], k: int, seconds: float) -> str:
    """Position ``k``'s outcome by fresh searches, for checks (tests, benchmarks): the
    solver's with ``seconds``; where it runs out, for a game with a kept table, the same
    searches as the analysis's walked back from the game's end with a new table (each
    position at most ``seconds``). ``won``, ``lost`` or ``unknown``."""
    r = solve(spec, states[k], seconds=seconds).result
    if r != "unknown":
        return r
    table = table_for(spec, states[0])
    if table is None:
        return r
    for j in range(len(states) - 1, k - 1, -1):
        r = search(spec, states[j], seconds, None, table, prove=True).result
        if r == "won":  # so is every earlier position, k too
            return "won"
    return r


def undo_move(spec: GameSpec, before: State, after: State) -> Move | None:
    """A legal move from ``after`` back to ``before``, or None."""
    for m in core.legal_moves(spec, after):
        if core.apply(spec, after, m) == before:
            return m
    return None


class Outcomes:
    """The outcomes of positions ``0 … n`` (see the module's text): :meth:`next_probe`
    names a position to search, :meth:`search` searches it, :meth:`outcome` reads one."""

    def __init__(self, spec: GameSpec, states: list[State], moves: list[Move]) -> None:
        self.spec, self.states, self.moves = spec, states, moves
        n = len(moves)
        self.back: dict[int, Move] = {}  # k: a move from position k back to k - 1
        for k in range(1, n + 1):
            m = undo_move(spec, states[k - 1], states[k])
            if m is not None:
                self.back[k] = m
        self.equal: dict[State, list[int]] = {}
        for k, s in enumerate(states):
            self.equal.setdefault(s, []).append(k)
        # joined[k]: position k shares its block with k - 1
        joined = [False] + [k in self.back for k in range(1, n + 1)]
        for ks in self.equal.values():
            for k in range(ks[0] + 1, ks[-1] + 1):
                joined[k] = True
        self.blocks: list[tuple[int, int]] = []  # (first, last) position of each block
        self.block_of: list[int] = []
        for k in range(n + 1):
            if not joined[k]:
                self.blocks.append((k, k))
            else:
                self.blocks[-1] = (self.blocks[-1][0], k)
            self.block_of.append(len(self.blocks) - 1)
        self.won = -1  # the last block proven won
        self.lost = len(self.blocks)  # the first block proven lost
        self.unknown: set[int] = set()  # blocks whose search ran out of budget
        self.steps = {"won": 1, "lost": 1}  # each side's galloping step, in blocks
        self.stuck: set[str] = set()  # sides whose next block is unknown
        self.side = "lost"  # the side the last probe was for
        self.galloped = "lost"  # the side of the last galloping probe (gap probes between)
        self.searched: set[int] = set()  # positions searched
        self.lines: dict[int, tuple[Move, ...]] = {}  # position: a winning line from it
        # Spider and Backbone: a table of positions proven lost kept between probes
        # (table_for). Once both sides are stuck, the blocks next to the decided ones are
        # searched again in turn (by the time each side has spent), each retry with
        # twice the seconds of the last, instead of splitting the gap.
        self.table = table_for(spec, states[0])
        self.prover = registry.domain_for(spec) == registry.SPIDER  # only its lost side
        self.tries: dict[tuple[str, int], int] = {}  # (side, block): searches that ran out
        self.spent = {"won": 0.0, "lost": 0.0}  # each side's seconds
        if core.is_won(spec, states[-1]):
            self.won = len(self.blocks) - 1
            self.lines[n] = ()

    def next_probe(self) -> int | None:
        """The position to search next (see the module's text), or None when every block
        is settled or unknown."""
        last = len(self.blocks) - 1
        if self.lost - self.won <= 1:
            return None
        if not self.searched and self.lost > last:
            self.side = "lost"
            return self.blocks[last][1]
        if SPLIT_GAPS and self.unknown and self.spec.id in DRAWS_GAMES and self.side != "gap":
            # Backbone, once a search has run out: every other probe splits the widest gap
            gap = self._widest_gap()
            if gap is not None:
                self.side = "gap"
                return gap
        # the sides take turns; a gap probe between two of theirs is nobody's turn
        for side in ("won", "lost") if self.galloped == "lost" else ("lost", "won"):
            if side in self.stuck:
                continue
            while True:
                step = self.steps[side]
                b = self.won + step if side == "won" else self.lost - step
                b = max(self.won + 1, min(self.lost - 1, b))
                if b not in self.unknown:
                    self.side = self.galloped = side
                    return self.blocks[b][1]
                if step == 1:
                    self.stuck.add(side)  # the next block is unknown: this side is done
                    break
                self.steps[side] = step // 2
        if self.table is not None:
            return self._resumed_probe()
        self.side = "gap"
        return self._widest_gap()

    def _widest_gap(self) -> int | None:
        """The middle position of the widest gap between the last block proven won, the
        blocks left unknown and the first proven lost; None when no gap is left."""
        marks = sorted({self.won, self.lost, *self.unknown})
        best: tuple[int, int] | None = None
        for a, b in itertools.pairwise(marks):
            if b - a > 1 and (best is None or b - a > best[1] - best[0]):
                best = (a, b)
        if best is None:
            return None
        return self.blocks[(best[0] + best[1]) // 2][1]

    def _resumed_probe(self) -> int:
        """When both sides are stuck and a table is kept: the block next to the decided
        ones on the side that has spent less time, searched again (with twice the
        seconds of its last search; what the table holds is not searched again)."""
        side = "lost" if self.spent["lost"] <= self.spent["won"] else "won"
        self.side = side
        return self.blocks[self.won + 1 if side == "won" else self.lost - 1][1]

    def seconds(self, k: int, seconds: float) -> float:
        """The time for the next search of position ``k``: ``seconds``, twice as much for
        each earlier search of its block for this side that ran out (with a kept table)."""
        return seconds * (1 << self.tries.get((self.side, self.block_of[k]), 0))

    def search(self, k: int, seconds: float, nodes: int | None) -> None:
        """Search position ``k`` and settle what its outcome decides."""
        b = self.block_of[k]
        side = self.side
        table = self.table if side == "lost" or not self.prover else None
        t0 = time.perf_counter()
        r = None
        if side == "lost" and self.prover and WIN_FIRST:
            # the staged search first, briefly: it finds in a moment a win the prover's
            # depth-first walk misses, and the block next to the first lost one may be won
            # (Backbone's dive for a loss, measured the same way, named the same moves)
            short = None if nodes is None else max(1, int(nodes * WIN_FIRST))
            first = search(self.spec, self.states[k], seconds * WIN_FIRST, short)
            if first.result != "unknown":
                r = first
        if r is None:
            r = search(self.spec, self.states[k], seconds, nodes, table, prove=side == "lost")
        if side in self.spent:
            self.spent[side] += time.perf_counter() - t0
        self.searched.add(k)
        if self.table is not None and r.result == "unknown":
            self.tries[side, b] = self.tries.get((side, b), 0) + 1
        if r.result != "unknown":
            self.stuck.discard(r.result)  # that side moved on: it gallops again
        if r.result == "lost":
            self.lost = min(self.lost, b)
            self.unknown = {u for u in self.unknown if u < self.lost}
        elif r.result == "won":
            self.lines[k] = r.moves
            self.won = max(self.won, b, self._along(k, r.moves))
            self.unknown = {u for u in self.unknown if u > self.won}
        else:
            self.unknown.add(b)
        if side in self.steps:
            decided = r.result == side
            if decided:
                self.steps[side] *= 2
            elif r.result == "unknown":
                self.steps[side] = max(1, self.steps[side] // 2)

    def _along(self, k: int, line: tuple[Move, ...]) -> int:
        """The last block of a later position of the game that ``line`` (a win from
        position ``k``) passes through; each such position keeps the rest of the line."""
        at: dict[State, int] = {}
        s = self.states[k]
        for i, m in enumerate(line):
            at.setdefault(s, i)
            s = core.apply(self.spec, s, m)
        best = -1
        for j in range(k + 1, len(self.states)):
            hit = at.get(self.states[j])
            if hit is not None:
                self.lines.setdefault(j, line[hit:])
                best = self.block_of[j]
        return best

    def outcome(self, k: int) -> tuple[Outcome, Proof]:
        b = self.block_of[k]
        if b <= self.won:
            if k == len(self.moves) and k in self.lines and not self.lines[k]:
                return "won", "played"
            return "won", "searched" if k in self.searched else "inferred"
        if b >= self.lost:
            return "lost", "searched" if k in self.searched else "inferred"
        return "unknown", "searched" if k in self.searched else "none"

    def way(self) -> tuple[int | None, tuple[Move, ...]]:
        """The last position proven won and a winning line from it: back along the
        game's undoable moves, across its equal positions and forward along its moves to
        a position with a found line, then that line. (None, ()) when none is won."""
        if self.won < 0:
            return None, ()
        w = self.blocks[self.won][1]
        paths: dict[int, tuple[Move, ...]] = {w: ()}
        queue = deque([w])
        while queue:
            x = queue.popleft()
            if x in self.lines:
                return w, paths[x] + self.lines[x]
            steps: list[tuple[int, tuple[Move, ...]]] = []
            if x in self.back:
                steps.append((x - 1, (self.back[x],)))
            if x < len(self.moves):
                steps.append((x + 1, (self.moves[x],)))
            steps += [(y, ()) for y in self.equal[self.states[x]]]
            for y, ms in steps:
                if y not in paths:
                    paths[y] = paths[x] + ms
                    queue.append(y)
        last = max(self.lines)  # pragma: no cover - every won block reaches a line
        return last, self.lines[last]
