"""Daily deals and their leaderboards (docs/daily.md): which game is a day's ranked daily
attempt (``games.daily``), pool entries made as daily deals (``deal_pool.daily``), the
won daily games the leaderboards read (``daily_results``) and their counts
(``daily_boards``), display names and their
reports (``players.name``, ``players.name_reports``, ``name_reports``).

Revision ID: 0009_daily
Revises: 0007_actions
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0009_daily"
down_revision: str | None = "0008_analyses"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("players") as t:
        t.add_column(sa.Column("name", sa.String(40), nullable=True))
        t.add_column(sa.Column("name_reports", sa.Integer(), nullable=False, server_default="0"))
    with op.batch_alter_table("games") as t:
        t.add_column(sa.Column("daily", sa.String(10), nullable=True))
    op.create_index("ix_games_player_daily", "games", ["player_id", "daily"])
    with op.batch_alter_table("deal_pool") as t:
        t.add_column(sa.Column("daily", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.create_table(
        "daily_results",
        sa.Column("day", sa.String(10), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("options_key", sa.String(200), nullable=False),
        sa.Column("difficulty", sa.String(8), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("clean", sa.Boolean(), nullable=False),
        sa.Column("time_ms", sa.BigInteger(), nullable=False),
        sa.Column("moves", sa.Integer(), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("day", "game", "options_key", "difficulty", "player_id"),
    )
    board = ["day", "game", "options_key", "difficulty", "clean"]
    op.create_index(
        "ix_daily_results_time", "daily_results", [*board, "time_ms", "moves", "finished_at"]
    )
    op.create_index(
        "ix_daily_results_moves", "daily_results", [*board, "moves", "time_ms", "finished_at"]
    )
    op.create_index("ix_daily_results_player", "daily_results", ["player_id", "day"])
    op.create_table(
        "daily_boards",
        sa.Column("day", sa.String(10), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("options_key", sa.String(200), nullable=False),
        sa.Column("difficulty", sa.String(8), nullable=False),
        sa.Column("clean_wins", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("day", "game", "options_key", "difficulty"),
    )
    op.create_table(
        "name_reports",
        sa.Column("reporter_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["reporter_id"], ["players.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("player_id", "reporter_id", "name"),
    )


def downgrade() -> None:
    op.drop_table("name_reports")
    op.drop_table("daily_boards")
    op.drop_index("ix_daily_results_player", table_name="daily_results")
    op.drop_index("ix_daily_results_moves", table_name="daily_results")
    op.drop_index("ix_daily_results_time", table_name="daily_results")
    op.drop_table("daily_results")
    with op.batch_alter_table("deal_pool") as t:
        t.drop_column("daily")
    op.drop_index("ix_games_player_daily", table_name="games")
    with op.batch_alter_table("games") as t:
        t.drop_column("daily")
    with op.batch_alter_table("players") as t:
        t.drop_column("name_reports")
        t.drop_column("name")
