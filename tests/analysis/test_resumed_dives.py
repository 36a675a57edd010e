"""A one-dive search that runs out is kept with its table and goes on at the next search
of the same root ("A one-dive search's dive that ran out" in csrc/engine.c): the
analysis's lost side searches a block again with twice the seconds, and a dive of a lost
position mostly closes one large component only at its end, so a dive started afresh
would search that component again. Checked on positions of the simple player's Backbone
games in the stock's last pass (the analysis's searches: draws as moves, the
column-capacity rule), with node budgets so that each call stops at a known place."""

from __future__ import annotations

import pytest

from pasyans.analysis import line_of, outcomes
from pasyans.analysis.outcomes import ONE_DIVE
from pasyans.analysis.simple import simple_game
from pasyans.domains.packed import PackedDomain
from pasyans.engine.core import is_won
from pasyans.engine.moves import Move
from pasyans.position import State
from pasyans.rules import get_game
from pasyans.solver import search as solver
from pasyans.solver.search import replay

SPEC = get_game("backbone")

# (deal, position): dives of about 230,000 (lost), 175,000 (lost) and 146,000 (won)
# positions from a new table
CASES = [(3, 192), (13, 451), (18, 175)]


def position(deal: int, k: int) -> State:
    states, _ = line_of(simple_game("backbone", deal, cap=1000))
    assert states[k].redeals == SPEC.passes - 1  # the stock's last pass
    return states[k]


def dive(
    state: State, table: object, nodes: int | None, keep: bool = True
) -> tuple[str, tuple[Move, ...], int]:
    d = PackedDomain(SPEC, state)
    return d.restarting(
        None, nodes, ONE_DIVE, solver.RESTART_UNIT, solver.DETOUR, solver.EARLY, table,
        True, True, keep,
    )  # fmt: skip


def in_pieces(
    state: State, table: object, piece: int, keep: bool = True
) -> tuple[str, tuple[Move, ...], int, int]:
    """Dives of ``piece`` positions each until one decides (at most 30): its outcome and
    line, the positions of all the calls and the calls."""
    total = 0
    for calls in range(1, 31):
        outcome, moves, used = dive(state, table, piece, keep)
        total += used
        if outcome != "unknown":
            return outcome, moves, total, calls
    return "unknown", (), total, 30


@pytest.mark.parametrize(("deal", "k"), CASES)
def test_a_dive_in_pieces_is_the_dive_in_one(deal: int, k: int) -> None:
    """Calls of a fifth of the positions each go on where the last stopped: the same
    outcome and line as one dive, and together exactly its positions (a dive started
    afresh at each call would search its first fifth again each time and never end)."""
    state = position(deal, k)
    whole, line, nodes = dive(state, outcomes.table_for(SPEC, state), None)
    assert whole != "unknown" and nodes > 100_000
    got, moves, total, calls = in_pieces(state, outcomes.table_for(SPEC, state), nodes // 5 + 1)
    assert (got, moves, total) == (whole, line, nodes)
    assert calls == 5
    if got == "won":
        assert is_won(SPEC, replay(SPEC, state, moves))
    # without keeping them each call dives afresh (what it closed stays proven lost)
    fresh = in_pieces(state, outcomes.table_for(SPEC, state), nodes // 5 + 1, keep=False)
    assert fresh[2] > nodes and fresh[3] > 5


def test_dives_of_two_roots_go_on_in_turn_and_a_third_drops_the_older() -> None:
    """Two roots' dives cut into pieces, in turn, with one table: each goes on (each
    within its own dive's positions, less what the other proved lost); a third root's
    dive then drops the oldest kept, whose next search starts afresh and still answers
    as the whole dive."""
    states = [position(d, k) for d, k in CASES]
    wholes = [dive(s, outcomes.table_for(SPEC, s), None) for s in states]
    table = outcomes.table_for(SPEC, states[0])
    piece = min(n for _, _, n in wholes) // 4
    totals = [0, 0]
    done: list[str | None] = [None, None]
    for _ in range(40):
        for i in (0, 1):
            if done[i] is None:
                outcome, _, used = dive(states[i], table, piece)
                totals[i] += used
                if outcome != "unknown":
                    done[i] = outcome
    assert done == [wholes[0][0], wholes[1][0]]
    assert all(0 < t <= w[2] for t, w in zip(totals, wholes[:2], strict=True))
    # a third root: its dive and one of the first's are kept, the second's is dropped
    assert dive(states[2], table, piece)[0] == "unknown"
    assert dive(states[0], table, piece)[0] == done[0]
    restarted = in_pieces(states[1], table, piece)
    assert restarted[0] == wholes[1][0]
