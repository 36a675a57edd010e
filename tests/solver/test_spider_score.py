"""Spider's visible score (``sampling.spider_score``, which the unstick hint and the
macro planner read): turning a card up and building in suit lower it, and it reads only
the cards the player sees."""

from __future__ import annotations

from pasyans.engine.core import apply, initial_state, legal_moves
from pasyans.hints import sampling
from pasyans.hints.sampling import known, samples, spider_score, visible
from pasyans.rules import get_game
from pasyans.rules.spec import GameSpec


def _spec(suits: int) -> GameSpec:
    spec = get_game("spider", {"suits": str(suits)})
    assert isinstance(spec, GameSpec)
    return spec


def test_turning_a_card_up_and_building_in_suit_score_better() -> None:
    spec = _spec(1)
    view = visible(spec, initial_state(spec, 2))
    now = spider_score(spec, view)
    reveal = [
        m for m in legal_moves(spec, view) if m.dst is not None and sampling.reveals(spec, view, m)
    ]
    assert reveal
    for m in reveal:
        assert spider_score(spec, apply(spec, view, m)) < now


def test_the_score_reads_only_the_view() -> None:
    spec = _spec(2)
    state = initial_state(spec, 5)
    other = samples(spec, known(spec, state), 1, seed=4)[0]
    assert other != state and visible(spec, other) == visible(spec, state)
    # Handed the whole positions, hidden cards and all, it still scores them alike.
    assert spider_score(spec, state) == spider_score(spec, other)
