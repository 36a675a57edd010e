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
3,000 positions of Backbone); the line is a win still, every move legal, never longer.
"""

from __future__ import annotations

from collections.abc import Sequence

from pasyans.engine import core
from pasyans.engine.moves import Move
from pasyans.position import State
from pasyans.rules.spec import GameSpec


def shortened(spec: GameSpec, state: State, moves: Sequence[Move]) -> tuple[Move, ...]:
    """The shortest line from ``state`` to the end of ``moves`` through positions of
    ``moves``' line (the same end position: a win stays a win)."""
    positions = [state]
    for m in moves:
        positions.append(core.apply(spec, positions[-1], m))
    n = len(moves)
    last: dict[State, int] = {p: i for i, p in enumerate(positions)}  # the latest index
    steps = [0] * (n + 1)  # the fewest moves from position i to the end
    jump: list[tuple[int, Move] | None] = [None] * (n + 1)  # (the next index, its move)
    for i in range(n - 1, -1, -1):
        j = last[positions[i]]
        if j > i:  # the line comes back to this position: go on as from its last visit
            steps[i], jump[i] = steps[j], jump[j]
            continue
        best = (steps[i + 1] + 1, i + 1, moves[i])
        for m in core.legal_moves(spec, positions[i]):
            j = last.get(core.apply(spec, positions[i], m), -1)
            if j > i and steps[j] + 1 < best[0]:
                best = (steps[j] + 1, j, m)
        steps[i], jump[i] = best[0], (best[1], best[2])
    line: list[Move] = []
    step = jump[0]
    while step is not None:
        line.append(step[1])
        step = jump[step[0]]
    return tuple(line)
