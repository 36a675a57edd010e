"""Hints never cheat: with hidden cards only the visible projection counts; without, the
hint is the first move of a win (or says honestly that there is none)."""

from __future__ import annotations

import pytest

from pasyans import hints
from pasyans.cards import SplitMix64
from pasyans.deals import start_position
from pasyans.engine.core import apply, has_hidden_cards, initial_state, is_won, legal_moves
from pasyans.hints import HIDDEN, LINES, Lines, exact, suggest, visible, winnable
from pasyans.position import State
from pasyans.rules import get_game
from pasyans.rules.spec import GameSpec, PileKind
from pasyans.solver.search import solve


def _reshuffle_hidden(spec: GameSpec, state: State, seed: int) -> State:
    """The same visible position with the hidden cards (face down and stock) permuted."""
    places = []
    for i, p in enumerate(spec.piles):
        n = len(state.piles[i]) if p.kind is PileKind.STOCK else state.down[i]
        places += [(i, k) for k in range(n)]
    cards = [state.piles[i][k] for i, k in places]
    rng = SplitMix64(seed)
    for j in range(len(cards) - 1, 0, -1):
        r = rng.below(j + 1)
        cards[j], cards[r] = cards[r], cards[j]
    piles = [list(p) for p in state.piles]
    for (i, k), c in zip(places, cards, strict=True):
        piles[i][k] = c
    return State(tuple(tuple(p) for p in piles), state.down, state.redeals)


def test_same_visible_position_different_hidden_cards_same_hint() -> None:
    budget = hints.Budget(seconds=None, nodes=600, samples=3, seed=2)  # reproducible
    visible_only = hints.Budget(samples=0)
    for game, options in [("spider", {"suits": "4"}), ("backbone", {}), ("nivernais", {})]:
        spec = get_game(game, options)
        for deal in (1, 2, 3):
            a = initial_state(spec, deal)
            b = _reshuffle_hidden(spec, a, deal)
            assert a != b and visible(spec, a) == visible(spec, b)
            history = [a]
            a2 = apply(spec, a, legal_moves(spec, a)[0])
            b2 = apply(spec, b, legal_moves(spec, b)[0])
            if visible(spec, a2) == visible(spec, b2):  # the move turned nothing up
                assert suggest(spec, a2, history=history, budget=budget) == suggest(
                    spec, b2, history=[b], budget=budget
                )
            assert suggest(spec, a, budget=budget) == suggest(spec, b, budget=budget)
            # The pre-sampling heuristic alone, too.
            assert suggest(spec, a, budget=visible_only) == suggest(spec, b, budget=visible_only)
            assert winnable(spec, a) == winnable(spec, b) == "unknown"


def test_visible_projection_hides_every_hidden_card() -> None:
    spec = get_game("spider")
    state = initial_state(spec, 4)
    view = visible(spec, state)
    stock = spec.index["stock"]
    assert set(view.piles[stock]) == {HIDDEN}
    for c in spec.indexes_of(PileKind.COLUMN):
        assert view.piles[c][: state.down[c]] == (HIDDEN,) * state.down[c]
        assert view.piles[c][-1] == state.piles[c][-1]


def test_spine_hint_starts_a_win() -> None:
    spec = get_game("spine")
    state = start_position(spec, 11, "solvable")
    assert not has_hidden_cards(spec, state)
    hint = suggest(spec, state, seconds=5)
    assert hint.source == "solver" and hint.winnable is True and hint.move is not None
    assert hint.move in legal_moves(spec, state)
    assert solve(spec, apply(spec, state, hint.move), nodes=50_000).result == "won"
    assert winnable(spec, state, seconds=5) == "won"


def test_lost_position_says_so() -> None:
    spec = get_game("spine")
    state = initial_state(spec, 1)  # random Spine deals are essentially never winnable
    assert solve(spec, state).result == "lost"
    hint = suggest(spec, state)
    assert hint.move is None and hint.winnable is False
    assert "No win is possible" in hint.message and hint.message_ru
    assert winnable(spec, state) == "lost"


def test_unknown_within_the_budget_is_honest() -> None:
    spec = get_game("spider", {"suits": "4"})
    state = initial_state(spec, 1)
    # Everything face up and the stock dealt out is not needed: a zero budget on a
    # full-information Spider position gives "unknown".
    stock = spec.index["stock"]
    piles = list(state.piles)
    piles[spec.index["t1"]] = piles[spec.index["t1"]] + piles[stock]
    piles[stock] = ()
    open_state = State(tuple(piles), (0,) * len(piles), 0)
    assert not has_hidden_cards(spec, open_state)
    hint = suggest(spec, open_state, seconds=0.0)
    assert hint.winnable is None
    assert "No win was found" in hint.message


def test_following_a_solver_hint_needs_no_new_search(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = get_game("spine")
    state = start_position(spec, 12, "solvable")
    first = suggest(spec, state, seconds=5)
    assert first.source == "solver" and first.move is not None

    def no_search(*args: object, **kwargs: object) -> None:
        raise AssertionError("searched again")

    monkeypatch.setattr(exact, "solve", no_search)
    # The whole line is remembered: follow it to the end without a single new search.
    steps = 0
    while not is_won(spec, state):
        hint = suggest(spec, state)
        assert hint.source == "solver" and hint.winnable is True and hint.move is not None
        assert hint.move in legal_moves(spec, state)
        state = apply(spec, state, hint.move)
        steps += 1
    assert steps > 50
    assert winnable(spec, state) == "won"


def test_a_proven_loss_is_remembered(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = get_game("spine")
    state = initial_state(spec, 2)
    assert winnable(spec, state) == "lost"
    monkeypatch.setattr(exact, "solve", lambda *a, **k: pytest.fail("searched again"))
    assert suggest(spec, state).winnable is False
    # Another game's spec never sees this game's memory.
    other = get_game("spine", {"empty": "any"})
    monkeypatch.undo()
    assert LINES.get(other, state) == (False, None)


def test_the_memory_is_bounded() -> None:
    spec = get_game("spine")
    lines = Lines(size=3)
    states = [initial_state(spec, d) for d in range(1, 6)]
    for s in states:
        lines.lost(spec, s)
    assert [lines.get(spec, s)[0] for s in states] == [False, False, True, True, True]
