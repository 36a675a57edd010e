"""What an analysis found: a :class:`Point` per position, a :class:`Step` per move, and
the :class:`Analysis` of the whole game with its JSON (the API's ``result``, docs/analysis.md)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from pasyans.analysis.grading import Grade
from pasyans.analysis.verdict import Outcome, Verdict

Proof = Literal["searched", "inferred", "played", "none"]
"""How a position's outcome is known: its own search, a neighbour's (a position before a
won one is won; one after a lost one is lost; a found win's line passes through it), the
game itself (it was won), or not at all."""


@dataclass(frozen=True)
class Point:
    """Position ``k`` (after ``k`` moves): its full-information ``outcome`` and how it is
    known, the ``chance`` the player could see (None: not estimated, or a sample left
    undecided), from how many ``samples`` (0: every card known, the chance is the outcome),
    and whether a card was ``hidden`` from the player there. ``low`` and ``high`` bound the
    chance (the share of samples won, and the share not proven lost; both the chance
    where every sample was decided, None where it was not estimated)."""

    outcome: Outcome
    proof: Proof
    chance: float | None
    samples: int
    hidden: bool
    low: float | None = None
    high: float | None = None

    def to_json(self) -> dict[str, Any]:
        def share(x: float | None) -> float | None:
            return None if x is None else round(x, 4)

        return {
            "outcome": self.outcome,
            "proof": self.proof,
            "chance": share(self.chance),
            "low": share(self.low),
            "high": share(self.high),
            "samples": self.samples,
            "hidden": self.hidden,
        }


@dataclass(frozen=True)
class Step:
    """Move ``k`` (1-based): its notation as saved, the face-up ``cards`` it moved, whether
    it turned a hidden card up, the ``drop`` of the chance it caused (the least it can be:
    the low bound before minus the high bound after) and its ``grade``."""

    text: str
    cards: tuple[str, ...]
    revealed: bool
    drop: float | None
    grade: Grade | None

    def to_json(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "cards": list(self.cards),
            "revealed": self.revealed,
            "drop": None if self.drop is None else round(self.drop, 4),
            "grade": self.grade,
        }


@dataclass(frozen=True)
class Analysis:
    """The analysis of one game: ``points[k]`` for positions ``0 … n``, ``steps[k - 1]``
    for moves ``1 … n``; ``lost_at`` the "lost here" move; ``worst`` the move to try again
    (its position before is ``worst - 1``); ``way`` a winning line from position
    ``way_from`` (the last position proven won; from an earlier won position ``k`` the way
    is the played moves ``k + 1 … way_from`` and then ``way``)."""

    game: str
    options: dict[str, str]
    deal: int
    points: tuple[Point, ...]
    steps: tuple[Step, ...]
    lost_at: int | None
    worst: int | None
    way_from: int | None
    way: tuple[str, ...]
    verdict: Verdict
    method: str
    searches: int
    seconds: float
    limits: dict[str, Any] = field(default_factory=dict)

    @property
    def decided(self) -> float:
        """The share of positions whose outcome is won or lost (not unknown)."""
        return sum(p.outcome != "unknown" for p in self.points) / max(1, len(self.points))

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "options": self.options,
            "deal": self.deal,
            "moves": len(self.steps),
            "points": [p.to_json() for p in self.points],
            "steps": [s.to_json() for s in self.steps],
            "lost_at": self.lost_at,
            "worst": self.worst,
            "way_from": self.way_from,
            "way": list(self.way),
            "verdict": self.verdict.to_json(),
            "method": self.method,
            "decided": round(self.decided, 4),
            "searches": self.searches,
            "seconds": round(self.seconds, 3),
            "limits": self.limits,
        }
