"""Backbone (Позвоночник) and its classic rules: two spine piles locked by the tailbone,
8 columns of one card, a stock turned one card at a time with one redeal."""

from __future__ import annotations

from dataclasses import replace

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
)


def _deal(spec: GameSpec, deck: list[Card]) -> Table:
    n = spec.params["spine_pile"]
    counts = {"spine1": n, "spine2": n, "tailbone": 1}
    counts.update({f"t{i}": 1 for i in range(1, 9)})
    return lay_out(spec, deck, counts)


_PLAYED = frozenset({PileKind.COLUMN, PileKind.WASTE, PileKind.SPINE, PileKind.TAILBONE})

BACKBONE = GameSpec(
    id="backbone",
    title_en="Backbone",
    title_ru="Позвоночник",
    piles=(
        PileSpec("stock", PileKind.STOCK),
        PileSpec("waste", PileKind.WASTE),
        *EIGHT_FOUNDATIONS,
        *columns(8),
        PileSpec("spine1", PileKind.SPINE, locked_by="tailbone"),
        PileSpec("spine2", PileKind.SPINE, locked_by="tailbone"),
        PileSpec("tailbone", PileKind.TAILBONE),
    ),
    deal=_deal,
    column_build=Build.DOWN_SUIT,
    empty_column=EmptyColumn.ANY,
    feeds={
        PileKind.COLUMN: _PLAYED | {PileKind.FOUNDATION},
        PileKind.FOUNDATION: _PLAYED,
    },
    foundations=Foundations.UP,
    stock=Stock.TURN,
    passes=2,
    score=Score.FOUNDATION_CARDS,
    params={"spine_pile": 10},
    domain="packed",
)

BACKBONE_CLASSIC = replace(
    BACKBONE,
    id="backbone-classic",
    title_en="Backbone (classic)",
    title_ru="Позвоночник (классический)",
    feeds={PileKind.COLUMN: _PLAYED, PileKind.FOUNDATION: _PLAYED},
    empty_column_refuses=frozenset({PileKind.SPINE, PileKind.TAILBONE}),
    params={"spine_pile": 9},
)
