"""Successive halving, the bandit of the no-peek players (:mod:`pasyans.hints.player`,
:mod:`pasyans.hints.lines`): ⌈log₂ n⌉ rounds, each giving every candidate still alive
its next batch of samples (about ``budget`` scores in all), then keeping the better half
by mean score. Every candidate alive in a round has the same samples."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

C = TypeVar("C")

Round = Callable[[Sequence[int], int, int], tuple[int, Sequence[int], Sequence[int]]]
"""One round: ``(alive, drawn, batch)`` → the samples played (fewer than ``batch`` when
the deadline came), and each alive candidate's points and wins on them, in order."""


@dataclass(frozen=True)
class Halved:
    """The best candidate (by mean score; ties: the first), and every candidate's total
    points, samples played and wins."""

    best: int
    totals: tuple[int, ...]
    counts: tuple[int, ...]
    wins: tuple[int, ...]


def rounds(n: int) -> int:
    """The rounds for ``n`` candidates."""
    return max(1, math.ceil(math.log2(n))) if n > 1 else 1


def halve(n: int, budget: int, play: Round, alone: int | None = None) -> Halved:
    """``n`` candidates halved with about ``budget`` scores in all, each round played by
    ``play``; a single candidate gets at most ``alone`` samples a round (None: no cap)."""
    todo = rounds(n)
    alive = list(range(n))
    totals, counts, wins = [0] * n, [0] * n, [0] * n
    drawn = 0
    for _ in range(todo):
        batch = max(1, budget // (todo * len(alive)))
        if n == 1 and alone is not None:
            batch = min(batch, alone)
        played, got, won = play(alive, drawn, batch)
        for c, pts, w in zip(alive, got, won, strict=True):
            totals[c] += pts
            counts[c] += played
            wins[c] += w
        drawn += batch
        if played < batch:  # the deadline came
            break
        if len(alive) > 1:
            alive.sort(key=lambda c: (-totals[c] / counts[c], c))
            alive = alive[: max(1, (len(alive) + 1) // 2)]
    best = min(alive, key=lambda c: (-totals[c] / max(counts[c], 1), c))
    return Halved(best, tuple(totals), tuple(counts), tuple(wins))


@dataclass(frozen=True)
class Decision(Generic[C]):
    """A player's decision: the chosen candidate, every candidate's (total score, samples
    played) in the order they were listed, of the chosen one's samples how many were won,
    and the scoring method's name."""

    chosen: C
    candidates: tuple[C, ...]
    scores: tuple[tuple[int, int], ...]
    won: int
    samples: int
    method: str


def decide(
    cands: Sequence[C], budget: int, play: Round, *, method: str, alone: int | None = None
) -> Decision[C]:
    """:func:`halve` over ``cands``, as the :class:`Decision` it comes to."""
    h = halve(len(cands), budget, play, alone)
    return Decision(
        cands[h.best],
        tuple(cands),
        tuple(zip(h.totals, h.counts, strict=True)),
        h.wins[h.best],
        h.counts[h.best],
        method,
    )
