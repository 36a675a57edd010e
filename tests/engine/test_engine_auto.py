"""Safe auto-moves never lose a win: on end games of every game with foundations, each
position where an auto-move applies is solved exhaustively before and after it.

The end games are the solver tests' (``tests/solver/solver_endgames.py``): a few cards off
the foundations, scattered over some piles; the walk then plays random legal moves from
them so the positions are not only freshly scattered ones. The exhaustive search tries
every move (no safe-move shortcut of its own), so it is a fair judge.
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import pytest

from pasyans.cards import SplitMix64
from pasyans.engine.auto import follow_ups, safe_move
from pasyans.engine.core import apply, is_won, legal_moves
from pasyans.engine.moves import Move
from pasyans.position import State
from pasyans.rules.spec import GameSpec
from pasyans.solver.search import solve

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "solver"))
from solver_endgames import endgame, exhaustive

GAMES = [
    ("spine", {}, 9),
    ("spine", {"runs": "suit", "empty": "any"}, 7),
    ("backbone-classic", {}, 8),
    ("nivernais", {}, 8),
]
"""Game, options and how many cards are off the foundations in its end games."""


def winnable(spec: GameSpec, state: State) -> bool | None:
    try:
        return exhaustive(spec, state, cap=20_000)
    except RuntimeError:
        return None  # too large to judge: not counted


def last_pass(spec: GameSpec, state: State) -> State:
    return dataclasses.replace(state, redeals=max(0, spec.passes - 1))


def walk(game: str, options: dict[str, str], seed: int, loose: int) -> list[tuple[GameSpec, State]]:
    """Positions of a random walk from an end game where an auto-move applies."""
    spec, state = endgame(game, options, seed, loose=loose, spread=3)
    if seed % 2 and spec.passes > 1:
        state = last_pass(spec, state)  # Nivernais' column rule needs the last pass
    rng = SplitMix64(seed)
    out = []
    for _ in range(10):
        if safe_move(spec, state) is not None:
            out.append((spec, state))
        moves = legal_moves(spec, state)
        if not moves or is_won(spec, state):
            break
        state = apply(spec, state, moves[rng.below(len(moves))])
    return out[:3]


@pytest.mark.parametrize(("game", "options", "loose"), GAMES, ids=[f"{g}-{o}" for g, o, _ in GAMES])
def test_an_auto_move_never_turns_a_won_position_into_a_lost_one(
    game: str, options: dict[str, str], loose: int
) -> None:
    """Judged by an exhaustive search (every move tried) before and after the auto-moves."""
    judged = 0
    for seed in range(1, 31):
        for spec, state in walk(game, options, seed, loose):
            m = safe_move(spec, state)
            assert m is not None and m in legal_moves(spec, state)
            after = state
            for f in follow_ups(spec, state, Move.parse("t1>t2")):
                after = apply(spec, after, f)
            if winnable(spec, state):
                assert winnable(spec, after) is not False, (game, seed, state)
                judged += 1
    assert judged >= 15, f"too few positions judged for {game}: {judged}"


def test_backbone_auto_moves_keep_a_win_by_the_solver() -> None:
    """Backbone lets foundation cards come down, so its end games are too large for the
    exhaustive judge; the solver (sound pruning, a node budget) judges them instead."""
    judged = 0
    for seed in range(1, 9):
        for spec, state in walk("backbone", {}, seed, 6)[:1]:
            after = state
            for f in follow_ups(spec, state, Move.parse("t1>t2")):
                after = apply(spec, after, f)
            if solve(spec, state, nodes=8_000).result == "won":
                assert solve(spec, after, nodes=8_000).result != "lost", (seed, state)
                judged += 1
    assert judged >= 4


def test_follow_ups_play_every_safe_move_in_turn() -> None:
    spec, state = endgame("spine", {}, 3, loose=6, spread=2)
    moves = follow_ups(spec, state, legal_moves(spec, state)[0])
    for m in moves:
        assert m == safe_move(spec, state)
        state = apply(spec, state, m)
    assert safe_move(spec, state) is None
