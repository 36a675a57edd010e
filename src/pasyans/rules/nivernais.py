"""Nivernais (Ниверне): up and down foundations per suit, 6 columns of 4 played only to
the foundations or the 8 reserve cells, emptied columns refilled from the stock at once,
two redeals that regather the columns."""

from __future__ import annotations

from pasyans.cards import Card
from pasyans.position import Table
from pasyans.rules.common import EIGHT_FOUNDATIONS, columns, lay_out
from pasyans.rules.spec import (
    Build,
    EmptyColumn,
    Foundations,
    GameSpec,
    PileKind,
    PileSpec,
    Score,
    Stock,
    piles,
)


def _deal(spec: GameSpec, deck: list[Card]) -> Table:
    counts = {f"t{i}": 4 for i in range(1, 7)}
    counts.update({f"r{i}": 1 for i in range(1, 9)})
    return lay_out(spec, deck, counts)


def _refill(spec: GameSpec, t: Table) -> None:
    """An emptied column takes up to four cards from the stock at once."""
    stock = spec.pile_index("stock")
    for c in spec.indexes_of(PileKind.COLUMN):
        if not t.piles[c] and t.piles[stock]:
            n = min(4, len(t.piles[stock]))
            t.put(c, tuple(reversed(t.take(stock, n))))
            t.note({"type": "refill", "from": "stock", "to": spec.piles[c].id, "cards": n})


_CELLS = piles(PileKind.RESERVE, "r", 8)

NIVERNAIS = GameSpec(
    id="nivernais",
    title_en="Nivernais",
    title_ru="Ниверне",
    piles=(
        PileSpec("stock", PileKind.STOCK),
        *EIGHT_FOUNDATIONS,
        *_CELLS[:4],
        *columns(6),
        *_CELLS[4:],
    ),
    deal=_deal,
    column_build=Build.NONE,
    empty_column=EmptyColumn.NONE,
    feeds={
        PileKind.FOUNDATION: frozenset({PileKind.COLUMN, PileKind.RESERVE}),
        PileKind.RESERVE: frozenset({PileKind.COLUMN}),
    },
    foundations=Foundations.UP_DOWN,
    stock=Stock.DEAL_COLUMNS,
    passes=3,
    score=Score.FOUNDATION_CARDS,
    after_action=_refill,
    params={"deal_per_column": 4},
    domain="nivernais",
)
