"""The charts of the statistics page: a player's last finished games in a scope, read by
one indexed query and remembered per process until a game of the scope finishes."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from sqlalchemy import bindparam, func, select
from sqlalchemy.orm import Session

from pasyans import caches
from pasyans.server.stats.rows import RESULTS
from pasyans.server.storage import store
from pasyans.server.storage.models import GameRow


def _points_stmt(by_game: bool, by_key: bool) -> Any:
    stmt = select(
        GameRow.id,
        GameRow.created_at,
        GameRow.finished_at,
        GameRow.status,
        GameRow.time_ms,
        GameRow.deal,
        GameRow.game,
        func.json_array_length(GameRow.moves).label("line"),
    ).where(
        GameRow.player_id == bindparam("player"),
        GameRow.finished_at.is_not(None),
        GameRow.first_move_at.is_not(None),
        GameRow.status != store.PLAYING,
    )
    if by_game:
        stmt = stmt.where(GameRow.game == bindparam("game"))
    if by_key:
        stmt = stmt.where(GameRow.options_key == bindparam("key"))
    # Ordered by the indexed column alone, so the database walks the index backwards and
    # stops at ``limit``; ties (the same instant) are then put in finish order here.
    return stmt.order_by(GameRow.finished_at.desc()).limit(bindparam("limit"))


_POINTS = {(g, k): _points_stmt(g, k) for g in (False, True) for k in (False, True)}
"""Built once (a statement built per call costs its cache key each time)."""


_NEWEST = {gk: stmt.with_only_columns(GameRow.id) for gk, stmt in _POINTS.items()}
"""The id of the newest game a chart would show (the same filter and order, limit 1)."""

CHARTS_KEPT = 512
_CHARTS: OrderedDict[tuple[Any, ...], list[dict[str, Any]]] = caches.register(
    "stats.charts", OrderedDict(), bound=CHARTS_KEPT
)
_CHARTS_LOCK = threading.Lock()
"""Charts remembered per process (least recently used first out)."""


def points(
    session: Session,
    player: int,
    game: str | None,
    key: str | None,
    limit: int,
    played: int,
) -> list[dict[str, Any]]:
    """The chart of the player's last ``limit`` finished games in a scope (``played`` of
    them in all). A chart changes only when a game of its scope finishes (it becomes the
    newest) or the figures are reset (the games are deleted): so it is remembered under
    the newest game's id and the count, read by one indexed row, and rebuilt only then.
    The lists are shared between requests: callers must not change them."""
    if limit <= 0:
        return []
    params = {"player": player, "game": game, "key": key, "limit": limit}
    conn = session.connection()
    newest = conn.execute(_NEWEST[game is not None, key is not None], params | {"limit": 1})
    newest_id = newest.scalar()
    if newest_id is None:
        return []
    memo = (str(conn.engine.url), player, game, key, limit, played, newest_id)
    with _CHARTS_LOCK:
        hit = _CHARTS.get(memo)
        if hit is not None:
            _CHARTS.move_to_end(memo)
            return hit
    # On the session's connection: plain rows, without the ORM's result machinery.
    found = conn.execute(_POINTS[game is not None, key is not None], params).all()
    try:  # the times of one database are all naive (SQLite) or all aware
        rows = sorted(found, key=lambda r: (r.finished_at, r.created_at, r.id), reverse=True)
    except TypeError:  # both kinds (rows written by hand): compared as UTC
        aware = store.aware
        rows = sorted(
            found,
            key=lambda r: (aware(r.finished_at), aware(r.created_at), r.id),
            reverse=True,
        )
    out = [
        {
            "at": store.aware(r.finished_at),
            "result": RESULTS[r.status],
            "time_ms": r.time_ms,
            "moves": r.line,
            "deal": r.deal,
            "game": r.game,
        }
        for r in reversed(rows)
    ]
    with _CHARTS_LOCK:
        _CHARTS[memo] = out
        while len(_CHARTS) > CHARTS_KEPT:
            _CHARTS.popitem(last=False)
    return out


def forget() -> None:
    """Forget this process's remembered charts (after the kept figures are rebuilt)."""
    with _CHARTS_LOCK:
        _CHARTS.clear()
