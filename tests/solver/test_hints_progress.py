"""The progress of an undecided Spider search (``spider.Found.line`` without a win) and
the hint that follows it when no sample of the hidden cards is won (``Budget.lean``)."""

from __future__ import annotations

import pytest

from pasyans import caches, hints
from pasyans.domains import spider
from pasyans.engine.core import apply, initial_state, legal_moves
from pasyans.hints import Budget, exact, suggest
from pasyans.hints.sampling import known, samples, visible
from pasyans.rules import get_game


@pytest.mark.parametrize(("suits", "deal"), [("4", 1), ("4", 6), ("2", 3)])
def test_an_undecided_search_reports_the_line_to_its_best_position(suits: str, deal: int) -> None:
    spec = get_game("spider", {"suits": suits})
    state = initial_state(spec, deal)
    game = spider.SpiderGame(spec, state)
    c = spider.staged(game, nodes=300, seconds=None, prune=True, use_compiled=True)
    python = spider.staged(game, nodes=300, seconds=None, prune=True, use_compiled=False)
    assert c == python and c.status == "unknown" and c.line
    # The line is legal, and it ends nearer a win than it starts.
    pos = game.root
    for st in c.line:
        assert st in game.child_steps(pos, prune=False)[0]
        pos = game.play(pos, st)
    assert pos[4] < game.root[4]
    s = state
    for st in c.line:
        s = apply(spec, s, game.move(st))
    # Only the start expanded: no line.
    one = spider.staged(game, nodes=1, seconds=None, prune=True)
    assert one.status == "unknown" and one.line == ()


def test_leaning_search_answers_like_the_search_and_leans_when_undecided() -> None:
    spec = get_game("spider", {"suits": "4"})
    state = initial_state(spec, 1)
    outcome, move = exact._leaning(spec, state, None, 300)
    assert outcome == "unknown" and move in legal_moves(spec, state)
    game = spider.SpiderGame(spec, state)
    assert move == game.move(spider.staged(game, nodes=300, seconds=None, prune=True).line[0])
    easy = get_game("spider", {"suits": "1"})
    won = exact._leaning(easy, initial_state(easy, 2), None, 20_000)
    caches.clear()
    assert won == exact._search(easy, initial_state(easy, 2), None, 20_000)


def test_with_no_sample_won_the_hint_follows_the_searches_and_reads_nothing_hidden() -> None:
    spec = get_game("spider", {"suits": "4"})
    a = initial_state(spec, 1)
    view = known(spec, a)
    b = samples(spec, view, 1, seed=99)[0]  # the same view, other hidden cards
    assert a != b and visible(spec, a) == visible(spec, b)
    budget = Budget(seconds=None, nodes=8 * 300, samples=8, lean=True)
    out = []
    for s in (a, b):
        out.append(suggest(spec, s, budget=budget))
    assert out[0] == out[1]
    t = hints.TALLIES.get(spec, (view, budget))
    assert t is not None and t.won == 0 and t.leans
    assert out[0].source == "leaning" and out[0].move == t.leans[0][0]
    # Without lean: the visible heuristic, as before.
    caches.clear()
    plain = suggest(spec, a, budget=Budget(seconds=None, nodes=8 * 300, samples=8))
    assert plain.source == "heuristic"
