"""The hint follower: a player who always plays the hint, with no undo.

It starts from a deal's layout and plays :func:`pasyans.hints.suggest` until the
game is won, the hint has no move, or ``max_moves`` moves are played. Under a node budget
(:class:`~pasyans.hints.Budget` with ``nodes`` and no ``seconds``) every play is
reproducible: the memories of earlier searches are cleared before each deal, so a deal's
result does not depend on what was played before it in the same process.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from pasyans import hints
from pasyans.engine import core
from pasyans.engine.moves import Move
from pasyans.hints import Budget, lines, macro, playout
from pasyans.position import State
from pasyans.rules import get_game
from pasyans.rules.spec import GameSpec

PROVEN_CAP = 4
"""While the hint follows a win found with every card known (:attr:`Hint.winnable`), the
follower plays on past ``max_moves``, up to this many times it: such a line is finite,
and the exact search's wins can be long (Backbone: lines of 500-800 moves from where the
stock is known, ``docs/notes/2026-12-04-follower-stalls.md``)."""


@dataclass(frozen=True)
class Play:
    """One followed deal: won or not, moves played, hints asked, seconds spent in them,
    the slowest hint, and how the hints were made (``source`` counts)."""

    deal: int
    won: bool
    moves: int
    hints: int
    seconds: float
    slowest: float
    cpu: float  # CPU seconds in the hints (the wall time suffers on a shared machine)
    sources: tuple[tuple[str, int], ...]
    ended: str  # "won", "no move", "stalled" or "move cap"
    cards: int = 0  # cards on the foundations (or in completed runs) at the end
    line: tuple[Move, ...] = ()  # the moves played (benchmarks/analysis.py analyses them)


def progress(spec: GameSpec, state: State) -> tuple[int, ...]:
    """What only changes when a game moves on: cards face down, cards on foundations (or
    in completed runs), the stock's size and the redeals used."""
    stock = len(state.piles[spec.index["stock"]]) if spec.has_pile("stock") else 0
    return (sum(state.down), core.cards_on_foundations(spec, state), stock, state.redeals)


def follow(
    game: str,
    options: dict[str, str],
    deal: int,
    budget: Budget,
    max_moves: int = 600,
    stall: int = 100,
    start: State | None = None,
) -> Play:
    """Play deal ``deal`` by always following the hint; give up (``ended="stalled"``)
    after ``stall`` moves in a row that turn nothing up, put nothing away and leave the
    stock alone (the hint is then going round in circles), or after ``max_moves`` moves
    (``"move cap"``; :data:`PROVEN_CAP` times that while following a found win). Long
    because it resets the hint's caches and counts what the benchmark reports inline,
    next to the loop.
    ``start``: the layout to play (a solvable deal's) instead of deal ``deal``'s random one."""
    spec = get_game(game, options)
    state = core.initial_state(spec, deal) if start is None else start
    hints.LINES.clear()
    hints.TALLIES.clear()
    macro.PLANS.clear()
    playout.SCORES.clear()
    lines.PLANS.clear()
    history: list[State] = []
    line: list[Move] = []
    spent = slowest = cpu = 0.0
    sources: dict[str, int] = {}
    asked = 0
    ended = "move cap"
    mark, since = progress(spec, state), 0
    proven = False  # the last hint was the next move of a win found with every card known
    while len(history) < (PROVEN_CAP * max_moves if proven else max_moves):
        if core.is_won(spec, state):
            ended = "won"
            break
        t0, c0 = time.perf_counter(), time.process_time()
        hint = hints.suggest(spec, state, history=history, budget=budget)
        took = time.perf_counter() - t0
        cpu += time.process_time() - c0
        spent += took
        slowest = max(slowest, took)
        asked += 1
        sources[hint.source] = sources.get(hint.source, 0) + 1
        if hint.move is None:
            ended = "no move"
            break
        if hint.move not in core.legal_moves(spec, state):  # core.apply does not check
            raise AssertionError(f"deal {deal}: the hint {hint.move.to_str()} is not legal")
        proven = hint.winnable is True
        history.append(state)
        line.append(hint.move)
        state = core.apply(spec, state, hint.move)
        now = progress(spec, state)
        since = 0 if now != mark else since + 1
        mark = now
        if since >= stall:
            ended = "stalled"
            break
    else:
        if core.is_won(spec, state):
            ended = "won"
    return Play(
        deal,
        ended == "won",
        len(history),
        asked,
        spent,
        slowest,
        cpu,
        tuple(sorted(sources.items())),
        ended,
        core.cards_on_foundations(spec, state),
        tuple(line),
    )
