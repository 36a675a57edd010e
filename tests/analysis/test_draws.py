"""Draws as moves (``PackedDomain.restarting``'s ``compress``, "Draws as moves" in
csrc/engine.c): a run of stock clicks and the waste move it leads to is one move of the
search. Checked against the same search with every click a move of its own (one
depth-first dive each, so both exhaust what they cannot win), on Backbone end games with
cards in the stock and the waste, before the redeal and after it, and on positions of the
simple player's games that ended lost: the same outcome, a won line replays to a win, and
fewer positions in all. A draw's child hash, updated from its parent's as the search
does it, is the one from scratch."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

from pasyans.analysis import line_of
from pasyans.analysis.outcomes import restarts
from pasyans.analysis.simple import simple_game
from pasyans.domains import _core
from pasyans.domains.packed import PackedDomain, pack
from pasyans.engine.core import is_won
from pasyans.engine.moves import Move
from pasyans.position import State
from pasyans.rules import get_game
from pasyans.rules.spec import GameSpec
from pasyans.solver.search import replay

sys.path.insert(0, str(Path(__file__).parents[1] / "solver"))
from solver_endgames import endgame

NODES = 400_000  # a search's positions at most; a case is kept where both decide


def draws_search(spec: GameSpec, state: State, compress: bool) -> tuple[str, tuple[Move, ...], int]:
    return restarts(PackedDomain(spec, state), NODES, prove=True, compress=compress)


def cases() -> list[tuple[GameSpec, State]]:
    """End games with a stock, each before and after the redeal; positions of games."""
    out = []
    for seed in range(1, 31):
        spec, state = endgame("backbone", {}, seed, 8, 4)
        if state.piles[spec.index["stock"]]:
            out += [(spec, dataclasses.replace(state, redeals=r)) for r in (0, 1)]
    spec = get_game("backbone")
    for deal in (2, 3, 5):  # games that ended lost: their last positions, and earlier ones
        states, _ = line_of(simple_game("backbone", deal, cap=1000))
        out += [(spec, s) for s in states[-2:-40:-6] + states[::-60]]
        # the last position again with its redeal given back
        out.append((spec, dataclasses.replace(states[-1], redeals=0)))
    return out


def test_draws_answer_as_every_click_does() -> None:
    seen = set()
    plain_nodes = draws_nodes = 0
    for spec, state in cases():
        outcome, line, used = draws_search(spec, state, True)
        plain, _, plain_used = draws_search(spec, state, False)
        if "unknown" in (outcome, plain):
            continue
        assert outcome == plain, state
        if outcome == "won":
            assert is_won(spec, replay(spec, state, line))
        plain_nodes += plain_used
        draws_nodes += used
        stock, waste = (bool(state.piles[spec.index[p]]) for p in ("stock", "waste"))
        seen.add((outcome, state.redeals, waste and (stock or state.redeals == 0)))
    # wins before the redeal (their lines draw through it: the last positions of lost
    # games with the redeal given back) and after it, and losses after it, each with a
    # waste and clicks to make
    assert {("won", 0, True), ("won", 1, True), ("lost", 1, True)} <= seen, seen
    assert draws_nodes < plain_nodes


def test_a_draws_hash_is_the_one_from_scratch() -> None:
    """The search hashes a draw's child from its parent's (the stock, the waste and the
    move's place change), or from scratch where the clicks pass the redeal; both give
    the hash of the position the draw leads to, on every case's draws."""
    draws = crossing = 0
    for spec, state in cases():
        pos = pack(state)
        d = PackedDomain(spec, state)
        stock = len(state.piles[spec.index["stock"]])
        for code, updated, scratch in _core.engine_draw_hashes(d.core, pos):
            assert updated == scratch, (state, code)
            draws += 1
            crossing += code >> 24 > stock
    assert draws > 500 and crossing > 0
