"""Small helpers shared by the game declarations."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from pasyans.cards import Card
from pasyans.position import Table
from pasyans.rules.spec import GameSpec, PileKind, PileSpec, piles

EIGHT_FOUNDATIONS = piles(PileKind.FOUNDATION, "f", 8)


def lay_out(
    spec: GameSpec, deck: list[Card], counts: Mapping[str, int], rest: str = "stock"
) -> Table:
    """Deal ``deck`` in order: ``counts[pile_id]`` cards to each named pile in turn, first
    card lowest; every card left over goes to the pile ``rest``."""
    t = Table.empty(len(spec.piles))
    pos = 0
    for pile_id, n in counts.items():
        t.piles[spec.pile_index(pile_id)] = tuple(deck[pos : pos + n])
        pos += n
    if pos < len(deck):
        t.piles[spec.pile_index(rest)] = tuple(deck[pos:])
    return t


def with_options(spec: GameSpec, values: Mapping[str, str]) -> GameSpec:
    """Record the resolved option values on a spec."""
    return replace(spec, option_values=dict(values))


def columns(count: int) -> tuple[PileSpec, ...]:
    return piles(PileKind.COLUMN, "t", count)
