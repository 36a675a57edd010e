"""The grading of moves by the drop of the chance the player could see."""

from __future__ import annotations

import pytest

from pasyans.analysis import THRESHOLDS, grade


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
