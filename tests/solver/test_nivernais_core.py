"""Nivernais' compiled core (``csrc/nivernais.c``) against the engine and against the Python
reference (``domains/nivernais.py``): the same legal moves and resulting positions along
random play-outs of real deals and end games, and the same searches."""

from __future__ import annotations

import pytest
from nivernais_endgames import crossing_endgame, locked_endgame, playout

from pasyans.domains import _core as core
from pasyans.domains import nivernais as nv
from pasyans.engine.core import apply, initial_state, is_won, legal_moves
from pasyans.position import State
from pasyans.rules import get_game
from pasyans.rules.spec import GameSpec
from pasyans.solver.search import replay, solve


def _positions() -> list[tuple[GameSpec, State]]:
    spec = get_game("nivernais")
    out = []
    for deal in range(1, 13):
        out += [(spec, s) for s in playout(spec, initial_state(spec, 7000 + deal), deal, 400)]
    for seed in range(1, 60):
        spec, state = crossing_endgame(seed, 16 + seed % 8, seed % 3, 8, 4 * (seed % 4))
        out += [(spec, s) for s in playout(spec, state, seed, 50)]
    for seed in range(1, 21):
        spec, state = locked_endgame(seed, 18 + seed % 8, 4 * (seed % 3))
        out += [(spec, s) for s in playout(spec, state, seed, 12)]
    return out


def test_compiled_moves_are_the_engines() -> None:
    """Same legal move set (as resulting positions, exactly) as the engine at every position
    of the play-outs, the Python order kept, and the same forced move and score."""
    passes = set()
    forced = fired = locks = 0
    for spec, state in _positions():
        pos = nv.pack(spec, state)
        mine = core.nivernais_children(pos)
        engine = {nv.pack(spec, apply(spec, state, m)) for m in legal_moves(spec, state)}
        # The engine's positions exactly (columns in place, cells sorted), not only keys.
        assert set(mine) == engine
        assert mine == nv.children(pos)
        f = core.nivernais_forced(pos)
        assert f == nv.forced(pos)
        forced += f is not None
        d = core.nivernais_dead(pos)
        assert d == nv.dead(pos)
        fired += d
        lock = core.nivernais_locked(pos)
        assert lock == nv.locked(pos)
        locks += lock
        for w in nv.WEIGHTS:
            assert core.nivernais_score(pos, w) == nv.score(pos, w)
        passes.add((state.redeals, bool(pos[4])))
    assert forced > 0 and fired > 0 and locks > 0
    assert {(0, True), (1, True), (2, True), (2, False)} <= passes


def test_compiled_key_groups_as_the_python_key() -> None:
    spec = get_game("nivernais")
    seen: dict[object, bytes] = {}
    settled = 0
    for spec, state in _positions()[::3]:
        pos = nv.pack(spec, state)
        shuffled = (pos[0][::-1], *pos[1:]) if nv.settled(pos) else pos
        settled += nv.settled(pos)
        k = core.nivernais_key(pos)
        assert core.nivernais_key(shuffled) == k
        assert seen.setdefault(nv.key(pos), k) == k
    assert len(set(seen.values())) == len(seen)
    assert settled > 0


@pytest.mark.parametrize("deal", [1, 5002, 5005])
def test_compiled_search_is_the_python_search(deal: int) -> None:
    spec = get_game("nivernais")
    root = nv.pack(spec, initial_state(spec, deal))
    for w, cap in ((nv.WEIGHTS[0], 500), (nv.WEIGHTS[6], 20), (nv.WEIGHTS[1], None)):
        a = nv.best_first(root, 6000, None, w, cap, use_compiled=False)
        b = nv.best_first(root, 6000, None, w, cap, use_compiled=True)
        assert (a[0], a[2]) == (b[0], b[2])
        assert [nv.key(p) for p in a[1]] == [nv.key(p) for p in b[1]]


@pytest.mark.parametrize(("dead_test", "lock_test"), [(False, False), (True, False), (False, True)])
def test_compiled_search_decides_end_games_as_python(
    dead_test: bool, lock_test: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same searches with the dead test and the cell lock off and on
    (``nivernais.DEAD_TEST``, ``nivernais.LOCK_TEST``)."""
    monkeypatch.setattr(nv, "DEAD_TEST", dead_test)
    monkeypatch.setattr(nv, "LOCK_TEST", lock_test)
    won = lost = 0
    for seed in range(1, 40):
        spec, state = crossing_endgame(seed, 14 + seed % 6, 1 + seed % 2, 6, 4 * (seed % 3))
        root = nv.pack(spec, state)
        a = nv.best_first(root, None, None, nv.WEIGHTS[0], 8, use_compiled=False)
        b = nv.best_first(root, None, None, nv.WEIGHTS[0], 8, use_compiled=True)
        assert (a[0], a[2]) == (b[0], b[2])
        assert [nv.key(p) for p in a[1]] == [nv.key(p) for p in b[1]]
        won += a[0] == "won"
        lost += a[0] == "lost"
    assert won and lost


def test_compiled_win_replays_through_the_engine() -> None:
    spec = get_game("nivernais")
    state = initial_state(spec, 5002)
    r = solve(spec, state, nodes=20_000)
    assert r.result == "won"
    assert is_won(spec, replay(spec, state, r.moves))


def test_bad_positions_are_refused() -> None:
    spec = get_game("nivernais")
    pos = nv.pack(spec, initial_state(spec, 1))
    for bad in (
        pos[:5],
        ((), *pos[1:]),
        (pos[0], (60,), *pos[2:]),
        (pos[0], (5, 3), *pos[2:]),
        (*pos[:2], (0, 0, 0, 14), *pos[3:]),
        (*pos[:5], 3),
    ):
        with pytest.raises((ValueError, TypeError)):
            core.nivernais_children(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("deal", [1, 5002])
def test_compiled_memo_is_the_python_memo(deal: int) -> None:
    """Searches sharing a memo of explored final passes (``best_first(memo=…)``, as
    :func:`nivernais.portfolio` runs them): the same outcomes, counts, lines and number
    of final passes in the memo, compiled and in Python; a later search alone would
    explore final passes already in the memo (so the memo changes what is searched)."""
    spec = get_game("nivernais")
    root = nv.pack(spec, initial_state(spec, deal))
    mine: set[object] = set()
    theirs: set[object] = set()
    overlap = 0
    for w in nv.WEIGHTS[:3]:
        had = set(theirs)
        alone: set[object] = set()
        nv.best_first(root, 8000, None, w, 10, use_compiled=True, memo=alone)
        overlap += len(alone & had)
        a = nv.best_first(root, 8000, None, w, 10, use_compiled=False, memo=mine)
        b = nv.best_first(root, 8000, None, w, 10, use_compiled=True, memo=theirs)
        assert (a[0], a[2]) == (b[0], b[2])
        assert [nv.key(p) for p in a[1]] == [nv.key(p) for p in b[1]]
        assert len(mine) == len(theirs)
    assert mine
    assert overlap > 0
