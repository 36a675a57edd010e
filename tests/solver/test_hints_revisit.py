"""``Budget.revisit`` (issue 34): Spider's tally may play a move back to a position played
before, but never a move it already played out of the same position."""

from __future__ import annotations

from dataclasses import replace

from pasyans.engine.core import apply, initial_state, legal_moves
from pasyans.hints import Budget, suggest
from pasyans.hints.sampling import known
from pasyans.hints.visible import _left_from
from pasyans.position import State
from pasyans.rules import get_game

SPEC = get_game("spider", {"suits": "2"})
BUDGET = Budget(seconds=None, nodes=32000, samples=16)


def _line(deal: int, count: int) -> list[State]:
    """``count`` distinct positions of a deal, each the one before with its first legal
    move that reaches a new position."""
    states = [initial_state(SPEC, deal)]
    while len(states) < count:
        fresh = [apply(SPEC, states[-1], m) for m in legal_moves(SPEC, states[-1])]
        states.append(next(s for s in fresh if s not in states))
    return states


def test_left_from_is_every_position_played_out_of_this_one() -> None:
    a, b, c, d = _line(5, 4)
    # played: a, b, c, a, d; now back at a: the moves out of a went to b and to d
    out = _left_from(SPEC, a, [a, b, c, a, d])
    assert out == {known(SPEC, b), known(SPEC, d)}
    assert _left_from(SPEC, c, [a, b, c, a, d]) == {known(SPEC, a)}
    assert _left_from(SPEC, b, [a]) == set()  # never here before
    assert _left_from(SPEC, a, []) == set()


def _sampled_hint_position() -> tuple[State, State]:
    """A position of deal 1 whose hint comes from the samples and turns no card up (a
    position after a reveal is never one played before), and the position after it."""
    for state in _line(1, 40):
        hint = suggest(SPEC, state, budget=BUDGET)
        if hint.source == "sampled" and hint.move is not None:
            after = apply(SPEC, state, hint.move)
            if after.down == state.down:
                return state, after
    raise AssertionError("no sampled hint along the line")


def test_the_tally_may_go_back_but_not_the_same_way_twice() -> None:
    state, after = _sampled_hint_position()
    best = suggest(SPEC, state, budget=BUDGET).move
    revisit = replace(BUDGET, revisit=True)
    # The game came here from ``after``: the default never goes back there ...
    assert suggest(SPEC, state, history=[after], budget=BUDGET).move != best
    # ... the revisit rule may, as the move was never played out of this position.
    assert suggest(SPEC, state, history=[after], budget=revisit).move == best
    # Once played from here (here, then after, then back here), it is not played again.
    again = suggest(SPEC, state, history=[state, after], budget=revisit)
    assert again.move is not None and again.move != best
