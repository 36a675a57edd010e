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

The counting is plain functions over :class:`Record` values, so it is tested without a
database; :func:`records` reads them for one player.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from pasyans.rules import GAMES
from pasyans.server import store
from pasyans.server.models import GameRow

POINTS_LIMIT = 1000
"""The most recent finished games a group sends for its charts."""

Result = Literal["won", "given_up", "abandoned", "playing"]

RESULTS: dict[str, Result] = {
    "won": "won",
    "lost": "given_up",
    "abandoned": "abandoned",
    "playing": "playing",
}
"""A row's status → the result the API shows (``given_up`` reads better than ``lost``)."""


@dataclass(frozen=True)
class Record:
    """One game as the statistics see it."""

    id: str
    game: str
    options: dict[str, str]
    options_key: str
    deal: int
    kind: str
    status: str
    moves: int
    """Moves of the final line (the table's move counter)."""
    moves_total: int
    score: int
    hints: int
    undos: int
    restarts: int
    time_ms: int
    created_at: datetime
    first_move_at: datetime | None
    finished_at: datetime | None

    @property
    def counted(self) -> bool:
        return self.first_move_at is not None

    @property
    def finished(self) -> bool:
        return self.status != store.PLAYING and self.finished_at is not None

    @property
    def won(self) -> bool:
        return self.status == "won"

    @property
    def clean(self) -> bool:
        return self.won and self.hints == 0 and self.undos == 0 and self.restarts == 0

    @property
    def result(self) -> Result:
        return RESULTS[self.status]

    def finish_order(self) -> tuple[datetime, datetime, str]:
        assert self.finished_at is not None
        return (self.finished_at, self.created_at, self.id)


def record_of(row: GameRow) -> Record:
    return _record(row, len(row.moves))


def _record(row: Any, moves: int) -> Record:
    """A record from a game row or a selected row with the same column names."""
    return Record(
        id=row.id,
        game=row.game,
        options={str(k): str(v) for k, v in dict(row.options).items()},
        options_key=row.options_key,
        deal=row.deal,
        kind=row.kind,
        status=row.status,
        moves=moves,
        moves_total=row.moves_total,
        score=row.score,
        hints=row.hints,
        undos=row.undos,
        restarts=row.restarts,
        time_ms=row.time_ms,
        created_at=store.aware(row.created_at),
        first_move_at=None if row.first_move_at is None else store.aware(row.first_move_at),
        finished_at=None if row.finished_at is None else store.aware(row.finished_at),
    )


COLUMNS = (
    GameRow.id,
    GameRow.game,
    GameRow.options,
    GameRow.options_key,
    GameRow.deal,
    GameRow.kind,
    GameRow.status,
    GameRow.moves_total,
    GameRow.score,
    GameRow.hints,
    GameRow.undos,
    GameRow.restarts,
    GameRow.time_ms,
    GameRow.created_at,
    GameRow.first_move_at,
    GameRow.finished_at,
    func.json_array_length(GameRow.moves).label("line"),
)
"""What the statistics read: every column but the move lists, which only their length
(SQLite and PostgreSQL both have ``json_array_length``) is needed of."""


# --- queries ------------------------------------------------------------------------------


def records(
    session: Session, player: int | None, *, game: str | None = None, key: str | None = None
) -> list[Record]:
    """The player's counted games (a move was made), optionally of one game / option set."""
    if player is None:
        return []
    stmt = select(*COLUMNS).where(GameRow.player_id == player, GameRow.first_move_at.is_not(None))
    if game is not None:
        stmt = stmt.where(GameRow.game == game)
    if key is not None:
        stmt = stmt.where(GameRow.options_key == key)
    return [_record(r, r.line) for r in session.execute(stmt)]


def history(
    session: Session, player: int | None, *, page: int, per_page: int
) -> tuple[list[Record], int]:
    """One page of the player's counted games, newest first, and how many there are."""
    if player is None:
        return [], 0
    where = (GameRow.player_id == player, GameRow.first_move_at.is_not(None))
    total = session.scalar(select(func.count()).select_from(GameRow).where(*where)) or 0
    stmt = (
        select(*COLUMNS)
        .where(*where)
        .order_by(GameRow.created_at.desc(), GameRow.id.desc())
        .limit(per_page)
        .offset((page - 1) * per_page)
    )
    return [_record(r, r.line) for r in session.execute(stmt)], total


def reset(session: Session, player: int | None) -> int:
    """Forget the player's finished games (figures, charts and history start again); games
    in progress stay. Returns how many games were deleted. The caller commits."""
    if player is None:
        return 0
    result = session.execute(
        delete(GameRow).where(GameRow.player_id == player, GameRow.status != store.PLAYING)
    )
    return int(getattr(result, "rowcount", 0) or 0)


# --- counting -----------------------------------------------------------------------------


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


def _order(game: str) -> int:
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
    for (game, key), members in sorted(groups.items(), key=lambda g: (_order(g[0][0]), g[0])):
        out.append(
            {"game": game, "options": dict(members[0].options), "options_key": key}
            | summarize(members)
        )
    return {"total": summarize(recs), "games": out}
