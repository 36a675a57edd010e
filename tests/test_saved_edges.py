"""The library's rough edges of issue 33, finding 12: what is not a saved game gets the
library's own error (not KeyError, TypeError or AttributeError), and a custom start is
saved."""

from __future__ import annotations

from typing import Any

import pytest

from pasyans import deals
from pasyans.engine import Game
from pasyans.engine.core import initial_state
from pasyans.errors import OptionError, SavedGameError
from pasyans.rules import get_game


@pytest.mark.parametrize(
    "saved",
    [
        {},
        None,
        [],
        "spider",
        {"game": "spider"},
        {"deal": 1},
        {"game": "spider", "deal": 1, "options": ["suits", "1"], "moves": []},
        {"game": "spider", "deal": 1, "options": "suits=1", "moves": []},
        {"game": "spider", "deal": 1, "kind": 5, "moves": []},
        {"game": "spider", "deal": 1, "kind": "lucky", "moves": []},
        {"game": "spider", "deal": 1, "moves": [], "difficulty": "extreme"},
        {"game": "spider", "deal": 1, "moves": [], "generator": 99},
        {"game": "spider", "deal": 1, "moves": [], "difficulty": ["easy"]},
    ],
)
def test_what_is_not_a_saved_game_raises_the_library_error(saved: Any) -> None:
    with pytest.raises(SavedGameError):
        deals.load_game(saved)


def test_a_saved_solvable_game_with_an_unknown_difficulty_or_generator_is_refused() -> None:
    game = deals.new_game("spider", 3, {"suits": "1"}, "solvable")
    good = game.to_saved()
    assert deals.load_game(good).to_saved() == good
    for change in ({"difficulty": "extreme"}, {"generator": 99}):
        with pytest.raises(SavedGameError):
            deals.load_game({**good, **change})


@pytest.mark.parametrize("kind", [5, "lucky", ["random"]])
def test_new_game_with_a_kind_that_does_not_exist_raises_an_option_error(kind: Any) -> None:
    with pytest.raises(OptionError):
        deals.new_game("spider", 1, None, kind)


def test_to_saved_keeps_a_custom_start() -> None:
    """A random deal played from another layout (here deal 7's, for deal 1) saves that
    layout, and loads back the same position."""
    spec = get_game("backbone", None)
    other = initial_state(spec, 7)
    game = Game("backbone", 1, None, start=other)
    game.play(game.legal_moves()[0])
    saved = game.to_saved()
    assert saved["start"] == other.to_json()
    again = deals.load_game(saved)
    assert again.state == game.state and again.start == other
    plain = Game("backbone", 1, None)
    assert "start" not in plain.to_saved()


def test_a_move_from_spiders_done_pile_is_not_playable_even_when_it_is_empty() -> None:
    from pasyans.errors import IllegalMoveError

    game = deals.new_game("spider", 1, {"suits": "1"}, "random")
    with pytest.raises(IllegalMoveError) as info:
        game.play("done>t1")
    assert info.value.code == "not_playable"
