"""The analysis's searches of Spider positions (:func:`pasyans.analysis.outcomes.search`):
a stock-empty position searched for a win gets the staged search with its unproven rules
first, for at most half its time, then without them; a loss is said only when the search
without them is exhausted."""

from __future__ import annotations

import pytest

from pasyans.analysis import outcomes
from pasyans.domains import spider
from pasyans.engine.core import apply, initial_state, is_won
from pasyans.position import State
from pasyans.rules import get_game
from pasyans.solver.search import replay, solve

SPEC = get_game("spider", {"suits": "1"})


def stock_spent_on_a_win(deal: int) -> State:
    """The first position of a solver's win of ``deal`` whose stock is empty (so it is won)."""
    state = initial_state(SPEC, deal)
    r = solve(SPEC, state, nodes=300_000)
    assert r.result == "won"
    stock = SPEC.index["stock"]
    for m in r.moves:
        if not state.piles[stock]:
            return state
        state = apply(SPEC, state, m)
    raise AssertionError("the win never emptied the stock")


@pytest.mark.parametrize("first", [0.5, 0.0])
@pytest.mark.parametrize("deal", [1, 2])
def test_a_stock_empty_position_on_a_win_is_won_with_a_legal_line(
    monkeypatch: pytest.MonkeyPatch, first: float, deal: int
) -> None:
    monkeypatch.setattr(outcomes, "PRUNED_FIRST", first)
    state = stock_spent_on_a_win(deal)
    r = outcomes.search(SPEC, state, 20.0, None)
    assert r.result == "won"
    assert is_won(SPEC, replay(SPEC, state, r.moves))


def faked(
    monkeypatch: pytest.MonkeyPatch, pruned: str, plain: str
) -> list[tuple[bool, float | None]]:
    """``spider.staged`` faked: ``pruned`` with the unproven rules, ``plain`` without;
    returns the (prune, seconds) of each call."""
    calls: list[tuple[bool, float | None]] = []

    def staged(
        game: spider.SpiderGame,
        *,
        nodes: int | None,
        seconds: float | None,
        prune: bool,
        use_compiled: bool | None = None,
    ) -> spider.Found:
        calls.append((prune, seconds))
        return spider.Found(pruned if prune else plain, (), 10, prune)

    monkeypatch.setattr(spider, "staged", staged)
    return calls


def test_the_unproven_rules_first_then_the_search_that_proves() -> None:
    state = stock_spent_on_a_win(1)
    with pytest.MonkeyPatch.context() as mp:
        # the rules' search ran out of moves at once: no proof, so the plain search has the
        # rest of the seconds (nearly all of them here)
        calls = faked(mp, "exhausted", "exhausted")
        r = outcomes.search(SPEC, state, 2.0, None)
        assert r.result == "lost" and r.nodes == 20  # both searches' positions
        assert [p for p, _ in calls] == [True, False]
        assert calls[0][1] == pytest.approx(1.0)
        assert 1.9 < (calls[1][1] or 0) <= 2.0
    with pytest.MonkeyPatch.context() as mp:
        calls = faked(mp, "won", "exhausted")  # a win with the rules is a win: no more search
        assert outcomes.search(SPEC, state, 2.0, None).result == "won"
        assert [p for p, _ in calls] == [True]
    with pytest.MonkeyPatch.context() as mp:
        calls = faked(mp, "unknown", "unknown")
        assert outcomes.search(SPEC, state, 2.0, None).result == "unknown"
        assert [p for p, _ in calls] == [True, False]
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(outcomes, "PRUNED_FIRST", 0.0)
        calls = faked(mp, "won", "exhausted")
        assert outcomes.search(SPEC, state, 2.0, None).result == "lost"
        assert calls == [(False, pytest.approx(2.0, abs=0.05))]
