"""Action ids: the recent answers of each game, kept under the id the page gave them, so
that a resent action is answered again and never applied twice (``docs/interfaces.md``,
"Action ids: exactly once").

Revision ID: 0007_actions
Revises: 0006_requester
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0007_actions"
down_revision: str | None = "0006_requester"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "game_actions",
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("action_id", sa.String(64), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("status", sa.Integer(), nullable=False),
        sa.Column("answer", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "action_id"),
    )
    op.create_index("ix_game_actions_version", "game_actions", ["game_id", "version"])


def downgrade() -> None:
    op.drop_index("ix_game_actions_version", table_name="game_actions")
    op.drop_table("game_actions")
