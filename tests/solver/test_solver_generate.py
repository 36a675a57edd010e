"""Solvable deals: Spine's are generated backwards, proven won, not won by obvious moves,
and the same number always gives the same layout."""

from __future__ import annotations

import pytest

from pasyans.deals import default_kind, new_game, start_position
from pasyans.engine.core import deck_for, initial_state, is_won
from pasyans.position import State
from pasyans.rules import get_game
from pasyans.rules.spec import PileKind
from pasyans.solver.autoplay import obvious_play, obvious_wins
from pasyans.solver.generate import solvable_shuffle, solvable_spine
from pasyans.solver.search import replay, solve

SPINE_OPTIONS = [
    {},
    {"spine": "40"},
    {"spine": "24"},
    {"runs": "suit"},
    {"empty": "any"},
    {"empty": "any", "runs": "suit", "spine": "24"},
]


@pytest.mark.parametrize("options", SPINE_OPTIONS)
@pytest.mark.parametrize("deal", [1, 2, 77, 123456])
def test_solvable_spine_deal_is_proven_won_and_not_obvious(
    options: dict[str, str], deal: int
) -> None:
    spec = get_game("spine", options)
    state = solvable_spine(spec, deal)
    # The shape of a Spine deal.
    length = spec.params["spine"]
    height = (104 - length) // 8
    assert len(state.piles[spec.index["spine"]]) == length
    assert all(len(state.piles[c]) == height for c in spec.indexes_of(PileKind.COLUMN))
    assert not any(state.piles[f] for f in spec.indexes_of(PileKind.FOUNDATION))
    assert sorted(c for p in state.piles for c in p) == sorted(deck_for(spec))
    # Proven winnable, and the win replays through the engine.
    r = solve(spec, state, nodes=50_000)
    assert r.result == "won"
    assert is_won(spec, replay(spec, state, r.moves))
    # Not trivial.
    assert not obvious_wins(spec, state)


def test_same_number_same_layout_and_different_numbers_differ() -> None:
    spec = get_game("spine")
    assert solvable_spine(spec, 42) == solvable_spine(spec, 42)
    assert start_position(spec, 42, "solvable") == solvable_spine(spec, 42)
    assert solvable_spine(spec, 42) != solvable_spine(spec, 43)


def test_spine_deals_solvable_by_default_and_random_stays_available() -> None:
    assert default_kind("spine") == "solvable"
    assert default_kind("spider") == "random"
    game = new_game("spine", 9)
    assert game.kind == "solvable"
    assert game.start == solvable_spine(game.spec, 9)
    spec = get_game("spine")
    assert start_position(spec, 9, "random") == initial_state(spec, 9)


def test_obvious_player_wins_a_trivial_position() -> None:
    """The autoplayer is a real player: from a position one step from the end it wins."""
    spec = get_game("spine")
    state = solvable_spine(spec, 5)
    line = solve(spec, state, nodes=50_000).moves
    near_end = replay(spec, state, line[: len(line) - 3])
    end, moves = obvious_play(spec, near_end)
    assert is_won(spec, end) and len(moves) == 3


def test_solvable_shuffle_of_other_games() -> None:
    spec = get_game("backbone")
    state = solvable_shuffle(spec, 10, nodes=2000)
    assert state != initial_state(spec, 10)  # deal 10's own shuffle is not won in 2000 nodes
    assert solve(spec, state, nodes=2000).result == "won"
    assert state == solvable_shuffle(spec, 10, nodes=2000)
    # Deal 1's own shuffle is winnable, so it is its own solvable deal.
    assert solvable_shuffle(spec, 1) == initial_state(spec, 1)


def test_a_saved_solvable_game_keeps_its_layout_and_a_bad_one_is_refused() -> None:
    from pasyans.deals import load_game
    from pasyans.errors import SavedGameError

    game = new_game("nivernais", 3, kind="solvable")
    game.play(game.legal_moves()[0])
    saved = game.to_saved()
    assert State.from_json(saved["start"]) == game.start
    assert load_game(saved).state == game.state
    assert "start" not in new_game("nivernais", 3, kind="random").to_saved()
    broken = dict(saved, start={**saved["start"], "piles": saved["start"]["piles"][:-1]})
    with pytest.raises(SavedGameError):
        load_game(broken)
    cards = [list(p) for p in saved["start"]["piles"]]
    cards[0][0] = 0 if cards[0][0] != 0 else 1  # one card changed: not the deck any more
    with pytest.raises(SavedGameError):
        load_game(dict(saved, start={**saved["start"], "piles": cards}))
    with pytest.raises(SavedGameError):
        load_game(dict(saved, start="not a layout"))
