"""Migrations: applied at start, idempotent, safe from several processes at once, and in
step with the ORM models."""

from __future__ import annotations

import subprocess
import sys

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine, inspect
from sqlalchemy.pool import NullPool

from pasyans.server import migrate
from pasyans.server.models import Base


def test_upgrade_makes_the_tables_and_is_idempotent(db_url: str) -> None:
    migrate.upgrade(db_url)
    migrate.upgrade(db_url)
    engine = create_engine(db_url, poolclass=NullPool)
    try:
        with engine.connect() as conn:
            assert {"players", "games", "alembic_version"} <= set(inspect(conn).get_table_names())
            ctx = MigrationContext.configure(conn)
            assert ctx.get_current_revision() == "0001"
            diff = compare_metadata(ctx, Base.metadata)
            assert diff == [], diff
    finally:
        engine.dispose()


def test_several_processes_migrate_at_once(db_url: str) -> None:
    code = "import sys; from pasyans.server import migrate; migrate.upgrade(sys.argv[1])"
    procs = [
        subprocess.Popen([sys.executable, "-c", code, db_url], stderr=subprocess.PIPE)
        for _ in range(4)
    ]
    for p in procs:
        _, err = p.communicate(timeout=120)
        assert p.returncode == 0, err.decode()
    engine = create_engine(db_url, poolclass=NullPool)
    try:
        with engine.connect() as conn:
            assert MigrationContext.configure(conn).get_current_revision() == "0001"
    finally:
        engine.dispose()
