"""The grading of moves by the drop of the chance the player could see."""

from __future__ import annotations

import pytest

from pasyans.analysis import THRESHOLDS, cleared, grade


@pytest.mark.parametrize(
    ("before", "after", "expected"),
    [
        (1.0, 0.0, "blunder"),
        (0.75, 0.375, "blunder"),  # three layouts of eight surely lost their win
        (0.5, 0.25, "mistake"),  # two
        (0.5, 0.375, "inaccuracy"),  # one
        (0.5, 0.5, None),  # none
        (0.25, 0.5, None),  # the chance rose
        (0.0, 0.0, None),
    ],
)
def test_grade_by_drop(before: float, after: float, expected: str | None) -> None:
    assert grade(before, after) == expected


def test_a_move_that_turned_a_card_up_is_not_graded() -> None:
    assert grade(1.0, 0.0) == "blunder"
    assert grade(1.0, 0.0, revealed=True) is None


def test_an_unknown_chance_is_not_graded() -> None:
    assert grade(None, 0.0) is None
    assert grade(1.0, None) is None


def test_thresholds_are_lichess_and_one_layout_of_eight_counts() -> None:
    """Lichess's thresholds, worst first; at the analysis's 8 samples (paired across a move
    that turns nothing up: tests/analysis/test_analyse.py) each layout whose win the move
    surely threw away is one grade step."""
    assert THRESHOLDS == ((0.3, "blunder"), (0.2, "mistake"), (0.1, "inaccuracy"))
    assert [grade(1.0, 1.0 - k / 8) for k in range(4)] == [None, "inaccuracy", "mistake", "blunder"]


@pytest.mark.parametrize(
    ("most_before", "least_after", "revealed", "expected"),
    [
        (0.5, 0.5, False, True),  # no layout can have lost its win: cleared
        (0.5, 0.375, False, False),  # one may have: an inaccuracy
        (1.0, 0.0, False, False),  # every sample undecided at both: anything is possible
        (1.0, 0.0, True, True),  # the card it turned up decided
        (None, 0.5, False, False),  # not estimated: nothing is cleared
    ],
)
def test_cleared_only_when_even_the_largest_drop_is_below_every_grade(
    most_before: float | None, least_after: float | None, revealed: bool, expected: bool
) -> None:
    assert cleared(most_before, least_after, revealed=revealed) is expected
