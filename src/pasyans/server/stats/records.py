"""Statistics and history: what counts, and the figures per game and option set.

The rules (``docs/statistics.md``, also shown on the statistics page):

- a game counts once the player has made a move in it (``first_move_at`` is set); a game
  with no move is not counted, whatever became of it;
- a counted game is *won* when finished, *lost* when given up (status ``lost``) or
  abandoned (another game of the same game and options was started);
- *played* = won + lost; a counted game still in progress is shown apart and joins
  *played* when it ends;
- a *clean* win is a win with no hint, no undo and no restart;
- streaks follow the order in which games ended; a loss breaks the streak, an unfinished
  or uncounted game does not;
- *moves* is the length of the winning line (the moves the table and the won dialog show,
  and the replay steps through), not every move ever tried (``moves_total``);
- a best (time, moves) is replaced only by a strictly better result: the first one stays
  on a tie.

The modules, lowest first (none imports a later one):

- :mod:`~pasyans.server.stats.rows`: :class:`Record` (one game as the statistics see it)
  and :func:`records`, a player's records read from the games;
- :mod:`~pasyans.server.stats.counting`: the counting as plain functions over records
  (:func:`summarize`, :func:`statistics`), tested without a database;
- :mod:`~pasyans.server.stats.charts`: the charts' points, remembered per process;
- :mod:`~pasyans.server.stats.kept`: the kept figures, folded in when a game finishes
  (:func:`fold`, :func:`record_finish`) and :func:`rebuild`; they must count the same way
  as :mod:`counting` (``tests/server/test_stats.py`` compares them);
- :mod:`~pasyans.server.stats.figures`: what the API reads (:func:`kept_statistics`,
  :func:`history`, :func:`reset`).

This module gives their public names in one place (``from pasyans.server.stats import
records as stats``); importing it also installs the kept figures' listener.
"""

from __future__ import annotations

from pasyans.server.stats.charts import CHARTS_KEPT
from pasyans.server.stats.counting import statistics, streaks, summarize
from pasyans.server.stats.figures import (
    counted_games,
    figures_of,
    history,
    kept_statistics,
    parse_key,
    reset,
)
from pasyans.server.stats.kept import (
    TALLY_FIELDS,
    Scope,
    Tally,
    fold,
    rebuild,
    record_finish,
    scopes,
)
from pasyans.server.stats.rows import (
    COLUMNS,
    POINTS_LIMIT,
    RESULTS,
    Record,
    Result,
    record_of,
    records,
)

__all__ = [
    "CHARTS_KEPT",
    "COLUMNS",
    "POINTS_LIMIT",
    "RESULTS",
    "TALLY_FIELDS",
    "Record",
    "Result",
    "Scope",
    "Tally",
    "counted_games",
    "figures_of",
    "fold",
    "history",
    "kept_statistics",
    "parse_key",
    "rebuild",
    "record_finish",
    "record_of",
    "records",
    "reset",
    "scopes",
    "statistics",
    "streaks",
    "summarize",
]
