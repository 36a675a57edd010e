"""Hints that never cheat, and "is this still winnable?": the public face of the hints.

``suggest(spec, state, history=..., budget=...)`` is the hint; the parts, lowest first:

- :mod:`~pasyans.hints.model`: the :class:`Hint`, :class:`Budget` and :class:`Estimate`;
- :mod:`~pasyans.hints.policy`: how much each game's product hint searches;
- :mod:`~pasyans.hints.sampling`: what the player knows, samples of the hidden cards and
  the choice among their searches; :mod:`~pasyans.hints.recent`, bounded memories;
- :mod:`~pasyans.hints.visible`: the heuristic on the visible cards;
- :mod:`~pasyans.hints.exact`: the exact search when every card is known (:data:`LINES`);
- :mod:`~pasyans.hints.sampled`: the sampled searches (:data:`TALLIES`), with the playouts
  (:mod:`~pasyans.hints.playout`) and Spider's macro planner (:mod:`~pasyans.hints.macro`);
- :mod:`~pasyans.hints.nivernais`: Nivernais' own hint;
- :mod:`~pasyans.hints.lines`: the line player of the packed games (``Budget.lines``, off);
- :mod:`~pasyans.hints.dispatch`: :func:`suggest`, which picks among them.

:mod:`~pasyans.hints.follow` (a player who always plays the hint) measures them.
"""

from pasyans.hints.dispatch import suggest
from pasyans.hints.exact import LINES, Lines, winnable
from pasyans.hints.model import SAMPLES, Budget, Clock, Estimate, Hint, Winnable
from pasyans.hints.policy import (
    EXACT_HINTS,
    HINT_BUDGETS,
    MACRO_HINTS,
    PLAYER_HINTS,
    PLAYOUT_HINTS,
    UNSTICK_HINTS,
    product_budget,
)
from pasyans.hints.sampled import TALLIES, estimate, sampled
from pasyans.hints.sampling import HIDDEN, known, visible
from pasyans.hints.visible import any_move, decided, hidden_to_player, unstuck, visible_hint

__all__ = [
    "EXACT_HINTS",
    "HIDDEN",
    "HINT_BUDGETS",
    "LINES",
    "MACRO_HINTS",
    "PLAYER_HINTS",
    "PLAYOUT_HINTS",
    "SAMPLES",
    "TALLIES",
    "UNSTICK_HINTS",
    "Budget",
    "Clock",
    "Estimate",
    "Hint",
    "Lines",
    "Winnable",
    "any_move",
    "decided",
    "estimate",
    "hidden_to_player",
    "known",
    "product_budget",
    "sampled",
    "suggest",
    "unstuck",
    "visible",
    "visible_hint",
    "winnable",
]
