"""Shorter wins (solver/shorten.py): a found line's detours cut, still a win, never
longer; the hint remembers and follows the short line."""

from __future__ import annotations

import random
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pasyans import hints
from pasyans.analysis import run
from pasyans.domains import spider
from pasyans.domains.built import compiled
from pasyans.engine import core
from pasyans.engine.game import Game
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


def _looped(spec: GameSpec, state: State, moves: tuple[Move, ...]) -> list[Move]:
    """``moves`` with a unit moved away and back at each of its first positions where one
    can be: loops the shortening must cut."""
    out: list[Move] = []
    for m in moves:
        for k in core.legal_moves(spec, state):
            after = core.apply(spec, state, k)
            back = [b for b in core.legal_moves(spec, after)
                    if core.apply(spec, after, b) == state]  # fmt: skip
            if back and not k.is_stock:
                out += [k, back[0]]
                break
        out.append(m)
        state = core.apply(spec, state, m)
    return out


@pytest.mark.skipif(compiled is None, reason="the compiled core is not built")
@pytest.mark.parametrize(("suits", "deal"), [("1", 3), ("2", 5), ("4", 4), ("4", 5)])
def test_the_compiled_spider_graph_gives_the_engines_shortest_length(suits: str, deal: int) -> None:
    """Spider's compiled graph (spider_shortest) against the engine's, the reference: the
    same fewest moves, on the staged search's line and on that line with loops put in,
    each a win."""
    from pasyans.solver.shorten import _engine_graph, _shortest, _spider_shortest

    spec = get_game("spider", {"suits": suits})
    state = core.initial_state(spec, deal)
    r = solve(spec, state, nodes=300_000)
    assert r.result == "won"
    looped = tuple(_looped(spec, state, r.moves))
    assert len(looped) > len(r.moves)
    lengths = []
    for moves in (r.moves, looped):
        reference = _shortest(moves, *_engine_graph(spec, state, moves))
        fast = _spider_shortest(spec, state, moves, None)
        assert len(fast) == len(reference) <= len(moves)
        assert core.is_won(spec, _end(spec, state, fast))
        lengths.append(len(fast))
        late = _spider_shortest(spec, state, moves, time.perf_counter() - 1.0)
        assert len(late) == len(_shortest(moves, *_engine_graph(spec, state, moves, 0.0)))
        assert core.is_won(spec, _end(spec, state, late))
    assert lengths[1] <= lengths[0]  # every loop cut (the looped line has more positions)


@pytest.mark.skipif(compiled is None, reason="the compiled core is not built")
@settings(max_examples=20, deadline=None)
@given(suits=st.sampled_from(["1", "2", "4"]), deal=st.integers(1, 10**6), seed=st.integers(0, 999))
def test_the_compiled_spider_shortening_agrees_with_the_reference_along_random_walks(
    suits: str, deal: int, seed: int
) -> None:
    """Any line, not only a win: a random walk of 120 moves (one in four followed by a
    move back where there is one) is cut by both graphs to the same fewest moves and the
    same end position."""
    from pasyans.solver.shorten import _engine_graph, _shortest, _spider_shortest

    spec = get_game("spider", {"suits": suits})
    rng = random.Random(seed)
    start = state = core.initial_state(spec, deal)
    walk: list[Move] = []
    while len(walk) < 120:
        legal = core.legal_moves(spec, state)
        if not legal:
            break
        m = rng.choice(legal)
        walk.append(m)
        state = core.apply(spec, state, m)
        undo = None if m.is_stock else Move(m.dst or "", m.src, m.cards)
        back = [b for b in core.legal_moves(spec, state) if b == undo]
        if back and rng.random() < 0.25:
            walk.append(back[0])
            state = core.apply(spec, state, back[0])
    reference = _shortest(walk, *_engine_graph(spec, start, walk))
    fast = _spider_shortest(spec, start, walk, None)
    assert len(fast) == len(reference) <= len(walk)
    end = spider.SpiderGame(spec, state).root[:4]
    assert spider.SpiderGame(spec, _end(spec, start, fast)).root[:4] == end


@pytest.mark.skipif(compiled is None, reason="the compiled core is not built")
def test_the_compiled_spider_shortening_refuses_a_line_with_an_illegal_step() -> None:
    spec, state, moves = _won_line("spider", 5)
    from pasyans.solver.shorten import _spider_shortest, _spider_steps

    game = spider.SpiderGame(spec, state)
    steps = _spider_steps(game, moves)
    assert steps is not None
    steps[3] = (0, 0, 1)  # a unit onto its own column
    with pytest.raises(ValueError, match="step 3 is not a legal move"):
        compiled.spider_shortest(game.stock, game.root, steps, 0.0)
    # A move the packed rules do not name (not column to column, nor the deal) is left to
    # the engine's graph.
    assert _spider_shortest(spec, state, [*moves[:3], Move("done", moves[3].src)], None) is None


def test_past_its_deadline_the_line_is_cut_only_where_the_graph_was_built() -> None:
    """A deadline already passed: no position's own moves are tried, so the line keeps
    its detours (only a position it comes back to is skipped), still a win and never
    longer; a far deadline gives the full shortening."""
    spec, state, moves = _won_line("spider", 5)
    full = shortened(spec, state, moves)
    late = shortened(spec, state, moves, deadline=time.perf_counter() - 1.0)
    assert core.is_won(spec, _end(spec, state, late))
    assert len(full) < len(late) <= len(moves)
    assert shortened(spec, state, moves, deadline=time.perf_counter() + 600.0) == full


def test_the_ways_shortening_stops_at_the_analysiss_end_or_a_second_past_it() -> None:
    """:func:`run.way_deadline`: the analysis's end less the line's tail when it is
    ahead, else :data:`run.WAY_SECONDS` from now."""
    now = time.perf_counter()
    assert run.way_deadline(now + 100.0, 0) == now + 100.0
    assert run.way_deadline(now + 100.0, 100_000) == now + 100.0 - 100_000 * run.WAY_TAIL
    late = run.way_deadline(now - 100.0, 10)
    assert now + run.WAY_SECONDS <= late <= time.perf_counter() + run.WAY_SECONDS


def test_the_analysis_shortens_its_way_within_a_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    """The analysis hands the winning line's shortening a deadline (``way_deadline`` of
    its end), so a long line cannot hold it past its total."""
    deadlines: list[float | None] = []

    def spy(
        spec: GameSpec, s: State, ms: tuple[Move, ...], deadline: float | None = None
    ) -> tuple[Move, ...]:
        deadlines.append(deadline)
        return shortened(spec, s, ms, deadline)

    monkeypatch.setattr(run, "shortened", spy)
    begun = time.perf_counter()
    a = run.analyse(Game("spider", 5), run.Limits(seconds=5.0, search_total=10.0, total=10.0))
    assert a.way_from == 0 and a.way
    assert len(deadlines) == 1 and deadlines[0] is not None
    assert deadlines[0] <= begun + 10.0 + run.WAY_SECONDS
