"""The guard's passed-over candidates (``Budget.forward``, ``hints.sampled._forward``):
when the best-scored candidates go back to positions played, the other moves that go
somewhere new are scored, and the hint reads no hidden card."""

from __future__ import annotations

import importlib

import pytest
from hidden_cards import same_hint

from pasyans.engine.core import apply, initial_state, legal_moves
from pasyans.hints import Budget, sampling
from pasyans.hints.model import Clock
from pasyans.hints.sampling import Tally, known
from pasyans.rules import get_game

sampled = importlib.import_module("pasyans.hints.sampled")  # (hints.sampled is a function)
SPEC = get_game("spider", {"suits": "1"})
BUDGET = Budget(seconds=None, nodes=4 * 40_000, samples=4, forward=True)


def _position() -> tuple[object, list]:
    state = initial_state(SPEC, 5)
    for _ in range(3):
        state = apply(SPEC, state, legal_moves(SPEC, state)[0])
    view = known(SPEC, state)
    return view, legal_moves(SPEC, view)


def test_a_move_passed_over_for_going_back_is_replaced_by_a_new_one_won_in_more_samples() -> None:
    view, moves = _position()
    back, low = moves[0], moves[1]
    avoid = {apply(SPEC, view, back)}
    t = Tally(4, 0, 0, ((back, 4),), ((back, 4), (low, 0)))
    move = sampled._forward(SPEC, view, t, low, BUDGET, avoid, Clock.start(None))
    assert move is not None and move not in (back, low)
    assert apply(SPEC, view, move) not in avoid
    states = sampling.samples(SPEC, view, BUDGET.samples, BUDGET.seed)
    _, nodes = BUDGET.share()
    wins = sum(
        sampled._search(SPEC, apply(SPEC, s, move), None, nodes, 3)[0] == "won" for s in states
    )
    assert wins > 0  # it beat the passed-over move's score of 0


def test_nothing_is_searched_when_the_guards_move_is_the_best_scored(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    view, moves = _position()

    def no_search(*args: object) -> None:
        raise AssertionError("searched")

    monkeypatch.setattr(sampled, "_search", no_search)
    t = Tally(4, 0, 0, ((moves[0], 4),), ((moves[0], 3), (moves[1], 3)))
    clock = Clock.start(None)
    assert sampled._forward(SPEC, view, t, moves[1], BUDGET, set(), clock) == moves[1]
    assert sampled._forward(SPEC, view, t, None, BUDGET, set(), clock) is None
    assert (
        sampled._forward(SPEC, view, Tally(4, 0, 0, ()), moves[1], BUDGET, set(), clock)
        == (moves[1])
    )


def test_a_spent_clock_keeps_the_guards_move() -> None:
    view, moves = _position()
    t = Tally(4, 0, 0, ((moves[0], 4),), ((moves[0], 4), (moves[1], 0)))
    spent = Clock(0.0)
    avoid = {apply(SPEC, view, moves[0])}
    assert sampled._forward(SPEC, view, t, moves[1], BUDGET, avoid, spent) == moves[1]


def test_the_hint_with_forward_reads_no_hidden_card() -> None:
    state = initial_state(SPEC, 7)
    history = [state]
    for _ in range(4):
        state = apply(SPEC, state, legal_moves(SPEC, state)[0])
        history.append(state)
    same_hint(SPEC, state, 11, BUDGET, history[:-1])
