"""Spider's portfolio (``spider.portfolio``): ``solve``'s default on 4 suits, half the
budget by the fitted weights, the rest by the old ones, within the budget; the
solvable-deal generator's single search by the old weights is untouched."""

from __future__ import annotations

import pytest

from pasyans.domains import spider
from pasyans.engine.core import initial_state, is_won
from pasyans.rules import get_game
from pasyans.solvable import generate
from pasyans.solver.search import replay, solve

FOUR = get_game("spider", {"suits": "4"})


def test_the_portfolio_wins_a_deal_the_fitted_weights_do_not_within_the_same_nodes() -> None:
    """Deal 38: the fitted weights do not win it within 40,000 positions, the old ones
    win it within 6,764; the portfolio at 20,000 (10,000 each) wins it."""
    state = initial_state(FOUR, 38)
    single = solve(FOUR, state, nodes=20_000, spider_weights=spider.WEIGHTS)
    assert single.result == "unknown" and single.nodes == 20_000
    both = solve(FOUR, state, nodes=20_000)
    assert both.result == "won" and 10_000 < both.nodes <= 20_000
    assert is_won(FOUR, replay(FOUR, state, both.moves))
    # The same search as the old weights' alone, after the fitted weights' half.
    old = solve(FOUR, state, nodes=10_000, spider_weights=spider.V1)
    assert old.result == "won" and both.moves == old.moves
    assert both.nodes == 10_000 + old.nodes


def test_a_deal_the_fitted_weights_win_in_half_is_won_as_they_win_it() -> None:
    state = initial_state(FOUR, 2)
    alone = solve(FOUR, state, nodes=100_000, spider_weights=spider.WEIGHTS)
    both = solve(FOUR, state, nodes=100_000)
    assert alone.result == both.result == "won"
    assert (both.moves, both.nodes) == (alone.moves, alone.nodes)


@pytest.mark.parametrize("nodes", [1, 2, 3, 999, 5_001, 20_001])
def test_the_portfolio_spends_at_most_its_budget(nodes: int) -> None:
    for deal in (38, 62):
        r = solve(FOUR, initial_state(FOUR, deal), nodes=nodes)
        assert r.nodes <= nodes
        if r.result != "won":
            assert r.result == "unknown"


def test_three_evaluations_share_the_budget_and_a_time_budget_ends() -> None:
    state = initial_state(FOUR, 38)
    games = [spider.SpiderGame(FOUR, state, w) for w in (spider.WEIGHTS, spider.WEIGHTS, spider.V1)]
    outcome, moves, used, _ = spider.portfolio(games, seconds=None, nodes=21_000)
    # 7,000 each: the fitted weights twice in vain, then the old ones win within 6,764.
    assert outcome == "won" and used == 14_000 + 6_764
    assert is_won(FOUR, replay(FOUR, state, moves))
    outcome, _, used, _ = spider.portfolio(games, seconds=0.05, nodes=None)
    assert outcome in ("won", "unknown") and used > 0
    with pytest.raises(ValueError):
        spider.portfolio([], seconds=None, nodes=10)


def test_the_generator_searches_by_the_old_weights_alone() -> None:
    """The generator's proof (``generate._proves``) is the old weights' single search:
    on deal 38 at 20,000 positions exactly its line and count, not the portfolio's."""
    state = initial_state(FOUR, 38)
    old = spider.solve(spider.SpiderGame(FOUR, state, spider.V1), seconds=None, nodes=20_000)
    generate._proves.cache_clear()
    line = generate._proves("spider", (("suits", "4"),), 0, 20_000, state)
    assert old[0] == "won" and line == old[1]
    explicit = solve(FOUR, state, nodes=20_000, spider_weights=spider.V1)
    assert (explicit.moves, explicit.nodes) == (old[1], old[2])
    assert explicit.nodes != solve(FOUR, state, nodes=20_000).nodes


@pytest.mark.parametrize("suits", ["1", "2"])
def test_one_and_two_suits_keep_the_single_search(suits: str) -> None:
    spec = get_game("spider", {"suits": suits})
    state = initial_state(spec, 5)
    alone = solve(spec, state, nodes=50_000, spider_weights=spider.WEIGHTS)
    default = solve(spec, state, nodes=50_000)
    assert (default.result, default.moves, default.nodes) == (
        alone.result,
        alone.moves,
        alone.nodes,
    )


def _after_four_deals(deal: int) -> spider.SpiderGame:
    """A 4-suit deal with four rows dealt: the attempts past (16,000, 16) come within a
    few tens of thousands of positions (as in test_core.py)."""
    game = spider.SpiderGame(FOUR, initial_state(FOUR, deal))
    pos = game.root
    for _ in range(4):
        pos = game.play(pos, spider.DEAL)
    return spider.SpiderGame(FOUR, game.state(pos), spider.WEIGHTS, spider.V1)


@pytest.mark.parametrize(("deal", "nodes"), [(38, 20_000), (1, 20_000)])
def test_the_compiled_joint_search_is_the_reference(deal: int, nodes: int) -> None:
    game = spider.SpiderGame(FOUR, initial_state(FOUR, deal), spider.WEIGHTS, spider.V1)
    python = spider.staged(game, nodes=nodes, seconds=None, prune=True, use_compiled=False)
    c = spider.staged(game, nodes=nodes, seconds=None, prune=True, use_compiled=True)
    assert c == python


def test_the_compiled_joint_search_is_the_reference_up_to_16000(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Up to the (16,000, 16) attempt by the other weights: the same positions in the same
    order, and the reference did run that attempt. (Past it, the Python reference needs
    over 100,000 positions, too slow for a test: those attempts are each size's two
    evaluations of :func:`spider.evaluation`, by the weights of the attempt.)"""
    attempts = []
    joint = spider.joint_evaluation

    def spy(a: int) -> tuple[int, bool, bool]:
        attempts.append(joint(a))
        return attempts[-1]

    monkeypatch.setattr(spider, "joint_evaluation", spy)
    game = _after_four_deals(2)
    python = spider.staged(game, nodes=60_000, seconds=None, prune=True, use_compiled=False)
    assert (spider.COARSE, False, True) in attempts
    c = spider.staged(game, nodes=60_000, seconds=None, prune=True, use_compiled=True)
    assert c == python
    alone = spider.SpiderGame(FOUR, game.state(game.root), spider.WEIGHTS)
    single = spider.staged(alone, nodes=60_000, seconds=None, prune=True)
    assert single != c  # the other weights do change the search


def test_the_compiled_swapped_search_is_the_reference_past_16000(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With ``swap``, past (16,000, 16) the other weights take the second evaluation's
    attempts (their distance, their shape weight): the same positions in the same order
    as the reference, which did run such an attempt; up to it, the single search's."""
    attempts = []
    swapped = spider.swap_evaluation

    def spy(a: int) -> tuple[int, bool, bool]:
        attempts.append(swapped(a))
        return attempts[-1]

    monkeypatch.setattr(spider, "swap_evaluation", spy)
    base = _after_four_deals(2)
    game = spider.SpiderGame(FOUR, base.state(base.root), spider.WEIGHTS, spider.V1, swap=True)
    python = spider.staged(game, nodes=70_000, seconds=None, prune=True, use_compiled=False)
    assert (spider.COARSE + 1, False, True) in attempts
    c = spider.staged(game, nodes=70_000, seconds=None, prune=True, use_compiled=True)
    assert c == python
    alone = spider.SpiderGame(FOUR, base.state(base.root), spider.WEIGHTS)
    assert spider.staged(alone, nodes=40_000, seconds=None, prune=True) == spider.staged(
        game, nodes=40_000, seconds=None, prune=True
    )
    assert spider.staged(alone, nodes=70_000, seconds=None, prune=True) != c
