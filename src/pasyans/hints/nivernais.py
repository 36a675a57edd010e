"""Nivernais' hint: the packed best-first search (:mod:`pasyans.domains.nivernais`) on
what the player knows, heading for a win or, when none is found, for the most cards on
the foundations (the game's score).

- Every card known (after the first redeal, or once the first stock is dealt out): the
  solver's portfolio search of the position (:func:`pasyans.domains.nivernais.portfolio`:
  its scores in turn, each final pass capped, the final passes shared); the hint is the
  first move of its line, which leads to a win or to the position with the most cards on
  the foundations it reached. Until 2026-12-07 this was one plain best-first search of
  the first score, which won 35 and 30 of the follower's two ranges against the
  portfolio's 69 and 65 at the same 512,000 positions
  (docs/notes/2026-12-07-nivernais-portfolio-hint.md). The start of the line is kept
  (:data:`LINES`; :data:`LINE_KEPT` moves, :data:`UNKNOWN_KEPT` when the search found no
  win and did not prove the loss): while the player follows it, the next hints cost
  nothing. When the search proves no win is left, the hint still names the move towards
  the most cards.
- Cards still unseen in the first stock: ``budget.samples`` completions of the unseen
  cards (:func:`pasyans.hints.sampling.samples`, uniform over the ways they could lie),
  each searched with its share of the nodes; the hint is the first move that starts the
  most wins, ties (and no win at all) by the mean of the cards each sample's line gets
  home. Only the player's view is read (:func:`pasyans.hints.sampling.known`).
"""

from __future__ import annotations

import time

from pasyans import caches
from pasyans.domains import nivernais as nv
from pasyans.engine import core
from pasyans.engine.moves import Move
from pasyans.hints import sampling
from pasyans.hints.model import Hint
from pasyans.hints.recent import Recent
from pasyans.hints.sampling import HIDDEN
from pasyans.position import State
from pasyans.rules.spec import GameSpec


class Lines(Recent[tuple[Move, bool | None]]):
    """Moves of lines already searched, by the exact position: ``(move, verdict)``, the
    verdict of the search that found the line (True: won, False: proven lost, None:
    unknown). Not by the search's key: two positions with one key can hold a card in
    different cells (the packed cells are a set) or, once settled, in different columns,
    and a move names its piles. Bounded (least recently used out), thread-safe."""

    def line(
        self, spec: GameSpec, state: State, moves: tuple[Move, ...], verdict: bool | None
    ) -> None:
        """Remember each position of the line ``moves`` from ``state``, its next move."""
        items = []
        for m in moves:
            items.append((state, (m, verdict)))
            state = core.apply(spec, state, m)
        self.put_all(spec, items)


LINES = caches.register("hints.nivernais_lines", Lines(20_000), bound=20_000)
"""The lines of full-information hints (every card known: nothing hidden is kept)."""

FULL_NODES = 8_000
"""A full-information hint's nodes when the budget sets none (with its time cap)."""

LINE_KEPT = 24
"""Moves of a full-information hint's line replayed through the engine and remembered
(the next hints along it are then answered at once). The replay runs after the search's
deadline, about 0.1 ms a move (3.8 ms for a line of 35), and a line to the most cards
home can be 100-150 moves long, so only its start is kept: a player who follows it gets
a new search every 24 moves, and a hint stays within its time cap. A line whose search
found no win and proved no loss keeps fewer (:data:`UNKNOWN_KEPT`)."""

UNKNOWN_KEPT = 6
"""Moves kept of a full-information hint's line when its search found no win and proved
no loss (a line to the most cards home): the player who follows it gets a new search
every 6 moves, each from a position nearer the end, where a search of the same size
reaches further and finds wins the one before did not. Follower, the product's budget,
seed 0: 80 and 77 against 69 and 65 with 24 kept (+12 -1, +12 -0), at 17 ms of CPU a
hint against 11; each hint still within its time cap
(docs/notes/2026-12-07-nivernais-portfolio-hint.md)."""


def _deadline(seconds: float | None) -> float | None:
    return None if seconds is None else time.perf_counter() + seconds


def known_move(
    spec: GameSpec, state: State, seconds: float | None, nodes: int | None
) -> tuple[Move, bool | None] | None:
    """For a position whose every card the player knows: the first move of the search's
    line and whether it is winnable (True: a win was found; False: proven lost; None:
    unknown), or None when no move is left."""
    hit = LINES.get(spec, state)
    if hit is not None:
        return hit
    if nodes is None and seconds is None:
        nodes = FULL_NODES
    outcome, line, _ = nv.portfolio(nv.pack(spec, state), nodes, seconds, time.perf_counter())
    verdict = {"won": True, "lost": False}.get(outcome)
    if len(line) < 2:
        moves = core.legal_moves(spec, state)
        return None if not moves else (moves[0], verdict)
    kept = LINE_KEPT if verdict is not None else UNKNOWN_KEPT
    played = nv.engine_line(spec, state, line[: kept + 1])
    LINES.line(spec, state, played, verdict)
    return played[0], verdict


def sampled_move(
    spec: GameSpec, state: State, samples: int, seconds: float | None, nodes: int | None, seed: int
) -> tuple[Move, int, int] | None:
    """For a position with unseen stock cards: the first move that starts the most wins
    over ``samples`` completions of what the player knows, ties by the most cards the
    lines get home in all; with the number of samples it wins and searched. The true
    hidden cards are never read: only :func:`sampling.known`."""
    view = sampling.known(spec, state)
    if not any(HIDDEN in p for p in view.piles):
        raise ValueError("nothing is hidden: use known_move")
    n = max(samples, 1)
    share_nodes = None if nodes is None else max(nodes // n, 1)
    share_seconds = None if seconds is None else seconds / n
    if share_nodes is None and share_seconds is None:
        share_nodes = FULL_NODES // n
    tally: dict[Move, list[int]] = {}
    for s in sampling.samples(spec, view, n, seed):
        outcome, line, _ = nv.best_first(nv.pack(spec, s), share_nodes, _deadline(share_seconds))
        if len(line) < 2:
            continue
        first = nv.engine_line(spec, s, line[:2])[0]
        row = tally.setdefault(first, [0, 0])
        row[0] += outcome == "won"
        row[1] += nv.on_foundations(line[-1])
    if not tally:
        moves = core.legal_moves(spec, state)
        return None if not moves else (moves[0], 0, n)
    order = core.legal_moves(spec, state)
    rank = {m: i for i, m in enumerate(order)}
    best = max(tally, key=lambda m: (tally[m][0], tally[m][1], -rank.get(m, 0)))
    return best, tally[best][0], n


def hint(
    spec: GameSpec,
    state: State,
    samples: int,
    seconds: float | None,
    nodes: int | None,
    seed: int = 0,
) -> Hint:
    """The :class:`pasyans.hints.model.Hint` for ``state`` (see the module docstring)."""
    if any(HIDDEN in p for p in sampling.known(spec, state).piles):
        got = sampled_move(spec, state, samples, seconds, nodes, seed)
        if got is None:
            return Hint.of(None, "none", None, "hint.no_move")
        move, wins, n = got
        if wins:
            return Hint.of(move, "sampled", None, "hint.sampled", won=wins, samples=n)
        return Hint.of(move, "leaning", None, "hint.leaning_most_home", samples=n)
    found = known_move(spec, state, seconds, nodes)
    if found is None:
        return Hint.of(None, "none", False, "hint.no_move")
    move, verdict = found
    if verdict:
        return Hint.of(move, "solver", True, "verdict.win_line")
    if verdict is False:
        return Hint.of(move, "solver", False, "verdict.lost_most_home")
    return Hint.of(move, "solver", None, "verdict.timeout_most_home")
