"""What a hint is: the :class:`Hint` answer, the :class:`Budget` of one hint or
estimate, and the :class:`Estimate` of how winnable a position with hidden cards is."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Literal

from pasyans import messages
from pasyans.engine.moves import Move

Winnable = Literal["won", "lost", "unknown"]


@dataclass(frozen=True)
class Hint:
    """One suggested move, or none. ``winnable``: True when a win from here was found,
    False when proven lost, None when unknown (or hidden cards make it unknowable)."""

    move: Move | None
    source: str  # "solver", "heuristic" or "none"
    winnable: bool | None
    message: str
    message_ru: str = ""

    @classmethod
    def of(
        cls, move: Move | None, source: str, winnable: bool | None, code: str, **params: object
    ) -> Hint:
        """A hint whose texts are the catalogue's ``code`` (:mod:`pasyans.messages`)."""
        en, ru = messages.both(code, **params)
        return cls(move, source, winnable, en, ru)


SAMPLES = 8
"""How many completions of the hidden cards a hint searches by default."""


SAMPLE_LINE = 3
"""Positions remembered along a sample's found win: the next hints reuse the samples
only until a card is turned up (then the unseen cards, so the samples, change), so a
sample's whole line would mostly be stored for nothing (storing it cost as much as the
compiled search)."""


@dataclass(frozen=True)
class Clock:
    """One hint's deadline, set once when the hint starts: every part of the hint that
    watches the time (the no-peek player, the deeper look, the playouts) reads this one
    clock, so together they stay within the hint's seconds."""

    deadline: float | None  # time.perf_counter() seconds; None: no time cap

    @classmethod
    def start(cls, seconds: float | None, begun: float | None = None) -> Clock:
        """``seconds`` from ``begun`` (None: now); no deadline when ``seconds`` is None."""
        if seconds is None:
            return cls(None)
        return cls((time.perf_counter() if begun is None else begun) + seconds)

    def in_time(self) -> bool:
        return self.deadline is None or time.perf_counter() < self.deadline

    def left(self) -> float | None:
        """The seconds left (never below 0), or None without a deadline."""
        if self.deadline is None:
            return None
        return max(self.deadline - time.perf_counter(), 0.0)


@dataclass(frozen=True)
class Budget:
    """The work of one hint or estimate: ``samples`` completions of the hidden cards (0:
    the visible heuristic alone, the pre-sampling hint), ``seconds`` and/or ``nodes``
    shared between them (``nodes`` makes the answer reproducible), the samples' ``seed``,
    and whether the strategy-fusion ``guard`` of :func:`sampling.choose` is on. The
    macro planner (:mod:`pasyans.hints.macro`, Spider 4 suits in the product, with
    ``nodes``): ``macro`` candidate lines from the samples valued besides the walk's (0:
    off), ``cap`` positions walked, ``stall`` (0: always; else only after that many moves
    that moved nothing on, or when no sample is won) and ``eager`` (the deal competes on
    the samples; off). ``playout`` (packed games, Backbone classic in the product): when
    no sample is won, every move scored by how many cards a search of that many
    positions after it brings home in each sample (:mod:`pasyans.hints.playout`; 0: off,
    the ranked heuristic), in ``dives`` restarting dives (1: one plain dive); Spider's
    playouts score minus the distance the staged search got to (measured worse on 1
    suit: off). ``unstick`` (Spider, 1 suit in the product, :data:`UNSTICK_HINTS`): when
    no sample is won and that many moves in a row moved nothing on, deal from the stock,
    filling the empty columns first (:func:`unstuck`; 0: off). ``player``, ``method``,
    ``rescue``: the no-peek player (:mod:`pasyans.hints.player`); ``lines``: the line
    player of the packed games (:mod:`pasyans.hints.lines`). The variants measured
    and not adopted were removed on 2026-12-06 (docs/hints.md, "Removed options")."""

    seconds: float | None = 1.0
    nodes: int | None = None
    samples: int = SAMPLES
    seed: int = 0
    guard: bool = True
    macro: int = 0
    cap: int = 400
    stall: int = 0
    eager: bool = False
    playout: int = 0
    dives: int = 1
    unstick: int = 0
    player: int = 0
    method: str = "rollout"
    rescue: bool = False
    player_nodes: int = 0
    """The no-peek player's nodes a search, methods ``determinized`` and ``epimc``
    (0: ``nodes``, else 1,000)."""
    exact: int = 0
    """The nodes of the exact search once the player knows every card (0: ``nodes``;
    never fewer than ``nodes``). The server's hint (no budget given) searches such a
    position to its time cap and the product's ``exact`` (:data:`pasyans.hints.policy.EXACT_HINTS`),
    whichever ends first (0: the cap alone, about 800,000 Backbone positions in 0.25 s
    of an idle core): far more than a node budget made for the samples' searches, so the
    follower gives it these nodes, as the server does."""
    deeper: int = 0
    """A reveal valued one level deeper (issue 34, :mod:`pasyans.hints.deeper`): when
    the guard's move is not won in every sample, this many of the tally's best moves
    (the guard's first), at least one turning a card up, are valued by the best next
    move's share of samples won after each card that can come up (a move that turns
    nothing up: after it), and the highest played; needs ``nodes`` (0: off). A card turns
    up from a Spider column, or from the stock onto the waste in Backbone classic's first
    pass (:func:`pasyans.hints.deeper.revealed`)."""
    deeper_samples: int = 0
    """With ``deeper``: the samples of each inner tally (0: :data:`pasyans.hints.deeper.INNER`)."""
    deeper_cap: int = 0
    """With ``deeper``: the most distinct cards a reveal is valued over (0:
    :data:`pasyans.hints.deeper.CAP`)."""
    lines: int = 0
    """The line player (issue 34, :mod:`pasyans.hints.lines`; Backbone, Backbone classic
    and Nivernais while a card is hidden): the searches of samples a decision gives out
    by successive halving between the lines that lead to the next card revealed (0:
    off). Each search has ``player_nodes`` positions, else a sample's share of ``nodes``
    (``nodes / samples``, as :meth:`share`), else 1,000."""

    def line_nodes(self) -> int:
        """The nodes of each of the line player's searches (:attr:`lines`)."""
        return self.player_nodes or self.share()[1] or 1000

    def share(self) -> tuple[float | None, int | None]:
        """One sample's part of the budget."""
        n = max(self.samples, 1)
        return (
            None if self.seconds is None else self.seconds / n,
            None if self.nodes is None else max(self.nodes // n, 1),
        )


@dataclass(frozen=True)
class Estimate:
    """Is this still winnable, with hidden cards: of ``samples`` ways the hidden cards
    could lie, ``won`` were found winnable and ``lost`` proven lost within the budget
    (the rest undecided). An estimate, never a verdict. ``method``: how a sample was
    judged: ``"determinized"`` (the full-information search of each sample) or the no-peek
    player's (``"rollout"``: its policy playouts after its chosen line, ``lost`` then 0)."""

    won: int
    lost: int
    samples: int
    method: str = "determinized"

    @property
    def share(self) -> float:
        return self.won / self.samples if self.samples else 0.0

    def to_json(self) -> dict[str, int | float]:
        return {
            "won": self.won,
            "lost": self.lost,
            "samples": self.samples,
            "percent": round(100 * self.share),
        }
