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

import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

from pasyans.engine.core import apply, is_won, legal_moves
from pasyans.engine.moves import Move
from pasyans.position import State
from pasyans.rules.spec import GameSpec
from pasyans.solver.knowledge import Knowledge, knowledge_for

Outcome = Literal["won", "lost", "unknown"]

_CLOCK_EVERY = 256


@dataclass(frozen=True)
class Result:
    """What a search found: ``won`` (with ``moves``), ``lost`` (proven) or ``unknown``."""

    result: Outcome
    moves: tuple[Move, ...] = ()
    nodes: int = 0
    seconds: float = 0.0

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
    seen = {k.key(state)}
    path: list[Move] = []
    stack: list[tuple[State, Iterator[Move]]] = [
        (state, iter(k.children(state, legal_moves(spec, state))))
    ]
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
            stack.append((t, iter(k.children(t, legal_moves(spec, t)))))
            break
        else:
            stack.pop()
            if path:
                path.pop()
    return Result("lost", (), count, time.perf_counter() - start)


def replay(spec: GameSpec, state: State, moves: tuple[Move, ...] | list[Move]) -> State:
    """Play ``moves`` from ``state`` checking each is legal (raises otherwise)."""
    from pasyans.engine.core import play_checked

    for m in moves:
        state = play_checked(spec, state, m)
    return state
