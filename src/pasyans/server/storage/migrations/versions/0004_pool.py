"""The solvable-deal pool, its jobs, remembered verdicts and shared rate-limit counters.

Revision ID: 0004_pool
Revises: 0003
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0004_pool"
down_revision: str | None = "0003"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "deal_pool",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("options_key", sa.String(200), nullable=False),
        sa.Column("difficulty", sa.String(8), nullable=False),
        sa.Column("deal", sa.BigInteger(), nullable=False),
        sa.Column("generator", sa.Integer(), nullable=False),
        sa.Column("start", sa.JSON(), nullable=False),
        sa.Column("measure", sa.Float(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("taken_at", sa.DateTime(timezone=True), nullable=True),
        sa.UniqueConstraint(
            "game", "options_key", "difficulty", "deal", "generator", name="uq_deal_pool_deal"
        ),
    )
    op.create_index(
        "ix_deal_pool_free",
        "deal_pool",
        ["game", "options_key", "difficulty", "generator", "taken_at"],
    )
    op.create_table(
        "deal_jobs",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("options_key", sa.String(200), nullable=False),
        sa.Column("difficulty", sa.String(8), nullable=False),
        sa.Column("deal", sa.BigInteger(), nullable=False),
        sa.Column("generator", sa.Integer(), nullable=False),
        sa.Column("requested_by", sa.String(64), nullable=False),
        sa.Column("requested_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("error", sa.String(40), nullable=True),
        sa.UniqueConstraint(
            "game", "options_key", "difficulty", "deal", "generator", name="uq_deal_jobs_deal"
        ),
    )
    op.create_index("ix_deal_jobs_pending", "deal_jobs", ["finished_at", "requested_at"])
    op.create_table(
        "verdicts",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("result", sa.String(8), nullable=False),
        sa.Column("move", sa.String(40), nullable=True),
        sa.Column("seconds", sa.Float(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "rate_limits",
        sa.Column("key", sa.String(120), primary_key=True),
        sa.Column("tat_ms", sa.BigInteger(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("rate_limits")
    op.drop_table("verdicts")
    op.drop_index("ix_deal_jobs_pending", table_name="deal_jobs")
    op.drop_table("deal_jobs")
    op.drop_index("ix_deal_pool_free", table_name="deal_pool")
    op.drop_table("deal_pool")
