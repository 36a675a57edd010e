"""An index on who asked for a deal job, and when.

The caps on requested deal numbers count one address's jobs (pending, and made in the
last hour) on every request for a number not in the pool; without this index each count
read the whole ``deal_jobs`` table.

Revision ID: 0006_requester
Revises: 0005_harden
Create Date: 2026-12-01
"""

from __future__ import annotations

from alembic import op

revision: str = "0006_requester"
down_revision: str | None = "0005_harden"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_index("ix_deal_jobs_requester", "deal_jobs", ["requested_by", "requested_at"])


def downgrade() -> None:
    op.drop_index("ix_deal_jobs_requester", table_name="deal_jobs")
