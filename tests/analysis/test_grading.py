"""The grading of moves by the drop of the chance the player could see."""

from __future__ import annotations

import pytest

from pasyans.analysis import THRESHOLDS, cleared, grade


@pytest.mark.parametrize(
    ("before", "after", "expected"),
    [
        (1.0, 0.0, "blunder"),
        (0.75, 0.25, "blunder"),  # exactly the blunder threshold
        (0.75, 0.375, "mistake"),
        (0.5, 0.125, "mistake"),
        (0.5, 0.25, "inaccuracy"),
        (0.5, 0.375, None),  # one sample of eight: noise, not a grade
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


def test_thresholds_stand_out_of_one_sample_of_eight() -> None:
    """Every threshold is above the weight of one sample of a hint's eight, worst first."""
    drops = [least for least, _ in THRESHOLDS]
    assert drops == sorted(drops, reverse=True)
    assert min(drops) > 1 / 8
    assert [name for _, name in THRESHOLDS] == ["blunder", "mistake", "inaccuracy"]


@pytest.mark.parametrize(
    ("most_before", "least_after", "revealed", "expected"),
    [
        (0.5, 0.375, False, True),  # one sample of eight at most: cleared
        (0.5, 0.25, False, False),  # it may have fallen by an inaccuracy
        (1.0, 0.0, False, False),  # every sample undecided at both: anything is possible
        (1.0, 0.0, True, True),  # the card it turned up decided
        (None, 0.5, False, False),  # not estimated: nothing is cleared
    ],
)
def test_cleared_only_when_even_the_largest_drop_is_below_every_grade(
    most_before: float | None, least_after: float | None, revealed: bool, expected: bool
) -> None:
    assert cleared(most_before, least_after, revealed=revealed) is expected
