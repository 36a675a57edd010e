"""The follower's named budgets: "product" is the product's hint exactly, "expert" the
expert mode's larger one on top of it, and nothing else is a budget."""

from __future__ import annotations

from dataclasses import replace

import pytest

from pasyans.hints import policy
from pasyans.hints.sampled import deciding_player
from pasyans.rules import get_game


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("spider", {"suits": 1}),
        ("spider", {"suits": 2}),
        ("spider", {"suits": 4}),
        ("backbone", {}),
        ("backbone-classic", {}),
        ("nivernais", {}),
        ("spine", {}),
    ],
)
def test_product_is_the_hint_and_expert_adds_only_its_table(
    game: str, options: dict[str, int]
) -> None:
    spec = get_game(game, options)
    product = policy.product_budget(spec, None)
    assert policy.player_budget(spec, "product") == product
    extra = policy.EXPERT_HINTS.get((spec.id, len(spec.deck_suits)), {})
    expert = policy.player_budget(spec, "expert")
    assert expert == replace(product, **extra)
    for field, value in extra.items():  # the expert never searches less than the product
        assert value > getattr(product, field), (game, field)


def test_the_expert_budget_is_larger_where_the_table_says_so() -> None:
    niv = get_game("nivernais", {})
    assert (
        policy.player_budget(niv, "expert").nodes == policy.EXPERT_HINTS[("nivernais", 4)]["nodes"]
    )
    # the product's line player, each line's search 16 times as large
    expert, product = policy.player_budget(niv, "expert"), policy.player_budget(niv, "product")
    assert expert.lines == product.lines > 0
    assert expert.line_nodes() == 16 * product.line_nodes()
    two = get_game("spider", {"suits": 2})
    expert, product = policy.player_budget(two, "expert"), policy.player_budget(two, "product")
    assert (expert.macro, expert.cap) == (product.macro, product.cap) != (0, 0)  # the planner
    assert (expert.samples, expert.nodes) == (2 * product.samples, 4 * (product.nodes or 0))
    four = get_game("spider", {"suits": 4})
    assert (
        policy.player_budget(four, "expert").player > policy.player_budget(four, "product").player
    )


def test_an_unknown_budget_name_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown budget 'peek'"):
        policy.player_budget(get_game("spider", {"suits": 1}), "peek")


def test_only_spider_1_suit_values_its_reveals_one_level_deeper() -> None:
    """The deeper look (issue 34) is the product's on Spider 1 suit alone, its 3 best
    moves, where it was better paired on two ranges; off everywhere else."""
    games = [("spider", {"suits": s}) for s in (1, 2, 4)] + [
        (g, {}) for g in ("backbone", "backbone-classic", "nivernais", "spine")
    ]
    deeper = {
        (g, o.get("suits")): policy.product_budget(get_game(g, o), 0.25).deeper for g, o in games
    }
    assert deeper.pop(("spider", 1)) == 3
    assert set(deeper.values()) == {0}, deeper


@pytest.mark.parametrize(
    ("game", "options", "who"),
    [
        ("spider", {"suits": 1}, ""),
        ("spider", {"suits": 2}, ""),
        ("spider", {"suits": 4}, "rescue"),
        ("backbone", {}, ""),
        ("backbone-classic", {}, ""),
        ("nivernais", {}, "lines"),
    ],
)
def test_the_products_no_peek_player_decides_where_the_tables_say(
    game: str, options: dict[str, int], who: str
) -> None:
    """The hint and the Winnable? estimate ask one predicate which player decides: the
    product's answer per game follows ``PLAYER_HINTS`` and ``LINE_HINTS``."""
    spec = get_game(game, options)
    budget = policy.product_budget(spec, None)
    assert deciding_player(spec, budget) == who
    assert deciding_player(spec, replace(budget, lines=0, player=0)) == ""
    if who == "rescue":  # the player first when it is not only a rescue
        assert deciding_player(spec, replace(budget, rescue=False)) == "first"
