"""The safe foundation move in the analysis's Backbone searches (``outcomes.RETURNING_SAFE``,
``fp_children_rule`` in csrc/engine.c): a card whose suit's cards of every lower rank are
all on the foundations goes there alone, although Backbone's foundation cards may come
back to the columns. Checked against the same searches without it (which try every move
but the Ace's, each answer tested elsewhere: tests/analysis/test_draws.py,
tests/analysis/test_wastelock.py) on positions of the simple player's games, both the
dive for a loss and the restarting search for a win: the same outcome wherever both
decide, and a won line replays to a win; and where it fires, what it saves.
Backbone's end games are too large for the search of every move in Python (its
foundation cards come back down), so the reference is the compiled search."""

from __future__ import annotations

import pytest

from pasyans.analysis import line_of, outcomes
from pasyans.analysis.outcomes import restarts
from pasyans.analysis.simple import simple_game
from pasyans.domains import _core as compiled
from pasyans.domains.knowledge import knowledge_for, safe_foundation_move
from pasyans.domains.packed import PackedDomain
from pasyans.engine.core import is_won, legal_moves
from pasyans.engine.moves import Move
from pasyans.position import State
from pasyans.rules import get_game
from pasyans.solver.search import replay

SPEC = get_game("backbone")
NODES = 300_000


def search(state: State, returning: bool, prove: bool) -> tuple[str, tuple[Move, ...], int]:
    return restarts(
        PackedDomain(SPEC, state), NODES, prove=prove, compress=True, wastelock=True,
        returning=returning,
    )  # fmt: skip


@pytest.mark.parametrize("deal", [2, 3, 5, 13])
def test_the_safe_move_answers_as_every_move_does(deal: int) -> None:
    states, _ = line_of(simple_game("backbone", deal, cap=1000))
    decided = 0
    for state in states[:: max(1, len(states) // 30)]:
        for prove in (True, False):
            plain, with_rule = search(state, False, prove), search(state, True, prove)
            if "unknown" in (plain[0], with_rule[0]):
                assert {plain[0], with_rule[0]} != {"won", "lost"}
                continue
            assert with_rule[0] == plain[0], (deal, states.index(state), prove)
            if with_rule[0] == "won":
                assert is_won(SPEC, replay(SPEC, state, with_rule[1]))
            decided += 1
    assert decided >= 30


def test_the_analysis_searches_with_it_and_without_it_on_request(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Deal 7's position 229 (the stock's last pass): the dive for a loss proves it lost
    in fewer than 300,000 positions with the rule, and runs out without it (it needs
    about 7 million)."""
    states, _ = line_of(simple_game("backbone", 7, cap=1000))
    state = states[229]
    assert outcomes.RETURNING_SAFE
    r = outcomes.search(SPEC, state, 60.0, NODES, outcomes.table_for(SPEC, state), prove=True)
    assert r.result == "lost"
    monkeypatch.setattr(outcomes, "RETURNING_SAFE", False)
    r = outcomes.search(SPEC, state, 60.0, NODES, outcomes.table_for(SPEC, state), prove=True)
    assert r.result == "unknown"


@pytest.mark.parametrize("deal", [2, 3, 5, 13])
def test_the_python_reference_picks_the_compiled_safe_move(deal: int) -> None:
    """``knowledge.safe_foundation_move(returning=True)`` (the Python reference) and the
    compiled children with the rule (``engine_children(..., True)``) agree at every
    position of a game: the same one safe move, or, with none, the children without it."""
    k = knowledge_for(SPEC)
    fired = 0
    for state in line_of(simple_game("backbone", deal, cap=1000))[0]:
        d = PackedDomain(SPEC, state)
        moves = legal_moves(SPEC, state)
        safe = safe_foundation_move(k, state, moves, returning=True)
        with_rule = [d.move(code) for code, _, _ in compiled.engine_children(d.core, d.root, True)]
        without = [d.move(code) for code, _, _ in compiled.engine_children(d.core, d.root)]
        if safe is None:
            assert with_rule == without
        else:
            assert with_rule == [safe]
            fired += safe_foundation_move(k, state, moves) is None
    assert fired > 0  # the rule named a move the permanent foundations' rule would not
