"""Spine (Хребет): 8 columns around one long face-up spine; no stock.

Options: ``empty=kings|any``, ``runs=single|suit``, ``spine=56|40|24``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from pasyans.cards import Card
from pasyans.position import Table
from pasyans.rules.common import EIGHT_FOUNDATIONS, columns, lay_out
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
    per_column = (104 - spec.params["spine"]) // 8
    counts = {f"t{i}": per_column for i in range(1, 9)}
    return lay_out(spec, deck, counts, rest="spine")


def _configure(spec: GameSpec, values: Mapping[str, str]) -> GameSpec:
    return replace(
        spec,
        empty_column=EmptyColumn.ANY if values["empty"] == "any" else EmptyColumn.KINGS,
        runs_move=values["runs"] == "suit",
        params={"spine": int(values["spine"])},
    )


_SOURCES = frozenset({PileKind.COLUMN, PileKind.SPINE})

SPINE = GameSpec(
    id="spine",
    title_en="Spine",
    title_ru="Хребет",
    piles=(*EIGHT_FOUNDATIONS, *columns(8), PileSpec("spine", PileKind.SPINE)),
    deal=_deal,
    column_build=Build.DOWN_SUIT,
    empty_column=EmptyColumn.KINGS,
    feeds={PileKind.COLUMN: _SOURCES, PileKind.FOUNDATION: _SOURCES},
    foundations=Foundations.UP,
    stock=Stock.NONE,
    score=Score.FOUNDATION_CARDS,
    params={"spine": 56},
    domain="packed",
    options=(
        OptionSpec(
            "empty",
            ("kings", "any"),
            "Empty column takes",
            "Пустой столбец принимает",
            ("only a King", "any card"),
            ("только короля", "любую карту"),
        ),
        OptionSpec(
            "runs",
            ("single", "suit"),
            "Cards moved at once",
            "Сколько карт за ход",
            ("one card", "a same-suit run"),
            ("одна карта", "ряд одной масти"),
        ),
        OptionSpec(
            "spine",
            ("56", "40", "24"),
            "Spine length",
            "Длина хребта",
            ("56 cards", "40 cards", "24 cards"),
            ("56 карт", "40 карт", "24 карты"),
        ),
    ),
    configure=_configure,
)
