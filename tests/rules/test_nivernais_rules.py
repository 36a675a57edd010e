"""Nivernais (Ниверне): every rule of GAMES.md, allowed and refused."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from pasyans.engine.build import build_state, pile_codes
from pasyans.engine.core import initial_state, is_stuck, play_checked, stock_action
from pasyans.engine.game import Game
from pasyans.engine.moves import Move
from pasyans.position import Event
from pasyans.rules import get_game

if TYPE_CHECKING:
    from conftest import Rules

NIV = get_game("nivernais")
STOCK = Move.stock()
CELLS_FULL = {f"r{i}": "5C" for i in range(1, 9)}


@pytest.mark.parametrize(("f", "suit"), [(1, "C"), (2, "D"), (3, "H"), (4, "S")])
def test_f1_to_f4_build_up_from_the_ace_in_c_d_h_s(rules: Rules, f: int, suit: str) -> None:
    s = build_state(NIV, {"t1": f"A{suit}", "t2": f"K{suit}", "t3": "AC" if suit != "C" else "AD"})
    after = rules.allowed(NIV, s, f"t1>f{f}")
    rules.refused(NIV, s, f"t2>f{f}")  # a King does not start an up foundation
    rules.refused(NIV, s, f"t3>f{f}")  # another suit's Ace
    two = build_state(NIV, {"t1": f"3{suit} 2{suit}", **{f"f{f}": f"A{suit}"}})
    rules.allowed(NIV, two, f"t1>f{f}")
    assert pile_codes(NIV, after)[f"f{f}"] == [f"A{suit}"]


@pytest.mark.parametrize(("f", "suit"), [(5, "C"), (6, "D"), (7, "H"), (8, "S")])
def test_f5_to_f8_build_down_from_the_king_in_c_d_h_s(rules: Rules, f: int, suit: str) -> None:
    s = build_state(NIV, {"t1": f"K{suit}", "t2": f"A{suit}", "t3": "KC" if suit != "C" else "KD"})
    rules.allowed(NIV, s, f"t1>f{f}")
    rules.refused(NIV, s, f"t2>f{f}")
    rules.refused(NIV, s, f"t3>f{f}")
    queen = build_state(NIV, {"t1": f"Q{suit}", "t2": f"J{suit}", f"f{f}": f"K{suit}"})
    rules.allowed(NIV, queen, f"t1>f{f}")
    rules.refused(NIV, queen, f"t2>f{f}")


def test_a_card_may_choose_its_up_or_down_foundation(rules: Rules) -> None:
    s = build_state(NIV, {"t1": "7H", "f3": "AH 2H 3H 4H 5H 6H", "f7": "KH QH JH TH 9H 8H"})
    assert [m for m in rules.texts(NIV, s) if m.startswith("t1>f")] == ["t1>f3", "t1>f7"]


def test_column_top_goes_into_an_empty_cell(rules: Rules) -> None:
    s = build_state(NIV, {"t1": "9D 7H", "r1": "5C"})
    after = rules.allowed(NIV, s, "t1>r2")
    assert pile_codes(NIV, after)["r2"] == ["7H"]
    rules.refused(NIV, s, "t1>r1")  # a cell holds one card


def test_a_cell_card_goes_only_to_a_foundation(rules: Rules) -> None:
    s = build_state(NIV, {"r1": "AC", "r2": "8S", "t1": "9S"})
    rules.allowed(NIV, s, "r1>f1")
    rules.refused(NIV, s, "r2>t1")  # never back to a column
    rules.refused(NIV, s, "r2>r3")  # never to another cell
    rules.refused(NIV, s, "r2>t2")  # not even an empty column


def test_no_column_to_column_moves(rules: Rules) -> None:
    s = build_state(NIV, {"t1": "7S", "t2": "8S", "t3": "8H"})
    rules.refused(NIV, s, "t1>t2")
    rules.refused(NIV, s, "t1>t3")
    rules.refused(NIV, s, "t1>t4")  # nor into an empty column


def test_foundation_cards_never_move(rules: Rules) -> None:
    s = build_state(NIV, {"f1": "AC 2C", "f5": "KC QC JC TC 9C 8C 7C 6C 5C 4C 3C", "t1": "9H"})
    rules.refused(NIV, s, "f1>f5")
    rules.refused(NIV, s, "f5>f1")
    rules.refused(NIV, s, "f1>r1")
    rules.refused(NIV, s, "f1>t2")


def test_stock_deals_four_onto_each_column_in_order() -> None:
    stock = "QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D AD KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S"
    s = build_state(NIV, {"stock": stock, "t1": "AH"})
    after = play_checked(NIV, s, STOCK)
    codes = pile_codes(NIV, after)
    assert codes["t1"] == ["AH", "2S", "3S", "4S", "5S"]  # the top of the stock first
    assert codes["t2"] == ["6S", "7S", "8S", "9S"]
    assert codes["t6"] == ["9D", "TD", "JD", "QD"]
    assert codes["stock"] == []


def test_stock_deal_stops_when_the_stock_runs_out() -> None:
    s = build_state(NIV, {"stock": "7C 6C 5C 4C 3C 2C", "t1": "AH", "t2": "AD", "t3": "AS"})
    codes = pile_codes(NIV, play_checked(NIV, s, STOCK))
    assert codes["t1"] == ["AH", "2C", "3C", "4C", "5C"]
    assert codes["t2"] == ["AD", "6C", "7C"]
    assert codes["t3"] == ["AS"] and codes["stock"] == []


def test_an_emptied_column_is_refilled_in_the_same_move(rules: Rules) -> None:
    others = {f"t{i}": "9H" for i in range(2, 7)}
    s = build_state(NIV, {"stock": "9S 8S 7S 6S 5S", "t1": "AC", **others})
    events: list[Event] = []
    after = rules.allowed(NIV, s, "t1>f1", events)
    codes = pile_codes(NIV, after)
    assert codes["t1"] == ["5S", "6S", "7S", "8S"] and codes["stock"] == ["9S"]
    assert events[-1] == {"type": "refill", "from": "stock", "to": "t1", "cards": 4}


def test_an_emptied_column_stays_empty_when_the_stock_is_empty(rules: Rules) -> None:
    s = build_state(NIV, {"t1": "AC", "t2": "9H"})
    after = rules.allowed(NIV, s, "t1>f1")
    assert pile_codes(NIV, after)["t1"] == []


def test_redeal_gathers_the_columns_bottom_card_of_column_one_first() -> None:
    s = build_state(
        NIV,
        {"t1": "2C 3C 4C", "t2": "5C 6C", "t3": "7C", "t6": "8C 9C TC", "r1": "KD"},
    )
    assert stock_action(NIV, s) == "redeal"
    after = play_checked(NIV, s, STOCK)
    codes = pile_codes(NIV, after)
    assert after.redeals == 1
    assert codes["t1"] == ["2C", "3C", "4C", "5C"]  # column 1's bottom card is dealt first
    assert codes["t2"] == ["6C", "7C", "8C", "9C"]
    assert codes["t3"] == ["TC"] and codes["t4"] == [] and codes["stock"] == []
    assert codes["r1"] == ["KD"]  # cells are not gathered


def test_two_redeals_only(rules: Rules) -> None:
    s = build_state(NIV, {"t1": "2C", **CELLS_FULL}, redeals=1)
    assert stock_action(NIV, s) == "redeal"
    last = play_checked(NIV, s, STOCK)
    assert last.redeals == 2 and stock_action(NIV, last) is None
    rules.refused(NIV, last, "stock", code="no_redeals_left")
    assert is_stuck(NIV, last)


def test_stuck_needs_every_kind_of_move_gone() -> None:
    assert not is_stuck(NIV, build_state(NIV, {"t1": "2C", **CELLS_FULL}))  # a redeal left
    assert not is_stuck(NIV, build_state(NIV, {"t1": "2C"}, redeals=2))  # a free cell


def test_undo_restores_a_redeal() -> None:
    start = build_state(NIV, {"t1": "2C 3C", "t2": "4C", **CELLS_FULL})
    game = Game("nivernais", 1, start=start)
    game.play("stock")
    assert game.state.redeals == 1 and game.view()["flags"]["redeals_left"] == 1
    game.undo()
    assert game.state == start and game.view()["flags"]["redeals_left"] == 2


def test_layout() -> None:
    codes = pile_codes(NIV, initial_state(NIV, 11))
    assert [len(codes[f"t{i}"]) for i in range(1, 7)] == [4] * 6
    assert [len(codes[f"r{i}"]) for i in range(1, 9)] == [1] * 8
    assert len(codes["stock"]) == 72
    assert all(codes[f"f{i}"] == [] for i in range(1, 9))
