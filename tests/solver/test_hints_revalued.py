"""The Spider hint that revalues the tally's best moves (issue 34): the deeper look at
reveals (``Budget.deeper``, tests/solver/test_hints_deeper.py). It differs from the
tally's hint somewhere, gives that answer again when asked again, reads only the
player's view (two arrangements of the hidden cards, one hint), and is reproducible in
the follower. The deeper look at Backbone classic's stock click shares the first three
checks."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hidden_cards import first_difference, follower_repeats, same_hint

from pasyans import caches
from pasyans.engine.core import initial_state
from pasyans.hints import Budget, suggest
from pasyans.hints.policy import product_budget
from pasyans.rules import get_game
from pasyans.rules.spec import GameSpec

SPEC = get_game("spider", {"suits": "1"})
SPEC2 = get_game("spider", {"suits": "2"})
BASE = Budget(seconds=None, nodes=4000, samples=16, unstick=10)
OPTIONS = [{"deeper": 3}]
CLASSIC = get_game("backbone-classic")
CASES = [
    *((SPEC, BASE, option, 2) for option in OPTIONS),
    # Backbone classic's stock click valued deeper (tests/solver/test_hints_deeper_stock.py),
    # at the product's nodes: with fewer, few samples are won and the deeper look never fires.
    (CLASSIC, product_budget(CLASSIC, None), {"deeper": 3}, 3),
]


def _case_id(case: tuple[GameSpec, Budget, dict[str, int], int]) -> str:
    return f"{case[0].id}-{next(iter(case[2]))}"


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_the_hint_differs_from_the_tally_somewhere_repeats_and_reads_only_the_view(
    case: tuple[GameSpec, Budget, dict[str, int], int],
) -> None:
    spec, base, option, deal = case
    budget = replace(base, **option)
    state, before, other, history = first_difference(spec, base, budget, deal=deal)
    assert before != other
    caches.clear()  # asked again from nothing remembered: the same answer
    assert suggest(spec, state, history=history, budget=budget).move == other
    assert same_hint(spec, state, 7, budget, history).move == other


@pytest.mark.parametrize("option", OPTIONS, ids=lambda o: next(iter(o)))
def test_the_two_suit_hint_reads_only_the_players_view(option: dict[str, int]) -> None:
    two = Budget(seconds=None, nodes=2000, samples=4, seed=3, **option)
    same_hint(SPEC2, initial_state(SPEC2, 4), 11, two)


@pytest.mark.parametrize("option", OPTIONS, ids=lambda o: next(iter(o)))
def test_the_follower_with_the_hint_is_reproducible(option: dict[str, int]) -> None:
    follower_repeats(Budget(seconds=None, nodes=2000, samples=8, seed=1, **option))
