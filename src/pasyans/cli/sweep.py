"""Winnability sweeps: the solver over a range of deals, and the statistics of the results.

>>> round(wilson(50, 100)[0], 3), round(wilson(50, 100)[1], 3)
(0.404, 0.596)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from pasyans.deals import start_position
from pasyans.rules import get_game
from pasyans.solver.search import solve

Z95 = 1.959963984540054


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion (95% by default); (0, 1) with no trials."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class Task:
    """One deal to decide (picklable, for worker processes)."""

    game: str
    options: tuple[tuple[str, str], ...]
    deal: int
    kind: str
    seconds: float | None
    nodes: int | None


def decide(task: Task) -> dict[str, Any]:
    """Solve one deal; one CSV row."""
    spec = get_game(task.game, dict(task.options))
    state = start_position(spec, task.deal, task.kind)
    r = solve(spec, state, seconds=task.seconds, nodes=task.nodes)
    return {
        "deal": task.deal,
        "result": r.result,
        "nodes": r.nodes,
        "seconds": round(r.seconds, 3),
        "moves": len(r.moves),
    }


@dataclass(frozen=True)
class Summary:
    """Counts and intervals of a sweep."""

    won: int
    lost: int
    unknown: int

    @property
    def total(self) -> int:
        return self.won + self.lost + self.unknown

    @property
    def decided(self) -> int:
        return self.won + self.lost

    def rate(self) -> float | None:
        """Win rate among decided deals."""
        return self.won / self.decided if self.decided else None

    def interval(self) -> tuple[float, float]:
        """Wilson 95% interval on won / (won + lost)."""
        return wilson(self.won, self.decided)

    def bounds(self) -> tuple[float, float]:
        """95% bounds over all deals: unknowns counted as losses (low), as wins (high)."""
        return (wilson(self.won, self.total)[0], wilson(self.won + self.unknown, self.total)[1])

    def to_json(self) -> dict[str, Any]:
        rate = self.rate()
        lo, hi = self.interval()
        blo, bhi = self.bounds()
        return {
            "deals": self.total,
            "won": self.won,
            "lost": self.lost,
            "unknown": self.unknown,
            "win_rate_decided": None if rate is None else round(rate, 4),
            "ci95_decided": [round(lo, 4), round(hi, 4)],
            "ci95_all_bounds": [round(blo, 4), round(bhi, 4)],
        }


def summarize(rows: Iterable[Mapping[str, Any]]) -> Summary:
    counts = {"won": 0, "lost": 0, "unknown": 0}
    for row in rows:
        counts[str(row["result"])] += 1
    return Summary(counts["won"], counts["lost"], counts["unknown"])


def parse_range(text: str) -> list[int]:
    """``"1-1000"`` → 1…1000; ``"5"`` → [5]; ``"1-3,10"`` → [1, 2, 3, 10].

    >>> parse_range("1-3,10")
    [1, 2, 3, 10]
    """
    out: list[int] = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        lo, sep, hi = part.partition("-")
        try:
            a = int(lo)
            b = int(hi) if sep else a
        except ValueError:
            raise ValueError(f"not a deal range: {part[:30]!r} (e.g. 1-1000)") from None
        if a < 1 or b < a:
            raise ValueError(f"not a deal range: {part[:30]!r} (e.g. 1-1000)")
        out.extend(range(a, b + 1))
    if not out:
        raise ValueError("no deals in the range")
    return out
