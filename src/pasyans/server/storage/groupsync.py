"""Group commit for SQLite: a write is acknowledged after one shared fsync of the log,
taken after the write locks are released.

With ``synchronous=FULL`` SQLite fsyncs its write-ahead log inside every commit, while it
holds the database's write lock and this process holds its own (``service.writing``). A
disk's fsync has a tail (p99 12 ms on the reference machine, ``benchmarks/commit.py``), and
every write queued behind that commit waited for it: the more others wrote (costly
clients' hints, checks and new games), the longer a player's move waited
(docs/notes/2026-12-03-moved-runs.md, "Group commit, and the deal worker's priority").

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

Over 400 lines because the flusher, its failure rule (no acknowledgement after a
failed fsync until the database is checked) and the path it flushes belong together:
splitting them would spread one durability argument over several files.
"""

from __future__ import annotations

import errno
import logging
import os
import sqlite3
import threading
import time
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

_local = threading.local()
log = logging.getLogger("pasyans.server")


class WritesStopped(sqlite3.OperationalError):
    """A write refused because an earlier fsync failed (:class:`Health`)."""


class Health:
    """Whether the database's files may still be trusted to keep a commit (one per
    database file, shared by every engine of the process on it: :func:`health_of`).

    After a failed fsync Linux marks the pages that could not be written clean, and a
    later fsync of the same file succeeds: a commit made after the failure would be
    acknowledged on top of a hole in the log, and lost at recovery (SQLite stops at the
    first bad frame). So, as PostgreSQL does, the first failed fsync or write of the log
    or of the database (:meth:`fail`) stops every write of the process (:meth:`check`
    raises, the request answers 503 with ``Retry-After``) until :meth:`recover` has,
    on a connection of its own, copied the log into the database file and synced it
    (``wal_checkpoint(TRUNCATE)``), synced the emptied log, and found the database sound
    (``PRAGMA quick_check``); the pooled connections are then closed and opened again."""

    RETRY_SECONDS = 1.0
    """Least time between two tries of :meth:`recover`."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.failed: str | None = None
        """Why writes are stopped (None: they are not)."""
        self.failures = 0
        """Failures seen so far (tests, logs)."""
        self.recoveries = 0
        self._lock = threading.Lock()
        self._tried = 0.0
        self._engines: weakref.WeakSet[Any] = weakref.WeakSet()

    def watch(self, engine: Any) -> None:
        """Close ``engine``'s pooled connections at a recovery."""
        self._engines.add(engine)

    def fail(self, error: BaseException) -> None:
        if isinstance(error, WritesStopped):
            return  # our own refusal, not a new failure
        with self._lock:
            if self.failed is None:
                self._tried = time.monotonic()  # the first check: RETRY_SECONDS from now
                log.error("storage failure on %s: %s; writes stop until it is checked",
                          self.path, error)  # fmt: skip
            self.failed = str(error) or type(error).__name__
            self.failures += 1

    def check(self) -> None:
        """Raise the 503 error when writes are stopped."""
        failed = self.failed
        if failed is not None:
            raise WritesStopped(
                f"disk I/O error (an earlier fsync failed: {failed}; writes stop until the"
                " database is checked)"
            )

    def recover(self, force: bool = False) -> bool:
        """Try to make writes safe again (class doc); True when they are. Tried at most
        once per :data:`RETRY_SECONDS` unless ``force``."""
        if self.failed is None:
            return True
        with self._lock:
            now = time.monotonic()
            if self.failed is None:
                return True
            if not force and now - self._tried < self.RETRY_SECONDS:
                return False
            self._tried = now
            try:
                _check_database(self.path)
            except (sqlite3.Error, OSError) as e:
                log.warning("storage still failing on %s: %s", self.path, e)
                return False
            for engine in list(self._engines):
                engine.dispose()  # every connection opened again, after the check
            self.failed = None
            self.recoveries += 1
            log.warning("storage on %s checked after a failure: writes resume", self.path)
            return True


def _check_database(path: str) -> None:
    """Copy the log into the database file, rewrite the file and sync both, then check the
    database, on a connection of its own (raises when any of it fails).

    Why rewrite: a checkpoint that a reader stops part way copies pages into the file
    without syncing it (SQLite syncs the file only after a complete checkpoint) and marks
    them copied. If the fsync that follows fails, those pages are not on the disk and
    never will be (Linux marks them clean), yet no checkpoint copies them again, and the
    ``TRUNCATE`` below empties the log that still held them: an acknowledged write lost
    after the check (``test_groupsync.py``). Every page is read and written back (the
    page cache holds what SQLite wrote), then synced. The rewrite runs holding the write
    lock on an empty log, so no frame exists that a checkpoint could copy meanwhile. It
    costs a pass over the file, once per failure."""
    conn = sqlite3.connect(path, timeout=5.0, isolation_level=None)
    try:
        for _ in range(10):
            busy, _, _ = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
            if busy:
                raise sqlite3.OperationalError("database is busy (checkpoint after a failure)")
            conn.execute("BEGIN IMMEDIATE")
            try:
                if _size(path + "-wal") == 0:  # no writer came between the two
                    _rewrite(path)
                    break
            finally:
                conn.execute("ROLLBACK")
        else:
            raise sqlite3.OperationalError("database is busy (rewrite after a failure)")
        for name in (path + "-wal", path):
            try:
                fd = os.open(name, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
            except FileNotFoundError:
                continue
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        found = conn.execute("PRAGMA quick_check").fetchall()
        if found != [("ok",)]:
            raise sqlite3.DatabaseError(f"database disk image is malformed: {found[:3]}")
    finally:
        conn.close()


def _size(name: str) -> int:
    try:
        return os.stat(name).st_size
    except FileNotFoundError:
        return 0


def _rewrite(path: str, chunk: int = 1 << 20) -> None:
    """Write every byte of the file back where it is and sync it (:func:`_check_database`)."""
    fd = os.open(path, os.O_RDWR | getattr(os, "O_CLOEXEC", 0))
    try:
        at = 0
        while data := os.pread(fd, chunk, at):
            os.pwrite(fd, data, at)
            at += len(data)
        os.fsync(fd)
    finally:
        os.close(fd)


_HEALTH: dict[str, Health] = {}
_HEALTH_LOCK = threading.Lock()


def health_of(path: str) -> Health:
    """The :class:`Health` of the database file at ``path`` (a real path: links resolved)."""
    with _HEALTH_LOCK:
        found = _HEALTH.get(path)
        if found is None:
            found = _HEALTH[path] = Health(path)
        return found


def main_file(conn: sqlite3.Connection) -> str | None:
    """The file SQLite really uses for ``conn``'s main database, links resolved (None: a
    database in memory). Asked of SQLite itself, so that a ``file:`` URI, a relative
    path or a symbolic link name the same file as SQLite's own I/O."""
    for _, name, file in conn.execute("PRAGMA database_list").fetchall():
        if name == "main":
            return os.path.realpath(file) if file else None
    return None


def is_io_error(e: BaseException) -> bool:
    """A failed read, write or fsync of a database file (SQLITE_IOERR and its kind, or a
    full disk): the errors after which a file may hold a hole."""
    code = getattr(e, "sqlite_errorcode", None)
    if isinstance(code, int):
        return code & 0xFF in (10, 13)  # SQLITE_IOERR, SQLITE_FULL
    text = str(e).lower()
    return "disk i/o error" in text or "disk is full" in text


class LogFlusher:
    """Fsyncs one database's write-ahead log for a group of commits.

    :meth:`flush` returns once a flush that began after the call has ended. The caller
    whose turn it is runs the fsync in its own thread (no thread of its own to start or
    stop); the callers that arrive meanwhile wait for the next flush, which one of them
    runs for all.

    The log's path is the one SQLite really uses: :func:`main_file` asked on the first
    connection (:meth:`bind`), ``-wal`` added. A missing log after a commit is an error
    (the committing connection holds it open, so it cannot have been removed).

    A failed fsync fails every commit waiting for it and every later one until
    :meth:`Health.recover` (:class:`Health`): none is acknowledged on top of a hole.

    :meth:`barrier` lets a reader wait until every commit it may have seen is flushed
    (docs/server.md, "Durability"): commits are counted as they begin (:meth:`begin`)
    and each flush notes, as it begins, the count of commits all ended before it."""

    def __init__(self, database: str | None = None) -> None:
        self.path: str | None = None
        self.health: Health | None = None
        if database is not None:
            self.bind(os.path.realpath(database))
        self._cond = threading.Condition()
        self._begun = 0  # flushes begun
        self._ended = 0  # flushes ended (each in order)
        self._running = False
        self._fd: int | None = None
        self._inode: tuple[int, int] | None = None
        self._commits = 0  # write commits begun in this process
        self._open: set[int] = set()  # write commits begun, not yet ended
        self._covered = 0  # every commit up to this number is on the disk
        self._stat: tuple[int, int] | None = None  # the log's (size, mtime) at the flush
        self.syncing = threading.Lock()
        """Held across each fsync of the log here and across each checkpoint of the
        checkpoint thread (:meth:`Checkpointer.checkpoint`), which notes a failure before
        it lets go: a flush never runs between a failed fsync of the checkpoint and the
        note, when it would succeed (Linux reports a failed writeback once) and
        acknowledge commits whose frames the failure lost."""
        self.flushes = 0
        """Fsyncs run so far (benchmarks and tests read it)."""
        self.waits = 0
        """Calls of :meth:`flush` so far: ``waits / flushes`` is the mean batch size."""

    def bind(self, database: str) -> None:
        """Flush the log of the database file ``database`` (a real path)."""
        if self.path is None:
            self.path = database + "-wal"
            self.health = health_of(database)

    # -- counting commits (for readers) --

    def begin(self) -> int:
        """Note a write commit about to be made; :meth:`end` it when made."""
        with self._cond:
            self._commits += 1
            self._open.add(self._commits)
            return self._commits

    def end(self, number: int) -> None:
        with self._cond:
            self._open.discard(number)

    def barrier(self) -> None:
        """Return when every commit this process had begun, and any other process's commit
        to the log seen by a read made before the call, is on the disk (a flush if one is
        owed; nothing to do otherwise)."""
        with self._cond:
            mine = self._covered >= self._commits
            known = self._stat
        if mine and known is not None and known == self._log_stat():
            return
        if self.path is None:
            return
        self.flush()

    def _log_stat(self) -> tuple[int, int] | None:
        assert self.path is not None
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            return None
        return (st.st_size, st.st_mtime_ns)

    def flush(self) -> None:
        """Return when everything written to the log before this call is on the disk."""
        with self._cond:
            self.waits += 1
            # A flush already running may have begun before our commit: wait for the next.
            target = self._begun + 1
            while self._ended < target:
                self._refuse()
                if self._running:
                    self._cond.wait()
                    continue
                self._begun += 1
                number = self._begun
                covers = min(self._open) - 1 if self._open else self._commits
                self._running = True
                self._cond.release()
                error: OSError | None = None
                stat: tuple[int, int] | None = None
                try:
                    with self.syncing:
                        if self.health is not None and self.health.failed is not None:
                            raise _Stopped(errno.EIO, "an earlier fsync failed")
                        stat = self._log_stat() if self.path is not None else None
                        self._fsync()
                except OSError as e:
                    error = e
                    if self.health is not None and not isinstance(e, _Stopped):
                        self.health.fail(e)
                finally:
                    self._cond.acquire()
                    self._running = False
                    if error is None:
                        self._ended = number
                        self._covered = max(self._covered, covers)
                        self._stat = stat
                        self.flushes += 1
                    self._cond.notify_all()
                if error is not None:
                    # Every waiter fails too (``_refuse``): nothing after a hole.
                    raise _as_sqlite_error(error) from error

    def _refuse(self) -> None:
        if self.health is not None and self.health.failed is not None:
            self.health.check()

    def _fsync(self) -> None:
        if self.path is None:
            return  # no connection made yet: nothing was written
        try:
            st = os.stat(self.path)
        except FileNotFoundError as e:
            # A commit was made on a connection that holds the log open: no log means
            # this is not the file SQLite writes. Never a silent success.
            self._close()
            raise OSError(errno.ENOENT, f"the write-ahead log {self.path} is missing") from e
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


class _Stopped(OSError):
    """A flush not run: writes were stopped while it waited (:attr:`LogFlusher.syncing`)."""


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
        changes = self.total_changes
        wrote = self.write_begun or changes != self._changes
        if not wrote:
            super().commit()
            self._changes = self.total_changes
            return
        number = self.flusher.begin()  # counted before it can be seen (barrier)
        try:
            super().commit()
        except sqlite3.Error as e:
            if is_io_error(e) and self.flusher.health is not None:
                self.flusher.health.fail(e)
            raise
        finally:
            self.flusher.end(number)
            self._changes = self.total_changes
            self.write_begun = False
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
    """Run the flushes this thread owes (one per database written), if any, then the
    readers' barriers it owes."""
    owed: list[LogFlusher] | None = getattr(_local, "owed", None)
    _local.owed = None
    waits: list[LogFlusher] | None = getattr(_local, "barriers", None)
    _local.barriers = None
    for flusher in owed or ():
        flusher.flush()
    for flusher in waits or ():
        if flusher not in (owed or ()):
            flusher.barrier()


def barrier(flusher: LogFlusher) -> None:
    """:meth:`LogFlusher.barrier` now, or at the end of the :func:`deferred` block."""
    if getattr(_local, "depth", 0):
        waits = getattr(_local, "barriers", None)
        if waits is None:
            waits = _local.barriers = []
        if flusher not in waits:
            waits.append(flusher)
    else:
        flusher.barrier()
