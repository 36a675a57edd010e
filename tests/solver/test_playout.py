"""The choice when no sample is won (hints/playout.py): every move scored by how many
cards short searches bring home after it in each sample; only the player's view is read,
and the answer is reproducible under a node budget."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hidden_cards import same_hint

from pasyans import caches, hints
from pasyans.domains import packed
from pasyans.engine.core import apply, cards_on_foundations, initial_state, legal_moves
from pasyans.hints import Budget, playout, sampling, suggest
from pasyans.hints.sampling import known, samples
from pasyans.position import State
from pasyans.rules import get_game
from pasyans.rules.spec import GameSpec
from pasyans.solver.search import solve


def test_reach_reports_the_most_cards_brought_home() -> None:
    spec = get_game("backbone-classic", {})
    state = initial_state(spec, 7)
    start = cards_on_foundations(spec, state)
    outcome, best = playout.reach(spec, state, 1)
    assert outcome == "unknown" and best == start  # one position: the start itself
    bests = [playout.reach(spec, state, n)[1] for n in (10, 100, 1000, 4000)]
    assert bests == sorted(bests) and bests[-1] > start  # more search, never fewer cards
    # The same search as the solver's (its first dive), answering the same outcome.
    assert playout.reach(spec, state, 4000)[0] == solve(spec, state, nodes=4000).result
    # A won search reports every card home.
    for deal in range(1, 30):
        s = initial_state(spec, deal)
        if solve(spec, s, nodes=4000).result == "won":
            assert playout.reach(spec, s, 4000) == ("won", 104)
            break
    else:
        pytest.fail("no deal of 1-29 won within 4,000 nodes")


def test_the_domains_are_one_per_spec_and_bounded() -> None:
    """reach's packed rules are built once per spec, whatever the sample; never served
    for another spec (even an equal one); at most :data:`playout._DOMAINS`' size kept."""
    spec = get_game("backbone-classic", {})
    state = initial_state(spec, 1)
    d = playout._domain(spec, state)
    assert d.spec is spec and playout._domain(spec, initial_state(spec, 2)) is d
    other = replace(spec)
    assert other == spec and other is not spec
    assert playout._domain(other, state).spec is other
    copies = [replace(spec) for _ in range(playout._DOMAINS.size + 10)]
    built = [playout._domain(s, state) for s in copies]
    assert all(b.spec is s for b, s in zip(built, copies, strict=True))
    assert len(playout._DOMAINS) == playout._DOMAINS.size == 64
    assert playout._domain(copies[-1], state) is built[-1]  # the recent ones are kept
    assert playout._domain(spec, state) is not d  # the least recently used went


def test_the_playout_hint_reads_only_the_view_and_is_reproducible() -> None:
    spec = get_game("backbone-classic", {})
    # 2 samples of 40 nodes each: no sample is won, so the playouts choose.
    budget = Budget(seconds=None, nodes=80, samples=2, seed=3, playout=300)
    for deal in (1, 2, 3):
        a = initial_state(spec, deal)
        ha = same_hint(spec, a, deal, budget)
        assert ha.source == "playout" and ha.message_ru
        caches.clear()
        assert suggest(spec, a, budget=budget) == ha  # the same again under the node budget
        # The chosen move has the best score; every legal move is scored.
        view = known(spec, a)
        scored = dict(playout.scores(spec, view, samples(spec, view, 2, 3), nodes=300, key=budget))
        assert set(scored) == set(legal_moves(spec, view))
        assert scored[ha.move] == max(scored.values())
        # Without it, the ranked heuristic chooses, as before.
        caches.clear()
        plain = Budget(seconds=None, nodes=80, samples=2, seed=3)
        assert suggest(spec, a, budget=plain).source == "heuristic"


def test_a_playout_hint_draws_its_samples_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The playouts score the samples the tally drew, not a second draw of them; with
    the tally remembered they are drawn again, the same ones, and the hint is the same."""
    spec = get_game("backbone-classic", {})
    state = initial_state(spec, 1)
    budget = Budget(seconds=None, nodes=80, samples=2, seed=3, playout=300)
    drawn: list[list[State]] = []
    real = sampling.samples

    def counted(
        spec_: GameSpec, view: State, count: int, seed: int = 0, start: int = 0
    ) -> list[State]:
        drawn.append(real(spec_, view, count, seed, start))
        return drawn[-1]

    monkeypatch.setattr(sampling, "samples", counted)
    caches.clear()
    hint = suggest(spec, state, budget=budget)
    assert hint.source == "playout" and len(drawn) == 1
    assert hints.TALLIES.get(spec, (known(spec, state), budget)) is not None
    caches.clear()
    assert suggest(spec, state, budget=budget) == hint
    assert len(drawn) == 2 and drawn[0] == drawn[1]


def test_the_scores_are_remembered_and_never_go_back(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = get_game("backbone-classic", {})
    state = initial_state(spec, 5)
    view = known(spec, state)
    states = samples(spec, view, 3, 0)
    caches.clear()
    first = playout.scores(spec, view, states, nodes=200, key="k")
    assert len(first) == len(legal_moves(spec, view)) and all(n > 0 for _, n in first)

    def fail(*args: object, **kwargs: object) -> tuple[str, int]:
        raise AssertionError("searched again")

    monkeypatch.setattr(playout, "reach", fail)
    assert playout.scores(spec, view, states, nodes=200, key="k") == first
    best = playout.choose(spec, view, states, nodes=200, key="k")
    assert best is not None
    # A move back to a position already played is never chosen.
    again = playout.choose(spec, view, states, nodes=200, key="k", avoid={apply(spec, view, best)})
    assert again is not None and again != best


def test_a_time_budget_leaves_moves_unscored() -> None:
    spec = get_game("backbone-classic", {})
    view = known(spec, initial_state(spec, 6))
    states = samples(spec, view, 4, 0)
    caches.clear()
    assert playout.scores(spec, view, states, nodes=50_000, seconds=0.0, key="t") == ()
    assert playout.SCORES.get(spec, (view, "t")) is None  # a cut answer is not remembered
    assert playout.applies(spec, states[0]) and not packed.applies(spec, view)


def test_the_products_backbone_classic_hint_plays_out() -> None:
    spec = get_game("backbone-classic", {})
    nodes = hints.PLAYOUT_HINTS["backbone-classic", 4]
    assert nodes > 0 and hints.product_budget(spec, 0.2).playout == nodes
    for game, options in [("backbone", {}), ("spider", {"suits": "1"}), ("nivernais", {})]:
        assert hints.product_budget(get_game(game, options), 0.2).playout == 0
