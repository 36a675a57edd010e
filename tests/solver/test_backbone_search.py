"""Backbone classic's dead positions (a spine card that can never leave) keep "lost"
proven: the solver agrees with a search that tries every move on many small end games
with cards in the spine and under the tailbone."""

from __future__ import annotations

import pytest
from solver_endgames import solver_agrees

from pasyans.cards import SplitMix64
from pasyans.domains import spinelock
from pasyans.domains.knowledge import knowledge_for
from pasyans.engine.core import initial_state
from pasyans.position import State, Table
from pasyans.rules import get_game
from pasyans.rules.spec import GameSpec
from pasyans.solver.search import solve


def spine_endgame(game: str, seed: int, loose: int, tailbone: bool) -> tuple[GameSpec, State]:
    """About ``loose`` cards off the foundations (mostly of one suit), most of them in
    the two spine piles, the rest in a column, the waste and the stock."""
    spec = get_game(game)
    rng = SplitMix64(seed)
    t = Table.empty(len(spec.piles))
    piles = [[(r << 2) | (n % 4) for r in range(13)] for n in range(8)]
    suit = rng.below(4)
    cards: list[int] = []
    for _ in range(loose):
        f = rng.below(8) if rng.below(4) == 0 else suit + 4 * rng.below(2)
        if piles[f]:
            cards.append(piles[f].pop())
    for n, pile in enumerate(piles):
        t.piles[spec.index[f"f{n + 1}"]] = tuple(pile)
    cards.sort(key=lambda _: rng.next())
    if tailbone and cards:
        t.piles[spec.index["tailbone"]] = (cards.pop(),)
    targets = ["spine1", "spine2", "spine1", "spine2", "t1", "waste", "stock"]
    for c in cards:
        t.put(spec.index[targets[rng.below(len(targets))]], (c,))
    return spec, t.freeze()


CASES = [
    (loose, tailbone, seed)
    for loose, seeds in ((6, 20), (9, 20), (12, 6))
    for tailbone in (False, True)
    for seed in range(1, seeds + 1)
]


@pytest.mark.parametrize(("loose", "tailbone", "seed"), CASES)
def test_classic_spine_end_games_agree_with_exhaustive_search(
    loose: int, tailbone: bool, seed: int
) -> None:
    spec, state = spine_endgame("backbone-classic", seed, loose, tailbone)
    solver_agrees(spec, state)


def test_the_rule_fires_on_some_end_games_and_both_answers_occur() -> None:
    results = set()
    fired = 0
    for loose, tailbone, seed in CASES:
        spec, state = spine_endgame("backbone-classic", seed, loose, tailbone)
        k = knowledge_for(spec)
        fired += spinelock.dead(state, k.foundations, k.spines, spec.index["tailbone"])
        results.add(solve(spec, state, nodes=300_000).result)
    assert fired > 0
    assert results == {"won", "lost"}


def test_the_rule_is_only_for_classic_rules() -> None:
    assert spinelock.applies(get_game("backbone-classic"))
    assert not spinelock.applies(get_game("backbone"))
    assert not spinelock.applies(get_game("spine"))


def test_a_king_over_both_threes_of_its_suit_is_lost_at_once() -> None:
    """Deal 4 of Backbone classic: spine2 holds both 3C under KC, which may only go up."""
    spec = get_game("backbone-classic")
    r = solve(spec, initial_state(spec, 4), nodes=10)
    assert r.result == "lost"


def test_two_kings_each_over_what_the_other_needs_are_lost_at_once() -> None:
    """KH (spine1) needs a 3H, both under KD (spine2); KD needs a 3D, both under KH:
    neither King can leave first. No single pile shows it."""
    spec = get_game("backbone-classic")
    t = Table.empty(len(spec.piles))
    for n in range(8):
        suit = n % 4
        top = 13 if suit in (0, 3) else 2  # clubs and spades done; D and H up to the 2
        t.piles[spec.index[f"f{n + 1}"]] = tuple((r << 2) | suit for r in range(top))
    d3, h3, kd, kh = (2 << 2) | 1, (2 << 2) | 2, (12 << 2) | 1, (12 << 2) | 2
    t.piles[spec.index["spine1"]] = (d3, d3, kh)
    t.piles[spec.index["spine2"]] = (h3, h3, kd)
    rest = [(r << 2) | s for s in (1, 2) for r in range(3, 12) for _ in range(2)]
    rest += [kd, kh]
    t.piles[spec.index["stock"]] = tuple(rest)
    state = t.freeze()
    assert sorted(c for p in state.piles for c in p) == sorted(
        (r << 2) | s for s in range(4) for r in range(13) for _ in range(2)
    )
    assert solve(spec, state, nodes=1).result == "lost"
    k = knowledge_for(spec)
    assert spinelock.dead(state, k.foundations, k.spines, spec.index["tailbone"])
    # Either King alone in its pile, over the same cards, is not dead.
    one = Table(state)
    one.piles[spec.index["spine2"]] = (h3, h3)
    one.piles[spec.index["stock"]] += (kd,)
    assert not spinelock.dead(one.freeze(), k.foundations, k.spines, spec.index["tailbone"])


def test_a_tailbone_king_that_leaves_a_spine_card_no_way_is_lost_at_once() -> None:
    """Deal 12 of Backbone classic: the tailbone KD can only go up, taking one diamond
    foundation to the Queen with the free 7D and QD; the other 7D and QD lie under JD
    in the spine, so JD then has neither the other foundation nor a QD to go onto."""
    spec = get_game("backbone-classic")
    state = initial_state(spec, 12)
    k = knowledge_for(spec)
    assert spinelock.dead(state, k.foundations, k.spines, spec.index["tailbone"])
    assert solve(spec, state, nodes=10).result == "lost"
