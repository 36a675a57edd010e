"""The kept figures: each finished, counted game is folded into the player's
``player_stats`` rows (total, game, option set, option set + kind + difficulty) when it
finishes, in the same transaction (a ``before_flush`` listener on every session).
Reading the figures (:mod:`pasyans.server.stats.figures`) then reads those few rows, the
games in progress (one per option set at most) and the last ``POINTS_LIMIT`` finished
games for the charts."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, and_, bindparam, delete, event, inspect, select, tuple_, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from pasyans.server.stats import charts
from pasyans.server.stats.rows import Record, record_of, records
from pasyans.server.storage import store
from pasyans.server.storage.models import ALL, GameRow, PlayerStats

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


SCOPE_COLUMNS = ("game", "options_key", "kind", "difficulty")
KEY = and_(
    PlayerStats.player_id == bindparam("k_player"),
    *(getattr(PlayerStats, c) == bindparam(f"k_{c}") for c in SCOPE_COLUMNS),
)
_READ = (
    select(*(getattr(PlayerStats, c) for c in SCOPE_COLUMNS + TALLY_FIELDS))
    .where(PlayerStats.player_id == bindparam("k_player"))
    .where(
        tuple_(*(getattr(PlayerStats, c) for c in SCOPE_COLUMNS)).in_(
            bindparam("k_scopes", expanding=True)
        )
    )
    .order_by(*(getattr(PlayerStats, c) for c in SCOPE_COLUMNS))
)
_WRITE = update(PlayerStats).where(KEY).values({f: bindparam(f"v_{f}") for f in TALLY_FIELDS})
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
        [{"player_id": player, **dict(zip(SCOPE_COLUMNS, s, strict=True)), **blank}
         for s in wanted],
    )  # fmt: skip
    read = _READ.with_for_update() if conn.dialect.name == "postgresql" else _READ
    rows = conn.execute(read, {"k_player": player, "k_scopes": wanted}).all()
    n = len(SCOPE_COLUMNS)
    found = {tuple(r[:n]): Tally(**dict(zip(TALLY_FIELDS, r[n:], strict=True))) for r in rows}
    writes = []
    for scope in wanted:
        tally = found[scope]
        fold(tally, rec)
        key = {f"k_{c}": v for c, v in zip(SCOPE_COLUMNS, scope, strict=True)}
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

    It also forgets this process's remembered charts (see
    :func:`pasyans.server.stats.charts.points`); other worker processes keep theirs until
    a game of the scope finishes, so restart them after editing finished games by hand."""
    charts.forget()
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
