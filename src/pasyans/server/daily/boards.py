"""The leaderboards of daily deals and a player's daily record (docs/daily.md).

Every figure comes from stored games: a ranked daily game that is won is written to
``daily_results`` by the server, in the transaction of the move that won it
(:func:`record_win`), with the server's own time and the moves of its stored line. A
leaderboard is a top-N read through an index of that table, cached in the app while the
board's count of clean wins stands (:mod:`pasyans.server.daily.topcache`), and a player's
rank a count of at most about :data:`LADDER_STEP` entries through the same index from the
cached ladder, so a request's work is bounded whatever the number of players.

Long (~440 lines; :func:`leaderboard`, ~65, with the viewer's hidden names and the
rows it answers) because a result's write (:func:`record_win`, :func:`forget_player`) and
the reads of its boards (the top, the ladder, the rank, the streaks) share the table's
keys and its two orders; split, each half would restate them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any, Literal

from sqlalchemy import (
    Connection,
    Row,
    TextClause,
    bindparam,
    delete,
    func,
    select,
    text,
    true,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session
from starlette.requests import Request

from pasyans.server.daily import names
from pasyans.server.daily.topcache import Top, TopCache, TopRow
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
    board = {
        "day": row.daily,
        "game": row.game,
        "options_key": row.options_key,
        "difficulty": row.difficulty or "",
    }
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


def forget_tops(request: Request | None) -> None:
    """After a name is set or reported, or a player's results move or go: the app's cached
    tops are read again (another worker's within :attr:`TopCache.ttl`)."""
    cache = None if request is None else getattr(request.app.state, "top_cache", None)
    if cache is not None:
        cache.clear()


def _top(session: Session, key: BoardKey, by: Board, limit: int) -> list[TopRow]:
    """The top ``limit`` clean wins, with each name as everyone sees it."""
    rows = session.execute(
        select(
            DailyResult.player_id,
            DailyResult.time_ms,
            DailyResult.moves,
            Player.name,
            Player.name_reports,
        )
        .join(Player, Player.id == DailyResult.player_id)
        .where(*key.where(), DailyResult.clean == true())
        .order_by(*_order(by))
        .limit(limit)
    ).all()
    return [
        TopRow(r.player_id, names.shown(r.name, r.name_reports, False), r.time_ms, r.moves)
        for r in rows
    ]


_ORDER_COLUMNS = {
    "time": ("time_ms", "moves", "finished_at"),
    "moves": ("moves", "time_ms", "finished_at"),
}


def _board_of(alias: str) -> str:
    return " AND ".join(
        f"{alias}.{column} = :{name}"
        for column, name in (
            ("day", "day"),
            ("game", "game"),
            ("options_key", "key"),
            ("difficulty", "band"),
        )
    )


def _ordered(alias: str, by: Board) -> str:
    return "(" + ", ".join(f"{alias}.{c}" for c in _ORDER_COLUMNS[by]) + ")"


def _viewer_sql() -> TextClause:
    """One statement for what is the viewer's own (:func:`leaderboard`): the player of the
    device's token, their result on the board, the board's clean wins (the cached top's
    stamp), and how many of the cached top's names this viewer reported."""
    return text(
        "SELECT d.player_id AS player, b.clean_wins, m.clean, m.time_ms, m.moves,"
        " m.finished_at, m.game_id,"
        " (SELECT count(*) FROM name_reports n WHERE n.player_id IN :named"
        " AND n.reporter_id = d.player_id) AS reported"
        " FROM (SELECT 1 AS one) AS o"
        " LEFT JOIN devices d ON d.token_hash = :token"
        f" LEFT JOIN daily_results m ON {_board_of('m')} AND m.player_id = d.player_id"
        f" LEFT JOIN daily_boards b ON {_board_of('b')}"
    ).bindparams(bindparam("named", expanding=True))


def _ladder_sql(by: Board) -> TextClause:
    """Every :data:`LADDER_STEP`-th of the first ``:exact`` clean wins in the board's
    order: its order key, and how many wins come strictly before it (``rank() - 1``)."""
    order = ", ".join(_ORDER_COLUMNS[by])
    return text(
        f"SELECT {order}, before FROM (SELECT {order},"
        f" row_number() OVER (ORDER BY {order}) AS n,"
        f" rank() OVER (ORDER BY {order}) - 1 AS before FROM (SELECT {order}"
        f" FROM daily_results x WHERE {_board_of('x')} AND x.clean = :yes"
        f" ORDER BY {order} LIMIT :exact) AS firsts) AS ranked WHERE n % :step = 0 ORDER BY n"
    )


def _window_sql(by: Board, lower: bool) -> TextClause:
    """The clean wins before the viewer's (``:m0``-``:m2``, their order key) and, with
    ``lower``, not before a ladder's key (``:l0``-``:l2``); at most ``:most`` of them."""
    since = f" AND {_ordered('x', by)} >= (:l0, :l1, :l2)" if lower else ""
    return text(
        "SELECT count(*) FROM (SELECT 1 FROM daily_results x"
        f" WHERE {_board_of('x')} AND x.clean = :yes{since}"
        f" AND {_ordered('x', by)} < (:m0, :m1, :m2) LIMIT :most) AS better"
    )


_VIEWER_SQL = _viewer_sql()
_LADDER_SQL = {by: _ladder_sql(by) for by in ("time", "moves")}
_WINDOW_SQL = {(by, lower): _window_sql(by, lower) for by in ("time", "moves")
               for lower in (False, True)}  # fmt: skip
LADDER_STEP = 100
"""The ladder's step: a rank counts at most about this many index entries."""


def _better(session: Session, top: Top, by: Board, params: dict[str, Any], mine: Row[Any]) -> int:
    """How many clean wins are better than the viewer's (at most :data:`RANK_EXACT`): the
    cached ladder's count before the last of its keys below the viewer's, and a count
    through the index from there (bounded by the step)."""
    key = tuple(getattr(mine, c) for c in _ORDER_COLUMNS[by])
    lower: tuple[Any, ...] | None = None
    base = 0
    for step_key, before in top.ladder:
        if not step_key < key:
            break
        lower, base = step_key, before
    most = RANK_EXACT - base
    if most <= 0:
        return RANK_EXACT
    values = {**params, "most": most, **{f"m{i}": v for i, v in enumerate(key)}}
    if lower is not None:
        values |= {f"l{i}": v for i, v in enumerate(lower)}
    found = session.execute(_WINDOW_SQL[(by, lower is not None)], values).scalar() or 0
    return base + int(found)


def leaderboard(
    session: Session,
    cache: TopCache,
    key: BoardKey,
    by: Board,
    token_hash: str,
    deal_of: Callable[[], int | None],
) -> dict[str, Any]:
    """The top :data:`TOP` clean wins of a daily deal (fastest or fewest moves; a tie goes
    to the earlier win), the number of clean wins, the deal's number (``deal_of``), and
    the viewer's own result and rank.

    One statement when the app's cached top of the board still holds (its stamp, the
    board's clean wins, unchanged, and younger than :data:`TopCache.ttl`), and a second
    for a clean result's rank (:func:`_better`); otherwise the top and its ladder are
    read again and cached. Every read is through an index and bounded whatever the
    number of players (docs/daily.md)."""
    found = cache.get(key, by)
    params = {
        "day": key.day,
        "game": key.game,
        "key": key.options_key,
        "band": key.difficulty,
        "yes": True,
        "exact": RANK_EXACT,
        "token": token_hash,
    }
    named = [r.player for r in found.rows if r.name is not None] if found else []
    me = session.execute(_VIEWER_SQL, {**params, "named": named}).one()
    total = me.clean_wins or 0
    if found is None or found.stamp != total:
        ladder = session.execute(_LADDER_SQL[by], {**params, "step": LADDER_STEP}).all()
        found = cache.put(
            key, by, total, _top(session, key, by, TOP), deal_of(),
            tuple((tuple(r[:3]), int(r[3])) for r in ladder),
        )  # fmt: skip
        named = [r.player for r in found.rows if r.name is not None]
        reported = bool(named) and me.player is not None
    else:
        reported = bool(me.reported)
    hidden: set[int] = set()
    if reported:  # the viewer's own reports hide those names from them at once
        hidden = set(
            session.scalars(
                select(NameReport.player_id)
                .join(Player, Player.id == NameReport.player_id)
                .where(
                    NameReport.reporter_id == me.player,
                    NameReport.player_id.in_(named),
                    NameReport.name == Player.name,
                )
            )
        )
    top = [
        {
            "rank": i + 1,
            "player": r.player,
            "name": None if r.player in hidden else r.name,
            "you": r.player == me.player,
            "time_ms": r.time_ms,
            "moves": r.moves,
        }
        for i, r in enumerate(found.rows)
    ]
    better = _better(session, found, by, params, me) if me.clean else 0
    return {"top": top, "total": total, "deal": found.deal, "you": _mine(me, better)}


RANK_EXACT = 10_000
"""A rank is counted exactly up to here (a count of at most this many index entries);
below it the answer says "over 10,000"."""


def _mine(me: Row[Any], better: int) -> dict[str, Any] | None:
    """The viewer's result and, for a clean win, its rank (``rank_over`` past
    :data:`RANK_EXACT`)."""
    if me.game_id is None:
        return None
    clean = bool(me.clean)
    rank = over = None
    if clean:
        if better < RANK_EXACT:
            rank = better + 1
        else:
            over = RANK_EXACT
    return {
        "rank": rank,
        "rank_over": over,
        "clean": clean,
        "time_ms": me.time_ms,
        "moves": me.moves,
        "game_id": me.game_id,
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
