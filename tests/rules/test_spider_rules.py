"""Spider (Паук): every rule of GAMES.md, allowed and refused."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

import pytest

from pasyans.cards import card_code
from pasyans.engine.build import build_state, pile_codes
from pasyans.engine.core import (
    initial_state,
    is_stuck,
    is_won,
    legal_moves,
    play_checked,
    score,
    stock_action,
    stock_refusal,
)
from pasyans.engine.moves import Move
from pasyans.position import Event
from pasyans.rules import get_game

if TYPE_CHECKING:
    from conftest import Rules

SPIDER = get_game("spider")
STOCK = Move.stock()
FULL = {f"t{i}": "9C" for i in range(3, 11)}  # eight more columns, none empty
RUN_KS_TO_2S = " ".join(f"{r}S" for r in "KQJT98765432")


def test_builds_down_in_any_suit(rules: Rules) -> None:
    s = build_state(SPIDER, {"t1": "7H", "t2": "8S", **FULL})
    after = rules.allowed(SPIDER, s, "t1>t2")
    assert pile_codes(SPIDER, after)["t2"] == ["8S", "7H"]
    rules.refused(SPIDER, build_state(SPIDER, {"t1": "6H", "t2": "8S", **FULL}), "t1>t2")
    rules.refused(SPIDER, build_state(SPIDER, {"t1": "9H", "t2": "8S", **FULL}), "t1>t2")


def test_a_same_suit_run_moves_as_one_unit(rules: Rules) -> None:
    s = build_state(SPIDER, {"t1": "QD 8S 7S 6S", "t2": "9H", **FULL})
    after = rules.allowed(SPIDER, s, "t1>t2:3")
    assert pile_codes(SPIDER, after)["t2"] == ["9H", "8S", "7S", "6S"]
    rules.refused(SPIDER, s, "t1>t2:4", code="not_a_run")  # QD is not part of the run


def test_a_mixed_run_does_not_move_as_a_unit(rules: Rules) -> None:
    s = build_state(SPIDER, {**FULL, "t1": "8S 7H", "t2": "9H", "t3": "8C"})
    rules.refused(SPIDER, s, "t1>t2:2", code="not_a_run")
    rules.allowed(SPIDER, s, "t1>t3")  # its top card alone still moves


def test_a_run_has_no_length_limit(rules: Rules) -> None:
    s = build_state(SPIDER, {"t1": "AH " + RUN_KS_TO_2S, "t2": "5D"})
    rules.allowed(SPIDER, s, "t1>t3:12")


def test_empty_column_takes_any_card_or_run(rules: Rules) -> None:
    s = build_state(SPIDER, {"t1": "5D 8S 7S", "t2": "4C 3H"})
    rules.allowed(SPIDER, s, "t1>t3:2")
    rules.allowed(SPIDER, s, "t2>t3")
    rules.refused(SPIDER, s, "t2>t3:2", code="not_a_run")


def test_face_down_cards_do_not_move(rules: Rules) -> None:
    s = build_state(SPIDER, {"t1": "6S 5S", "t2": "7S", **FULL}, down={"t1": 1})
    rules.refused(SPIDER, s, "t1>t2:2", code="not_a_run")


def test_a_face_down_top_card_turns_up_in_the_same_move(rules: Rules) -> None:
    s = build_state(SPIDER, {"t1": "KD QH 7H", "t2": "8S", **FULL}, down={"t1": 2})
    events: list[Event] = []
    after = rules.allowed(SPIDER, s, "t1>t2", events)
    assert after.down[SPIDER.pile_index("t1")] == 1  # QH is face up now, KD still down
    assert {"type": "flip", "pile": "t1"} in events


def test_a_complete_run_leaves_at_once(rules: Rules) -> None:
    s = build_state(SPIDER, {"t1": "4D " + RUN_KS_TO_2S, "t2": "AS", **FULL}, down={"t1": 1})
    events: list[Event] = []
    after = rules.allowed(SPIDER, s, "t2>t1", events)
    codes = pile_codes(SPIDER, after)
    assert codes["t1"] == ["4D"] and after.down[SPIDER.pile_index("t1")] == 0  # and flipped
    assert codes["done"] == [*RUN_KS_TO_2S.split(), "AS"]
    assert [e["type"] for e in events] == ["move", "complete", "flip"]
    assert score(SPIDER, after, 1) == 500 - 1 + 100


def test_a_mixed_suit_king_to_ace_run_stays(rules: Rules) -> None:
    mixed = RUN_KS_TO_2S.replace("5S", "5H")
    s = build_state(SPIDER, {"t1": mixed, "t2": "AS", **FULL})
    after = rules.allowed(SPIDER, s, "t2>t1")
    assert pile_codes(SPIDER, after)["done"] == []
    assert len(pile_codes(SPIDER, after)["t1"]) == 13


def test_stock_deals_one_card_onto_every_column() -> None:
    stock = " ".join(["2H"] * 9 + ["3D"])
    s = build_state(SPIDER, {"stock": stock, "t1": "9C", "t2": "9C", **FULL})
    assert stock_action(SPIDER, s) == "deal"
    after = play_checked(SPIDER, s, STOCK)
    codes = pile_codes(SPIDER, after)
    assert codes["stock"] == [] and codes["t1"] == ["9C", "3D"]  # top of the stock first
    assert all(len(codes[f"t{i}"]) == 2 for i in range(1, 11))


def test_stock_deal_refused_with_an_empty_column(rules: Rules) -> None:
    s = build_state(SPIDER, {"stock": "2H " * 10, "t1": "9C", **FULL})  # t2 is empty
    assert stock_action(SPIDER, s) is None
    code, message = stock_refusal(SPIDER, s) or ("", "")
    assert code == "stock_empty_column" and "empty" in message
    assert rules.refused(SPIDER, s, "stock", code="stock_empty_column") == message


def test_stock_deal_refused_when_the_stock_is_empty(rules: Rules) -> None:
    s = build_state(SPIDER, {"t1": "9C", "t2": "9C", **FULL})
    rules.refused(SPIDER, s, "stock", code="stock_empty")


@pytest.mark.parametrize(
    ("suits", "copies"),
    [("1", {"S": 8}), ("2", {"S": 4, "H": 4}), ("4", {"C": 2, "D": 2, "H": 2, "S": 2})],
)
def test_suit_options_make_the_deck(suits: str, copies: dict[str, int]) -> None:
    spec = get_game("spider", {"suits": suits})
    cards = [c for pile in pile_codes(spec, initial_state(spec, 5)).values() for c in pile]
    expected = {f"{r}{s}": n for s, n in copies.items() for r in "A23456789TJQK"}
    assert Counter(cards) == expected


def test_won_when_eight_runs_are_done() -> None:
    runs = " ".join([RUN_KS_TO_2S + " AS"] * 8)
    won = build_state(SPIDER, {"done": runs})
    assert is_won(SPIDER, won) and not is_stuck(SPIDER, won)
    assert score(SPIDER, won, 150) == 500 - 150 + 800
    seven = build_state(SPIDER, {"done": " ".join([RUN_KS_TO_2S + " AS"] * 7), "t1": "KH"})
    assert not is_won(SPIDER, seven)


def test_stuck_with_fewer_than_ten_cards_and_the_stock_left() -> None:
    runs = " ".join([RUN_KS_TO_2S + " AS"] * 7)
    # 3 cards on the table, none fits another: no move, no deal -> stuck.
    stuck = build_state(
        SPIDER, {"done": runs, "stock": "2H " * 10, "t1": "5C", "t2": "9D", "t3": "KH"}
    )
    assert legal_moves(SPIDER, stuck) == [] and is_stuck(SPIDER, stuck)
    # GAMES.md: "stuck unless moves remain" -- a move left means not (yet) stuck.
    moving = build_state(SPIDER, {"done": runs, "stock": "2H " * 10, "t1": "5C 9D", "t2": "KH"})
    assert stock_action(SPIDER, moving) is None
    assert legal_moves(SPIDER, moving) and not is_stuck(SPIDER, moving)


def test_layout() -> None:
    s = initial_state(SPIDER, 9)
    codes = pile_codes(SPIDER, s)
    assert [len(codes[f"t{i}"]) for i in range(1, 11)] == [6] * 4 + [5] * 6
    assert len(codes["stock"]) == 50 and codes["done"] == []
    for i in range(1, 11):
        c = SPIDER.pile_index(f"t{i}")
        assert s.down[c] == len(s.piles[c]) - 1  # only the top card is face up
    assert card_code(s.piles[SPIDER.pile_index("t1")][-1]) == codes["t1"][-1]
