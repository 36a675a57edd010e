"""Backbone's restarting search: restarts with perturbed move orders share one table of
positions proven lost (closed strongly connected components). Every position in that
table is really lost, and the answers agree with a search that tries every move."""

from __future__ import annotations

import time
from collections.abc import Hashable, Iterable

import pytest
from solver_endgames import exhaustive, solver_agrees
from test_backbone_search import spine_endgame

from pasyans.engine.core import is_won
from pasyans.engine.moves import Move
from pasyans.position import State
from pasyans.rules import get_game
from pasyans.solver import search
from pasyans.solver.search import EngineDomain, _dive, luby, replay, solve


class Recording(EngineDomain):
    """The engine's domain, remembering one position per key it hands out."""

    def __init__(self, *args: object) -> None:
        super().__init__(*args)  # type: ignore[arg-type]
        self.states: dict[Hashable, State] = {}

    def children(self, pos: State, *, prune: bool) -> tuple[Iterable[tuple[Move, State]], bool]:
        kids, dropped = super().children(pos, prune=prune)
        out = []
        for m, t in kids:
            self.states.setdefault(self.key(t), t)
            out.append((m, t))
        return out, dropped


@pytest.fixture
def tiny_restarts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Restarts after a handful of positions, so that end games need many of them."""
    monkeypatch.setattr(search, "FIRST_DIVE", 5)
    monkeypatch.setattr(search, "RESTART_UNIT", 3)
    monkeypatch.setattr(search, "DETOUR", 0.5)


def test_luby_sequence() -> None:
    assert [luby(n) for n in range(1, 16)] == [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]


def test_only_backbone_restarts() -> None:
    assert EngineDomain(get_game("backbone"), _start("backbone")).restarts
    assert EngineDomain(get_game("backbone-classic"), _start("backbone-classic")).restarts
    assert not EngineDomain(get_game("spine"), _start("spine")).restarts
    assert not EngineDomain(get_game("nivernais"), _start("nivernais")).restarts


def _start(game: str) -> State:
    from pasyans.engine.core import initial_state

    return initial_state(get_game(game), 1)


# Backbone classic end games (Backbone's own are too large to search exhaustively: its
# foundation cards come back down). Loose cards mostly in the spine.
CASES = [(loose, seed) for loose in (6, 9) for seed in range(1, 11)]


@pytest.mark.parametrize(("loose", "seed"), CASES)
def test_every_position_the_dives_prove_lost_is_lost(loose: int, seed: int) -> None:
    spec, state = spine_endgame("backbone-classic", seed, loose, seed % 2 == 0)
    d = Recording(spec, state)
    d.states[d.key(state)] = state
    lost: set[Hashable] = set()
    for n in range(1, 30):  # short dives with perturbed orders, one shared table
        r = _dive(d, time.perf_counter(), None, 4, lost, search.SplitMix(n))
        if r.result == "won":
            assert is_won(spec, replay(spec, state, r.moves))
    for key in sorted(lost, key=repr)[:25]:
        assert not exhaustive(spec, d.states[key])


@pytest.mark.parametrize(("loose", "seed"), CASES)
def test_restarts_agree_with_exhaustive_search(tiny_restarts: None, loose: int, seed: int) -> None:
    spec, state = spine_endgame("backbone-classic", seed, loose, seed % 2 == 0)
    solver_agrees(spec, state)


def test_restarts_happen_and_both_answers_occur(tiny_restarts: None) -> None:
    results = set()
    restarted = 0
    for loose, seed in CASES:
        spec, state = spine_endgame("backbone-classic", seed, loose, seed % 2 == 0)
        r = solve(spec, state, nodes=300_000)
        results.add(r.result)
        restarted += r.nodes > search.FIRST_DIVE
    assert results == {"won", "lost"} and restarted > 0


def test_the_first_dive_is_the_plain_depth_first_search() -> None:
    """Within FIRST_DIVE positions the restarting search is the old one, position for
    position (so solvable deals found within that budget stay the same)."""
    spec = get_game("backbone")
    for deal in (1, 2, 3):
        state = _start_deal(spec, deal)
        d = EngineDomain(spec, state)
        plain = search._depth_first(d, 0.0, None, 3_000, prune=False)
        restarting = solve(spec, state, nodes=3_000)
        assert (plain.result, plain.moves, plain.nodes) == (
            restarting.result,
            restarting.moves,
            restarting.nodes,
        )


def _start_deal(spec: object, deal: int) -> State:
    from pasyans.deals import start_position

    return start_position(spec, deal, "random")  # type: ignore[arg-type]


def test_a_deal_the_first_dive_misses_is_won_by_a_restart() -> None:
    """Backbone deal 49: the plain dive is stuck after 10,000 positions; a restart wins
    (the line replays through the engine)."""
    spec = get_game("backbone")
    state = _start_deal(spec, 49)
    d = EngineDomain(spec, state)
    assert search._depth_first(d, 0.0, None, 20_000, prune=False).result == "unknown"
    r = solve(spec, state, nodes=20_000)
    assert r.result == "won" and r.nodes > search.FIRST_DIVE
    assert is_won(spec, replay(spec, state, r.moves))
