"""The games as the statistics see them: :class:`Record`, and reading a player's records.

The counting rules are in :mod:`pasyans.server.stats.records` (the statistics' public
names) and ``docs/statistics.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from pasyans.server.storage import store
from pasyans.server.storage.models import GameRow

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
    difficulty: str | None = None
    generator: int | None = None
    """The generator version of a solvable deal (a deal link carries it)."""

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


def record_of(row: store.AnyRow) -> Record:
    return record_from(row, len(row.moves))


def record_from(row: Any, moves: int) -> Record:
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
        difficulty=row.difficulty,
        generator=row.generator if row.kind == "solvable" else None,
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
    GameRow.difficulty,
    GameRow.generator,
    func.json_array_length(GameRow.moves).label("line"),
)
"""What the statistics read: every column but the move lists, which only their length
(SQLite and PostgreSQL both have ``json_array_length``) is needed of."""


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
    return [record_from(r, r.line) for r in session.execute(stmt)]


def playing_index(session: Session) -> str:
    """SQLite's planner, without statistics, prefers a wider index of all the player's
    games: it is told to read the small partial index of the games in progress."""
    return "INDEXED BY ux_games_one_playing" if session.get_bind().dialect.name == "sqlite" else ""
