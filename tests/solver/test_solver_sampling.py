"""Samples of the hidden cards: drawn only from what the player knows, uniform over the
unseen cards, and reproducible; the hint follower's result is reproducible too."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import replace

import pytest

from pasyans import caches, hints
from pasyans.cards import SplitMix64, shuffled
from pasyans.engine.core import apply, initial_state, is_stuck, legal_moves, stock_action
from pasyans.engine.moves import Move
from pasyans.hints import Budget, estimate, exact, sampling, suggest, winnable
from pasyans.hints.follow import follow
from pasyans.hints.model import Hint
from pasyans.hints.sampling import HIDDEN, known, samples, slots, unseen, visible
from pasyans.position import State
from pasyans.rules import get_game
from pasyans.rules.spec import PileKind


def _hidden_cards(spec: object, state: State) -> list[int]:
    from pasyans.rules.spec import GameSpec

    assert isinstance(spec, GameSpec)
    out: list[int] = []
    for i, p in enumerate(spec.piles):
        n = len(state.piles[i]) if p.kind is PileKind.STOCK else state.down[i]
        out += state.piles[i][:n]
    return sorted(out)


def test_unseen_cards_are_the_hidden_ones_and_samples_keep_the_view() -> None:
    for game, options in [("spider", {"suits": "4"}), ("backbone", {}), ("nivernais", {})]:
        spec = get_game(game, options)
        state = initial_state(spec, 7)
        view = known(spec, state)
        assert unseen(spec, view) == _hidden_cards(spec, state)
        assert len(slots(spec, view)) == len(unseen(spec, view))
        for s in samples(spec, view, 5, seed=3):
            assert visible(spec, s) == visible(spec, state)
            assert sorted(c for p in s.piles for c in p) == sorted(
                c for p in state.piles for c in p
            )
            assert HIDDEN not in {c for p in s.piles for c in p}


def _chi_square_critical(df: int, z: float) -> float:
    """The upper quantile of chi-square with ``df`` degrees of freedom for the normal
    quantile ``z`` (Wilson–Hilferty; within a few tenths of a percent for df ≥ 30)."""
    a = 2 / (9 * df)
    return df * (1 - a + z * math.sqrt(a)) ** 3


def test_samples_are_uniform_over_the_unseen_cards() -> None:
    spec = get_game("spider", {"suits": "4"})
    view = known(spec, initial_state(spec, 1))
    cards = unseen(spec, view)
    places = slots(spec, view)
    stock = spec.index["stock"]
    watched = [places.index((stock, 0)), places.index((spec.index["t1"], 0))]
    draws = 4000
    drawn = samples(spec, view, draws, seed=11)
    copies = Counter(cards)
    critical = _chi_square_critical(len(copies) - 1, 3.09)  # p = 0.001
    for w in watched:
        i, k = places[w]
        seen = Counter(s.piles[i][k] for s in drawn)
        chi2 = sum(
            (seen[c] - draws * n / len(cards)) ** 2 / (draws * n / len(cards))
            for c, n in copies.items()
        )
        assert chi2 < critical, (places[w], chi2, critical)
    # The two places are independent draws without replacement: never one card twice
    # more often than the deck allows.
    i0, k0 = places[watched[0]]
    i1, k1 = places[watched[1]]
    same = sum(s.piles[i0][k0] == s.piles[i1][k1] for s in drawn)
    expected = draws * sum(n * (n - 1) for n in copies.values()) / (len(cards) * (len(cards) - 1))
    assert abs(same - expected) < 4 * math.sqrt(expected) + 1


def test_a_biased_sampler_fails_the_chi_square() -> None:
    """The uniformity test can fail: always the smallest card in the watched place."""
    spec = get_game("spider", {"suits": "4"})
    view = known(spec, initial_state(spec, 1))
    copies = Counter(unseen(spec, view))
    draws = 4000
    total = sum(copies.values())
    biased = Counter({min(copies): draws // 2})
    for c in copies:
        biased[c] += (draws // 2) * copies[c] // total
    chi2 = sum(
        (biased[c] - draws * n / total) ** 2 / (draws * n / total) for c, n in copies.items()
    )
    assert chi2 > _chi_square_critical(len(copies) - 1, 3.09)


def test_after_a_redeal_the_player_knows_the_stock() -> None:
    spec = get_game("backbone")
    state = initial_state(spec, 3)
    stock = spec.index["stock"]
    while state.redeals == 0:
        state = apply(spec, state, next(m for m in legal_moves(spec, state) if m.dst is None))
    assert state.piles[stock]
    assert known(spec, state).piles[stock] == state.piles[stock]
    assert visible(spec, state).piles[stock] == (HIDDEN,) * len(state.piles[stock])
    assert not hints.hidden_to_player(spec, state)


def _reshuffle(spec: object, state: State, seed: int) -> State:
    from pasyans.rules.spec import GameSpec

    assert isinstance(spec, GameSpec)
    view = visible(spec, state)
    places = slots(spec, view)
    cards = _hidden_cards(spec, state)
    return sampling.complete(view, places, shuffled(cards, seed))


def test_sampled_hint_is_the_same_for_the_same_view() -> None:
    budget = Budget(seconds=None, nodes=1000, samples=4, seed=5)
    for game, options in [("spider", {"suits": "2"}), ("backbone", {}), ("nivernais", {})]:
        spec = get_game(game, options)
        a = initial_state(spec, 9)
        b = _reshuffle(spec, a, 9)
        assert a != b and visible(spec, a) == visible(spec, b)
        ha = suggest(spec, a, budget=budget)
        caches.clear()
        hb = suggest(spec, b, budget=budget)
        assert ha == hb and ha.move is not None
        assert ha.source in ("sampled", "heuristic", "leaning")  # leaning: Nivernais
        ea, eb = estimate(spec, a, budget), estimate(spec, b, budget)
        assert ea == eb and ea is not None and ea.samples == 4
        assert winnable(spec, a) == "unknown"


def test_repeated_requests_reuse_the_samples(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = get_game("spider", {"suits": "1"})
    state = initial_state(spec, 2)
    budget = Budget(seconds=None, nodes=4000, samples=4)
    first = suggest(spec, state, budget=budget)
    monkeypatch.setattr(exact, "solve", lambda *a, **k: pytest.fail("searched again"))
    assert suggest(spec, state, budget=budget) == first
    e = estimate(spec, state, budget)
    assert e is not None and e.samples == 4 and 0 <= e.won <= 4
    assert e.to_json()["percent"] == round(100 * e.won / 4)


def test_the_hint_is_never_empty_while_a_move_is_left() -> None:
    budget = Budget(seconds=None, nodes=200, samples=2)
    for game, options in [("spider", {"suits": "4"}), ("backbone-classic", {}), ("nivernais", {})]:
        spec = get_game(game, options)
        state = initial_state(spec, 4)
        rng = SplitMix64(4)
        for _ in range(25):
            moves = legal_moves(spec, state)
            if not moves:
                break
            if hints.hidden_to_player(spec, state):
                hint = suggest(spec, state, budget=budget)
                assert hint.move is not None and hint.move in moves, (game, hint)
            state = apply(spec, state, moves[rng.below(len(moves))])


def test_no_move_left_says_so() -> None:
    spec = get_game("nivernais")
    state = initial_state(spec, 1)
    # Spend the stock and redeals by clicking it while it can be clicked.
    while stock_action(spec, state) is not None:
        state = apply(spec, state, next(m for m in legal_moves(spec, state) if m.dst is None))
    while legal_moves(spec, state):
        state = apply(spec, state, legal_moves(spec, state)[0])
    assert is_stuck(spec, state)
    hint = suggest(spec, state, budget=Budget(seconds=None, nodes=100, samples=2))
    assert hint.move is None and hint.message and hint.message_ru


def _outcome(p: object) -> tuple[object, ...]:
    from pasyans.hints.follow import Play

    assert isinstance(p, Play)
    return (p.won, p.moves, p.hints, p.sources, p.ended)


def test_the_follower_is_reproducible_under_a_node_budget() -> None:
    budget = Budget(seconds=None, nodes=2400, samples=4, seed=1)
    a = follow("spider", {"suits": "1"}, 3, budget, max_moves=15)
    b = follow("spider", {"suits": "1"}, 3, budget, max_moves=15)
    assert _outcome(a) == _outcome(b)
    assert a.hints > 0 and "sampled" in dict(a.sources)
    # The baseline (no samples) never searches a sample.
    base = follow("backbone", {}, 2, Budget(seconds=None, samples=0), max_moves=15)
    assert "sampled" not in dict(base.sources)


def _scored(stop: bool = False) -> tuple[object, State, sampling.Tally, list[object]]:
    """Four samples of a Spider start whose (fake) searches all start with the stock,
    while a win after one other move is found in every sample."""
    spec = get_game("spider", {"suits": "1"})
    view = known(spec, initial_state(spec, 2))
    states = samples(spec, view, 4, seed=1)
    moves = legal_moves(spec, view)
    stock = next(m for m in moves if m.dst is None)
    other = next(m for m in moves if m.dst is not None)
    after = {apply(spec, s, other) for s in states}
    searched: list[object] = []

    def search(s: State) -> tuple[str, object]:
        searched.append(s)
        if s in states:
            return "won", stock
        return ("won", None) if s in after else ("unknown", None)

    t = sampling.tally(
        spec,
        view,
        states,
        search,  # type: ignore[arg-type]
        extra=[other],
        stop=lambda: stop,
    )
    return spec, view, t, [stock, other, searched]


def test_the_guard_scores_moves_in_every_sample_and_waits_with_the_stock() -> None:
    spec, view, t, (stock, other, _searched) = _scored()
    assert t.votes == ((stock, 4),)
    scores = dict(t.scores)
    # The extra (visible) moves are scored too when the samples favour the stock.
    assert scores[stock] == 4 and scores[other] == 4
    from pasyans.rules.spec import GameSpec

    assert isinstance(spec, GameSpec)
    # As good in every sample: the move that keeps the stock for later wins the tie.
    assert sampling.choose(spec, view, t) == other
    # A move back to a position already played is never chosen.
    assert sampling.choose(spec, view, t, avoid={apply(spec, view, other)}) == stock
    # Without the guard: the samples' own first move.
    assert sampling.choose(spec, view, t, guard=False) == stock
    assert t.count(stock) == 4


def test_a_spent_time_budget_leaves_the_candidates_unscored() -> None:
    spec, view, t, (stock, _other, searched) = _scored(stop=True)
    assert t.scores == () and t.won == 4
    assert isinstance(searched, list) and len(searched) == 4  # the samples only
    from pasyans.rules.spec import GameSpec

    assert isinstance(spec, GameSpec)
    assert sampling.choose(spec, view, t) == stock


def test_a_time_budget_bounds_a_sampled_hint() -> None:
    import time

    spec = get_game("spider", {"suits": "4"})
    state = initial_state(spec, 5)
    t0 = time.process_time()
    hint = suggest(spec, state, budget=Budget(seconds=0.05, samples=8))
    # Half the budget for the samples, half for scoring, one search's share over at most
    # (CPU time is at most the wall time the budget counts); generous for a busy machine.
    assert time.process_time() - t0 < 1.0
    assert hint.move is not None


def test_the_follower_gives_up_when_nothing_moves_on() -> None:
    from pasyans.hints.follow import progress

    spec = get_game("spider", {"suits": "1"})
    state = initial_state(spec, 1)
    before = progress(spec, state)
    deal = next(m for m in legal_moves(spec, state) if m.dst is None)
    assert progress(spec, apply(spec, state, deal)) != before


def test_the_follower_refuses_a_hint_that_is_not_a_legal_move(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The engine plays moves unchecked, so the follower checks each hint: a move naming
    the wrong pile stops the run instead of corrupting the game it measures."""
    spec = get_game("spider", {"suits": "1"})
    state = initial_state(spec, 3)
    legal = legal_moves(spec, state)
    wrong = next(
        Move(p.id, q.id, 1)
        for p in spec.piles
        for q in spec.piles
        if p.kind is q.kind is PileKind.COLUMN and p != q and Move(p.id, q.id, 1) not in legal
    )
    monkeypatch.setattr(hints, "suggest", lambda *a, **k: Hint(wrong, "solver", None, ""))
    with pytest.raises(AssertionError, match="not legal"):
        follow("spider", {"suits": "1"}, 3, Budget(seconds=None, nodes=1000, samples=2))


def test_the_products_hint_works_to_the_games_node_budget() -> None:
    spec = get_game("spider", {"suits": "2"})
    state = initial_state(spec, 4)
    samples, nodes = hints.HINT_BUDGETS["spider", 2]
    width, cap = hints.MACRO_HINTS["spider", 2]  # the macro planner (2026-12-07)
    product = Budget(seconds=0.25, nodes=nodes, samples=samples, macro=width, cap=cap)
    assert hints.product_budget(spec, 0.25) == product
    caches.clear()
    # No time limit: the node budget alone decides, so the hint is reproducible and the
    # one the follower benchmark measures at that budget.
    mine = suggest(spec, state, seconds=None)
    caches.clear()
    bench = suggest(spec, state, budget=replace(product, seconds=None))
    assert (mine.move, mine.source) == (bench.move, bench.source)
    assert hints.product_budget(get_game("spine", {}), 1.0).nodes is None


def test_a_later_batch_of_samples_continues_the_same_sequence() -> None:
    spec = get_game("spider", {"suits": "2"})
    view = known(spec, initial_state(spec, 9))
    assert samples(spec, view, 3, seed=2) + samples(spec, view, 3, seed=2, start=3) == samples(
        spec, view, 6, seed=2
    )
    assert samples(spec, view, 3, seed=2) != samples(spec, view, 3, seed=3)


def test_the_samples_stay_the_same_while_nothing_is_turned_up() -> None:
    spec = get_game("spider", {"suits": "2"})

    def hidden(s: State) -> list[tuple[int, ...]]:
        view = known(spec, s)
        places = slots(spec, view)
        return [tuple(x.piles[i][k] for i, k in places) for x in samples(spec, view, 4, seed=1)]

    def quiet_moves(s: State) -> list[Move]:
        view = visible(spec, s)
        return [
            m
            for m in legal_moves(spec, s)
            if m.dst is not None and not sampling.reveals(spec, view, m)
        ]

    state = initial_state(spec, 12)
    rng = SplitMix64(12)
    while not quiet_moves(state):  # play on until a move turns nothing up
        moves = [m for m in legal_moves(spec, state) if m.dst is not None]
        state = apply(spec, state, moves[rng.below(len(moves))])
    after = apply(spec, state, quiet_moves(state)[0])
    assert known(spec, after) != known(spec, state)
    assert hidden(after) == hidden(state)  # the same arrangements of the unseen cards
    stock = next(m for m in legal_moves(spec, state) if m.dst is None)
    assert hidden(apply(spec, state, stock)) != hidden(state)  # dealt: new samples


def test_revealed_names_the_place_a_move_turns_up() -> None:
    spec = get_game("spider", {"suits": "2"})
    state = initial_state(spec, 5)
    view = known(spec, state)
    found = 0
    for m in legal_moves(spec, view):
        slot = sampling.revealed(spec, view, m)
        assert (slot is not None) == sampling.reveals(spec, view, m)
        if slot is not None:
            found += 1
            i = spec.index[m.src]
            assert slot == (i, view.down[i] - 1) and view.piles[i][slot[1]] == HIDDEN
    assert found  # the first moves of a Spider deal turn cards up


def test_revealed_names_the_place_a_run_completed_at_the_destination_turns_up() -> None:
    """Spider: the ace that completes a run K..2 lying on a face-down card removes the run
    and turns that card up; the move's source turns nothing up."""
    from pasyans.cards import parse_card

    spec = get_game("spider", {"suits": "1"})
    state = initial_state(spec, 2)
    t1, t2 = spec.index["t1"], spec.index["t2"]
    piles, down = list(state.piles), list(state.down)
    run = tuple(parse_card(r + "S") for r in "KQJT98765432")
    piles[t1] = (state.piles[t1][0], *run)
    down[t1] = 1
    piles[t2] = (parse_card("AS"),)
    down[t2] = 0
    view = known(spec, State(tuple(piles), tuple(down), state.redeals))
    ace = next(m for m in legal_moves(spec, view) if m.src == "t2" and m.dst == "t1")
    assert sampling.revealed(spec, view, ace) == (t1, 0)
    assert sampling.reveals(spec, view, ace)
    after = apply(spec, view, ace)
    assert after.piles[t1] == (HIDDEN,) and after.down[t1] == 0


def test_ties_go_to_a_reveal_and_no_sample_won_chooses_nothing() -> None:
    spec = get_game("spider", {"suits": "1"})
    view = known(spec, initial_state(spec, 3))
    reveal = next(m for m in legal_moves(spec, view) if sampling.reveals(spec, view, m))
    stock = next(m for m in legal_moves(spec, view) if m.dst is None)
    tied = sampling.Tally(4, 0, 0, ((reveal, 4),), ((reveal, 4), (stock, 4)))
    assert sampling.choose(spec, view, tied) == reveal  # ties: turn a card up
    assert sampling.choose(spec, view, tied, avoid={apply(spec, view, reveal)}) == stock
    better = sampling.Tally(4, 0, 0, ((reveal, 4),), ((reveal, 3), (stock, 4)))
    assert sampling.choose(spec, view, better) == stock  # more samples won first
    assert sampling.choose(spec, view, sampling.Tally(0, 0, 4, ())) is None


def test_the_follower_plays_a_found_win_out_past_its_move_cap() -> None:
    from pasyans.hints.follow import PROVEN_CAP

    spec = get_game("spider", {"suits": "1"})
    budget = Budget(seconds=None, nodes=4000, samples=16, unstick=10)
    whole = follow("spider", {"suits": "1"}, 2, budget)
    assert whole.won
    state = initial_state(spec, 2)
    for m in whole.line:
        if known(spec, state) == state:
            break  # every card known from here: the hint is the exact search's win
        state = apply(spec, state, m)
    caches.clear()
    rest = follow("spider", {"suits": "1"}, 2, budget, max_moves=1, start=state)
    assert rest.won and 1 < rest.moves <= PROVEN_CAP
    assert dict(rest.sources) == {"solver": rest.moves}
    # With hidden cards the cap holds: no win is proven.
    caches.clear()
    capped = follow("spider", {"suits": "1"}, 2, budget, max_moves=1)
    assert capped.ended == "move cap" and capped.moves == 1
