"""Spider (Паук): 10 columns, face-down cards turned up at once, complete King-to-Ace runs
removed at once, a stock dealt one card per column. Option ``suits=4|2|1``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from pasyans.cards import ACE, HEARTS, KING, SPADES, Card
from pasyans.position import Table
from pasyans.rules.common import columns, lay_out
from pasyans.rules.spec import (
    Build,
    EmptyColumn,
    Foundations,
    GameSpec,
    OptionSpec,
    PileKind,
    PileSpec,
    Score,
    Stock,
)


def _deal(spec: GameSpec, deck: list[Card]) -> Table:
    counts = {f"t{i}": 6 if i <= 4 else 5 for i in range(1, 11)}
    t = lay_out(spec, deck, counts)
    for c in spec.indexes_of(PileKind.COLUMN):
        t.down[c] = len(t.piles[c]) - 1
    return t


def _is_complete_run(pile: tuple[Card, ...], down: int) -> bool:
    if len(pile) - down < 13:
        return False
    run = pile[-13:]
    if (run[0] >> 2) + 1 != KING or (run[-1] >> 2) + 1 != ACE:
        return False
    return all(run[k] - run[k + 1] == 4 for k in range(12))


def _after(spec: GameSpec, t: Table) -> None:
    """Remove complete runs to ``done`` and turn up face-down top cards."""
    done = spec.pile_index("done")
    for c in spec.indexes_of(PileKind.COLUMN):
        pid = spec.piles[c].id
        if _is_complete_run(t.piles[c], t.down[c]):
            t.put(done, t.take(c, 13))
            t.note({"type": "complete", "from": pid, "to": "done", "cards": 13})
        if t.piles[c] and t.down[c] >= len(t.piles[c]):
            t.down[c] = len(t.piles[c]) - 1
            t.note({"type": "flip", "pile": pid})


def _configure(spec: GameSpec, values: Mapping[str, str]) -> GameSpec:
    suits = {"4": (0, 1, 2, 3), "2": (SPADES, HEARTS), "1": (SPADES,)}[values["suits"]]
    return replace(spec, deck_suits=suits)


SPIDER = GameSpec(
    id="spider",
    title_en="Spider",
    title_ru="Паук",
    piles=(
        PileSpec("stock", PileKind.STOCK),
        PileSpec("done", PileKind.DONE),
        *columns(10),
    ),
    deal=_deal,
    column_build=Build.DOWN_ANY,
    empty_column=EmptyColumn.ANY,
    feeds={PileKind.COLUMN: frozenset({PileKind.COLUMN})},
    foundations=Foundations.NONE,
    stock=Stock.DEAL_ROW,
    score=Score.SPIDER,
    runs_move=True,
    after_action=_after,
    options=(
        OptionSpec(
            "suits",
            ("4", "2", "1"),
            "Suits",
            "Масти",
            ("four suits", "two suits", "one suit"),
            ("четыре масти", "две масти", "одна масть"),
        ),
    ),
    configure=_configure,
    domain="spider",
)
