"""Nivernais' forced moves, settled columns and dead positions keep "lost" proven: the
solver agrees with a search that tries every move on many small end games, in every
pass (the final pass is where most of the extra rules apply)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from nivernais_endgames import crossing_endgame
from solver_endgames import endgame, solver_agrees

from pasyans.position import State
from pasyans.rules.spec import GameSpec
from pasyans.solver.knowledge import knowledge_for
from pasyans.solver.search import solve
from pasyans.solver.updown import dead

SCATTERED = [
    (loose, spread, redeals, seed)
    for loose, spread in ((6, 3), (11, 4))
    for redeals in (1, 2)
    for seed in range(1, 16)
]

CROSSING = [
    (loose, cells, stock, redeals, seed)
    for loose, cells, stock, redeals in ((18, 8, 0, 2), (22, 8, 0, 2), (20, 8, 4, 2))
    for seed in range(1, 13)
]


def _check(spec: GameSpec, state: State) -> str:
    return solver_agrees(spec, state)


@pytest.mark.parametrize(("loose", "spread", "redeals", "seed"), SCATTERED)
def test_scattered_end_games_agree_with_exhaustive_search(
    loose: int, spread: int, redeals: int, seed: int
) -> None:
    spec, state = endgame("nivernais", {}, seed, loose, spread)
    _check(spec, replace(state, redeals=redeals))


@pytest.mark.parametrize(("loose", "cells", "stock", "redeals", "seed"), CROSSING)
def test_crossing_end_games_agree_with_exhaustive_search(
    loose: int, cells: int, stock: int, redeals: int, seed: int
) -> None:
    _check(*crossing_endgame(seed, loose, redeals, cells, stock))


def test_crossing_end_games_are_both_won_and_lost_and_dead_fires() -> None:
    """The comparison is only worth something if both answers occur, and if the dead
    position rule actually cuts some of the positions searched."""
    results = set()
    fired = 0
    for loose, cells, stock, redeals, seed in CROSSING:
        spec, state = crossing_endgame(seed, loose, redeals, cells, stock)
        results.add(solve(spec, state, nodes=300_000).result)
        k = knowledge_for(spec)
        fired += dead(spec, state, k.foundations, k.reserves, k.columns)
    assert results == {"won", "lost"}
    assert fired > 0
