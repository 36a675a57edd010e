"""Backbone's hint (docs/hints.md): the exact search's own node budget once every card is
known (``Budget.exact``), and the broad scoring where few samples are won
(``Budget.broad``, :func:`sampling.broadly`)."""

from __future__ import annotations

from dataclasses import replace

from hidden_cards import same_hint

from pasyans import caches, hints
from pasyans.engine.core import apply, initial_state, legal_moves
from pasyans.hints import Budget, hidden_to_player, policy, sampling, suggest
from pasyans.hints.follow import follow
from pasyans.hints.sampling import known, samples
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


def test_broadly_scores_every_move_in_every_sample() -> None:
    spec = get_game("backbone")
    view = known(
        spec, apply(spec, initial_state(spec, 5), legal_moves(spec, initial_state(spec, 5))[0])
    )
    drawn = samples(spec, view, 4, 1)
    probed: list[State] = []
    wins = {drawn[0], drawn[2]}

    def probe(s: State) -> str:
        probed.append(s)
        # A fake search: "won" after any move in samples 0 and 2, "lost" in sample 3.
        for i, d in enumerate(drawn):
            if any(apply(spec, d, m) == s for m in legal_moves(spec, d)):
                return "won" if d in wins else "lost" if i == 3 else "unknown"
        raise AssertionError("probed a position no move of a sample reaches")

    t = sampling.Tally(1, 0, 3, ())
    got = sampling.broadly(spec, view, t, drawn, probe)
    moves = legal_moves(spec, view)
    assert [m for m, _ in got.scores] == moves
    assert all(n == 2 for _, n in got.scores) and all(r == 1 for _, r in got.risks)
    assert len(probed) == len(moves) * len(drawn)
    assert (got.won, got.lost, got.unknown) == (1, 0, 3)
    # A spent time budget leaves the tally as it was.
    assert sampling.broadly(spec, view, t, drawn, probe, stop=lambda: True) == t


def test_the_broad_hint_reads_no_hidden_card() -> None:
    # Ten positions a sample: no sample is won, so every move is scored in every sample.
    spec = get_game("backbone")
    budget = Budget(seconds=None, nodes=80, samples=8, broad=True)
    for deal in (4, 9):
        a = initial_state(spec, deal)
        same_hint(spec, a, deal, budget)
        caches.clear()
        plain = suggest(spec, a, budget=replace(budget, broad=False))
        assert plain.source in ("heuristic", "leaning", "sampled")


def test_the_broad_follower_is_reproducible() -> None:
    budget = Budget(seconds=None, nodes=8000, samples=8, broad=True, exact=20_000)
    a = follow("backbone", {}, 45, budget, max_moves=40)
    b = follow("backbone", {}, 45, budget, max_moves=40)
    assert (a.won, a.moves, a.line, a.sources) == (b.won, b.moves, b.line, b.sources)
    assert a.moves == 40 and "sampled" in dict(a.sources)
