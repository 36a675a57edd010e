"""Spider's guided search before the compiled core, out of the package
(``benchmarks/legacy/guided_search.py``, the "before" column of ``benchmarks/solver.py
--spider-rate``), still finds wins that replay; the library's search refuses a guided
domain (Spider has a search of its own, :func:`pasyans.domains.spider.solve`)."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from pasyans.deals import start_position
from pasyans.engine.core import is_won
from pasyans.rules import get_game
from pasyans.solver.search import SpiderDomain, replay, search, solve

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks" / "legacy"))
from guided_search import GuidedSpider, guided_search


@pytest.mark.parametrize("deal", [1, 2, 3])
def test_the_legacy_guided_search_wins_one_suit_deals(deal: int) -> None:
    spec = get_game("spider", {"suits": "1"})
    state = start_position(spec, deal, "random")
    r = guided_search(GuidedSpider(spec, state), time.perf_counter(), None, 3000)
    assert r.result == "won" and 0 < r.nodes <= 3000
    assert is_won(spec, replay(spec, state, r.moves))


def test_a_spent_budget_gives_unknown() -> None:
    spec = get_game("spider", {"suits": "4"})
    state = start_position(spec, 1, "random")
    r = guided_search(GuidedSpider(spec, state), time.perf_counter(), None, 50)
    assert r.result == "unknown" and r.nodes <= 50


def test_the_library_search_refuses_a_guided_domain_and_solve_routes_spider() -> None:
    spec = get_game("spider", {"suits": "1"})
    state = start_position(spec, 1, "random")
    with pytest.raises(ValueError, match=r"spider\.solve"):
        search(SpiderDomain(spec, state), time.perf_counter(), None, 100)
    r = solve(spec, state, nodes=1000)
    assert r.result == "won" and is_won(spec, replay(spec, state, r.moves))
