"""A reveal valued one level deeper (``Budget.deeper``, issue 34,
``pasyans.hints.deeper``): the K best moves of the tally valued by the best next move's
share after each card that can come up; only the player's view is read."""

from __future__ import annotations

import importlib
from collections import Counter
from collections.abc import Callable, Collection
from dataclasses import replace

import pytest
from hidden_cards import first_difference

from pasyans.engine.core import apply, initial_state, legal_moves
from pasyans.engine.moves import Move
from pasyans.hints import Budget, deeper, sampling
from pasyans.hints.sampling import known
from pasyans.position import State
from pasyans.rules import get_game
from pasyans.rules.spec import GameSpec

sampled_module = importlib.import_module(
    "pasyans.hints.sampled"
)  # (the package exports a function of that name)
SPEC = get_game("spider", {"suits": "1"})
BASE = Budget(seconds=None, nodes=4000, samples=16, unstick=10)
DEEPER = Budget(seconds=None, nodes=4000, samples=16, unstick=10, deeper=3)


def _changed() -> tuple[State, Move, Move, list[State]]:
    """The first position of deal 2 (followed with the product's 1-suit hint) where the
    deeper hint differs from it: the position, both moves and the history."""
    return first_difference(SPEC, BASE, DEEPER)


def test_outcomes_weigh_the_unseen_cards_and_are_capped() -> None:
    view = known(SPEC, initial_state(SPEC, 3))
    cards = deeper.outcomes(SPEC, view)
    assert len(cards) == deeper.CAP  # 13 ranks unseen: stratified
    assert abs(sum(w for _, w in cards) - 1) < 1e-9
    assert [c for c, _ in cards] == sorted(c for c, _ in cards)
    unseen = set(sampling.unseen(SPEC, view))
    assert {c for c, _ in cards} <= unseen
    few = deeper.outcomes(SPEC, view, cap=20)
    assert len(few) == 13 and abs(sum(w for _, w in few) - 1) < 1e-9
    # Each card weighs its share of the unseen cards (the face-up ones are not among them).
    counts = Counter(sampling.unseen(SPEC, view))
    total = sum(counts.values())
    assert all(abs(w - counts[c] / total) < 1e-9 for c, w in few)


def test_every_one_of_the_k_moves_is_valued_and_the_best_played() -> None:
    state, _, _, _ = _changed()
    view = known(SPEC, state)
    # A constructed tally: the guard's move (a reveal) first, a move that turns nothing
    # up behind it.
    moves = [m for m in legal_moves(SPEC, view) if m.dst is not None]
    turning = [m for m in moves if sampling.revealed(SPEC, view, m) is not None]
    others = [m for m in moves if sampling.revealed(SPEC, view, m) is None]
    assert turning and others
    first, second = turning[0], others[0]
    t = sampling.Tally(16, 0, 0, ((first, 10),), ((first, 10), (second, 9)))
    seen: list[State] = []
    after_second = apply(SPEC, view, second)

    def inner(v: State) -> float:
        seen.append(v)
        return 0.9 if v == after_second else 0.5

    move, values = deeper.choose(SPEC, view, t, first, 3, inner)
    assert [v.move for v in values] == [first, second]
    assert move == second  # the tally's second, valued higher one level deeper
    slot = sampling.revealed(SPEC, view, first)
    assert slot is not None
    cards = dict(values[0].cards)
    assert abs(values[0].value - 0.5) < 1e-9 and abs(sum(cards.values()) - 1) < 1e-9
    turned = [v for v in seen if v != after_second]
    assert len(turned) == len(cards)
    assert sorted(v.piles[slot[0]][slot[1]] for v in turned) == sorted(cards)
    # Decisive (won in every sample): unchanged, nothing valued.
    sure = sampling.Tally(16, 0, 0, ((first, 16),), ((first, 16), (second, 9)))
    assert deeper.choose(SPEC, view, sure, first, 3, inner) == (first, ())
    # No move among the K turns a card up: unchanged.
    plain = sampling.Tally(16, 0, 0, ((second, 10),), ((second, 10),))
    assert deeper.choose(SPEC, view, plain, second, 3, inner) == (second, ())
    # The hint's time spent after the second value: those two compared.
    clock = iter([True, False])
    move, values = deeper.choose(SPEC, view, t, first, 3, inner, in_time=lambda: next(clock))
    assert move == second and [v.move for v in values] == [first, second]
    # Spent already: the first is valued (the caller checked the time), no other, and
    # the tally's move stands.
    move, values = deeper.choose(SPEC, view, t, first, 3, inner, in_time=lambda: False)
    assert move == first and [v.move for v in values] == [first]


def test_the_budget_sets_the_inner_samples_the_cards_valued_and_the_clock(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``Budget.deeper_samples`` and ``deeper_cap`` reach the inner tallies and
    :func:`deeper.choose` (0: the module's defaults), and so does the hint's clock."""
    view = known(SPEC, initial_state(SPEC, 3))
    move = next(m for m in legal_moves(SPEC, view) if m.dst is not None)
    t = sampling.Tally(16, 0, 0, ((move, 10),), ((move, 10),))
    calls: list[tuple[int, bool]] = []
    inner_samples: list[int] = []

    def choose(
        spec: GameSpec,
        v: State,
        tally: sampling.Tally,
        m: Move,
        width: int,
        inner: Callable[[State], float],
        avoid: Collection[State] = (),
        cap: int = 0,
        in_time: Callable[[], bool] = lambda: True,
    ) -> tuple[Move, tuple[deeper.Valued, ...]]:
        calls.append((cap, in_time()))
        inner(apply(spec, v, m))  # hidden cards remain: one inner tally
        return m, ()

    def spy(spec: GameSpec, v: State, budget: Budget) -> sampling.Tally:
        inner_samples.append(budget.samples)
        return sampling.Tally(budget.samples, 0, 0, (), ())

    monkeypatch.setattr(sampled_module.deeper, "choose", choose)
    monkeypatch.setattr(sampled_module, "sampled", spy)
    sampled_module._deeper(SPEC, view, t, move, DEEPER, ())
    custom = replace(DEEPER, deeper_samples=4, deeper_cap=9)
    sampled_module._deeper(SPEC, view, t, move, custom, (), in_time=lambda: False)
    assert calls == [(deeper.CAP, True), (9, False)]
    assert inner_samples == [deeper.INNER, 4]


def test_the_contenders_are_the_tallys_move_then_its_ranked_best() -> None:
    """:func:`deeper.choose`'s preamble."""
    view = known(SPEC, initial_state(SPEC, 3))
    legal = legal_moves(SPEC, view)
    a, b, c = [m for m in legal if m.dst is not None][:3]
    stock = next(m for m in legal if m.dst is None)
    t = sampling.Tally(16, 0, 0, ((a, 10),), ((a, 10), (b, 12), (c, 5), (stock, 14)))
    # The tally's move first, then most samples won; the stock's deal left out.
    assert deeper.contenders(SPEC, view, t, a, 3) == [a, b, c]
    assert deeper.contenders(SPEC, view, t, c, 3) == [c, b, a]
    assert deeper.contenders(SPEC, view, t, a, 2) == [a, b]
    assert deeper.contenders(SPEC, view, t, a, 3, avoid={apply(SPEC, view, b)}) == [a, c]
    # The tally's move stands: none, the stock, or won in every sample.
    assert deeper.contenders(SPEC, view, t, None, 3) is None
    assert deeper.contenders(SPEC, view, t, stock, 3) is None
    sure = sampling.Tally(16, 0, 0, ((a, 16),), ((a, 16), (b, 12)))
    assert deeper.contenders(SPEC, view, sure, a, 3) is None
