"""Shorter wins: cut a found line's detours.

The depth-first searches (Backbone's packed search above all) return the first win they
reach, not a short one: with every card known, Backbone deal 28 got a line of 2,941 moves
where 476 do (the follower then ran into its move cap, docs/notes/2026-12-04-short-lines.md).
Such a line wanders through positions that one move joins to a position much further
along it. :func:`shortened` finds the fewest moves from the start to the win that go only
through positions of the line, one move at a time: the line's positions are the nodes,
an edge joins position ``i`` to a later position ``j`` that one legal move reaches, and a
shortest path over that DAG (computed back from the end) is the new line. Each position
costs one :func:`core.legal_moves` and an :func:`core.apply` per move (about 0.1 s for
3,000 positions of Backbone in Python); the line is a win still, every move legal, never
longer. Spine, Backbone and Backbone classic (the packed rules, :mod:`pasyans.domains.packed`)
generate and play those moves in the compiled core (``engine_moves``, ``engine_play``), in
the engine's move order, so the line is the same, in 1-3 ms for a Backbone line of 300
moves instead of 9-16 ms (``tests/solver/test_shorten.py`` checks the two against each
other).

Spider's staged search can return a long line (a 4-suit win of 74,841 moves: 2,187,540
moves tried, about 29 s by the Python engine at 13 µs a move;
docs/notes/2026-12-07-analysis-way-time.md). Its graph is compiled too
(``spider_shortest``, csrc/spiderline.c: the packed Spider rules, positions told apart
whole, columns in place), 0.6 s for that line; the engine's graph stays the reference
and the fallback without the compiled core. A ``deadline`` (``time.perf_counter``) bounds
the work either way: past it the positions left get no moves of their own but the line's,
so the line is cut only where the graph was built.
"""

from __future__ import annotations

import time
from collections.abc import Hashable, Sequence

from pasyans.domains import packed, spider
from pasyans.domains.built import compiled
from pasyans.engine import core
from pasyans.engine.moves import Move
from pasyans.position import State
from pasyans.rules.spec import GameSpec


def shortened(
    spec: GameSpec, state: State, moves: Sequence[Move], deadline: float | None = None
) -> tuple[Move, ...]:
    """The shortest line from ``state`` to the end of ``moves`` through positions of
    ``moves``' line (the same end position: a win stays a win); past ``deadline``
    (``time.perf_counter``) the positions left keep only the line's own move."""
    if packed.applies(spec, state):
        return _shortest(moves, *_packed_graph(spec, state, moves, deadline))
    if compiled is not None and spider.applies(spec):
        fast = _spider_shortest(spec, state, moves, deadline)
        if fast is not None:
            return fast
    return _shortest(moves, *_engine_graph(spec, state, moves, deadline))


def _spider_shortest(
    spec: GameSpec, state: State, moves: Sequence[Move], deadline: float | None
) -> tuple[Move, ...] | None:
    """:func:`shortened` for Spider, compiled: the same fewest moves over the line's
    positions (ties between equally short lines may go another way: the packed rules list
    their moves in an order of their own). Positions are compared as the packed rules keep
    them, the runs put away by number, so two that differ only in the order their runs
    were completed are one: the line can then come out shorter, and stays a win. None for
    a line with a move the packed rules do not name (not from a column to a column, nor
    the deal): the engine's graph then cuts it."""
    assert compiled is not None
    game = spider.SpiderGame(spec, state)
    steps = _spider_steps(game, moves)
    if steps is None:
        return None
    line = compiled.spider_shortest(game.stock, game.root, steps, deadline or 0.0)
    return tuple(game.move(st) for st in line)


def _spider_steps(game: spider.SpiderGame, moves: Sequence[Move]) -> list[spider.Step] | None:
    """``moves`` as the packed rules' steps (:meth:`SpiderGame.move`'s inverse), or None
    when one is neither from a column to a column nor the deal."""
    place = {pile: j for j, pile in enumerate(game.ids)}
    if any(m.dst is not None and (m.src not in place or m.dst not in place) for m in moves):
        return None
    return [spider.DEAL if m.dst is None else (place[m.src], place[m.dst], m.cards) for m in moves]


def _late(deadline: float | None, i: int) -> bool:
    """Whether the deadline has passed (the clock read every 64th position)."""
    return deadline is not None and i % 64 == 0 and time.perf_counter() > deadline


Graph = tuple[Sequence[Hashable], Sequence[Sequence[tuple[Move, Hashable]]]]
"""A line's positions (keys of some kind), and for each but the last its legal moves in
the engine's order, each with the key of the position it leads to."""


def _engine_graph(
    spec: GameSpec, state: State, moves: Sequence[Move], deadline: float | None = None
) -> Graph:
    positions: list[Hashable] = [state]
    kids: list[list[tuple[Move, Hashable]]] = []
    late = False
    for i, m in enumerate(moves):
        late = late or _late(deadline, i)
        legal = () if late else core.legal_moves(spec, state)
        kids.append([(k, core.apply(spec, state, k)) for k in legal])
        state = core.apply(spec, state, m)
        positions.append(state)
    return positions, kids


_CORES: dict[int, packed.PackedDomain] = {}
"""The packed rules of each game spec (by its id; checked against the spec itself)."""


def _packed_graph(
    spec: GameSpec, state: State, moves: Sequence[Move], deadline: float | None = None
) -> Graph:
    d = _CORES.get(id(spec))
    if d is None or d.spec is not spec:
        d = _CORES[id(spec)] = packed.PackedDomain(spec, state)
    assert compiled is not None  # (packed.applies: the core is built)
    codes, play = compiled.engine_moves, compiled.engine_play
    pos = packed.pack(state)
    positions: list[bytes] = [pos]
    kids: list[list[tuple[Move, bytes]]] = []
    late = False
    for i, m in enumerate(moves):
        late = late or _late(deadline, i)
        row = [(d.move(c), play(d.core, pos, c)) for c in codes(d.core, pos)]
        kids.append([] if late else row)
        pos = next(child for k, child in row if k == m)
        positions.append(pos)
    return positions, kids


def _shortest(
    moves: Sequence[Move],
    positions: Sequence[Hashable],
    kids: Sequence[Sequence[tuple[Move, Hashable]]],
) -> tuple[Move, ...]:
    n = len(moves)
    last: dict[Hashable, int] = {p: i for i, p in enumerate(positions)}  # the latest index
    steps = [0] * (n + 1)  # the fewest moves from position i to the end
    jump: list[tuple[int, Move] | None] = [None] * (n + 1)  # (the next index, its move)
    for i in range(n - 1, -1, -1):
        j = last[positions[i]]
        if j > i:  # the line comes back to this position: go on as from its last visit
            steps[i], jump[i] = steps[j], jump[j]
            continue
        best = (steps[i + 1] + 1, i + 1, moves[i])
        for m, child in kids[i]:
            j = last.get(child, -1)
            if j > i and steps[j] + 1 < best[0]:
                best = (steps[j] + 1, j, m)
        steps[i], jump[i] = best[0], (best[1], best[2])
    line: list[Move] = []
    step = jump[0]
    while step is not None:
        line.append(step[1])
        step = jump[step[0]]
    return tuple(line)
