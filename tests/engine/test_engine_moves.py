"""Move notation: text and JSON forms, round trips and typed errors."""

from __future__ import annotations

from typing import Any

import pytest

from pasyans.engine.moves import Move, parse_move
from pasyans.errors import InvalidMoveError, PasyansError


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("t3>f1", Move("t3", "f1", 1)),
        ("t3>t5:4", Move("t3", "t5", 4)),
        ("t10>t1:12", Move("t10", "t1", 12)),
        ("spine>t2", Move("spine", "t2", 1)),
        ("spine1>f8", Move("spine1", "f8", 1)),
        ("tailbone>t1", Move("tailbone", "t1", 1)),
        ("waste>f2", Move("waste", "f2", 1)),
        ("f1>t4", Move("f1", "t4", 1)),
        ("r8>f5", Move("r8", "f5", 1)),
        ("stock", Move.stock()),
    ],
)
def test_text_round_trip(text: str, move: Move) -> None:
    assert Move.parse(text) == move
    assert move.to_str() == text
    assert Move.parse(move.to_str()) == move
    assert Move.from_json(move.to_json()) == move
    assert eval(repr(move)) == move  # the repr is a parse call


def test_text_is_lenient_about_case_and_spaces() -> None:
    assert Move.parse(" T3 > T5 : 4 ") == Move("t3", "t5", 4)
    assert Move.parse("STOCK") == Move.stock()
    assert Move.parse("t3>t5:1").to_str() == "t3>t5"


def test_json_forms() -> None:
    assert Move("t3", "t5", 4).to_json() == {"from": "t3", "to": "t5", "cards": 4}
    assert Move.stock().to_json() == {"from": "stock"}
    assert Move.from_json({"from": "t3", "to": "f1"}) == Move("t3", "f1", 1)
    assert parse_move({"from": "stock"}) == Move.stock()
    assert parse_move("t1>f1") == Move("t1", "f1")
    assert Move.stock().is_stock and not Move("t1", "f1").is_stock


@pytest.mark.parametrize(
    "text",
    ["", "t3", "t3>", ">t3", "t3>t3", "t11>t1", "f9>t1", "r0>f1", "x>y", "t1>t2:0",
     "t1>t2:-1", "t1>t2:two", "stock>t1", "t1>stock", "t1>t2>t3", "stock stock", "t1->t2",
     "t1>t2:105", "t1>t2:199", "t1>t2:200"],
)  # fmt: skip
def test_bad_text_is_an_invalid_move_error(text: str) -> None:
    with pytest.raises(InvalidMoveError) as err:
        Move.parse(text)
    assert err.value.code == "bad_notation"
    assert isinstance(err.value, PasyansError) and isinstance(err.value, ValueError)


@pytest.mark.parametrize(
    "data",
    [
        None, 3, "t1>t2", [], {}, {"from": "t1"}, {"to": "t1"},
        {"from": "t1", "to": "t2", "cards": 0}, {"from": "t1", "to": "t2", "cards": True},
        {"from": "t1", "to": "t2", "cards": "2"}, {"from": "t1", "to": "t2", "cards": 105},
        {"from": "t1", "to": "t2", "extra": 1}, {"from": "stock", "to": "t1"},
        {"from": "zz", "to": "t1"}, {"from": 1, "to": 2},
    ],
)  # fmt: skip
def test_bad_json_is_an_invalid_move_error(data: Any) -> None:
    with pytest.raises(InvalidMoveError):
        Move.from_json(data)


def test_non_text_is_an_invalid_move_error() -> None:
    with pytest.raises(InvalidMoveError):
        Move.parse(12)  # type: ignore[arg-type]
