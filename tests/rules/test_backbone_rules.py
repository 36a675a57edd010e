"""Backbone (Позвоночник) and Backbone classic: every rule of GAMES.md, allowed and refused."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pasyans.engine.build import build_state, pile_codes
from pasyans.engine.core import (
    initial_state,
    is_stuck,
    legal_moves,
    play_checked,
    stock_action,
    stock_refusal,
)
from pasyans.engine.moves import Move
from pasyans.rules import get_game

if TYPE_CHECKING:
    from conftest import Rules

BACKBONE = get_game("backbone")
CLASSIC = get_game("backbone-classic")
STOCK = Move.stock()


def test_tailbone_locks_both_spine_piles(rules: Rules) -> None:
    s = build_state(BACKBONE, {"spine1": "2C AS", "spine2": "2D AH", "tailbone": "KD"})
    rules.refused(BACKBONE, s, "spine1>f1", code="locked")
    rules.refused(BACKBONE, s, "spine2>t1", code="locked")
    assert not [m for m in rules.texts(BACKBONE, s) if m.startswith("spine")]


def test_tailbone_card_plays_like_any_card(rules: Rules) -> None:
    s = build_state(BACKBONE, {"spine1": "2C", "spine2": "2D", "tailbone": "AS", "t1": "3C"})
    rules.allowed(BACKBONE, s, "tailbone>f1")
    rules.refused(BACKBONE, s, "tailbone>t1")  # AS onto 3C: not one rank lower


def test_spine_piles_play_once_the_tailbone_is_gone(rules: Rules) -> None:
    s = build_state(BACKBONE, {"spine1": "2C AS", "spine2": "2D 7H", "t1": "8H"})
    after = rules.allowed(BACKBONE, s, "spine1>f1")
    assert pile_codes(BACKBONE, after)["spine1"] == ["2C"]
    rules.allowed(BACKBONE, s, "spine2>t1")
    rules.refused(BACKBONE, s, "spine2>f1")  # 7H


def test_nothing_goes_onto_the_spine(rules: Rules) -> None:
    s = build_state(BACKBONE, {"spine1": "9S", "t1": "8S", "waste": "8H"})
    rules.refused(BACKBONE, s, "t1>spine1")
    rules.refused(BACKBONE, s, "waste>spine1")
    rules.refused(BACKBONE, s, "t1>tailbone")


def test_column_builds_down_in_suit(rules: Rules) -> None:
    s = build_state(BACKBONE, {"t1": "8S", "t2": "7S", "t3": "7H", "t4": "6S"})
    rules.allowed(BACKBONE, s, "t2>t1")
    rules.refused(BACKBONE, s, "t3>t1")  # other suit
    rules.refused(BACKBONE, s, "t4>t1")  # two ranks lower


def test_one_card_per_move(rules: Rules) -> None:
    s = build_state(BACKBONE, {"t1": "8S 7S", "t2": "9S", "t3": "2C"})
    rules.refused(BACKBONE, s, "t1>t2:2", code="not_a_run")
    assert all(Move.parse(m).cards == 1 for m in rules.texts(BACKBONE, s) if m != "stock")


def test_empty_column_takes_any_card_from_anywhere(rules: Rules) -> None:
    s = build_state(
        BACKBONE,
        {"t1": "5D 7C", "waste": "QH", "f1": "AS 2S", "spine1": "9D", "spine2": "KC"},
    )
    for src in ("t1", "waste", "f1", "spine1", "spine2"):
        rules.allowed(BACKBONE, s, f"{src}>t2")
    locked = build_state(BACKBONE, {"t1": "5D", "tailbone": "KH", "spine1": "3D"})
    rules.allowed(BACKBONE, locked, "tailbone>t2")


def test_waste_top_goes_to_a_column_or_foundation(rules: Rules) -> None:
    s = build_state(BACKBONE, {"t1": "8S", "waste": "AH 7S", "stock": "2C"})
    after = rules.allowed(BACKBONE, s, "waste>t1")
    rules.allowed(BACKBONE, after, "waste>f1")
    rules.refused(BACKBONE, s, "waste>f1")  # the top of the waste is 7S


def test_waste_card_must_fit(rules: Rules) -> None:
    s = build_state(BACKBONE, {"t1": "8S", "waste": "7H"})
    rules.refused(BACKBONE, s, "waste>t1")


def test_foundation_top_goes_back_to_a_column(rules: Rules) -> None:
    s = build_state(BACKBONE, {"f1": "AS 2S 3S", "t1": "4S", "t2": "4H", "t3": "9C"})
    after = rules.allowed(BACKBONE, s, "f1>t1")
    assert pile_codes(BACKBONE, after)["f1"] == ["AS", "2S"]
    rules.refused(BACKBONE, s, "f1>t2")
    rules.refused(BACKBONE, s, "f1>f2")  # never foundation to foundation
    rules.refused(BACKBONE, s, "f1>waste")


def test_foundations_build_up_in_suit_from_the_ace(rules: Rules) -> None:
    s = build_state(BACKBONE, {"f1": "AS", "t1": "2S", "t2": "2H", "t3": "3S"})
    rules.allowed(BACKBONE, s, "t1>f1")
    rules.refused(BACKBONE, s, "t2>f1")
    rules.refused(BACKBONE, s, "t3>f1")
    rules.refused(BACKBONE, s, "t2>f2")  # an empty foundation takes only an ace


def test_stock_turns_one_card_to_the_waste(rules: Rules) -> None:
    s = build_state(BACKBONE, {"stock": "2C 3C 4C", "waste": "9H"})
    assert stock_action(BACKBONE, s) == "turn"
    after = play_checked(BACKBONE, s, STOCK)
    codes = pile_codes(BACKBONE, after)
    assert codes["stock"] == ["2C", "3C"] and codes["waste"] == ["9H", "4C"]


def test_redeal_once_keeps_the_order() -> None:
    s = build_state(BACKBONE, {"stock": "2C 3C 4C", "t1": "KS"})
    turned = s
    for _ in range(3):
        turned = play_checked(BACKBONE, turned, STOCK)
    assert pile_codes(BACKBONE, turned)["waste"] == ["4C", "3C", "2C"]
    assert stock_action(BACKBONE, turned) == "redeal"
    again = play_checked(BACKBONE, turned, STOCK)
    assert again.redeals == 1
    assert pile_codes(BACKBONE, again)["stock"] == ["2C", "3C", "4C"]  # as at the start
    assert pile_codes(BACKBONE, again)["waste"] == []
    second = again
    for _ in range(3):
        second = play_checked(BACKBONE, second, STOCK)
    assert pile_codes(BACKBONE, second)["waste"] == ["4C", "3C", "2C"]  # same order


def test_no_second_redeal(rules: Rules) -> None:
    s = build_state(BACKBONE, {"waste": "4C 3C 2C", "t1": "KS"}, redeals=1)
    assert stock_action(BACKBONE, s) is None
    assert stock_refusal(BACKBONE, s) == (
        "no_redeals_left",
        "The stock is empty and no redeal is left.",
    )
    rules.refused(BACKBONE, s, "stock", code="no_redeals_left")
    assert Move.stock() not in legal_moves(BACKBONE, s)


def test_stuck_when_no_move_and_no_redeal() -> None:
    full = {f"t{i}": "9D" for i in range(1, 9)}
    assert is_stuck(BACKBONE, build_state(BACKBONE, {"waste": "4C", **full}, redeals=1))
    assert not is_stuck(BACKBONE, build_state(BACKBONE, {"waste": "4C", **full}))  # redeal
    fits = {**full, "t8": "5C"}
    assert not is_stuck(BACKBONE, build_state(BACKBONE, {"waste": "4C", **fits}, redeals=1))


def test_layouts() -> None:
    for spec, spine, stock in ((BACKBONE, 10, 75), (CLASSIC, 9, 77)):
        codes = pile_codes(spec, initial_state(spec, 3))
        assert [len(codes[p]) for p in ("spine1", "spine2", "tailbone")] == [spine, spine, 1]
        assert [len(codes[f"t{i}"]) for i in range(1, 9)] == [1] * 8
        assert len(codes["stock"]) == stock and codes["waste"] == []


# --- classic ---------------------------------------------------------------------------


def test_classic_empty_column_refuses_spine_and_tailbone_cards(rules: Rules) -> None:
    s = build_state(CLASSIC, {"t1": "5D", "tailbone": "KH", "spine1": "3D"})
    rules.refused(CLASSIC, s, "tailbone>t2")
    free = build_state(CLASSIC, {"t1": "5D", "spine1": "KD", "spine2": "4D"})
    rules.refused(CLASSIC, free, "spine1>t2")
    rules.allowed(CLASSIC, free, "spine2>t1")  # a spine card may still build on a column


def test_classic_empty_column_takes_column_and_waste_cards(rules: Rules) -> None:
    s = build_state(CLASSIC, {"t1": "5D 7C", "waste": "QH"})
    rules.allowed(CLASSIC, s, "t1>t2")
    rules.allowed(CLASSIC, s, "waste>t2")


def test_classic_foundation_cards_never_move(rules: Rules) -> None:
    s = build_state(CLASSIC, {"f1": "AS 2S 3S", "t1": "4S"})
    rules.refused(CLASSIC, s, "f1>t1")
    rules.refused(CLASSIC, s, "f1>t2")


def test_classic_stock_turns_one_card_with_one_redeal() -> None:
    s = build_state(CLASSIC, {"stock": "2C", "t1": "KS"})
    turned = play_checked(CLASSIC, s, STOCK)
    assert stock_action(CLASSIC, turned) == "redeal"
    again = play_checked(CLASSIC, play_checked(CLASSIC, turned, STOCK), STOCK)
    assert stock_action(CLASSIC, again) is None


def test_one_card_per_move_says_so(rules: Rules) -> None:
    s = build_state(BACKBONE, {"t1": "8S 7S", "t2": "9S"})
    assert "one card" in rules.refused(BACKBONE, s, "t1>t2:2", code="not_a_run")
