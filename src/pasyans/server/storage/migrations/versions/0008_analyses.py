"""Analyses: the analysis of a finished game, made in the background and kept
(docs/analysis.md, docs/interfaces.md "the analysis and the player's estimate").

Revision ID: 0008_analyses
Revises: 0007_actions
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0008_analyses"
down_revision: str | None = "0007_actions"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "analyses",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("game_version", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("share", sa.String(32), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("progress", sa.Float(), nullable=False),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.Column("method", sa.String(32), nullable=True),
        sa.Column("error", sa.String(40), nullable=True),
        sa.Column("requested_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "game_version", name="uq_analyses_game_version"),
        sa.UniqueConstraint("share"),
    )
    op.create_index("ix_analyses_pending", "analyses", ["status", "requested_at"])
    op.create_index("ix_analyses_player", "analyses", ["player_id", "status"])


def downgrade() -> None:
    op.drop_index("ix_analyses_player", table_name="analyses")
    op.drop_index("ix_analyses_pending", table_name="analyses")
    op.drop_table("analyses")
