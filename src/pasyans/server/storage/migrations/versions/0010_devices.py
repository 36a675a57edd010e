"""Devices: a player is found through the devices that hold their cookie tokens, so that
another device can be linked to the same player (docs/devices.md); one-time link codes.

Every player's token hash becomes their first device; ``players.token_hash`` is then
overwritten with a value no token hashes to (``p<id>``), so nothing can find a player
through it any more (the column stays: dropping a column that games point at means
rebuilding the table on SQLite).

Revision ID: 0010_devices
Revises: 0007_actions
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0010_devices"
down_revision: str | None = "0009_daily"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "devices",
        sa.Column("id", sa.String(16), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("label", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("token_hash"),
    )
    op.create_index("ix_devices_player", "devices", ["player_id"])
    op.create_table(
        "link_codes",
        sa.Column("code_hash", sa.String(64), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("code_hash"),
        sa.UniqueConstraint("player_id"),
    )
    # The device id of a migrated player: "m" and the player's number (unique, public,
    # and no secret: it is not the token).
    op.execute(
        "INSERT INTO devices (id, token_hash, player_id, label, created_at, last_seen_at)"
        " SELECT 'm' || CAST(id AS VARCHAR(15)), token_hash, id, '', created_at, created_at"
        " FROM players"
    )
    op.execute("UPDATE players SET token_hash = 'p' || CAST(id AS VARCHAR(15))")


def downgrade() -> None:
    # Each player gets back the token of their oldest device (the others lose the player).
    op.execute(
        "UPDATE players SET token_hash = COALESCE((SELECT d.token_hash FROM devices d"
        " WHERE d.player_id = players.id ORDER BY d.created_at, d.id LIMIT 1), token_hash)"
    )
    op.drop_table("link_codes")
    op.drop_index("ix_devices_player", table_name="devices")
    op.drop_table("devices")
