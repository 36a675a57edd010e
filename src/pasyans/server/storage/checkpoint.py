"""SQLite's WAL checkpoints off the request path.

In WAL mode SQLite copies the log back into the database file (a checkpoint: the pages
written since the last one, and two fsyncs) when a commit finds the log over 1,000 pages,
inside that commit: the request whose commit crossed the line waited for it, and with it
every write queued behind the web worker's write lock. The more others write (costly
clients: rate counters, verdicts, new games), the more often a player's move was that
request (``benchmarks/load.py --costly``, docs/performance.md).

Here a thread of each web worker checkpoints every :data:`EVERY` seconds on a connection of
its own (``PASSIVE``: it waits for no reader or writer, and never blocks one), so that a
commit does not; the engines' own automatic checkpoint is raised to :data:`AUTO_PAGES`,
a safety net for when the thread is not running (an app used without its lifespan).
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
import threading
from typing import Any

from sqlalchemy import Engine, event

from pasyans.server.storage.db import health, log_flusher
from pasyans.server.storage.groupsync import is_io_error

log = logging.getLogger("pasyans.server")

EVERY = 0.5
"""Seconds between two checkpoints."""

AUTO_PAGES = 20_000
"""The engines' own automatic checkpoint, in pages of the log (80 MB at 4 KB pages)."""


def defer_checkpoints(engine: Engine) -> None:
    """Leave ``engine``'s checkpoints to a :class:`Checkpointer` (SQLite only)."""
    if engine.dialect.name != "sqlite":
        return

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        cur = dbapi_conn.cursor()
        cur.execute(f"PRAGMA wal_autocheckpoint={AUTO_PAGES}")
        cur.close()


class Checkpointer:
    """Checkpoints the SQLite database of ``engine`` in a thread of its own."""

    def __init__(self, engine: Engine, every: float = EVERY, busy_seconds: float = 5.0) -> None:
        # A stand-in engine (a test's broken database) has no URL: then nothing to do.
        url = getattr(engine, "url", None)
        dialect = getattr(getattr(engine, "dialect", None), "name", None)
        database = None if url is None else url.database
        self.path = database if dialect == "sqlite" and database else None
        if self.path == ":memory:":
            self.path = None
        self.engine = engine
        self.every = every
        self.busy_seconds = busy_seconds
        self.stop = threading.Event()
        self.runs = 0
        """Checkpoints made (tests)."""
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self.path is None or self._thread is not None:
            return
        self._thread = threading.Thread(target=self._run, name="pasyans-checkpoint", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        assert self.path is not None
        conn = sqlite3.connect(
            self.path, timeout=self.busy_seconds, isolation_level=None, check_same_thread=False
        )
        try:
            while not self.stop.wait(self.every):
                self.checkpoint(conn)
        finally:
            conn.close()

    def checkpoint(self, conn: sqlite3.Connection) -> None:
        """A passive checkpoint; after a failed fsync (of the checkpoint's own, or any
        other), the check that lets writes resume (:class:`~.groupsync.Health`)."""
        found = health(self.engine)
        if found is not None and found.failed is not None:
            found.recover()
            return
        flusher = log_flusher(self.engine) if found is not None else None
        # Its fsyncs and the group flush's take turns, a failure noted before the next
        # flush can run (:attr:`~.groupsync.LogFlusher.syncing`).
        with flusher.syncing if flusher is not None else contextlib.nullcontext():
            try:
                conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                self.runs += 1
            except sqlite3.Error as e:  # a busy or failing disk: the requests report it
                log.warning("WAL checkpoint failed: %s", e)
                if found is not None and is_io_error(e):
                    found.fail(e)

    def close(self) -> None:
        self.stop.set()
        if self._thread is not None:
            with contextlib.suppress(RuntimeError):
                self._thread.join(5)
            self._thread = None
