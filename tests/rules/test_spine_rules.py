"""Spine (Хребет): every rule of GAMES.md, allowed and refused."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from pasyans.engine.build import build_state, pile_codes
from pasyans.engine.core import initial_state
from pasyans.rules import get_game

if TYPE_CHECKING:
    from conftest import Rules

SPINE = get_game("spine")
ANY = get_game("spine", {"empty": "any"})
RUNS = get_game("spine", {"runs": "suit"})


def test_column_builds_down_in_suit(rules: Rules) -> None:
    s = build_state(SPINE, {"t1": "9D 7S", "t2": "9H 8S", "t3": "KC 8H", "spine": "2C"})
    after = rules.allowed(SPINE, s, "t1>t2")
    assert pile_codes(SPINE, after)["t2"] == ["9H", "8S", "7S"]
    rules.refused(SPINE, s, "t1>t3")  # 7S onto 8H: not the same suit


def test_column_refuses_a_card_two_ranks_lower(rules: Rules) -> None:
    s = build_state(SPINE, {"t1": "9D 6S", "t2": "9H 8S", "spine": "2C"})
    rules.refused(SPINE, s, "t1>t2")


def test_column_top_goes_to_a_foundation(rules: Rules) -> None:
    s = build_state(SPINE, {"t1": "9D AS", "t2": "9H 2S", "spine": "2C"})
    after = rules.allowed(SPINE, s, "t1>f1")
    after = rules.allowed(SPINE, after, "t2>f1")
    assert pile_codes(SPINE, after)["f1"] == ["AS", "2S"]
    rules.refused(SPINE, s, "t2>f1")  # a 2 onto an empty foundation


def test_only_the_top_card_of_a_column_plays(rules: Rules) -> None:
    s = build_state(SPINE, {"t1": "AS 9D", "spine": "2C"})
    rules.refused(SPINE, s, "t1>f1")  # the top card is 9D


def test_spine_top_goes_to_a_column_or_foundation(rules: Rules) -> None:
    s = build_state(SPINE, {"t1": "9D 8S", "spine": "AH 7S"})
    after = rules.allowed(SPINE, s, "spine>t1")
    after = rules.allowed(SPINE, after, "spine>f3")
    assert pile_codes(SPINE, after)["spine"] == []
    rules.refused(SPINE, build_state(SPINE, {"t1": "9D 8S", "spine": "7S AH"}), "spine>t1")


def test_only_the_top_card_of_the_spine_plays(rules: Rules) -> None:
    s = build_state(SPINE, {"t1": "9D 8S", "spine": "AH 7S 2C"})
    rules.refused(SPINE, s, "spine>f1")  # AH lies at the bottom
    rules.refused(SPINE, s, "spine>t1")


def test_nothing_goes_onto_the_spine(rules: Rules) -> None:
    s = build_state(SPINE, {"t1": "9D 7S", "t2": "AS", "spine": "8S"})
    rules.refused(SPINE, s, "t1>spine")
    f = build_state(SPINE, {"f1": "AS 2S", "spine": "4S"})
    rules.refused(SPINE, f, "f1>spine", code="does_not_fit")


def test_foundation_cards_stay(rules: Rules) -> None:
    s = build_state(ANY, {"f1": "AS 2S", "t1": "3S", "spine": "4D"})
    rules.refused(ANY, s, "f1>t2")  # an empty column, but foundations never give back
    rules.refused(ANY, s, "f1>f2")


def test_empty_column_takes_only_a_king_by_default(rules: Rules) -> None:
    s = build_state(SPINE, {"t1": "2C KH", "t2": "3C QH", "spine": "4C KS"})
    rules.allowed(SPINE, s, "t1>t3")
    rules.allowed(SPINE, s, "spine>t3")
    rules.refused(SPINE, s, "t2>t3")


def test_empty_any_lets_any_card_into_an_empty_column(rules: Rules) -> None:
    s = build_state(ANY, {"t2": "3C QH", "spine": "4C 5D"})
    rules.allowed(ANY, s, "t2>t3")
    rules.allowed(ANY, s, "spine>t3")


def test_one_card_per_move_by_default(rules: Rules) -> None:
    s = build_state(SPINE, {"t1": "3C 8S 7S", "t2": "9S", "spine": "4C"})
    rules.refused(SPINE, s, "t1>t2:2", code="not_a_run")
    assert [m for m in rules.texts(SPINE, s) if m.startswith("t1>")] == []


def test_runs_suit_moves_a_same_suit_run_as_one_unit(rules: Rules) -> None:
    s = build_state(RUNS, {"t1": "3C 8S 7S", "t2": "9S", "spine": "4C"})
    after = rules.allowed(RUNS, s, "t1>t2:2")
    assert pile_codes(RUNS, after)["t2"] == ["9S", "8S", "7S"]


def test_runs_suit_refuses_a_mixed_run(rules: Rules) -> None:
    s = build_state(RUNS, {"t1": "3C 8H 7S", "t2": "9H", "spine": "4C"})
    rules.refused(RUNS, s, "t1>t2:2", code="not_a_run")


def test_runs_suit_refuses_a_run_longer_than_the_column_run(rules: Rules) -> None:
    s = build_state(RUNS, {"t1": "9S 8S 7S", "t2": "TD", "spine": "4C"})
    rules.refused(RUNS, s, "t1>t2:3")  # 9S onto TD: not the same suit


def test_runs_suit_into_an_empty_column_needs_a_king_lowest(rules: Rules) -> None:
    s = build_state(RUNS, {"t1": "3C KS QS", "t2": "4C QH JH", "spine": "4C"})
    rules.allowed(RUNS, s, "t1>t3:2")
    rules.refused(RUNS, s, "t2>t3:2")


def test_foundation_builds_up_in_suit(rules: Rules) -> None:
    s = build_state(SPINE, {"f1": "AS", "t1": "2S", "t2": "2H", "t3": "3S", "spine": "4C"})
    rules.allowed(SPINE, s, "t1>f1")
    rules.refused(SPINE, s, "t2>f1")  # other suit
    rules.refused(SPINE, s, "t3>f1")  # skips a rank
    rules.refused(SPINE, s, "t2>f2")  # 2H needs the AH first


def test_any_empty_foundation_takes_any_ace(rules: Rules) -> None:
    s = build_state(SPINE, {"f1": "AS", "t1": "AH", "spine": "4C"})
    assert [m for m in rules.texts(SPINE, s) if m.startswith("t1>f")] == [
        f"t1>f{i}" for i in range(2, 9)
    ]
    rules.refused(SPINE, s, "t1>f1")  # f1 is the spades foundation now


@pytest.mark.parametrize(("length", "per_column"), [("56", 6), ("40", 8), ("24", 10)])
def test_spine_option_sets_the_pile_sizes(length: str, per_column: int) -> None:
    spec = get_game("spine", {"spine": length})
    codes = pile_codes(spec, initial_state(spec, 7))
    assert len(codes["spine"]) == int(length)
    assert [len(codes[f"t{i}"]) for i in range(1, 9)] == [per_column] * 8
