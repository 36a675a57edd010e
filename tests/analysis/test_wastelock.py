"""The last pass's column-capacity rule (:mod:`pasyans.domains.wastelock`, compiled as
``fp_wastelock`` in csrc/engine.c), a leaf of the analysis's Backbone searches.

Positions: those of the stock's last pass along the simple player's Backbone games that
ended lost (the won ones before the "lost here" boundary and the lost ones after it), and
positions reached from them by seeded random walks over the searched moves. On all of
them the compiled rule answers as the Python reference does; the cuts of the stock and
the spine piles call more of them lost than the count with every such copy free; every
position it calls lost is proven lost by the exhaustive search without the rule (one
depth-first dive with a node budget: it must not find a win, and it must decide most of
them; with the stock cut from the wrong end, it finds wins); and the search with the rule
gives the same outcome as the search without it wherever both decide."""

from __future__ import annotations

import random
from functools import cache

import pytest

from pasyans.analysis import line_of
from pasyans.analysis.outcomes import restarts
from pasyans.analysis.simple import simple_game
from pasyans.domains import _core as compiled
from pasyans.domains import wastelock
from pasyans.domains.packed import PackedDomain, pack, unpack
from pasyans.position import State
from pasyans.rules import get_game
from pasyans.rules.spec import GameSpec

NODES = 300_000  # a check's positions at most
LOST_NODES = 1_500_000  # a check of a position called lost: the hardest to decide without the rule
DEALS = (2, 3, 5)  # the simple player's games of these deals ended lost
WALKS = 6  # random walks from each position of the last pass along a game
STEPS = 40  # moves of a walk at most


def spec() -> GameSpec:
    return get_game("backbone")


@cache
def positions() -> tuple[State, ...]:
    """Last-pass positions along the games and along random walks from them."""
    sp = spec()
    rng = random.Random(30)
    out: list[State] = []
    for deal in DEALS:
        states, _ = line_of(simple_game("backbone", deal, cap=1000))
        last = [s for s in states if s.redeals == sp.passes - 1]
        out += last
        d = PackedDomain(sp, states[0])
        for s in last[:: max(1, len(last) // 12)]:
            for _ in range(WALKS):
                pos = pack(s)
                for _ in range(rng.randrange(1, STEPS)):
                    kids = compiled.engine_children(d.core, pos)
                    if not kids:
                        break
                    pos = rng.choice(kids)[1]
                out.append(unpack(pos, len(sp.piles)))
    return tuple(out)


def plain(state: State, wastelock_on: bool, nodes: int = NODES) -> str:
    d = PackedDomain(spec(), state)
    return restarts(d, nodes, prove=True, compress=True, wastelock=wastelock_on)[0]


def test_compiled_rule_answers_as_the_reference() -> None:
    sp = spec()
    d = PackedDomain(sp, positions()[0])
    answers = [wastelock.lock(sp, s) for s in positions()]
    assert [compiled.engine_wastelock(d.core, pack(s)) for s in positions()] == answers
    assert any(a >= 0 for a in answers) and any(a == -1 for a in answers)


def test_the_cuts_call_more_positions_lost() -> None:
    """The cuts (the stock dealt from the top, the spine piles played from their exposed
    ends) prove lost positions the count with every such copy free does not, and never the
    other way round."""
    sp = spec()
    with_cut = [wastelock.lock(sp, s) >= 0 for s in positions()]
    free = [wastelock.lock(sp, s, cut=False) >= 0 for s in positions()]
    assert not any(f and not c for c, f in zip(with_cut, free, strict=True))
    assert sum(c and not f for c, f in zip(with_cut, free, strict=True)) >= 30


@pytest.mark.slow
def test_every_position_called_lost_is_lost() -> None:
    sp = spec()
    dead = [s for s in positions() if wastelock.lock(sp, s) >= 0]
    assert len(dead) >= 30
    outcomes = [plain(s, False, LOST_NODES) for s in dead]
    assert "won" not in outcomes
    assert outcomes.count("lost") >= 0.8 * len(dead)


@pytest.mark.slow
def test_searches_with_the_rule_answer_as_without() -> None:
    sp = spec()
    sample = [s for s in positions() if wastelock.applies(sp, s)][::4]
    both = 0
    won = 0
    for s in sample:
        a, b = plain(s, False), plain(s, True)
        if "unknown" not in (a, b):
            assert a == b
            both += 1
            won += a == "won"
    assert both >= 0.5 * len(sample) and won > 0
