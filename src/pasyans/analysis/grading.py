"""How much a move cost the player, graded from the chance they could see.

Lichess grades a chess move by the drop of the win chance it causes: 0.1 an inaccuracy,
0.2 a mistake, 0.3 a blunder. Its chance comes from an engine's evaluation, which barely
wobbles between two neighbouring positions. Ours is a sampled estimate
(:func:`pasyans.hints.estimate`): the share of ``n`` ways the hidden cards could lie that
a search wins, so one sample more or less moves it by ``1/n`` (0.125 at the 8 samples of
a hint) although the player did nothing wrong. Two independent estimates of a position
whose true chance is ``p`` differ by a standard error of ``sqrt(2 p (1-p) / n)``, 0.25 at
``p = 0.5`` and 8 samples. A grade must stand out of that noise, so our thresholds are
lichess's scaled up to whole standard errors of the difference: 0.25 (one), 0.375 and
0.5 (two): at 8 samples two, three and four samples' worth. Where every card is known
(Spine, and any position with nothing face down) the chance is the exact verdict, 1 or
0, and the only drop is the move that threw a won position away: a blunder.

A move that turned a hidden card up is not graded: the chance after it depends on the
card that came, and the drop mixes the player's choice with their luck (``revealed``).

A sample the budget left undecided is neither won nor lost, so a position's chance is
known only between two bounds: the share of samples won and the share not proven lost.
A move is graded by the least its chance can have fallen (the low bound before minus the
high bound after), and :func:`cleared` of a graded loss only when the most it can have
fallen (the high bound before minus the low bound after) is below every threshold.
"""

from __future__ import annotations

from typing import Literal

Grade = Literal["inaccuracy", "mistake", "blunder"]

THRESHOLDS: tuple[tuple[float, Grade], ...] = (
    (0.5, "blunder"),
    (0.375, "mistake"),
    (0.25, "inaccuracy"),
)
"""The smallest drop of the chance for each grade, worst first (see the module's text)."""

EPSILON = 1e-9


def grade(before: float | None, after: float | None, *, revealed: bool = False) -> Grade | None:
    """The grade of a move that took the player's chance from ``before`` to ``after``
    (shares in 0…1; None: not known), or None when it is not graded: a chance unknown, a
    hidden card turned up, or a drop below every threshold.

    >>> grade(0.75, 0.25), grade(0.5, 0.125), grade(0.5, 0.25), grade(0.5, 0.375)
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

    >>> cleared(0.5, 0.375), cleared(1.0, 0.0), cleared(None, 0.5), cleared(1.0, 0.0, revealed=True)
    (True, False, False, True)
    """
    if revealed:
        return True
    if before is None or after is None:
        return False
    return before - after < THRESHOLDS[-1][0] - EPSILON
