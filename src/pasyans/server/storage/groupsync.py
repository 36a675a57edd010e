"""Group commit for SQLite: a write is acknowledged after one shared fsync of the log,
taken after the write locks are released.

With ``synchronous=FULL`` SQLite fsyncs its write-ahead log inside every commit, while it
holds the database's write lock and this process holds its own (``service.writing``). A
disk's fsync has a tail (p99 12 ms on the reference machine, ``benchmarks/commit.py``), and
every write queued behind that commit waited for it: the more others wrote (costly
clients' hints, checks and new games), the longer a player's move waited
(docs/performance.md, "Group commit").

Here the web process's connections commit with ``synchronous=NORMAL`` (the log is written,
not flushed: a crash of the process loses nothing) and a commit that wrote is not
acknowledged until :class:`LogFlusher` has fsynced the log with a flush that *began after
that commit*. One flush serves every commit made before it began, so the fsyncs per second
fall from one per write to one per batch, and the locks are never held across one:

- inside :func:`deferred` (``service.writing`` uses it around its lock) the commit only
  notes that this thread owes a flush, and the flush runs when the block ends, after the
  lock is released;
- any other commit flushes inside ``commit()`` itself, so no commit path can skip it.

What an acknowledged write survives is what ``FULL`` gave: a crash of the process or of
the machine. A failed fsync answers 503 (:func:`flush_owed`), the write unacknowledged.
"""

from __future__ import annotations

import errno
import os
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

_local = threading.local()


class LogFlusher:
    """Fsyncs one database's write-ahead log (``<database>-wal``) for a group of commits.

    :meth:`flush` returns once a flush that began after the call has ended. The caller
    whose turn it is runs the fsync in its own thread (no thread of its own to start or
    stop); the callers that arrive meanwhile wait for the next flush, which one of them
    runs for all."""

    def __init__(self, database: str) -> None:
        self.path = database + "-wal"
        self._cond = threading.Condition()
        self._begun = 0  # flushes begun
        self._ended = 0  # flushes ended (each in order)
        self._running = False
        self._fd: int | None = None
        self._inode: tuple[int, int] | None = None
        self.flushes = 0
        """Fsyncs run so far (benchmarks and tests read it)."""
        self.waits = 0
        """Calls of :meth:`flush` so far: ``waits / flushes`` is the mean batch size."""

    def flush(self) -> None:
        """Return when everything written to the log before this call is on the disk."""
        with self._cond:
            self.waits += 1
            # A flush already running may have begun before our commit: wait for the next.
            target = self._begun + 1
            while self._ended < target:
                if self._running:
                    self._cond.wait()
                    continue
                self._begun += 1
                number = self._begun
                self._running = True
                self._cond.release()
                error: OSError | None = None
                try:
                    self._fsync()
                except OSError as e:
                    error = e
                finally:
                    self._cond.acquire()
                    self._running = False
                    if error is None:
                        self._ended = number
                        self.flushes += 1
                    self._cond.notify_all()
                if error is not None:
                    # The waiters try again with a flush of their own; this caller fails.
                    raise _as_sqlite_error(error) from error

    def _fsync(self) -> None:
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            # No log: the last connection closed it, after a checkpoint that synced every
            # commit into the database file. Nothing is waiting to be flushed.
            self._close()
            return
        inode = (st.st_dev, st.st_ino)
        if self._fd is None or inode != self._inode:
            self._close()  # the log was removed and made again: follow the new file
            self._fd = os.open(self.path, os.O_RDWR | getattr(os, "O_CLOEXEC", 0))
            opened = os.fstat(self._fd)
            self._inode = (opened.st_dev, opened.st_ino)
        _datasync(self._fd)

    def _close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
        self._fd = None
        self._inode = None

    def close(self) -> None:
        with self._cond:
            self._close()

    def __del__(self) -> None:
        self._close()


_datasync = getattr(os, "fdatasync", os.fsync)
"""What SQLite itself calls on Linux: the data, and the size only when it changed (the log
is mostly rewritten in place, so no inode update is flushed with each commit)."""


def _as_sqlite_error(e: OSError) -> sqlite3.OperationalError:
    """A failed fsync as the error SQLite itself would give (errors.storage_code reads it:
    full disk, read-only, or an I/O error)."""
    if e.errno in (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)):
        return sqlite3.OperationalError(f"database or disk is full (fsync of the log: {e})")
    if e.errno == errno.EROFS:
        return sqlite3.OperationalError(f"attempt to write a readonly database ({e})")
    return sqlite3.OperationalError(f"disk I/O error (fsync of the log: {e})")


class FlushingConnection(sqlite3.Connection):
    """A connection whose ``commit()`` of a write waits for the group flush (module doc).

    :func:`connection_factory` makes a subclass bound to one :class:`LogFlusher`."""

    flusher: LogFlusher
    write_begun = False
    """Set when a write transaction begins (``db.py``'s ``BEGIN IMMEDIATE``): such a commit
    is flushed even if it changed no row that ``total_changes`` counts."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._changes = 0

    def commit(self) -> None:
        super().commit()
        changes = self.total_changes
        wrote = self.write_begun or changes != self._changes
        self._changes = changes
        self.write_begun = False
        if not wrote:
            return
        if getattr(_local, "depth", 0):
            owed = getattr(_local, "owed", None)
            if owed is None:
                owed = _local.owed = []
            if self.flusher not in owed:
                owed.append(self.flusher)
        else:
            self.flusher.flush()

    def rollback(self) -> None:
        super().rollback()
        self._changes = self.total_changes
        self.write_begun = False


def connection_factory(flusher: LogFlusher) -> type[FlushingConnection]:
    """The ``factory`` for ``sqlite3.connect``: connections that flush through ``flusher``."""
    return type("FlushingConnection", (FlushingConnection,), {"flusher": flusher})


@contextmanager
def deferred() -> Iterator[None]:
    """Within the block, a commit on a flushing connection only notes that this thread owes
    a flush; the block's end runs it (even when the block raised: the commit may have
    been made before the error, and it must be on the disk before any answer).

    Nest it outside any lock the writes take, so that the flush runs after they are
    released. A failed flush raises ``sqlite3.OperationalError`` (see
    :func:`_as_sqlite_error`)."""
    _local.depth = getattr(_local, "depth", 0) + 1
    try:
        yield
    finally:
        _local.depth -= 1
        if not _local.depth:
            flush_owed()


def flush_owed() -> None:
    """Run the flushes this thread owes (one per database written), if any."""
    owed: list[LogFlusher] | None = getattr(_local, "owed", None)
    _local.owed = None
    for flusher in owed or ():
        flusher.flush()
