"""How much a move cost the player, graded from the chance they could see.

Lichess grades a chess move by the drop of the win chance it causes: 0.1 an inaccuracy,
0.2 a mistake, 0.3 a blunder. Ours is a sampled estimate (:func:`pasyans.hints.estimate`):
of ``n`` ways the hidden cards could lie (8 in the analysis), how many a search wins and
how many it proves lost; the rest the budget leaves undecided. So a position's chance is
known between two bounds, the share won and the share not proven lost.

Both sides of a move that turns nothing up are estimated on the **same** ways the cards
could lie (:func:`pasyans.hints.sampling.seed_for` depends only on the hidden places and
the unseen cards), and a search's verdict on a sample is exact. A move's drop is the
least it can have fallen: the low bound before minus the high bound after, which counts
the samples the move surely took from won to lost, each a layout whose win it threw away.
That is not the noise of two independent draws, so lichess's thresholds stand as they
are: at 8 samples one such layout is an inaccuracy, two a mistake, three a blunder. Until
2026-12-08 an undecided sample counted as lost, so a search that missed a win after the
move looked like a drop, and the thresholds were twice as high to stand out of it. Where
every card is known (Spine, and any position with nothing face down) the chance is the
exact verdict, 1 or 0, and the only drop is the move that threw a won position away: a
blunder.

A move that turned a hidden card up is not graded: the chance after it depends on the
card that came, and the drop mixes the player's choice with their luck (``revealed``).
:func:`cleared` tells a move that surely cost nothing graded: the most it can have fallen
(the high bound before minus the low bound after) is below every threshold.
"""

from __future__ import annotations

from typing import Literal

Grade = Literal["inaccuracy", "mistake", "blunder"]

THRESHOLDS: tuple[tuple[float, Grade], ...] = (
    (0.3, "blunder"),
    (0.2, "mistake"),
    (0.1, "inaccuracy"),
)
"""The smallest drop of the chance for each grade, worst first: lichess's (see the
module's text)."""

EPSILON = 1e-9


def grade(before: float | None, after: float | None, *, revealed: bool = False) -> Grade | None:
    """The grade of a move that took the player's chance from at least ``before`` to at
    most ``after`` (the low bound before it and the high bound after it, shares in 0…1;
    None: not known), or None when it is not graded: a chance unknown, a hidden card
    turned up, or a drop below every threshold.

    >>> grade(0.5, 0.125), grade(0.5, 0.25), grade(0.5, 0.375), grade(0.5, 0.5)
    ('blunder', 'mistake', 'inaccuracy', None)
    >>> grade(1.0, 0.0, revealed=True), grade(None, 0.0)
    (None, None)
    """
    if before is None or after is None or revealed:
        return None
    for least, name in THRESHOLDS:
        if before - after >= least - EPSILON:
            return name
    return None


def cleared(before: float | None, after: float | None, *, revealed: bool = False) -> bool:
    """Whether a move surely cost the player no graded share of the chance it took from at
    most ``before`` to at least ``after`` (the bounds; None: not known): it turned a hidden
    card up (the card decided, not the choice), or even its largest possible drop is
    below every threshold.

    >>> cleared(0.5, 0.5), cleared(0.5, 0.375), cleared(None, 0.5)
    (True, False, False)
    >>> cleared(1.0, 0.0, revealed=True)
    True
    """
    if revealed:
        return True
    if before is None or after is None:
        return False
    return before - after < THRESHOLDS[-1][0] - EPSILON
