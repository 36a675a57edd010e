"""The leaderboards of daily deals and a player's daily record (docs/daily.md).

Every figure comes from stored games: a ranked daily game that is won is written to
``daily_results`` by the server, in the transaction of the move that won it
(:func:`record_win`), with the server's own time and the moves of its stored line. A
leaderboard is a top-N read through an index of that table, and a player's rank one count
through the same index, so a request's work is bounded whatever the number of players.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any, Literal

from sqlalchemy import Connection, delete, func, select, true, tuple_, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from pasyans.server.daily import names
from pasyans.server.storage import store
from pasyans.server.storage.models import DailyBoard, DailyResult, GameRow, NameReport, Player

Board = Literal["time", "moves"]
TOP = 20
"""Rows of a leaderboard page."""


def is_clean(hints: int, undos: int, restarts: int) -> bool:
    """A clean win (docs/statistics.md): no hint, no undo, no restart. Autocollect is
    offered only once the engine proves every card can go up, and safe auto-moves are
    safe by definition: neither can be played before it is safe."""
    return hints == 0 and undos == 0 and restarts == 0


def record_win(conn: Connection, row: store.AnyRow, moves: int) -> None:
    """A won ranked daily game joins its leaderboard, and a clean one adds to the board's
    count (the first win of a player on a deal stays: there is one ranked attempt)."""
    assert row.daily is not None and row.finished_at is not None
    insert = postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert
    clean = is_clean(row.hints, row.undos, row.restarts)
    board = {"day": row.daily, "game": row.game, "options_key": row.options_key,
             "difficulty": row.difficulty or ""}  # fmt: skip
    added = conn.execute(
        insert(DailyResult)
        .values(
            **board,
            player_id=row.player_id,
            game_id=row.id,
            clean=clean,
            time_ms=row.time_ms,
            moves=moves,
            finished_at=row.finished_at,
        )
        .on_conflict_do_nothing()
        .returning(DailyResult.player_id)
    ).first()
    if added is not None and clean:
        count = insert(DailyBoard).values(**board, clean_wins=1)
        conn.execute(
            count.on_conflict_do_update(
                index_elements=["day", "game", "options_key", "difficulty"],
                set_={"clean_wins": DailyBoard.clean_wins + 1},
            )
        )


def forget_player(session: Session, old: int, target: int | None = None) -> None:
    """Before player ``old`` is deleted: with ``target`` (a device linking, whose old
    player's games move to ``target``), each of ``old``'s daily results moves to
    ``target`` unless ``target`` already has one for that deal (one ranked attempt per
    player); every result not moved is dropped, its game becomes practice, and a clean
    one leaves its board's count. The name moves when ``target`` has none."""
    rows = session.scalars(select(DailyResult).where(DailyResult.player_id == old)).all()
    for result in rows:
        key = (result.day, result.game, result.options_key, result.difficulty)
        if target is not None and session.get(DailyResult, (*key, target)) is None:
            result.player_id = target
            continue
        if result.clean:
            session.execute(
                update(DailyBoard)
                .where(
                    DailyBoard.day == result.day,
                    DailyBoard.game == result.game,
                    DailyBoard.options_key == result.options_key,
                    DailyBoard.difficulty == result.difficulty,
                )
                .values(clean_wins=DailyBoard.clean_wins - 1)
            )
        session.execute(update(GameRow).where(GameRow.id == result.game_id).values(daily=None))
        session.delete(result)
    session.flush()
    session.execute(delete(NameReport).where(NameReport.reporter_id == old))
    if target is not None:
        name = session.scalar(select(Player.name).where(Player.id == old))
        if name is not None:
            session.execute(
                update(Player).where(Player.id == target, Player.name.is_(None)).values(name=name)
            )


def _order(by: Board) -> tuple[Any, ...]:
    first, second = (
        (DailyResult.time_ms, DailyResult.moves)
        if by == "time"
        else (DailyResult.moves, DailyResult.time_ms)
    )
    return first, second, DailyResult.finished_at


@dataclass(frozen=True)
class BoardKey:
    day: str
    game: str
    options_key: str
    difficulty: str

    def where(self) -> tuple[Any, ...]:
        return (
            DailyResult.day == self.day,
            DailyResult.game == self.game,
            DailyResult.options_key == self.options_key,
            DailyResult.difficulty == self.difficulty,
        )


def leaderboard(
    session: Session, key: BoardKey, by: Board, viewer: int | None, limit: int = TOP
) -> dict[str, Any]:
    """The top ``limit`` clean wins of a daily deal (fastest or fewest moves; a tie goes
    to the earlier win), the number of clean wins, and the viewer's own result and rank:
    index reads bounded whatever the number of players."""
    order = _order(by)
    clean = (*key.where(), DailyResult.clean == true())
    seen = NameReport.__table__.alias("seen")  # the viewer's own reports hide a name
    rows = session.execute(
        select(DailyResult, Player.name, Player.name_reports, seen.c.reporter_id)
        .join(Player, Player.id == DailyResult.player_id)
        .outerjoin(
            seen,
            (seen.c.player_id == DailyResult.player_id)
            & (seen.c.reporter_id == (viewer or 0))
            & (seen.c.name == Player.name),
        )
        .where(*clean)
        .order_by(*order)
        .limit(limit)
    ).all()
    top = [
        {
            "rank": i + 1,
            "player": r.DailyResult.player_id,
            "name": names.shown(r.name, r.name_reports, r.reporter_id is not None),
            "you": r.DailyResult.player_id == viewer,
            "time_ms": r.DailyResult.time_ms,
            "moves": r.DailyResult.moves,
        }
        for i, r in enumerate(rows)
    ]
    total = session.scalar(
        select(DailyBoard.clean_wins).where(
            DailyBoard.day == key.day,
            DailyBoard.game == key.game,
            DailyBoard.options_key == key.options_key,
            DailyBoard.difficulty == key.difficulty,
        )
    )
    return {"top": top, "total": total or 0, "you": _mine(session, key, by, viewer)}


RANK_EXACT = 10_000
"""A rank is counted exactly up to here (a count of at most this many index entries);
below it the answer says "over 10,000"."""


def _mine(session: Session, key: BoardKey, by: Board, viewer: int | None) -> dict[str, Any] | None:
    """The viewer's result and, for a clean win, its rank: the count of the better clean
    wins through the board's index, stopped at :data:`RANK_EXACT` (``rank_over``)."""
    if viewer is None:
        return None
    mine = session.scalar(select(DailyResult).where(*key.where(), DailyResult.player_id == viewer))
    if mine is None:
        return None
    rank = over = None
    if mine.clean:
        order = _order(by)
        values = tuple(getattr(mine, c.key) for c in order)
        better = (
            select(DailyResult.player_id)
            .where(*key.where(), DailyResult.clean == true(), tuple_(*order) < tuple_(*values))
            .limit(RANK_EXACT)
            .subquery()
        )
        found = session.scalar(select(func.count()).select_from(better)) or 0
        if found < RANK_EXACT:
            rank = found + 1
        else:
            over = RANK_EXACT
    return {
        "rank": rank,
        "rank_over": over,
        "clean": mine.clean,
        "time_ms": mine.time_ms,
        "moves": mine.moves,
        "game_id": mine.game_id,
    }


def streaks(days_won: set[date], today: date) -> tuple[int, int]:
    """(current, best) runs of consecutive UTC days with a won daily deal; the current
    run may end yesterday (today is not over).

    >>> d = date(2026, 12, 3)
    >>> streaks({d, d - timedelta(1), d - timedelta(3)}, d)
    (2, 2)
    >>> streaks({d - timedelta(1)}, d)
    (1, 1)
    >>> streaks(set(), d)
    (0, 0)
    """
    best = run = 0
    for day in sorted(days_won):
        run = run + 1 if day - timedelta(days=1) in days_won else 1
        best = max(best, run)
    current = 0
    day = today if today in days_won else today - timedelta(days=1)
    while day in days_won:
        current += 1
        day -= timedelta(days=1)
    return current, best


STREAK_DAYS = 366
"""How far back a streak is read (a bound on the request's work)."""


def overview(session: Session, player: int | None, today: date, days: int) -> dict[str, Any]:
    """A player's ranked daily games of the last ``days`` days and their streaks."""
    since = (today - timedelta(days=STREAK_DAYS)).isoformat()
    recent = (today - timedelta(days=days - 1)).isoformat()
    games: list[dict[str, Any]] = []
    won: set[date] = set()
    if player is not None:
        rows = session.execute(
            select(
                GameRow.id,
                GameRow.daily,
                GameRow.game,
                GameRow.options,
                GameRow.difficulty,
                GameRow.status,
                GameRow.time_ms,
                GameRow.hints,
                GameRow.undos,
                GameRow.restarts,
                GameRow.deal,
                func.json_array_length(GameRow.moves).label("moves"),
            )
            .where(GameRow.player_id == player, GameRow.daily >= since)
            .order_by(GameRow.daily.desc(), GameRow.created_at)
        ).all()
        for r in rows:
            assert r.daily is not None
            if r.status == "won":
                won.add(date.fromisoformat(r.daily))
            if r.daily >= recent:
                games.append(
                    {
                        "id": r.id,
                        "day": r.daily,
                        "game": r.game,
                        "options": dict(r.options),
                        "difficulty": r.difficulty,
                        "deal": r.deal,
                        "status": r.status,
                        "time_ms": r.time_ms,
                        "moves": int(r.moves),
                        "clean": r.status == "won" and is_clean(r.hints, r.undos, r.restarts),
                    }
                )
    current, best = streaks(won, today)
    return {"games": games, "streak": current, "best_streak": best}
