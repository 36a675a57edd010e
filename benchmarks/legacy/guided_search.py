"""Spider's guided search as it was before the compiled core, out of the package.

Staged best-first attempts with growing budgets that restart from the deal, then a plain
depth-first search with what is left of the budget (only it can prove a loss). The
library searches Spider with :func:`pasyans.domains.spider.solve` (the staged search whose
attempts resume and widen, compiled in ``csrc/spider.c``); this copy is kept only as the
"before" column of ``benchmarks/solver.py --spider-rate``. It ran on
:class:`pasyans.solver.search.SpiderDomain` (and the engine's domain of a guided game),
which :class:`GuidedSpider` extends with the distance and stage it reads.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Hashable
from typing import Protocol, TypeVar

from pasyans.domains import spider
from pasyans.engine.moves import Move
from pasyans.solver.search import _CLOCK_EVERY, Domain, Result, SpiderDomain, _depth_first

P = TypeVar("P")

ATTEMPTS = ((100, 1), (250, 2), (1000, 4), (4000, 8), (16000, 16), (64000, 32))
"""The staged attempts: (positions per stage, positions kept per stage)."""


class GuidedDomain(Domain[P], Protocol[P]):
    """A domain with what the staged attempts read besides the search's protocol."""

    def distance(self, pos: P) -> int:
        """How far ``pos`` looks from a win, lower is better."""
        ...

    def stage(self, pos: P) -> int:
        """A count that only ever goes down along a game (Spider: cards in the stock);
        an attempt settles each stage before it moves on to the next."""
        ...


class GuidedSpider(SpiderDomain):
    """Spider's packed rules with the evaluation and the stage of its packed tuples."""

    def distance(self, pos: spider.Pos) -> int:
        return pos[4]

    def stage(self, pos: spider.Pos) -> int:
        return pos[2]


def guided_search(
    d: GuidedDomain[P], start: float, seconds: float | None, nodes: int | None
) -> Result:
    """Search ``d`` from its root within the budgets: staged attempts, then depth-first."""
    deadline = None if seconds is None else start + seconds
    used = 0
    r = Result("unknown")
    for per_stage, width in ATTEMPTS:
        left = _left(nodes, used)
        if left is not None and left <= 0:
            break
        if deadline is not None and time.perf_counter() > deadline:
            break
        r = _staged(d, start, deadline, left, per_stage, width)
        used += r.nodes
        if r.result == "won":
            return Result(r.result, r.moves, used, time.perf_counter() - start)
    left = _left(nodes, used)
    if (left is None or left > 0) and (deadline is None or time.perf_counter() < deadline):
        r = _depth_first(d, start, deadline, left, prune=False)
        used += r.nodes
    return Result(r.result, r.moves, used, time.perf_counter() - start)


def _staged(
    d: GuidedDomain[P],
    start: float,
    deadline: float | None,
    nodes: int | None,
    per_stage: int,
    width: int,
) -> Result:
    """One staged attempt: greedy best-first within a stage (at most ``per_stage``
    positions) from up to ``width`` starting positions, then the ``width`` best positions
    the stage-changing moves reach (by :meth:`GuidedDomain.distance`) start the next stage.
    Unproven (it drops most of each stage): "unknown" when it finds no win."""
    frontier: list[tuple[P, tuple[Move, ...]]] = [(d.root, ())]
    count = 0
    while frontier:
        stage = d.stage(frontier[0][0])
        parent: dict[Hashable, tuple[Hashable, Move] | None] = {}
        prefix: dict[Hashable, tuple[Move, ...]] = {}
        tick = 0
        seeds: list[tuple[int, int, Hashable, P]] = []
        for pos, path in frontier:
            key = d.key(pos)
            if key in parent:
                continue
            parent[key] = None
            prefix[key] = path
            tick += 1
            seeds.append((d.distance(pos), -tick, key, pos))
        heap = seeds
        heapq.heapify(heap)
        nexts: list[tuple[int, int, P, Hashable, Move]] = []
        spent = 0
        while heap and spent < per_stage:
            _, _, key, s = heapq.heappop(heap)
            if _spent(count, nodes, deadline):
                return Result("unknown", (), count, time.perf_counter() - start)
            count += 1
            spent += 1
            kids, _ = d.children(s, prune=True)
            for m, t in kids:
                if d.is_won(t):
                    path = (*_staged_path(parent, prefix, key), m)
                    return Result("won", path, count, time.perf_counter() - start)
                if d.stage(t) != stage:
                    tick += 1
                    nexts.append((d.distance(t), tick, t, key, m))
                    continue
                tkey = d.key(t)
                if tkey in parent:
                    continue
                parent[tkey] = (key, m)
                tick += 1
                # Ties: the newest position first (it goes deeper).
                heapq.heappush(heap, (d.distance(t), -tick, tkey, t))
        nexts.sort(key=lambda e: (e[0], e[1]))
        frontier = []
        chosen: set[Hashable] = set()
        for _, _, t, key, m in nexts:
            tkey = d.key(t)
            if tkey in chosen:
                continue
            chosen.add(tkey)
            frontier.append((t, (*_staged_path(parent, prefix, key), m)))
            if len(frontier) >= width:
                break
    return Result("unknown", (), count, time.perf_counter() - start)


def _staged_path(
    parent: dict[Hashable, tuple[Hashable, Move] | None],
    prefix: dict[Hashable, tuple[Move, ...]],
    key: Hashable,
) -> tuple[Move, ...]:
    moves: list[Move] = []
    link = parent[key]
    while link is not None:
        key, m = link
        moves.append(m)
        link = parent[key]
    return prefix[key] + tuple(reversed(moves))


def _spent(count: int, nodes: int | None, deadline: float | None) -> bool:
    if nodes is not None and count >= nodes:
        return True
    return deadline is not None and count % _CLOCK_EVERY == 0 and time.perf_counter() > deadline


def _left(nodes: int | None, used: int) -> int | None:
    return None if nodes is None else max(0, nodes - used)
