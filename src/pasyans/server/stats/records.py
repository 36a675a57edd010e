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

Over 400 lines because the records, the kept figures folded at finish time and the
summaries must count the same way (``tests/server/test_stats.py`` compares them); a
split into records, kept figures and summaries is the next step.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from sqlalchemy import (
    Connection,
    and_,
    bindparam,
    delete,
    event,
    func,
    inspect,
    select,
    text,
    tuple_,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from pasyans import caches
from pasyans.rules import GAMES
from pasyans.server.storage import store
from pasyans.server.storage.models import ALL, GameRow, PlayerStats

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
        difficulty=row.difficulty,
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
    total = counted_games(session, player)
    stmt = (
        select(*COLUMNS)
        .where(*where)
        .order_by(GameRow.created_at.desc(), GameRow.id.desc())
        .limit(per_page)
        .offset((page - 1) * per_page)
    )
    return [_record(r, r.line) for r in session.execute(stmt)], total


def counted_games(session: Session, player: int) -> int:
    """How many counted games the player has, in O(1): the finished ones from the kept
    total (each is folded in once, when it finishes), the unfinished ones through the
    partial index of games in progress (one per option set at most)."""
    total = {"k_player": player} | {f"k_{c}": ALL for c in _SCOPE_COLUMNS}
    played = session.scalar(select(PlayerStats.played).where(_KEY), total)
    progress = session.execute(
        text(
            f"SELECT count(*) FROM games {_playing_index(session)}"
            " WHERE player_id = :player AND status = 'playing' AND first_move_at IS NOT NULL"
        ),
        {"player": player},
    ).scalar_one()
    return (played or 0) + int(progress)


def _playing_index(session: Session) -> str:
    """SQLite's planner, without statistics, prefers a wider index of all the player's
    games: it is told to read the small partial index of the games in progress."""
    return "INDEXED BY ux_games_one_playing" if session.get_bind().dialect.name == "sqlite" else ""


def reset(session: Session, player: int | None) -> int:
    """Forget the player's finished games (figures, charts and history start again); games
    in progress stay. Returns how many games were deleted. The caller commits."""
    if player is None:
        return 0
    result = session.execute(
        delete(GameRow).where(GameRow.player_id == player, GameRow.status != store.PLAYING)
    )
    session.execute(delete(PlayerStats).where(PlayerStats.player_id == player))
    return int(getattr(result, "rowcount", 0) or 0)


# --- kept figures -----------------------------------------------------------------------------
#
# Each finished, counted game is folded into the player's ``player_stats`` rows (total,
# game, option set, option set + kind + difficulty) when it finishes, in the same
# transaction. Reading the figures then reads those few rows, the games in progress (one
# per option set at most) and the last POINTS_LIMIT finished games for the charts.

TALLY_FIELDS = (
    "played",
    "won",
    "given_up",
    "abandoned",
    "clean_wins",
    "current_streak",
    "best_streak",
    "best_time_ms",
    "best_time_id",
    "fewest_moves",
    "fewest_moves_id",
    "won_time_ms",
    "won_moves",
    "hints",
    "undos",
)


@dataclass
class Tally:
    """The kept figures of one scope: what :func:`fold` needs to add a game in O(1)."""

    played: int = 0
    won: int = 0
    given_up: int = 0
    abandoned: int = 0
    clean_wins: int = 0
    current_streak: int = 0
    best_streak: int = 0
    best_time_ms: int | None = None
    best_time_id: str | None = None
    fewest_moves: int | None = None
    fewest_moves_id: str | None = None
    won_time_ms: int = 0
    won_moves: int = 0
    hints: int = 0
    undos: int = 0


def fold(t: Tally, rec: Record) -> None:
    """Add a finished, counted game to ``t``; games must come in finish order (the rules
    of the module doc, the same figures as :func:`summarize`)."""
    t.played += 1
    t.hints += rec.hints
    t.undos += rec.undos
    if rec.won:
        t.won += 1
        t.clean_wins += rec.clean
        t.current_streak += 1
        t.best_streak = max(t.best_streak, t.current_streak)
        t.won_time_ms += rec.time_ms
        t.won_moves += rec.moves
        if t.best_time_ms is None or rec.time_ms < t.best_time_ms:
            t.best_time_ms, t.best_time_id = rec.time_ms, rec.id
        if t.fewest_moves is None or rec.moves < t.fewest_moves:
            t.fewest_moves, t.fewest_moves_id = rec.moves, rec.id
    else:
        t.current_streak = 0
        t.given_up += rec.status == "lost"
        t.abandoned += rec.status == "abandoned"


Scope = tuple[str, str, str, str]


def scopes(rec: Record) -> list[Scope]:
    """The four ``player_stats`` keys a game adds to, widest first (a fixed order, so two
    transactions lock them in the same order)."""
    return [
        (ALL, ALL, ALL, ALL),
        (rec.game, ALL, ALL, ALL),
        (rec.game, rec.options_key, ALL, ALL),
        (rec.game, rec.options_key, rec.kind, rec.difficulty or "-"),
    ]


_SCOPE_COLUMNS = ("game", "options_key", "kind", "difficulty")
_KEY = and_(
    PlayerStats.player_id == bindparam("k_player"),
    *(getattr(PlayerStats, c) == bindparam(f"k_{c}") for c in _SCOPE_COLUMNS),
)
_READ = (
    select(*(getattr(PlayerStats, c) for c in _SCOPE_COLUMNS + TALLY_FIELDS))
    .where(PlayerStats.player_id == bindparam("k_player"))
    .where(
        tuple_(*(getattr(PlayerStats, c) for c in _SCOPE_COLUMNS)).in_(
            bindparam("k_scopes", expanding=True)
        )
    )
    .order_by(*(getattr(PlayerStats, c) for c in _SCOPE_COLUMNS))
)
_WRITE = update(PlayerStats).where(_KEY).values({f: bindparam(f"v_{f}") for f in TALLY_FIELDS})
_NEW = {
    name: dialect.insert(PlayerStats).on_conflict_do_nothing()
    for name, dialect in (("postgresql", postgresql), ("sqlite", sqlite))
}
"""The three statements of :func:`record_finish`, built once: building and compiling three
statements per scope on every finished game cost about 10 ms of CPU (16 ms at p90), in
the web worker's one event loop."""


def record_finish(conn: Connection, player: int, rec: Record) -> None:
    """Fold a game that has just finished into the player's kept figures: its four rows
    are made if new, read (row locks on PostgreSQL, taken in one order, so concurrent
    finishes of one player queue) and written back, one statement each."""
    wanted = scopes(rec)
    blank = {f: getattr(Tally(), f) for f in TALLY_FIELDS}
    conn.execute(
        _NEW[conn.dialect.name],
        [{"player_id": player, **dict(zip(_SCOPE_COLUMNS, s, strict=True)), **blank}
         for s in wanted],
    )  # fmt: skip
    read = _READ.with_for_update() if conn.dialect.name == "postgresql" else _READ
    rows = conn.execute(read, {"k_player": player, "k_scopes": wanted}).all()
    n = len(_SCOPE_COLUMNS)
    found = {tuple(r[:n]): Tally(**dict(zip(TALLY_FIELDS, r[n:], strict=True))) for r in rows}
    writes = []
    for scope in wanted:
        tally = found[scope]
        fold(tally, rec)
        key = {f"k_{c}": v for c, v in zip(_SCOPE_COLUMNS, scope, strict=True)}
        values = {f"v_{f}": getattr(tally, f) for f in TALLY_FIELDS}
        writes.append({"k_player": player, **key, **values})
    conn.execute(_WRITE, writes)


def _just_finished(row: GameRow, new: bool) -> bool:
    if row.status == store.PLAYING or row.first_move_at is None or row.finished_at is None:
        return False
    if new:
        return True
    old: Sequence[Any] = inspect(row).attrs.status.history.deleted or ()
    return store.PLAYING in old


def _before_flush(session: Session, _context: Any, _instances: Any) -> None:
    done = [
        row
        for objects, new in ((session.new, True), (session.dirty, False))
        for row in objects
        if isinstance(row, GameRow) and _just_finished(row, new)
    ]
    if not done:
        return
    conn = session.connection()
    pairs = sorted(
        ((record_of(row), row.player_id) for row in done), key=lambda p: p[0].finish_order()
    )
    for rec, player in pairs:
        record_finish(conn, player, rec)


event.listen(Session, "before_flush", _before_flush)
"""Every session (the server's, the tests', the benchmarks') keeps the figures: a game
row that becomes finished, or is inserted finished, is folded in when it is flushed."""


def rebuild(session: Session, player: int) -> None:
    """Recount a player's kept figures from their games (after a change made behind the
    API's back, such as a migration or a test setting a time). The caller commits.

    It also forgets this process's remembered charts (see :func:`_points`); other worker
    processes keep theirs until a game of the scope finishes, so restart them after
    editing finished games by hand."""
    with _CHARTS_LOCK:
        _CHARTS.clear()
    session.execute(delete(PlayerStats).where(PlayerStats.player_id == player))
    tallies: dict[Scope, Tally] = {}
    finished = [r for r in records(session, player) if r.finished]
    for rec in sorted(finished, key=Record.finish_order):
        for scope in scopes(rec):
            fold(tallies.setdefault(scope, Tally()), rec)
    for (game, key, kind, difficulty), t in tallies.items():
        session.add(
            PlayerStats(player_id=player, game=game, options_key=key, kind=kind,
                        difficulty=difficulty, **{f: getattr(t, f) for f in TALLY_FIELDS})
        )  # fmt: skip
    session.flush()


def figures_of(
    t: Tally,
    in_progress: int,
    bests: dict[str, dict[str, Any]],
    points: list[dict[str, Any]],
) -> dict[str, Any]:
    """The API's figures from a kept tally (the same shape as :func:`summarize`)."""

    def best(value: int | None, game_id: str | None) -> dict[str, Any] | None:
        if value is None or game_id is None or game_id not in bests:
            return None
        return {"value": value, **bests[game_id]}

    return {
        "played": t.played,
        "won": t.won,
        "lost": t.played - t.won,
        "given_up": t.given_up,
        "abandoned": t.abandoned,
        "win_rate": round(t.won / t.played, 4) if t.played else None,
        "clean_wins": t.clean_wins,
        "in_progress": in_progress,
        "current_streak": t.current_streak,
        "best_streak": t.best_streak,
        "best_time": best(t.best_time_ms, t.best_time_id),
        "fewest_moves": best(t.fewest_moves, t.fewest_moves_id),
        "average_time_ms": round(t.won_time_ms / t.won) if t.won else None,
        "average_moves": round(t.won_moves / t.won, 1) if t.won else None,
        "hints": t.hints,
        "undos": t.undos,
        "points": points,
    }


def parse_key(key: str) -> dict[str, str]:
    """The options of an option key: ``"runs=single&spine=56"`` → ``{"runs": …}``."""
    return dict(part.split("=", 1) for part in key.split("&") if "=" in part)


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


def _points(
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


def kept_statistics(
    session: Session,
    player: int | None,
    *,
    game: str | None = None,
    key: str | None = None,
    points: int = POINTS_LIMIT,
) -> dict[str, Any]:
    """What :func:`statistics` gives over :func:`records`, from the kept figures: a few
    rows per option set, whatever the number of games."""
    empty = {"total": figures_of(Tally(), 0, {}, []), "games": []}
    if player is None:
        return empty
    stmt = select(PlayerStats).where(PlayerStats.player_id == player)
    if game is not None:
        stmt = stmt.where(PlayerStats.game.in_([game, ALL]))
    kept = {(r.game, r.options_key, r.kind, r.difficulty): r for r in session.scalars(stmt)}
    # The games in progress, one per option set at most: counted here, not grouped in SQL,
    # so the planner reads the small partial index ``ux_games_one_playing``.
    progress_stmt = text(
        f"SELECT game, options_key, first_move_at FROM games {_playing_index(session)} "
        "WHERE player_id = :player AND status = 'playing'"
    )
    progress: dict[tuple[str, str], int] = {}
    for g, k, first in session.execute(progress_stmt, {"player": player}):
        if first is not None and (game is None or g == game) and (key is None or k == key):
            progress[(g, k)] = progress.get((g, k), 0) + 1
    groups = {(g, k) for (g, k, kind, _d) in kept if g != ALL and k != ALL and kind == ALL}
    groups = {gk for gk in groups | set(progress) if key is None or gk[1] == key}
    if game is not None:
        groups = {gk for gk in groups if gk[0] == game}
    total_scope = (ALL, ALL, ALL, ALL) if game is None else (
        (game, ALL, ALL, ALL) if key is None else (game, key, ALL, ALL)
    )  # fmt: skip

    def tally(scope: Scope) -> Tally:
        row = kept.get(scope)
        return Tally() if row is None else Tally(**{f: getattr(row, f) for f in TALLY_FIELDS})

    tallies = {gk: tally((gk[0], gk[1], ALL, ALL)) for gk in groups}
    # Each option set split by deal kind and difficulty ("-" for a random deal).
    bands: dict[tuple[str, str], list[tuple[str, str, Tally]]] = {gk: [] for gk in groups}
    for g, k, kind, difficulty in sorted(kept, key=_band_order):
        if kind != ALL and (g, k) in bands:
            bands[(g, k)].append((kind, difficulty, tally((g, k, kind, difficulty))))
    total = tally(total_scope)
    ids = {
        i
        for t in [total, *tallies.values(), *(b[2] for bs in bands.values() for b in bs)]
        for i in (t.best_time_id, t.fewest_moves_id)
        if i is not None
    }
    bests: dict[str, dict[str, Any]] = {}
    if ids:
        for r in session.execute(
            select(GameRow.id, GameRow.deal, GameRow.kind, GameRow.game, GameRow.options).where(
                GameRow.id.in_(ids), GameRow.player_id == player
            )
        ):
            bests[r.id] = {
                "deal": r.deal,
                "kind": r.kind,
                "game": r.game,
                "options": {str(k): str(v) for k, v in dict(r.options).items()},
                "id": r.id,
            }
    out = []
    charts: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for g, k in sorted(groups, key=lambda gk: (_order(gk[0]), gk)):
        charts[(g, k)] = _points(session, player, g, k, points, tallies[(g, k)].played)
        figures = figures_of(tallies[(g, k)], progress.get((g, k), 0), bests, charts[(g, k)])
        by_band = [
            {"kind": kind, "difficulty": None if d == "-" else d} | figures_of(t, 0, bests, [])
            for kind, d, t in bands[(g, k)]
        ]
        out.append({"game": g, "options": parse_key(k), "options_key": k} | figures
                   | {"bands": by_band})  # fmt: skip
    # With one option set, the total's chart is that set's: not read twice.
    total_points = (
        next(iter(charts.values()))
        if len(charts) == 1
        else _points(session, player, game, key, points, total.played)
    )
    total_figures = figures_of(
        total, sum(progress.get(gk, 0) for gk in groups), bests, total_points
    )
    return {"total": total_figures, "games": out}


_BANDS = {"-": 0, "easy": 1, "medium": 2, "hard": 3}


def _band_order(scope: Scope) -> tuple[str, str, bool, int, str]:
    """Random deals first, then easy, medium, hard."""
    g, k, kind, d = scope
    return g, k, kind != "random", _BANDS.get(d, 9), d


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
