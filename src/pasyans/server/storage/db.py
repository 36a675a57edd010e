"""Database engines and sessions, for SQLite (the default) and PostgreSQL."""

from __future__ import annotations

import weakref
from typing import Any

from sqlalchemy import Engine, create_engine, event, exc, make_url
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session, sessionmaker

from pasyans.server.storage import groupsync

WRITE = {"pasyans_write": True}
"""Execution options for a session that will write: on SQLite its transaction begins with
``BEGIN IMMEDIATE`` so that a read-then-write never fails on a concurrent writer."""


_FLUSHERS: weakref.WeakKeyDictionary[Engine, groupsync.LogFlusher] = weakref.WeakKeyDictionary()
_HEALTH: weakref.WeakKeyDictionary[Engine, groupsync.Health] = weakref.WeakKeyDictionary()


def log_flusher(engine: Engine) -> groupsync.LogFlusher | None:
    """The group flush of ``engine``'s SQLite log, if its commits use one."""
    return _FLUSHERS.get(engine)


def health(engine: Engine) -> groupsync.Health | None:
    """Whether ``engine``'s SQLite database may take writes (known once a connection was
    made): :class:`~pasyans.server.groupsync.Health`."""
    try:
        return _HEALTH.get(engine)
    except TypeError:  # a stand-in engine (tests)
        return None


def is_sqlite(url: str) -> bool:
    return url.startswith("sqlite")


def make_engine(
    url: str,
    *,
    pool_size: int = 5,
    synchronous: str = "FULL",
    busy_seconds: float = 5.0,
    statement_seconds: float = 8.0,
    connect_seconds: float = 3.0,
    group_commit: bool = True,
) -> Engine:
    """An engine for ``url``: SQLite in WAL mode with a busy timeout, or a pooled server.

    ``synchronous`` (SQLite): ``FULL`` makes every commit durable even on power loss;
    ``NORMAL`` survives a crash of the process but not of the machine, and is faster.
    With ``group_commit`` (and a database file), ``FULL`` is kept by a group flush of the
    log after the commit instead of SQLite's fsync inside it (:mod:`.groupsync`).

    Every wait on the database is bounded, so that a lock, a stalled query or a stopped
    server turns into an error (503, :mod:`pasyans.server.errors`) well before a reverse
    proxy's timeout: ``busy_seconds`` is SQLite's busy timeout, PostgreSQL's
    ``lock_timeout`` and the wait for a pooled connection; ``statement_seconds`` is
    PostgreSQL's ``statement_timeout``; ``connect_seconds`` bounds a new connection."""
    if is_sqlite(url):
        args: dict[str, Any] = {"check_same_thread": False, "timeout": busy_seconds}
        sync = "NORMAL" if synchronous.upper() == "NORMAL" else "FULL"
        database = make_url(url).database
        flusher = None
        if sync == "FULL" and group_commit and database and database != ":memory:":
            # Commits write the log without an fsync; the commit of a write then waits
            # for a group flush of the log, taken after the locks are released.
            flusher = groupsync.LogFlusher()  # its path: asked of SQLite (_sqlite_setup)
            args["factory"] = groupsync.connection_factory(flusher)
            sync = "NORMAL"
        engine = create_engine(
            url,
            connect_args=args,
            pool_size=pool_size,
            max_overflow=2 * pool_size,
            pool_timeout=busy_seconds,
        )
        if flusher is not None:
            _FLUSHERS[engine] = flusher
        _sqlite_setup(engine, sync, busy_seconds)
        return engine
    options = (
        f"-c lock_timeout={int(busy_seconds * 1000)} "
        f"-c statement_timeout={int(statement_seconds * 1000)} "
        f"-c idle_in_transaction_session_timeout={int(max(statement_seconds, 10) * 6000)}"
    )
    return create_engine(
        url,
        pool_size=pool_size,
        max_overflow=2 * pool_size,
        pool_pre_ping=True,
        pool_timeout=busy_seconds,
        connect_args={"connect_timeout": max(1, round(connect_seconds)), "options": options},
    )


def _sqlite_setup(engine: Engine, synchronous: str, busy_seconds: float) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        # Let SQLAlchemy (not the driver) decide when transactions begin.
        dbapi_conn.isolation_level = None
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute(f"PRAGMA synchronous={synchronous}")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute(f"PRAGMA busy_timeout={int(busy_seconds * 1000)}")
        cur.close()
        # The file SQLite really writes (a link, a ``file:`` URI): its log is what the
        # group flush syncs, its health what every engine on it shares.
        path = groupsync.main_file(dbapi_conn) if engine not in _HEALTH else None
        if path:
            found = groupsync.health_of(path)
            found.watch(engine)
            _HEALTH[engine] = found
            flusher = _FLUSHERS.get(engine)
            if flusher is not None:
                flusher.bind(path)

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        write = conn.get_execution_options().get("pasyans_write", False)
        found = _HEALTH.get(engine)
        if write and found is not None and found.failed is not None:
            try:
                found.check()  # an earlier fsync failed: no write until checked
            except groupsync.WritesStopped as e:
                raise exc.OperationalError("BEGIN IMMEDIATE", None, e) from e
        conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")
        dbapi = conn.connection.dbapi_connection
        if write and isinstance(dbapi, groupsync.FlushingConnection):
            dbapi.write_begun = True  # its commit is flushed whatever it changed


def make_sessionmaker(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(bind=engine, expire_on_commit=False)
