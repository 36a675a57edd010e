"""Backbone's hint (docs/hints.md): the exact search's own node budget once every card is
known (``Budget.exact``)."""

from __future__ import annotations

from pasyans import caches, hints
from pasyans.engine.core import apply, initial_state
from pasyans.hints import Budget, hidden_to_player, policy, suggest
from pasyans.hints.follow import follow
from pasyans.hints.sampling import known
from pasyans.position import State
from pasyans.rules import get_game


def _first_known(deal: int) -> State:
    """The first position of deal ``deal``'s followed play where the player knows every
    card (the stock redealt)."""
    spec = get_game("backbone")
    budget = Budget(seconds=None, nodes=8000, samples=8)
    play = follow("backbone", {}, deal, budget)
    state = initial_state(spec, deal)
    for m in play.line:
        state = apply(spec, state, m)
        if not hidden_to_player(spec, state):
            return state
    raise AssertionError("the play never knew every card")


def test_the_exact_search_gets_its_own_nodes_once_every_card_is_known() -> None:
    spec = get_game("backbone")
    state = _first_known(3)
    assert known(spec, state) == state
    caches.clear()
    small = suggest(spec, state, budget=Budget(seconds=None, nodes=50, samples=8))
    assert small.source == "heuristic" and small.winnable is None  # 50 positions: no win
    caches.clear()
    big = suggest(spec, state, budget=Budget(seconds=None, nodes=50, samples=8, exact=400_000))
    assert big.source == "solver" and big.winnable is True
    # Never fewer nodes than the hint's own: a larger hint budget is not cut to ``exact``.
    caches.clear()
    more = suggest(spec, state, budget=Budget(seconds=None, nodes=400_000, samples=8, exact=50))
    assert more == big


def test_the_products_exact_search_is_the_followers() -> None:
    # The server's hint (no budget given) stops its exact search at the game's EXACT_HINTS
    # nodes as the follower's product budget does, so the follower measures the product.
    spec = get_game("backbone")
    product = policy.player_budget(spec, "product")
    assert product.exact == hints.EXACT_HINTS[("backbone", 4)] > product.nodes
    assert policy.product_budget(get_game("backbone-classic"), None).exact == 0
    state = _first_known(3)
    caches.clear()
    served = suggest(spec, state, seconds=None)
    caches.clear()
    followed = suggest(spec, state, budget=product)
    assert served == followed and served.source == "solver"
