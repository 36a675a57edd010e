"""Alembic migrations, run from code (no alembic.ini): ``upgrade(url)``.

On PostgreSQL the upgrade holds an advisory lock, so several processes starting at once
migrate exactly once; the others wait and then find the schema at head.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool

from pasyans.server.db import is_sqlite, make_engine

MIGRATIONS = Path(__file__).with_name("migrations")
_LOCK_KEY = 0x7061_7379_616E  # "pasyan"


def alembic_config(url: str) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


def upgrade(url: str, revision: str = "head") -> None:
    """Bring the database at ``url`` up to ``revision`` (default: the newest)."""
    engine = (
        # A migration may wait for another process's (and may itself take long): no short
        # timeouts here, unlike the request path.
        make_engine(url, pool_size=1, busy_seconds=120)
        if is_sqlite(url)
        else create_engine(url, poolclass=NullPool)
    )
    try:
        with engine.connect() as conn:
            # SQLite: BEGIN IMMEDIATE, so a second process waits and then finds head.
            conn.execution_options(pasyans_write=True)
            if conn.dialect.name == "postgresql":
                conn.execute(text("SELECT pg_advisory_lock(:k)"), {"k": _LOCK_KEY})
                conn.commit()
            try:
                cfg = alembic_config(url)
                cfg.attributes["connection"] = conn
                command.upgrade(cfg, revision)
                conn.commit()
            finally:
                if conn.dialect.name == "postgresql":
                    conn.rollback()
                    conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": _LOCK_KEY})
                    conn.commit()
    finally:
        engine.dispose()
