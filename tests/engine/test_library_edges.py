"""Rough edges of the library found by an independent rules check (issue 15, item 11)."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

from pasyans import deals
from pasyans.engine import Game, core
from pasyans.errors import SavedGameError, UnknownGameError
from pasyans.rules import get_game

DOCS = Path(__file__).resolve().parents[2] / "docs"


@pytest.mark.parametrize("game_id", [None, 5, 2.5, ["spider"], b"spider"])
def test_a_game_id_that_is_not_text_is_an_unknown_game(game_id: object) -> None:
    with pytest.raises(UnknownGameError, match="unknown game"):
        Game(game_id, 1)  # type: ignore[arg-type]
    with pytest.raises(UnknownGameError):
        get_game(game_id)  # type: ignore[arg-type]


def test_a_saved_game_needs_its_moves() -> None:
    saved = Game("spine", 3).to_saved()
    del saved["moves"]
    with pytest.raises(SavedGameError, match="moves"):
        deals.load_game(saved)
    with pytest.raises(SavedGameError, match="moves"):
        deals.load_game(saved, trusted=True)


def _stock_and_waste_empty(game_id: str, redeals: int) -> tuple[str, str] | None:
    spec = get_game(game_id)
    start = core.initial_state(spec, 1)
    piles = list(start.piles)
    for name in ("stock", "waste"):
        piles[spec.pile_index(name)] = ()
    return core.stock_refusal(spec, replace(start, piles=tuple(piles), redeals=redeals))


def test_stock_refusals_agree_with_rules_decisions() -> None:
    """docs/rules-decisions.md: stock and waste empty → ``stock_empty`` while a redeal
    remains, ``no_redeals_left`` once all are used (the code the engine answers)."""
    assert _stock_and_waste_empty("backbone", 0) is not None
    assert _stock_and_waste_empty("backbone", 0)[0] == "stock_empty"  # type: ignore[index]
    assert _stock_and_waste_empty("backbone", 1)[0] == "no_redeals_left"  # type: ignore[index]
    text = " ".join((DOCS / "rules-decisions.md").read_text().split())
    m = re.search(r"Backbone: a stock click with both stock and waste empty(.*?)\. [A-Z]", text)
    assert m is not None
    assert "no_redeals_left" in m.group(1)


def test_restart_keeps_undos_and_hints_as_the_docs_say() -> None:
    game = Game("spider", 3, {"suits": "1"})
    move = game.legal_moves()[0]
    game.play(move)
    game.undo()
    game.hints += 1
    game.play(move)
    game.restart()
    assert (game.moves_made, game.undos, game.hints) == (0, 1, 1)
    text = " ".join((DOCS / "rules-decisions.md").read_text().split())
    assert "fresh counters" not in text
    assert "undos and hints used so far stay counted" in text
