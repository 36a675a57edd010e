"""Nivernais' solvable deals: real shuffles the forward player wins (generator version 3;
versions 1 and 2 played forward while the stock's cards were chosen), proven by replaying
the win through the engine."""

from __future__ import annotations

from collections import Counter

import pytest

from pasyans.cards import SplitMix64, shuffled
from pasyans.deals import kinds_for, make_solvable, start_position
from pasyans.engine import Game
from pasyans.engine.core import apply, deck_for, initial_state, is_won, legal_moves
from pasyans.engine.moves import Move
from pasyans.position import State
from pasyans.rules import get_game
from pasyans.rules.spec import GameSpec
from pasyans.solvable import forward
from pasyans.solvable.generate import _seeds


def test_only_games_whose_hidden_cards_are_all_in_the_stock() -> None:
    assert forward.supports(get_game("nivernais"), initial_state(get_game("nivernais"), 1))
    for game in ("spider", "backbone", "backbone-classic", "spine"):
        spec = get_game(game)
        assert not forward.supports(spec, initial_state(spec, 1)), game


@pytest.mark.parametrize("deal", [1, 2, 3, 77, 2_147_483_647])
def test_solvable_nivernais_deal_is_a_full_deck_and_replays_to_a_win(deal: int) -> None:
    spec = get_game("nivernais")
    layout = start_position(spec, deal, "solvable")
    cards = [c for pile in layout.piles for c in pile]
    assert Counter(cards) == Counter(deck_for(spec))
    assert layout.down == initial_state(spec, deal).down
    assert [len(p) for p in layout.piles] == [len(p) for p in initial_state(spec, deal).piles]
    # A real shuffle of the deal number's stream (nothing chosen), and the forward
    # player's win from it, found again from the same seed, replays through the engine.
    for seed in _seeds(deal, forward.SHUFFLE_ATTEMPTS):
        if spec.deal(spec, shuffled(deck_for(spec), seed)).freeze() == layout:
            break
    else:
        pytest.fail("the layout is not a shuffle of its deal number's stream")
    line = forward.play_layout(spec, layout, seed)
    assert line is not None
    _replays(spec, layout, line)


@pytest.mark.parametrize("deal", [1, 77])
def test_version_2_chose_the_stocks_cards_and_still_does(deal: int) -> None:
    spec = get_game("nivernais")
    layout = make_solvable("nivernais", {}, deal, "easy", generator=2).state
    assert Counter(c for pile in layout.piles for c in pile) == Counter(deck_for(spec))
    stream = SplitMix64(deal)
    for _ in range(forward.ATTEMPTS):
        made = forward.play_and_deal(spec, stream.next())
        if made is not None and made[0] == layout:
            break
    else:
        pytest.fail("the layout does not come from its deal number's stream")
    _replays(spec, layout, made[1])


def _replays(spec: GameSpec, layout: State, line: list[Move]) -> None:
    assert forward.replays_to_a_win(spec, layout, line)
    assert not forward.replays_to_a_win(spec, layout, line[:-1])
    state = layout
    for m in line:
        assert m in legal_moves(spec, state)
        state = apply(spec, state, m)
    assert is_won(spec, state)


def test_same_number_same_layout_and_numbers_differ() -> None:
    spec = get_game("nivernais")
    a = forward.solvable_by_play(spec, 5)
    assert a is not None and a == forward.solvable_by_play(spec, 5)
    b = forward.solvable_by_play(spec, 6)
    assert b is not None and a != b


def test_a_replay_that_breaks_a_rule_is_refused() -> None:
    spec = get_game("nivernais")
    made = None
    stream = SplitMix64(9)
    while made is None:
        made = forward.play_and_deal(spec, stream.next())
    line = made[1]
    # The same line from a different layout (the random deal 9) is illegal at some point.
    with pytest.raises(ValueError):
        forward.replays_to_a_win(spec, initial_state(spec, 9), line)


def test_solvable_nivernais_is_offered_and_plays_in_a_game() -> None:
    assert kinds_for("nivernais") == ("random", "solvable")
    spec = get_game("nivernais")
    game = Game("nivernais", 4, start=start_position(spec, 4, "solvable"))
    assert game.view()["piles"]  # the stock's cards stay hidden in the player's view
    stock = game.view()["piles"]["stock"]
    assert all(card is None for card in stock["cards"])
