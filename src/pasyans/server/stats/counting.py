"""The counting: a player's figures from a set of :class:`Record` values, in plain
functions tested without a database (the rules: :mod:`pasyans.server.stats.records`).
The kept figures (:mod:`pasyans.server.stats.kept`) must count the same way;
``tests/server/test_stats.py`` compares them."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from pasyans.rules import GAMES
from pasyans.server.stats.rows import POINTS_LIMIT, Record


def _best(rec: Record, value: int) -> dict[str, Any]:
    return {
        "value": value,
        "deal": rec.deal,
        "kind": rec.kind,
        "game": rec.game,
        "options": dict(rec.options),
        "id": rec.id,
    }


def streaks(results: Iterable[bool]) -> tuple[int, int]:
    """(current, best) winning streak of results in finish order.

    >>> streaks([True, True, False, True])
    (1, 2)
    >>> streaks([])
    (0, 0)
    """
    current = best = 0
    for won in results:
        current = current + 1 if won else 0
        best = max(best, current)
    return current, best


def summarize(recs: Iterable[Record], *, points: int = POINTS_LIMIT) -> dict[str, Any]:
    """The figures of a set of games (see the module doc for the rules)."""
    counted = [r for r in recs if r.counted]
    finished = sorted((r for r in counted if r.finished), key=Record.finish_order)
    won = [r for r in finished if r.won]
    best_time: dict[str, Any] | None = None
    fewest: dict[str, Any] | None = None
    for r in won:  # finish order: a tie keeps the earlier result
        if best_time is None or r.time_ms < best_time["value"]:
            best_time = _best(r, r.time_ms)
        if fewest is None or r.moves < fewest["value"]:
            fewest = _best(r, r.moves)
    current, best = streaks(r.won for r in finished)
    played = len(finished)
    return {
        "played": played,
        "won": len(won),
        "lost": played - len(won),
        "given_up": sum(r.status == "lost" for r in finished),
        "abandoned": sum(r.status == "abandoned" for r in finished),
        "win_rate": round(len(won) / played, 4) if played else None,
        "clean_wins": sum(r.clean for r in won),
        "in_progress": sum(not r.finished for r in counted),
        "current_streak": current,
        "best_streak": best,
        "best_time": best_time,
        "fewest_moves": fewest,
        "average_time_ms": round(sum(r.time_ms for r in won) / len(won)) if won else None,
        "average_moves": round(sum(r.moves for r in won) / len(won), 1) if won else None,
        "hints": sum(r.hints for r in finished),
        "undos": sum(r.undos for r in finished),
        "points": [
            {
                "at": r.finished_at,
                "result": r.result,
                "time_ms": r.time_ms,
                "moves": r.moves,
                "deal": r.deal,
                "game": r.game,
            }
            for r in finished[-points:]
        ]
        if points
        else [],
    }


def catalog_order(game: str) -> int:
    ids = list(GAMES)
    return ids.index(game) if game in ids else len(ids)


def statistics(recs: Sequence[Record]) -> dict[str, Any]:
    """``{"total": figures, "games": [figures + game + options, …]}``: one entry per game
    and option set the player has counted games of, in catalog order."""
    groups: dict[tuple[str, str], list[Record]] = {}
    for r in recs:
        if r.counted:
            groups.setdefault((r.game, r.options_key), []).append(r)
    out = []
    for (game, key), members in sorted(
        groups.items(), key=lambda g: (catalog_order(g[0][0]), g[0])
    ):
        out.append(
            {"game": game, "options": dict(members[0].options), "options_key": key}
            | summarize(members)
        )
    return {"total": summarize(recs), "games": out}
