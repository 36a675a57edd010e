"""The analysis of whole games: outcomes reused along the line, exact on Spine, honest
where the budget runs out."""

from __future__ import annotations

import itertools

import pytest

from pasyans import deals, hints
from pasyans.analysis import Limits, analyse, line_of
from pasyans.analysis.simple import play_simply, simple_game
from pasyans.engine.core import is_won
from pasyans.engine.moves import Move
from pasyans.hints import sampling
from pasyans.rules import get_game
from pasyans.solver.search import replay, solve


def spine_game(deal: int):  # type: ignore[no-untyped-def]
    return simple_game("spine", deal)


@pytest.mark.parametrize("deal", [1, 2, 3])
def test_spine_lost_here_is_exact(deal: int) -> None:
    """A solvable Spine deal the simple player lost: every outcome decided, and the
    "lost here" move checked against fresh searches with an ample budget."""
    game = spine_game(deal)
    a = analyse(game)
    assert not game.won and a.decided == 1.0
    assert a.lost_at is not None and a.verdict.code == "lost_at"
    states, _ = line_of(game)
    assert solve(game.spec, states[a.lost_at - 1], seconds=30).result == "won"
    assert solve(game.spec, states[a.lost_at], seconds=30).result == "lost"
    # no hidden card in Spine: the chance is the outcome, and the lost move is a blunder
    assert [p.chance for p in a.points] == [float(p.outcome == "won") for p in a.points]
    assert a.steps[a.lost_at - 1].grade == "blunder" and a.worst == a.lost_at
    # the way from the last won position wins
    assert a.way_from == a.lost_at - 1
    end = replay(game.spec, states[a.way_from], [Move.parse(t) for t in a.way])
    assert is_won(game.spec, end)
    assert len(a.to_json()["points"]) == len(a.steps) + 1


def test_spider_one_suit_lost_game() -> None:
    """Spider (hidden cards): the outcomes are monotone along the line and the "lost
    here" move is between a proven won and a proven lost position."""
    game = play_simply("spider", 3, {"suits": "1"}, seed=3)
    a = analyse(game)
    order = {"won": 0, "unknown": 1, "lost": 2}
    ranks = [order[p.outcome] for p in a.points]
    assert ranks == sorted(ranks)
    assert a.lost_at is not None
    assert a.points[a.lost_at - 1].outcome == "won" and a.points[a.lost_at].outcome == "lost"
    assert a.method == "determinized"
    chances = [p.chance for p in a.points if p.hidden]
    assert chances and all(c is None or 0.0 <= c <= 1.0 for c in chances)


def test_undecided_samples_leave_the_chance_open() -> None:
    """Samples too small to decide anything (8 positions for 8 samples): no chance is
    drawn as 0%, each hidden position's chance lies between 0 and 1, no move is graded,
    and the lost-here move (a plain move, no card turned up) is named, not put down to a
    hidden card (before, every undecided sample counted as lost: chances of 0, and the
    verdict "unlucky")."""
    game = play_simply("spider", 3, {"suits": "1"}, seed=3)
    a = analyse(game, Limits(estimate=hints.Budget(seconds=None, nodes=8, samples=8)))
    hidden = [p for p in a.points if p.samples]
    assert hidden and all((p.chance, p.low, p.high) == (None, 0.0, 1.0) for p in hidden)
    assert not [s for s in a.steps if s.grade]
    assert a.lost_at == 30 and not a.steps[29].revealed
    assert a.verdict.code == "lost_at"
    # the estimate's own budget decides more: the move's chance fell from at least 3/8 (5
    # samples undecided) to 0 (every sample lost): three layouts' wins surely thrown away,
    # a blunder (without the second look at the lost-here move, ``refine``)
    full = analyse(game, Limits(refine=1))
    before, after = full.points[29], full.points[30]
    assert (before.low, after.chance, after.high) == (0.375, 0.0, 0.0) and before.chance is None
    assert full.steps[29].grade == "blunder" and full.verdict.code == "lost_at"


def test_the_lost_here_move_is_estimated_again_when_its_chance_is_open() -> None:
    """The simple player's one-suit game of deal 4 is lost at move 46 (a move that turns
    nothing up). At the estimate's budget the chance before it is open (6 of 8 samples won,
    2 undecided); ``Limits.refine`` estimates both sides again with 8 times the nodes on
    the same layouts, and the chance before it is then known: 100%, to 0%."""
    game = simple_game("spider", 4, {"suits": "1"}, cap=200)
    once = analyse(game, Limits(refine=1))
    k = once.lost_at
    assert k == 46 and not once.steps[k - 1].revealed
    before = once.points[k - 1]
    assert (before.chance, before.low, before.high) == (None, 0.75, 1.0)
    again = analyse(game)
    assert again.lost_at == k
    assert (again.points[k - 1].chance, again.points[k].chance) == (1.0, 0.0)
    assert again.steps[k - 1].grade == "blunder" and again.verdict.code == "lost_at"
    # only the two sides of that move were estimated again
    changed = [j for j, (a, b) in enumerate(zip(once.points, again.points, strict=True)) if a != b]
    assert changed == [k - 1]


def test_a_move_that_turns_nothing_up_keeps_the_samples() -> None:
    """The chance on both sides of a move that turns no card up is estimated on the same
    ways the hidden cards could lie (``sampling.seed_for`` depends only on the hidden places
    and the unseen cards), so a drop counts layouts whose win the move threw away, not the
    difference of two independent draws (docs/analysis.md, Grading)."""
    game = play_simply("spider", 3, {"suits": "1"}, seed=3)
    spec = game.spec
    states, _ = line_of(game)
    budget = Limits().estimate
    kept = changed = 0
    for a, b in itertools.pairwise(states):
        va, vb = sampling.known(spec, a), sampling.known(spec, b)
        places = sampling.slots(spec, va)
        if not places:
            continue
        da = [
            [s.piles[i][k] for i, k in places] for s in sampling.samples(spec, va, 8, budget.seed)
        ]
        if sampling.slots(spec, vb) == places:
            db = [
                [s.piles[i][k] for i, k in places]
                for s in sampling.samples(spec, vb, 8, budget.seed)
            ]
            assert da == db
            kept += 1
        else:
            changed += 1
    assert kept > 30 and changed > 5


def test_no_budget_no_false_verdict() -> None:
    """With one position per search, nothing deep is decided: the outcomes left unknown
    are said to be, and no move is called "lost here"."""
    game = spine_game(1)
    a = analyse(game, Limits(seconds=5, nodes=1))
    assert any(p.outcome == "unknown" for p in a.points)
    assert a.lost_at is None
    assert a.verdict.code in {"unknown", "won_until"}
    assert all(p.chance is None for p in a.points if p.outcome == "unknown")


def test_a_won_game_needs_no_search() -> None:
    start = deals.start_position(get_game("spine"), 1, "solvable", "easy")
    game = play_simply("spine", 1, start=start, cap=0)
    line = solve(game.spec, game.start, seconds=30)
    for m in line.moves:
        game.play(m)
    a = analyse(game)
    assert game.won and a.verdict.code == "won" and a.searches == 0
    assert all(p.outcome == "won" for p in a.points)


def test_progress_is_told_and_reaches_the_end() -> None:
    seen: list[float] = []
    analyse(spine_game(2), progress=seen.append)
    assert seen and seen == sorted(seen) and seen[-1] == 1.0
