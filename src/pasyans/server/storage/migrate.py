"""Alembic migrations, run from code (no alembic.ini): ``upgrade(url)``.

On PostgreSQL the upgrade holds an advisory lock, so several processes starting at once
migrate exactly once; the others wait and then find the schema at head.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine, make_url, text
from sqlalchemy.pool import NullPool

from pasyans.server.storage.db import is_sqlite, make_engine

MIGRATIONS = Path(__file__).with_name("migrations")
_LOCK_KEY = 0x7061_7379_616E  # "pasyan"


def alembic_config(url: str) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


@contextlib.contextmanager
def _sqlite_file_lock(url: str) -> Iterator[None]:
    """An exclusive lock on a file beside the SQLite database, held while it migrates:
    the database's own write lock was seen not to keep two processes from both running a
    migration (CI: "duplicate column name"). In-memory databases need none."""
    path = make_url(url).database
    if path and path.startswith("file:"):  # a URI: its path, without the query
        path = urllib.parse.unquote(urllib.parse.urlsplit(path).path) or None
    if not is_sqlite(url) or not path or path == ":memory:":
        yield
        return
    try:
        f = open(f"{path}.migrate-lock", "a")  # noqa: SIM115 - closed below
    except OSError as e:
        if e.errno not in (errno.EROFS, errno.EACCES, errno.EPERM):
            raise
        # A read-only data directory: no other process can migrate there either. A
        # database already at the newest revision needs no write and is served read-only
        # (writes answer 503); one that needs a migration fails at its first write.
        yield
        return
    with f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def upgrade(url: str, revision: str = "head") -> None:
    """Bring the database at ``url`` up to ``revision`` (default: the newest)."""
    with _sqlite_file_lock(url):
        _upgrade(url, revision)


def _upgrade(url: str, revision: str) -> None:
    engine = (
        # A migration may wait for another process's (and may itself take long): no short
        # timeouts here, unlike the request path.
        make_engine(url, pool_size=1, busy_seconds=120, group_commit=False)
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
