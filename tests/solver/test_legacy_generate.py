"""Generator version 1, out of the package (``benchmarks/legacy/generate_v1.py``), still
makes the layouts it made, and a game it dealt still replays from its stored layout."""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest

from pasyans.deals import load_game
from pasyans.engine import Game
from pasyans.position import State
from pasyans.rules import get_game

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks" / "legacy"))
import generate_v1


def _fingerprint(state: State) -> str:
    return hashlib.sha256(json.dumps(state.to_json(), sort_keys=True).encode()).hexdigest()[:16]


@pytest.mark.parametrize(
    ("game", "deal", "difficulty", "fingerprint"),
    [
        # Layouts as version 1 made them: changing them breaks what it dealt.
        ("spine", 1, "medium", "889b6dfce27785fc"),
        ("backbone", 3, "medium", "e9b3f79702f0eec8"),
        ("nivernais", 4, "medium", "254a26dcc5137870"),
    ],
)
def test_generator_1_still_makes_its_layouts(
    game: str, deal: int, difficulty: str, fingerprint: str
) -> None:
    made = generate_v1.make_solvable(game, {}, deal, difficulty)
    assert made.generator == 1 and made.difficulty == difficulty
    assert _fingerprint(made.state) == fingerprint


def test_generator_1_spine_deals() -> None:
    # Version 1's Spine deals were walked back from the finished game: an Ace on top.
    spec = get_game("spine")
    old = [generate_v1.make_solvable("spine", {}, d).state for d in range(1, 6)]
    assert all(s.piles[spec.index["spine"]][-1] >> 2 == 0 for s in old)
    assert (
        generate_v1.make_solvable("spine", {}, 3, "easy").state
        == generate_v1.make_solvable("spine", {}, 3, "hard").state
    )


def test_a_game_of_generator_1_replays_from_its_stored_layout() -> None:
    """The library no longer makes version 1's layouts; a game it dealt stored its
    layout, and replays from it."""
    start = generate_v1.make_solvable("spine", {}, 1).state
    game = Game("spine", 1, {}, start=start, kind="solvable", difficulty="medium", generator=1)
    for _ in range(3):
        game.play(game.view()["moves"][0]["text"])
    saved = game.to_saved()
    again = load_game(json.loads(json.dumps(saved)))
    assert again.state == game.state and again.generator == 1
    assert again.start == start
