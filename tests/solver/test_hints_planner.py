"""The visible planner of the Spider hint (``sampling.lookahead``): it reads only the
cards the player sees, never goes back to a position already played, and deals the stock
when no line of face-up moves improves the position."""

from __future__ import annotations

from pasyans import caches
from pasyans.cards import SplitMix64
from pasyans.engine.core import apply, initial_state, legal_moves
from pasyans.hints import Budget, sampling, suggest
from pasyans.hints.sampling import known, lookahead, samples, spider_score, visible
from pasyans.hints.visible import _planned
from pasyans.position import State
from pasyans.rules import get_game
from pasyans.rules.spec import GameSpec


def _spec(suits: int) -> GameSpec:
    spec = get_game("spider", {"suits": str(suits)})
    assert isinstance(spec, GameSpec)
    return spec


def test_turning_a_card_up_and_building_in_suit_score_better() -> None:
    spec = _spec(1)
    view = visible(spec, initial_state(spec, 2))
    now = spider_score(spec, view)
    reveal = [
        m for m in legal_moves(spec, view) if m.dst is not None and sampling.reveals(spec, view, m)
    ]
    assert reveal
    for m in reveal:
        assert spider_score(spec, apply(spec, view, m)) < now
    move = lookahead(spec, view)
    assert move is not None and move.dst is not None
    assert spider_score(spec, apply(spec, view, move)) < now or move in reveal


def test_the_planner_reads_only_the_view_and_avoids_seen_positions() -> None:
    spec = _spec(2)
    state = initial_state(spec, 5)
    view = visible(spec, state)
    other = samples(spec, known(spec, state), 1, seed=3)[0]
    assert other != state and visible(spec, other) == view
    move = lookahead(spec, view)
    assert move == lookahead(spec, visible(spec, other)) and move is not None
    # Forbid where each improving first move leads: another move, or none at all.
    avoid: set[State] = set()
    while move is not None:
        avoid.add(apply(spec, view, move))
        move = lookahead(spec, view, avoid=avoid)
        assert move is None or apply(spec, view, move) not in avoid


def test_no_improving_line_deals_the_stock() -> None:
    spec = _spec(4)
    state = initial_state(spec, 8)
    view = visible(spec, state)
    every = {apply(spec, view, m) for m in legal_moves(spec, view) if m.dst is not None}
    assert lookahead(spec, view, avoid=every) is None
    hint = _planned(spec, view, list(every))
    assert hint is not None and hint.move is not None and hint.move.dst is None


def test_the_planned_hint_is_the_same_for_the_same_view() -> None:
    budget = Budget(seconds=None, nodes=400, samples=4, plan=True)
    for suits in (2, 4):
        spec = _spec(suits)
        state = initial_state(spec, 11)
        rng = SplitMix64(suits)
        history: list[State] = []
        for _ in range(12):  # a few random moves, then the hint on two arrangements
            moves = [m for m in legal_moves(spec, state) if m.dst is not None] or legal_moves(
                spec, state
            )
            history.append(state)
            state = apply(spec, state, moves[rng.below(len(moves))])
        other = samples(spec, known(spec, state), 1, seed=7)[0]
        answers = []
        for s in (state, other):
            caches.clear()
            answers.append(suggest(spec, s, history=history, budget=budget))
        assert answers[0] == answers[1] and answers[0].move is not None
