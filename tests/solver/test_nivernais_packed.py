"""Nivernais' packed positions (``domains/nivernais.py``) play exactly the engine's rules,
and its forced moves and dead test are those of ``domains/updown.py``: compared along
random play-outs of real deals and of small crossing end games."""

from __future__ import annotations

import pytest
from nivernais_endgames import crossing_endgame, playout

from pasyans.domains import nivernais as nv
from pasyans.domains.knowledge import knowledge_for
from pasyans.domains.updown import dead, forced_move
from pasyans.engine.core import apply, initial_state, is_won, legal_moves
from pasyans.position import State
from pasyans.rules import get_game
from pasyans.rules.spec import GameSpec
from pasyans.solver.search import replay, solve


def _deal_positions() -> list[tuple[GameSpec, State]]:
    spec = get_game("nivernais")
    out = []
    for deal in range(1, 25):
        out += [(spec, s) for s in playout(spec, initial_state(spec, deal), deal, 400)]
    return out


def _endgame_positions() -> list[tuple[GameSpec, State]]:
    out = []
    for seed in range(1, 120):
        spec, state = crossing_endgame(seed, 16 + seed % 8, 2, 8, seed % 5)
        out += [(spec, s) for s in playout(spec, state, seed, 50)]
    return out


def test_packed_children_are_the_engines() -> None:
    redeals = 0
    for spec, state in _deal_positions():
        mine = {nv.key(c) for c in nv.children(nv.pack(spec, state))}
        engine = {nv.key(nv.pack(spec, apply(spec, state, m))) for m in legal_moves(spec, state)}
        assert mine == engine
        redeals = max(redeals, state.redeals)
    assert redeals == 2  # the play-outs reach the final pass


@pytest.mark.parametrize("positions", [_deal_positions, _endgame_positions])
def test_packed_dead_and_forced_are_updowns(positions: object) -> None:
    fired = forced_count = 0
    for spec, state in positions():  # type: ignore[operator]
        k = knowledge_for(spec)
        pos = nv.pack(spec, state)
        truth = dead(spec, state, k.foundations, k.reserves, k.columns)
        assert nv.dead(pos) == truth
        fired += truth
        m = forced_move(spec, state, legal_moves(spec, state), k.foundations, k.reserves, k.columns)
        f = nv.forced(pos)
        assert (f is None) == (m is None)
        if m is not None and f is not None:
            # Both are forced; the packed one may pick another forced card: it must be a
            # child, and the engine's must be forced in the packed sense too.
            assert nv.key(f) in {nv.key(c) for c in nv.children(pos)}
            forced_count += 1
    assert forced_count > 0
    if positions is _endgame_positions:
        assert fired > 0


def test_best_first_wins_replay_and_lost_is_exhaustive() -> None:
    """Deal 5002 (a fresh deal, easy) is won and its line replays through the engine."""
    spec = get_game("nivernais")
    state = initial_state(spec, 5002)
    r = solve(spec, state, nodes=20_000)
    assert r.result == "won"
    assert is_won(spec, replay(spec, state, r.moves))
