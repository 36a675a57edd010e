"""Analyse a finished game: each position's full-information outcome, the chance the
player could see, the graded moves and the verdict (docs/analysis.md).

The outcomes come from :class:`~pasyans.analysis.outcomes.Outcomes`: a few searches,
and sound inferences along the game for the rest. Only searched outcomes and those
inferences are ever written: the "lost here" move needs a proven won position before it
and a proven lost one after it.

The chance is :func:`pasyans.hints.estimate` (the player's view only) at each position
with a hidden card, with a node budget so it is reproducible; where every card is known,
the chance is the outcome itself (1, 0, or none when unknown).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from pasyans import hints
from pasyans.analysis.grading import Grade, cleared, grade
from pasyans.analysis.model import Analysis, Point, Step
from pasyans.analysis.outcomes import Outcomes
from pasyans.analysis.verdict import lost_at, verdict
from pasyans.cards import card_code
from pasyans.engine import core
from pasyans.engine.game import Game
from pasyans.engine.moves import Move
from pasyans.position import State
from pasyans.rules.spec import GameSpec
from pasyans.solver.shorten import shortened

Progress = Callable[[float], None]
"""Told the share of the work done (0…1), at least after every search and estimate."""


WAY_SECONDS = 1.0
"""The least time the winning line's shortening gets once the analysis's ``total`` has
passed (compiled, a packed game's line of thousands of moves takes milliseconds and a
Spider line of 74,841 moves 0.6 s; by the Python engine, without the compiled core, a
long Spider line is then cut only in part)."""


WAY_TAIL = 50e-6
"""Seconds a move of the winning line costs the shortening once its deadline has passed
(the rest of the line played, then the shortest path over it: about 3 s for 74,841 moves
by the Python engine, the slowest case; the compiled graphs take a small part of it)."""


def way_deadline(end: float, length: int) -> float:
    """When the shortening of a winning line of ``length`` moves stops building its graph:
    early enough before the analysis's ``end`` (``time.perf_counter``) for the rest of its
    work, or :data:`WAY_SECONDS` from now if that is later. Without it a 4-suit line of
    74,841 moves took the analysis to 32 s, past its 27 s total
    (docs/notes/2026-12-07-analysis-way-time.md)."""
    return max(end - WAY_TAIL * length, time.perf_counter() + WAY_SECONDS)


@dataclass(frozen=True)
class Limits:
    """The work of one analysis: each position's search gets ``seconds`` (and ``nodes``
    when given); the searches together stop after ``search_total`` seconds and the whole
    analysis after ``total`` (positions left unsearched stay unknown, chances left
    unestimated stay none); ``estimate`` is each chance's budget (nodes, so reproducible)."""

    seconds: float = 2.0
    nodes: int | None = None
    search_total: float = 18.0
    total: float = 27.0
    estimate: hints.Budget = field(
        default_factory=lambda: hints.Budget(seconds=None, nodes=4000, samples=8)
    )
    refine: int = 8
    """The "lost here" move's two positions, when their chance is left open and the move
    turns nothing up, are estimated again with this many times ``estimate``'s nodes (the
    same layouts: their verdict rests on that move; 1: not again)."""
    per_moves: int | None = None
    """A game of more moves gets ``search_total`` and ``total`` times its moves over
    this, at most ``longest`` seconds in all; None (the default): never. Off because on
    50 lost Backbone games it named no more moves (docs/analysis.md)."""
    longest: float = 45.0

    def for_moves(self, n: int) -> Limits:
        """The limits for a game of ``n`` moves: a long game's totals scaled (above)."""
        if self.per_moves is None or n <= self.per_moves:
            return self
        scale = min(n / self.per_moves, self.longest / self.total)
        if scale <= 1.0:
            return self
        return replace(self, search_total=self.search_total * scale, total=self.total * scale)

    def refined(self) -> hints.Budget:
        """The budget of the "lost here" move's second estimates (``refine``)."""
        e = self.estimate
        return replace(e, nodes=None if e.nodes is None else e.nodes * self.refine)

    def to_json(self) -> dict[str, object]:
        return {
            "seconds": self.seconds,
            "nodes": self.nodes,
            "search_total": self.search_total,
            "total": self.total,
            "estimate": {"nodes": self.estimate.nodes, "samples": self.estimate.samples},
            "refine": self.refine,
        }


def line_of(game: Game) -> tuple[list[State], list[Move]]:
    """The positions ``0 … n`` of the game's line (its moves up to the current one)."""
    states = [game.start]
    for m in game.moves:
        states.append(core.apply(game.spec, states[-1], m))
    return states, game.moves


def unseen(spec: GameSpec, state: State) -> int:
    """How many cards the player cannot see (face down, or in a stock)."""
    stock = len(state.piles[spec.index["stock"]]) if spec.has_pile("stock") else 0
    return sum(state.down) + stock


def moved_cards(spec: GameSpec, state: State, move: Move) -> tuple[str, ...]:
    """The codes of the face-up cards ``move`` carries, bottom of the run first."""
    if move.dst is None:
        return ()
    pile = state.piles[spec.index[move.src]]
    return tuple(card_code(c) for c in pile[len(pile) - move.cards :])


def analyse(game: Game, limits: Limits | None = None, progress: Progress | None = None) -> Analysis:
    """The analysis of ``game``'s line (see the module's text); ``progress`` is told how
    far it is. Long because its phases (outcomes, chances, grades, the verdict) share one
    time limit and one progress count; each phase's work is a helper above."""
    t0 = time.perf_counter()
    spec = game.spec
    states, moves = line_of(game)
    n = len(moves)
    limits = (limits or Limits()).for_moves(n)
    tell = progress or (lambda share: None)
    tell(0.0)  # started: a page shows progress before the first search ends
    found = Outcomes(spec, states, moves)
    expected = max(1.0, 2 * (len(found.blocks) + 1).bit_length())  # the searches a bisection needs
    search_end = t0 + min(limits.search_total, limits.total)
    while (k := found.next_probe()) is not None:
        left = search_end - time.perf_counter()
        if left <= 0:
            break
        found.search(k, min(found.seconds(k, limits.seconds), left), limits.nodes)
        tell(0.3 * min(1.0, len(found.searched) / expected))
    tell(0.3)
    outcomes = [found.outcome(k) for k in range(n + 1)]
    hidden = [unseen(spec, s) > 0 and hints.hidden_to_player(spec, s) for s in states]
    chances: list[float | None] = []
    bounds: list[tuple[float | None, float | None]] = []
    samples: list[int] = []
    method = ""
    end = t0 + limits.total
    for k, s in enumerate(states):
        e = None
        if hidden[k] and time.perf_counter() < end:
            e = hints.estimate(spec, s, limits.estimate)
        if e is not None:
            method = method or str(getattr(e, "method", "determinized"))
            chances.append(chance_of(e))
            bounds.append(bounds_of(e))
            samples.append(e.samples)
        else:
            o = outcomes[k][0]
            known = not hidden[k] or o == "lost" or core.is_won(spec, s)
            chances.append(None if o == "unknown" or not known else float(o == "won"))
            bounds.append((chances[-1], chances[-1]))
            samples.append(0)
        tell(0.3 + 0.7 * (k + 1) / (n + 1))
    plain = [o for o, _ in outcomes]
    where = lost_at(plain)
    turned = where is not None and unseen(spec, states[where]) < unseen(spec, states[where - 1])
    if where is not None and not turned and limits.refine > 1:
        # the verdict's move, its chance left open: its two sides again on the same layouts
        more = limits.refined()
        for k in (where - 1, where):
            if samples[k] and bounds[k][0] != bounds[k][1] and time.perf_counter() < end:
                e = hints.estimate(spec, states[k], more)
                if e is not None:
                    chances[k], bounds[k] = chance_of(e), bounds_of(e)
    steps = []
    clear: list[bool] = []
    for k, m in enumerate(moves):
        revealed = unseen(spec, states[k + 1]) < unseen(spec, states[k])
        a, b = bounds[k][0], bounds[k + 1][1]  # the least the chance fell
        drop = None if a is None or b is None else a - b
        steps.append(Step(game.saved_moves()[k], moved_cards(spec, states[k], m), revealed,
                          drop, grade(a, b, revealed=revealed)))  # fmt: skip
        clear.append(cleared(bounds[k][1], bounds[k + 1][0], revealed=revealed))
    points = tuple(
        Point(o, proof, chances[k], samples[k], hidden[k], *bounds[k])
        for k, (o, proof) in enumerate(outcomes)
    )
    grades: list[Grade | None] = [s.grade for s in steps]
    said = verdict(plain, won=core.is_won(spec, states[-1]), grades=grades, cleared=clear,
                   hidden=hidden, moves=[s.text for s in steps],
                   cards=[s.cards for s in steps])  # fmt: skip
    way_from, way = found.way()
    if way_from is not None:  # "Show the way" plays it: its detours cut, within the time
        way = shortened(spec, states[way_from], way, deadline=way_deadline(end, len(way)))
    return Analysis(
        game=spec.id,
        options=dict(spec.option_values),
        deal=game.deal,
        points=points,
        steps=tuple(steps),
        lost_at=where,
        worst=worst_move(steps, where),
        way_from=way_from,
        way=tuple(m.to_str() for m in way),
        verdict=said,
        method=method or "exact",
        searches=len(found.searched),
        seconds=time.perf_counter() - t0,
        limits=limits.to_json(),
    )


def chance_of(e: hints.Estimate) -> float | None:
    """The chance an estimate gives: the share of its samples won when every sample was
    decided (won, or proven lost); else None, and the point's bounds say where it lies (a
    sample the budget left undecided is not a loss: docs/analysis.md)."""
    return e.won / e.samples if e.samples and e.won + e.lost == e.samples else None


def bounds_of(e: hints.Estimate) -> tuple[float | None, float | None]:
    """The bounds an estimate puts on the chance: the share of its samples won, and the
    share not proven lost."""
    return (e.won / e.samples, 1.0 - e.lost / e.samples) if e.samples else (None, None)


def worst_move(steps: list[Step], where: int | None) -> int | None:
    """The move to try again: the graded move with the largest drop of the chance (the
    earliest among equals), else the "lost here" move, else None."""
    graded = [(s.drop or 0.0, -k, k) for k, s in enumerate(steps, 1) if s.grade is not None]
    if graded:
        return max(graded)[2]
    return where
