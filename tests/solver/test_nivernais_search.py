"""Nivernais' forced moves, settled columns and dead positions keep "lost" proven: the
solver agrees with a search that tries every move on many small end games, in every
pass (the final pass is where most of the extra rules apply)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from nivernais_endgames import crossing_endgame, locked_endgame, playout
from solver_endgames import endgame, exhaustive, solver_agrees

from pasyans.domains import nivernais as nv
from pasyans.domains.knowledge import knowledge_for
from pasyans.domains.updown import dead
from pasyans.engine.core import is_won
from pasyans.position import State
from pasyans.rules.spec import GameSpec
from pasyans.solver.search import replay, solve

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


CAPPED = [(18, 0, redeals, seed) for redeals in (1, 2) for seed in range(1, 9)]


def test_capped_final_passes_keep_lost_exhaustive() -> None:
    """The cap on each final pass (``nivernais.best_first(cap=…)``) only defers positions:
    end games entering the final pass by a redeal (many final passes, one per way of
    gathering) or starting in it (one final pass, deferred again and again) get the
    exhaustive search's answer at caps 1 and 3, and the cap changes what is searched
    (else the comparison would test nothing)."""
    results = set()
    reordered = 0
    for loose, stock, redeals, seed in CAPPED:
        spec, state = crossing_endgame(seed, loose, redeals, 8, stock)
        truth = "won" if exhaustive(spec, state) else "lost"
        root = nv.pack(spec, state)
        _, _, plain = nv.best_first(root, None, None, nv.WEIGHTS[0])
        for cap in (1, 3):
            outcome, line, used = nv.best_first(root, None, None, nv.WEIGHTS[0], cap)
            assert outcome == truth
            if outcome == "won":
                assert nv.is_won(line[-1])
                assert is_won(spec, replay(spec, state, nv.engine_line(spec, state, line)))
            reordered += used != plain
        results.add((truth, redeals))
    assert results == {("won", 1), ("won", 2), ("lost", 2)}
    assert reordered > 0


# End games one redeal from the final pass (so many final passes), lost and won.
MEMO_GAMES = [(26, 0, 3), (26, 4, 3), (34, 0, 2), (34, 4, 2), (40, 0, 1), (40, 0, 2)] + [
    (18, 0, seed) for seed in range(1, 5)
]


@pytest.mark.parametrize("use_compiled", [False, True])
def test_memo_of_final_passes_keeps_answers_sound(use_compiled: bool) -> None:
    """Searches sharing a memo of explored final passes (``best_first(memo=…)``, as the
    portfolio runs them) on end games entering the final pass by a redeal: a win is a
    real win (replayed through the engine), "lost" only where the exhaustive search finds
    none, and a later search that skipped final passes never says "lost" (those passes
    were not proven lost by it); some do skip."""
    skipping = won = 0
    for loose, stock, seed in MEMO_GAMES:
        spec, state = crossing_endgame(seed, loose, 1, 8, stock)
        truth = "won" if exhaustive(spec, state) else "lost"
        root = nv.pack(spec, state)
        memo: set[object] = set()
        for i, w in enumerate(nv.WEIGHTS[:4]):
            had = len(memo)
            outcome, line, _ = nv.best_first(
                root, None, None, w, 1, use_compiled=use_compiled, memo=memo
            )
            assert outcome in (truth, "unknown")
            won += outcome == "won"
            if outcome == "won":
                assert is_won(spec, replay(spec, state, nv.engine_line(spec, state, line)))
            if i == 0:
                assert outcome == truth  # nothing to skip yet: exhaustive
            elif had and truth == "lost":
                assert outcome == "unknown"
                skipping += 1
    assert skipping > 0
    assert won > 0


def test_budget_the_memo_leaves_proves_losses(monkeypatch: pytest.MonkeyPatch) -> None:
    """The portfolio with the memo: when the first search's share is too small to prove a
    loss and the later ones run dry on final passes the memo holds, the budget they left
    goes to the first score again without the memo, which proves the loss."""
    proven = 0
    for loose, stock, seed in MEMO_GAMES:
        spec, state = crossing_endgame(seed, loose, 1, 8, stock)
        if exhaustive(spec, state):
            continue
        root = nv.pack(spec, state)
        _, _, need = nv.best_first(root, None, None, nv.WEIGHTS[0], nv.CAP)
        if need < 4:
            continue
        budget = len(nv.WEIGHTS) * (need - 1)  # the first share stops one short
        assert nv.best_first(root, need - 1, None, nv.WEIGHTS[0], nv.CAP)[0] == "unknown"
        outcome, _, used = nv.portfolio(root, budget, None, 0.0)
        assert outcome in ("lost", "unknown") and used <= budget
        proven += outcome == "lost"
    assert proven > 0


LOCKED = [(18 + seed % 8, 4 * (seed % 3), seed) for seed in range(1, 41)]


def test_cell_lock_fires_only_on_lost_positions() -> None:
    """``nivernais.locked`` against the exhaustive search: on final-pass end games with the
    eight cells full (stock empty or not) and along play-outs from them, every position it
    calls lost has no win; it fires on some, and some positions with the cells full are
    won (so the test could fail both ways)."""
    fired = won_full = 0
    for loose, stock, seed in LOCKED:
        spec, state = locked_endgame(seed, loose, stock)
        for s in playout(spec, state, seed, 12)[::2]:
            pos = nv.pack(spec, s)
            if len(pos[1]) < nv.CELLS:
                continue
            if nv.locked(pos):
                fired += 1
                assert not exhaustive(spec, s)
            elif won_full < 3 and exhaustive(spec, s):
                won_full += 1
    assert fired >= 5
    assert won_full > 0


@pytest.mark.parametrize(("loose", "stock", "seed"), LOCKED[::2])
def test_cell_locked_end_games_agree_with_exhaustive_search(
    loose: int, stock: int, seed: int
) -> None:
    """The whole search with the cell lock (``nivernais.LOCK_TEST``) on these end games."""
    _check(*locked_endgame(seed, loose, stock))


def test_a_search_that_knows_every_final_pass_goes_on() -> None:
    """``best_first(more=…)``: stopped by its own budget with no position before the final
    pass left in the queue, a search goes on to ``more`` and answers as the exhaustive
    search; compiled and Python alike (outcome, count, line); stopped while positions
    before the final pass are still queued, it stops as before."""
    went_on = stopped = 0
    for loose, stock, seed in MEMO_GAMES:
        spec, state = crossing_endgame(seed, loose, 1, 8, stock)
        root = nv.pack(spec, state)
        full = nv.best_first(root, None, None, nv.WEIGHTS[0], 2)
        if full[2] < 4:
            continue
        truth = "won" if exhaustive(spec, state) else "lost"
        assert full[0] == truth
        for small in (1, full[2] // 2):
            runs = [
                nv.best_first(
                    root, small, None, nv.WEIGHTS[0], 2, use_compiled=c, more=(full[2], None)
                )
                for c in (False, True)
            ]
            a, b = runs
            assert (a[0], a[2]) == (b[0], b[2])
            assert [nv.key(p) for p in a[1]] == [nv.key(p) for p in b[1]]
            if a[0] == "unknown":
                assert a[2] == small  # positions before the final pass were left
                stopped += 1
            else:
                assert a[0] == truth and a[2] == full[2] > small
                went_on += 1
    assert went_on > 0 and stopped > 0
