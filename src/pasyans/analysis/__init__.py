"""The analysis of a finished game (docs/analysis.md): where it slipped away.

:func:`analyse` takes a :class:`~pasyans.engine.game.Game` (a saved game loaded with
:func:`pasyans.deals.load_game`) and gives an :class:`Analysis`: each position's
full-information outcome (the exact search, :mod:`pasyans.solver.search`), the chance the
player could see there (:func:`pasyans.hints.estimate`), each move's grade
(:mod:`~pasyans.analysis.grading`), the "lost here" move, a winning line and the verdict
(:mod:`~pasyans.analysis.verdict`). It is pure: no I/O, no clock but its own budget.
"""

from pasyans.analysis.grading import THRESHOLDS, Grade, cleared, grade
from pasyans.analysis.model import Analysis, Point, Step
from pasyans.analysis.run import Limits, analyse, line_of
from pasyans.analysis.verdict import CODES, Verdict, lost_at, verdict

__all__ = [
    "CODES",
    "THRESHOLDS",
    "Analysis",
    "Grade",
    "Limits",
    "Point",
    "Step",
    "Verdict",
    "analyse",
    "cleared",
    "grade",
    "line_of",
    "lost_at",
    "verdict",
]
