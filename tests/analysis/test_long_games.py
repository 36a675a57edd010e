"""The analysis's limits for a long game (``Limits.for_moves``): with ``per_moves`` set,
a game of more moves gets its totals scaled with its length, up to ``longest`` seconds;
by default none is."""

from __future__ import annotations

import pytest

from pasyans.analysis import Limits


def test_a_game_up_to_per_moves_keeps_the_limits() -> None:
    limits = Limits(per_moves=200)
    assert limits.for_moves(0) is limits
    assert limits.for_moves(200) is limits


def test_a_longer_game_gets_proportionally_more_up_to_longest() -> None:
    limits = Limits(search_total=18.0, total=27.0, per_moves=200, longest=45.0)
    longer = limits.for_moves(300)
    assert longer.search_total == pytest.approx(27.0)
    assert longer.total == pytest.approx(40.5)
    assert longer.seconds == limits.seconds
    longest = limits.for_moves(1000)
    assert longest.total == pytest.approx(45.0)
    assert longest.search_total == pytest.approx(30.0)


def test_no_scaling_by_default() -> None:
    limits = Limits()
    assert limits.for_moves(10_000) is limits
