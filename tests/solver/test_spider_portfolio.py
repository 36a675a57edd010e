"""Spider's joint search (``SpiderGame(..., other=...)``): the staged search by the fitted
weights and by V1 over one table, within the budget, ``solve``'s way for the suit counts in
``spider.JOINT_SUITS`` (none by default: measured, not adopted, docs/solver-spider.md); the
compiled search is the Python reference; the solvable-deal generator's single search by V1
is untouched."""

from __future__ import annotations

import pytest

from pasyans.domains import spider
from pasyans.engine.core import initial_state, is_won
from pasyans.rules import get_game
from pasyans.solvable import generate
from pasyans.solver.search import replay, solve

FOUR = get_game("spider", {"suits": "4"})


@pytest.fixture
def joint(monkeypatch: pytest.MonkeyPatch) -> None:
    """``solve`` searches 4 suits by the joint search."""
    monkeypatch.setattr(spider, "JOINT_SUITS", frozenset({4}))


def test_four_suits_search_by_the_fitted_weights_alone_by_default() -> None:
    state = initial_state(FOUR, 38)
    alone = solve(FOUR, state, nodes=20_000, spider_weights=spider.WEIGHTS)
    default = solve(FOUR, state, nodes=20_000)
    assert (default.result, default.moves, default.nodes) == (
        alone.result,
        alone.moves,
        alone.nodes,
    )


@pytest.mark.usefixtures("joint")
def test_the_joint_search_wins_a_deal_the_fitted_weights_do_not_within_the_same_nodes() -> None:
    """Deal 38: the fitted weights alone do not win it within 40,000 positions (V1 alone
    wins it within 6,764); the joint search, through ``solve``, within 20,000."""
    state = initial_state(FOUR, 38)
    for nodes in (20_000, 40_000):
        single = solve(FOUR, state, nodes=nodes, spider_weights=spider.WEIGHTS)
        assert single.result == "unknown" and single.nodes == nodes
    both = solve(FOUR, state, nodes=20_000)
    assert both.result == "won" and both.nodes <= 20_000
    assert is_won(FOUR, replay(FOUR, state, both.moves))
    joint = spider.SpiderGame(FOUR, state, spider.WEIGHTS, spider.V1)
    assert spider.solve(joint, seconds=None, nodes=20_000)[1:3] == (both.moves, both.nodes)


@pytest.mark.usefixtures("joint")
@pytest.mark.parametrize("nodes", [1, 2, 3, 999, 5_001, 20_001])
def test_the_joint_search_spends_at_most_its_budget(nodes: int) -> None:
    for deal in (1, 38, 62):
        r = solve(FOUR, initial_state(FOUR, deal), nodes=nodes)
        assert r.nodes <= nodes
        assert r.result in ("won", "unknown")
        if r.result == "won":
            assert is_won(FOUR, replay(FOUR, initial_state(FOUR, deal), r.moves))


def test_the_generator_searches_by_the_old_weights_alone() -> None:
    """The generator's proof (``generate._proves``) is the old weights' single search:
    on deal 38 at 20,000 positions exactly its line and count, not the joint search's."""
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


def _spied(monkeypatch: pytest.MonkeyPatch, name: str) -> list[tuple[int, bool, bool]]:
    """The attempts the reference search makes through ``spider.<name>``, as it makes them."""
    attempts: list[tuple[int, bool, bool]] = []
    schedule = getattr(spider, name)

    def spy(a: int) -> tuple[int, bool, bool]:
        attempts.append(schedule(a))
        return attempts[-1]

    monkeypatch.setattr(spider, name, spy)
    return attempts


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
    attempts = _spied(monkeypatch, "joint_evaluation")
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
    attempts = _spied(monkeypatch, "swap_evaluation")
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
