"""Exact search over the full-information game (every card known).

Depth-first graph search with a transposition table of canonical positions
(:mod:`pasyans.solver.knowledge`). Winning is a reachability question in a one-player
deterministic game, so visiting every reachable position once is complete: when the
search runs out of positions without reaching a win, the deal is proven lost. The pruning
rules keep that true (each is shown sound in ``docs/solver.md``): a safe foundation move
is played alone, and of moves to alike piles only one is tried.

The search knows the cards in the stock and face down: use it for winnability and for
solvable deals, never for a hint in a position with hidden cards.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Hashable, Iterator
from dataclasses import dataclass
from typing import Any, Literal

from pasyans.engine.core import apply, is_won, legal_moves
from pasyans.engine.moves import Move
from pasyans.position import State
from pasyans.rules.spec import GameSpec
from pasyans.solver.knowledge import Knowledge, distance, knowledge_for

Outcome = Literal["won", "lost", "unknown"]

_CLOCK_EVERY = 256
_FIRST_TRY = 20_000  # guided depth-first nodes before best-first, with no budget at all


@dataclass(frozen=True)
class Result:
    """What a search found: ``won`` (with ``moves``), ``lost`` (proven) or ``unknown``."""

    result: Outcome
    moves: tuple[Move, ...] = ()
    nodes: int = 0
    seconds: float = 0.0
    exhausted: bool = False  # "unknown" only because unproven rules dropped moves

    def to_json(self) -> dict[str, Any]:
        return {
            "result": self.result,
            "moves": [m.to_json() for m in self.moves],
            "nodes": self.nodes,
            "seconds": round(self.seconds, 3),
        }


_KNOWLEDGE: dict[int, Knowledge] = {}


def knowledge(spec: GameSpec) -> Knowledge:
    """The (cached) helpers for ``spec``."""
    k = _KNOWLEDGE.get(id(spec))
    if k is None or k.spec is not spec:
        k = knowledge_for(spec)
        _KNOWLEDGE[id(spec)] = k
    return k


def solve(
    spec: GameSpec,
    state: State,
    *,
    seconds: float | None = None,
    nodes: int | None = None,
) -> Result:
    """Search for a win from ``state``.

    ``nodes`` bounds the positions expanded (reproducible); ``seconds`` bounds the time
    (machine-dependent). With neither, the search runs until it decides.
    """
    k = knowledge(spec)
    start = time.perf_counter()
    deadline = None if seconds is None else start + seconds
    if is_won(spec, state):
        return Result("won", (), 0, time.perf_counter() - start)
    if not k.guided:
        return _depth_first(spec, k, state, start, deadline, nodes, prune=False)
    # Guided games (Spider): a short guided depth-first try (it wins most easy deals
    # fast), then a greedy best-first search with the rest of the budget; both drop
    # unproven "shuffle" moves, so if they run out of positions, a plain search gets
    # what is left of the budget (only it can prove a loss).
    n1 = None if nodes is None else nodes // 3
    d1 = None if seconds is None else start + seconds / 3
    if n1 is None and d1 is None:
        n1 = _FIRST_TRY
    r = _depth_first(spec, k, state, start, d1, n1, prune=True)
    used = r.nodes
    if r.result == "unknown" and not r.exhausted:
        r = _best_first(spec, k, state, start, deadline, _left(nodes, used))
        used += r.nodes
    if r.result == "unknown" and r.exhausted:
        left = _left(nodes, used)
        if left is None or left > 0:
            r = _depth_first(spec, k, state, start, deadline, left, prune=False)
            used += r.nodes
    return Result(r.result, r.moves, used, time.perf_counter() - start)


def _left(nodes: int | None, used: int) -> int | None:
    return None if nodes is None else max(0, nodes - used)


def _depth_first(
    spec: GameSpec,
    k: Knowledge,
    state: State,
    start: float,
    deadline: float | None,
    nodes: int | None,
    *,
    prune: bool,
) -> Result:
    """The depth-first search; ``prune`` turns on the unproven rules of guided games."""
    seen = {k.key(state)}
    path: list[Move] = []
    first, pruned = k.guided_children(state, legal_moves(spec, state), prune=prune)
    stack: list[tuple[State, Iterator[Move]]] = [(state, iter(first))]
    count = 1
    while stack:
        s, it = stack[-1]
        for m in it:
            t = apply(spec, s, m)
            if is_won(spec, t):
                path.append(m)
                return Result("won", tuple(path), count, time.perf_counter() - start)
            key = k.key(t)
            if key in seen:
                continue
            if nodes is not None and count >= nodes:
                return Result("unknown", (), count, time.perf_counter() - start)
            if (
                deadline is not None
                and count % _CLOCK_EVERY == 0
                and time.perf_counter() > deadline
            ):
                return Result("unknown", (), count, time.perf_counter() - start)
            seen.add(key)
            count += 1
            path.append(m)
            kids, dropped = k.guided_children(t, legal_moves(spec, t), prune=prune)
            pruned = pruned or dropped
            stack.append((t, iter(kids)))
            break
        else:
            stack.pop()
            if path:
                path.pop()
    # An unproven rule dropped moves somewhere (Spider's shuffles): no proof of a loss.
    if pruned:
        return Result("unknown", (), count, time.perf_counter() - start, exhausted=True)
    return Result("lost", (), count, time.perf_counter() - start)


def _best_first(
    spec: GameSpec,
    k: Knowledge,
    state: State,
    start: float,
    deadline: float | None,
    nodes: int | None,
) -> Result:
    """Greedy best-first search for guided games (Spider): always expand the reached
    position that looks closest to a win (:func:`pasyans.solver.knowledge.distance`).
    Still visits each canonical position once, so running out of positions is a proof of
    a loss unless an unproven rule dropped moves on the way."""
    start_key = k.key(state)
    parent: dict[Hashable, tuple[Hashable, Move] | None] = {start_key: None}
    heap: list[tuple[int, int, Hashable, State]] = [(distance(k, state), 0, start_key, state)]
    pruned = False
    count = 0
    tick = 0
    while heap:
        _, _, key, s = heapq.heappop(heap)
        if nodes is not None and count >= nodes:
            return Result("unknown", (), count, time.perf_counter() - start)
        if deadline is not None and count % _CLOCK_EVERY == 0 and time.perf_counter() > deadline:
            return Result("unknown", (), count, time.perf_counter() - start)
        count += 1
        kids, dropped = k.guided_children(s, legal_moves(spec, s))
        pruned = pruned or dropped
        for m in kids:
            t = apply(spec, s, m)
            tkey = k.key(t)
            if tkey in parent:
                continue
            parent[tkey] = (key, m)
            if is_won(spec, t):
                return Result("won", _path(parent, tkey), count, time.perf_counter() - start)
            tick += 1
            heapq.heappush(heap, (distance(k, t), tick, tkey, t))
    if pruned:
        return Result("unknown", (), count, time.perf_counter() - start, exhausted=True)
    return Result("lost", (), count, time.perf_counter() - start)


def _path(parent: dict[Hashable, tuple[Hashable, Move] | None], key: Hashable) -> tuple[Move, ...]:
    moves: list[Move] = []
    link = parent[key]
    while link is not None:
        key, m = link
        moves.append(m)
        link = parent[key]
    return tuple(reversed(moves))


def replay(spec: GameSpec, state: State, moves: tuple[Move, ...] | list[Move]) -> State:
    """Play ``moves`` from ``state`` checking each is legal (raises otherwise)."""
    from pasyans.engine.core import play_checked

    for m in moves:
        state = play_checked(spec, state, m)
    return state
