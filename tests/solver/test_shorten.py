"""Shorter wins (solver/shorten.py): a found line's detours cut, still a win, never
longer; the hint remembers and follows the short line."""

from __future__ import annotations

from pasyans import hints
from pasyans.engine import core
from pasyans.engine.moves import Move
from pasyans.position import State
from pasyans.rules import get_game
from pasyans.rules.spec import GameSpec
from pasyans.solver.search import solve
from pasyans.solver.shorten import shortened


def _end(spec: GameSpec, state: State, moves: tuple[Move, ...] | list[Move]) -> State:
    for m in moves:
        assert m in core.legal_moves(spec, state)
        state = core.apply(spec, state, m)
    return state


def _won_line(game: str, deal: int) -> tuple[GameSpec, State, tuple[Move, ...]]:
    spec = get_game(game, {})
    state = core.initial_state(spec, deal)
    r = solve(spec, state, nodes=200_000)
    assert r.result == "won"
    return spec, state, r.moves


def test_a_searched_line_with_detours_gets_shorter_and_stays_a_win() -> None:
    spec, state, moves = _won_line("spider", 5)
    short = shortened(spec, state, moves)
    assert len(short) < len(moves)  # the staged search's line of this deal has detours
    assert core.is_won(spec, _end(spec, state, short))
    assert len(shortened(spec, state, short)) == len(short)  # already the shortest


def test_a_loop_put_into_a_line_is_cut_again() -> None:
    spec, state, moves = _won_line("backbone", 1)
    best = shortened(spec, state, moves)
    assert core.is_won(spec, _end(spec, state, best))
    # A card moved away and back somewhere along the line: a loop.
    positions = [state]
    for m in moves:
        positions.append(core.apply(spec, positions[-1], m))
    looped = None
    for k in range(len(moves)):
        for m in core.legal_moves(spec, positions[k]):
            after = core.apply(spec, positions[k], m)
            back = [b for b in core.legal_moves(spec, after)
                    if core.apply(spec, after, b) == positions[k]]  # fmt: skip
            if back:
                looped = [*moves[:k], m, back[0], *moves[k:]]
                break
        if looped:
            break
    assert looped is not None
    assert len(shortened(spec, state, looped)) == len(best)


def test_the_hint_remembers_the_short_line_and_follows_it_to_the_win() -> None:
    spec, state, moves = _won_line("spider", 5)
    hints.LINES.clear()
    kept = hints.LINES.won(spec, state, moves)
    assert kept == shortened(spec, state, moves)
    followed = 0
    while not core.is_won(spec, state):
        known, move = hints.LINES.get(spec, state)
        assert known and move is not None
        state = core.apply(spec, state, move)
        followed += 1
    assert followed == len(kept) < len(moves)
    hints.LINES.clear()


def test_the_compiled_graph_gives_the_engines_short_line() -> None:
    # Backbone and classic build the line's graph in the compiled core (engine_moves,
    # engine_play); the engine's graph is the reference: the same moves, the same line.
    from pasyans.solver.shorten import _engine_graph, _packed_graph, _shortest

    for game, deal in (("backbone", 1), ("backbone-classic", 2), ("backbone", 28)):
        spec, state, moves = _won_line(game, deal)
        engine = _engine_graph(spec, state, moves)
        compiled = _packed_graph(spec, state, moves)
        assert [[m for m, _ in row] for row in compiled[1]] == [
            [m for m, _ in row] for row in engine[1]
        ]
        short = shortened(spec, state, moves)
        assert short == _shortest(moves, *engine)
        assert core.is_won(spec, _end(spec, state, short))
