"""Kept statistics, one game in progress per option set, a health row.

- ``player_stats``: each player's figures per scope, kept up to date as games finish
  (filled here from the games already stored);
- unfinished duplicates (several games in progress for one player, game and option set,
  left by racing requests) become ``abandoned``, all but the newest; then the unique
  partial index ``ux_games_one_playing`` keeps it so;
- indexes for the charts' latest finished games;
- ``health``: the row ``/healthz`` writes.

Revision ID: 0005_harden
Revises: 0004_pool
Create Date: 2026-11-30
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0005_harden"
down_revision: str | None = "0004_pool"
branch_labels: str | None = None
depends_on: str | None = None

PLAYING = "'playing'"

GAMES = sa.table(
    "games",
    sa.column("id", sa.String),
    sa.column("player_id", sa.Integer),
    sa.column("game", sa.String),
    sa.column("options", sa.JSON),
    sa.column("options_key", sa.String),
    sa.column("deal", sa.BigInteger),
    sa.column("kind", sa.String),
    sa.column("difficulty", sa.String),
    sa.column("status", sa.String),
    sa.column("moves", sa.JSON),
    sa.column("moves_total", sa.Integer),
    sa.column("score", sa.Integer),
    sa.column("hints", sa.Integer),
    sa.column("undos", sa.Integer),
    sa.column("restarts", sa.Integer),
    sa.column("time_ms", sa.BigInteger),
    sa.column("version", sa.Integer),
    sa.column("created_at", sa.DateTime(timezone=True)),
    sa.column("updated_at", sa.DateTime(timezone=True)),
    sa.column("first_move_at", sa.DateTime(timezone=True)),
    sa.column("finished_at", sa.DateTime(timezone=True)),
)


def upgrade() -> None:
    op.create_table(
        "player_stats",
        sa.Column(
            "player_id", sa.Integer(), sa.ForeignKey("players.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("options_key", sa.String(200), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("difficulty", sa.String(8), nullable=False),
        *(sa.Column(name, sa.Integer(), nullable=False) for name in (
            "played", "won", "given_up", "abandoned", "clean_wins", "current_streak",
            "best_streak",
        )),
        sa.Column("best_time_ms", sa.BigInteger(), nullable=True),
        sa.Column("best_time_id", sa.String(32), nullable=True),
        sa.Column("fewest_moves", sa.Integer(), nullable=True),
        sa.Column("fewest_moves_id", sa.String(32), nullable=True),
        *(sa.Column(name, sa.BigInteger(), nullable=False) for name in (
            "won_time_ms", "won_moves", "hints", "undos",
        )),
        sa.PrimaryKeyConstraint("player_id", "game", "options_key", "kind", "difficulty"),
    )  # fmt: skip
    op.create_table(
        "health",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("checked_at", sa.DateTime(timezone=True), nullable=False),
    )
    _abandon_duplicates()
    op.create_index(
        "ux_games_one_playing",
        "games",
        ["player_id", "game", "options_key"],
        unique=True,
        sqlite_where=sa.text(f"status = {PLAYING}"),
        postgresql_where=sa.text(f"status = {PLAYING}"),
    )
    op.create_index("ix_games_player_finished", "games", ["player_id", "finished_at"])
    op.create_index("ix_games_player_game_finished", "games", ["player_id", "game", "finished_at"])
    op.create_index(
        "ix_games_player_key_finished",
        "games",
        ["player_id", "game", "options_key", "finished_at"],
    )
    _fill_player_stats()


def downgrade() -> None:
    op.drop_index("ix_games_player_key_finished", table_name="games")
    op.drop_index("ix_games_player_game_finished", table_name="games")
    op.drop_index("ix_games_player_finished", table_name="games")
    op.drop_index("ux_games_one_playing", table_name="games")
    op.drop_table("health")
    op.drop_table("player_stats")


def _abandon_duplicates() -> None:
    conn = op.get_bind()
    rows = conn.execute(
        sa.select(GAMES.c.id, GAMES.c.player_id, GAMES.c.game, GAMES.c.options_key)
        .where(GAMES.c.status == "playing")
        .order_by(GAMES.c.created_at.desc(), GAMES.c.id.desc())
    )
    seen: set[tuple[int, str, str]] = set()
    stale: list[str] = []
    for gid, player, game, key in rows:
        if (player, game, key) in seen:
            stale.append(gid)
        seen.add((player, game, key))
    t = datetime.now(UTC)
    for i in range(0, len(stale), 500):
        conn.execute(
            sa.update(GAMES)
            .where(GAMES.c.id.in_(stale[i : i + 500]))
            .values(status="abandoned", finished_at=t, updated_at=t, version=GAMES.c.version + 1)
        )


def _finished(conn: Any) -> Iterator[Any]:
    """Every counted, finished game, by player, in finish order."""
    stmt = (
        sa.select(
            GAMES.c.id, GAMES.c.player_id, GAMES.c.game, GAMES.c.options, GAMES.c.options_key,
            GAMES.c.deal, GAMES.c.kind, GAMES.c.difficulty, GAMES.c.status,
            GAMES.c.moves_total, GAMES.c.score, GAMES.c.hints, GAMES.c.undos,
            GAMES.c.restarts, GAMES.c.time_ms, GAMES.c.created_at, GAMES.c.first_move_at,
            GAMES.c.finished_at, sa.func.json_array_length(GAMES.c.moves).label("line"),
        )
        .where(
            GAMES.c.first_move_at.is_not(None),
            GAMES.c.finished_at.is_not(None),
            GAMES.c.status != "playing",
        )
        .order_by(
            GAMES.c.player_id, GAMES.c.finished_at, GAMES.c.created_at, GAMES.c.id
        )
    )  # fmt: skip
    yield from conn.execute(stmt)


# --- the counting rules as they were at this revision (a frozen copy) -----------------------
#
# A migration must do the same thing whenever it runs, so it keeps its own copy of the
# rules that filled ``player_stats`` (from pasyans.server.stats.records at revision 0005)
# rather than importing the live code, which may change.

ALL = "*"

TALLY_FIELDS = (
    "played", "won", "given_up", "abandoned", "clean_wins", "current_streak", "best_streak",
    "best_time_ms", "best_time_id", "fewest_moves", "fewest_moves_id", "won_time_ms",
    "won_moves", "hints", "undos",
)  # fmt: skip


class Tally:
    """The kept figures of one scope. (A plain class: alembic loads a migration outside
    ``sys.modules``, where a dataclass cannot read its annotations.)"""

    def __init__(self) -> None:
        self.played = self.won = self.given_up = self.abandoned = self.clean_wins = 0
        self.current_streak = self.best_streak = 0
        self.best_time_ms: int | None = None
        self.best_time_id: str | None = None
        self.fewest_moves: int | None = None
        self.fewest_moves_id: str | None = None
        self.won_time_ms = self.won_moves = self.hints = self.undos = 0


def fold(t: Tally, row: Any) -> None:
    """Add a finished, counted game (a row of :func:`_finished`) to ``t``, in finish
    order."""
    moves = row.line
    t.played += 1
    t.hints += row.hints
    t.undos += row.undos
    if row.status == "won":
        t.won += 1
        t.clean_wins += row.hints == 0 and row.undos == 0 and row.restarts == 0
        t.current_streak += 1
        t.best_streak = max(t.best_streak, t.current_streak)
        t.won_time_ms += row.time_ms
        t.won_moves += moves
        if t.best_time_ms is None or row.time_ms < t.best_time_ms:
            t.best_time_ms, t.best_time_id = row.time_ms, row.id
        if t.fewest_moves is None or moves < t.fewest_moves:
            t.fewest_moves, t.fewest_moves_id = moves, row.id
    else:
        t.current_streak = 0
        t.given_up += row.status == "lost"
        t.abandoned += row.status == "abandoned"


def scopes(row: Any) -> list[tuple[str, str, str, str]]:
    """The four ``player_stats`` keys a game adds to, widest first."""
    return [
        (ALL, ALL, ALL, ALL),
        (row.game, ALL, ALL, ALL),
        (row.game, row.options_key, ALL, ALL),
        (row.game, row.options_key, row.kind, row.difficulty or "-"),
    ]


def _fill_player_stats() -> None:
    conn = op.get_bind()
    stats = sa.table(
        "player_stats",
        *(sa.column(c) for c in ("player_id", "game", "options_key", "kind", "difficulty")),
        *(sa.column(f) for f in TALLY_FIELDS),
    )
    tallies: dict[tuple[int, str, str, str, str], Tally] = {}

    def flush() -> None:
        if tallies:
            conn.execute(
                sa.insert(stats),
                [
                    dict(zip(("player_id", "game", "options_key", "kind", "difficulty"), k,
                             strict=True)) | {f: getattr(t, f) for f in TALLY_FIELDS}
                    for k, t in tallies.items()
                ],
            )  # fmt: skip
            tallies.clear()

    player = None
    for row in _finished(conn):
        if row.player_id != player and len(tallies) > 1000:
            flush()
        player = row.player_id
        for scope in scopes(row):
            fold(tallies.setdefault((player, *scope), Tally()), row)
    flush()
