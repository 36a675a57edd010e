"""Hints that use only what the player can see.

This first version is a ranked heuristic over visible cards; the solver issue makes
perfect-information positions use exact search. The interface stays the same.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pasyans.engine import core
from pasyans.engine.moves import Move
from pasyans.position import State
from pasyans.rules.spec import GameSpec, PileKind


@dataclass(frozen=True)
class Hint:
    """One suggested move, or none. ``winnable``: True when a win from here was found,
    False when proven lost, None when unknown (or hidden cards make it unknowable)."""

    move: Move | None
    source: str  # "solver", "heuristic" or "none"
    winnable: bool | None
    message: str


def suggest(
    spec: GameSpec, state: State, *, seconds: float = 1.0, history: Sequence[State] = ()
) -> Hint:
    """A useful move from ``state`` judged only from visible cards, or a "no move" hint."""
    seen = set(history)
    best: tuple[int, Move] | None = None
    for m in core.legal_moves(spec, state):
        after = core.apply(spec, state, m)
        if after in seen:
            continue  # going back to a position already seen is not progress
        value = _value(spec, state, m, after)
        if value > 0 and (best is None or value > best[0]):
            best = (value, m)
    if best is None:
        return Hint(None, "none", None, "No useful move.")
    return Hint(best[1], "heuristic", None, "A move that looks useful.")


def _value(spec: GameSpec, before: State, move: Move, after: State) -> int:
    if move.dst is None:
        return 1
    dst_kind = spec.piles[spec.index[move.dst]].kind
    src = spec.index[move.src]
    gained = core.cards_on_foundations(spec, after) - core.cards_on_foundations(spec, before)
    value = 100 * max(gained, 0)
    if dst_kind is PileKind.FOUNDATION:
        value += 50
    if sum(after.down) < sum(before.down):
        value += 40  # turns up a card
    if not after.piles[src]:
        value += 20  # empties a pile
    if dst_kind is PileKind.COLUMN and before.piles[spec.index[move.dst]]:
        value += 10
    src_kind = spec.piles[src].kind
    if src_kind in (PileKind.SPINE, PileKind.TAILBONE, PileKind.WASTE):
        value += 5
    if src_kind is PileKind.FOUNDATION:
        value -= 30
    return value
