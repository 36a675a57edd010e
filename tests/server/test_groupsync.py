"""Group commit on SQLite (server/storage/groupsync.py): an acknowledged write is on the disk, the
fsync of the log is shared by the writes made while the previous one ran, and no lock is
held across it (docs/notes/2026-12-03-moved-runs.md, "Group commit, and the deal worker's
priority")."""

from __future__ import annotations

import errno
import os
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from powercut import Image, recorder
from server_helpers import move, new_game
from servers import sqlite_app
from sqlalchemy import text

from pasyans.server.storage import groupsync
from pasyans.server.storage.db import log_flusher, make_engine


def test_a_flush_serves_only_commits_made_before_it_began(tmp_path: Path) -> None:
    """Twelve writers at once: each returns only after an fsync that began after its own
    write, and they share fewer fsyncs than there are writers."""
    wal = tmp_path / "x.db-wal"
    wal.write_bytes(b"log")
    flusher = groupsync.LogFlusher(str(tmp_path / "x.db"))
    clock = iter(range(10**6))
    lock = threading.Lock()
    fsyncs: list[tuple[int, int]] = []  # (began, ended) on one shared clock
    real = flusher._fsync

    def slow_fsync() -> None:
        with lock:
            began = next(clock)
        time.sleep(0.02)
        real()
        with lock:
            fsyncs.append((began, next(clock)))

    flusher._fsync = slow_fsync  # type: ignore[method-assign]
    bad: list[str] = []

    def writer(k: int) -> None:
        time.sleep(0.003 * k)
        with lock:
            written = next(clock)
        flusher.flush()
        with lock:
            now = next(clock)
            if not any(began > written and ended < now for began, ended in fsyncs):
                bad.append(f"writer {k} (wrote at {written}) returned before its flush")

    threads = [threading.Thread(target=writer, args=(k,)) for k in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert bad == []
    assert flusher.waits == 12
    assert 2 <= flusher.flushes < 12, fsyncs  # shared: 0.02 s each, writers 3 ms apart
    flusher.close()


def test_a_failed_fsync_stops_every_later_flush_until_the_database_is_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After a failed fsync Linux marks the unwritten pages clean and the next fsync
    succeeds: a later flush must not report success on top of that hole."""
    db = sqlite3.connect(tmp_path / "x.db", isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("CREATE TABLE t (a INTEGER)")  # the log exists while this connection is open
    flusher = groupsync.LogFlusher(str(tmp_path / "x.db"))
    calls: list[int] = []

    def full(fd: int) -> None:
        calls.append(fd)
        if len(calls) == 1:
            raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(groupsync, "_datasync", full)
    with pytest.raises(Exception, match="disk is full") as info:
        flusher.flush()
    from pasyans.server.errors import storage_code

    assert storage_code(info.value) == "database_full"
    with pytest.raises(groupsync.WritesStopped):
        flusher.flush()  # the disk would say yes now: still refused, nothing synced
    assert len(calls) == 1 and flusher.flushes == 0
    assert flusher.health is not None and flusher.health.failed
    assert flusher.health.recover(force=True)  # checkpointed, synced, quick_check ok
    flusher.flush()
    assert len(calls) == 2 and flusher.flushes == 1
    flusher.close()
    db.close()


def test_the_flush_follows_a_log_made_again_and_a_missing_log_is_an_error(
    tmp_path: Path,
) -> None:
    """The log file replaced (closed by the last connection and made again): the flush
    fsyncs the new file, not the old one it had open; no log at all is a failure, never
    a silent success."""
    wal = tmp_path / "x.db-wal"
    wal.write_bytes(b"one")
    flusher = groupsync.LogFlusher(str(tmp_path / "x.db"))
    flusher.flush()
    old = flusher._inode
    (tmp_path / "new").write_bytes(b"two")
    os.replace(tmp_path / "new", wal)  # the old file stays open: its inode is not reused
    flusher.flush()
    assert flusher._inode == (os.stat(wal).st_dev, os.stat(wal).st_ino) != old
    wal.unlink()
    with pytest.raises(Exception, match=r"disk I/O error.*missing"):
        flusher.flush()
    assert flusher._fd is None
    assert flusher.flushes == 2
    assert flusher.health is not None and flusher.health.failed
    flusher.close()


@pytest.mark.parametrize("form", ["symlink", "uri", "relative"])
def test_the_flush_syncs_the_log_sqlite_really_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, form: str
) -> None:
    """A database behind a symbolic link (data on a volume), a ``file:`` URI or a path
    relative to the working directory: the fsync goes to the log SQLite writes."""
    volume = tmp_path / "volume"
    volume.mkdir()
    real = volume / "real.sqlite3"
    if form == "symlink":
        (tmp_path / "link.sqlite3").symlink_to(real)
        url = f"sqlite:///{tmp_path / 'link.sqlite3'}"
    elif form == "uri":
        url = f"sqlite:///file:{real}?mode=rwc&uri=true"
    else:
        monkeypatch.chdir(volume)
        url = "sqlite:///real.sqlite3"
    synced: list[tuple[int, int]] = []
    real_sync = groupsync._datasync

    def watched(fd: int) -> None:
        st = os.fstat(fd)
        synced.append((st.st_dev, st.st_ino))
        real_sync(fd)

    monkeypatch.setattr(groupsync, "_datasync", watched)
    engine = make_engine(url)
    flusher = log_flusher(engine)
    assert flusher is not None
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE t (a INTEGER)"))
        conn.execute(text("INSERT INTO t VALUES (1)"))
    wal = os.stat(str(real) + "-wal")
    assert flusher.path == os.path.realpath(str(real) + "-wal")
    assert synced == [(wal.st_dev, wal.st_ino)]
    engine.dispose()


def test_only_writes_are_flushed_and_sqlite_no_longer_syncs_the_commit(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'e.sqlite3'}")
    flusher = log_flusher(engine)
    assert flusher is not None
    with engine.connect() as conn:
        assert conn.execute(text("PRAGMA synchronous")).scalar() == 1  # NORMAL
    with engine.begin() as conn:  # a write by rows changed
        conn.execute(text("CREATE TABLE t (a INTEGER)"))
        conn.execute(text("INSERT INTO t VALUES (1)"))
    assert flusher.waits == 1
    with engine.connect() as conn:  # a read
        conn.execute(text("SELECT a FROM t")).all()
        conn.commit()
    assert flusher.waits == 1
    with engine.connect() as conn:  # a write transaction (BEGIN IMMEDIATE), whatever it did
        conn.execution_options(pasyans_write=True)
        with conn.begin():
            conn.execute(text("SELECT a FROM t")).all()
    assert flusher.waits == 2
    with engine.connect() as conn:  # rolled back: nothing to flush, now or at the next commit
        with conn.begin():
            conn.execute(text("INSERT INTO t VALUES (2)"))
            conn.rollback()
        conn.execute(text("SELECT a FROM t")).all()
        conn.commit()
    assert flusher.waits == 2
    engine.dispose()
    # Without group commit (or asked for NORMAL), SQLite syncs as asked and nothing else.
    for kwargs in ({"group_commit": False}, {"synchronous": "NORMAL"}):
        other = make_engine(f"sqlite:///{tmp_path / 'e.sqlite3'}", **kwargs)  # type: ignore[arg-type]
        assert log_flusher(other) is None
        with other.connect() as conn:
            expected = 2 if kwargs.get("group_commit") is False else 1
            assert conn.execute(text("PRAGMA synchronous")).scalar() == expected
        other.dispose()


def blocked_flush(app: FastAPI) -> tuple[threading.Event, threading.Event, Callable[[], int]]:
    """Make the app's next fsync of the log wait: (entered, release, fsyncs so far)."""
    flusher = log_flusher(app.state.engine)
    assert flusher is not None
    entered, release = threading.Event(), threading.Event()
    real = flusher._fsync
    count = [0]

    def held() -> None:
        count[0] += 1
        entered.set()
        assert release.wait(10)
        real()

    flusher._fsync = held  # type: ignore[method-assign]
    return entered, release, lambda: count[0]


def test_a_move_is_answered_after_its_flush_and_holds_no_lock_across_it(tmp_path: Path) -> None:
    app = sqlite_app(tmp_path)
    with TestClient(app) as a, TestClient(app) as b:
        ga = new_game(a, "spider", deal=1)
        gb = new_game(b, "spider", deal=2)
        entered, release, fsyncs = blocked_flush(app)
        answers: dict[str, int] = {}

        def play(name: str, client: TestClient, g: dict[str, object]) -> None:
            answers[name] = move(client, g)["version"]  # type: ignore[index]

        first = threading.Thread(target=play, args=("a", a, ga))
        first.start()
        assert entered.wait(10)  # a's move is committed, its flush waits for the disk
        time.sleep(0.2)
        assert "a" not in answers  # not acknowledged before its flush
        # The locks are free meanwhile: b's move commits (its flush waits for the next).
        second = threading.Thread(target=play, args=("b", b, gb))
        second.start()
        engine = app.state.engine
        deadline = time.monotonic() + 10
        version = 0
        while time.monotonic() < deadline and version != gb["version"] + 1:
            with engine.connect() as conn:
                version = conn.execute(
                    text("SELECT version FROM games WHERE id = :i"), {"i": gb["id"]}
                ).scalar_one()
            time.sleep(0.02)
        assert version == gb["version"] + 1
        assert answers == {}
        release.set()
        first.join(10)
        second.join(10)
        assert answers == {"a": ga["version"] + 1, "b": gb["version"] + 1}
        assert fsyncs() == 2  # b's commit came after a's flush began: a flush of its own
    app.state.engine.dispose()


def test_a_failed_flush_answers_503_not_an_acknowledged_move(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = sqlite_app(tmp_path)
    with TestClient(app) as c:
        g = new_game(c, "spider", deal=3)
        flusher = log_flusher(app.state.engine)
        assert flusher is not None

        def broken() -> None:
            raise OSError(errno.EIO, "Input/output error")

        monkeypatch.setattr(flusher, "_fsync", broken)
        legal = g["view"]["moves"][0]["text"]
        r = c.post(f"/api/games/{g['id']}/moves", json={"move": legal, "version": g["version"]})
        assert r.status_code == 503, r.text
        assert r.json()["error"]["code"] == "database_unavailable"
        assert r.headers["Retry-After"]
    app.state.engine.dispose()


def test_group_commit_can_be_turned_off(tmp_path: Path) -> None:
    app = sqlite_app(tmp_path, sqlite_group_commit=False)
    assert log_flusher(app.state.engine) is None
    with app.state.engine.connect() as conn:
        assert conn.execute(text("PRAGMA synchronous")).scalar() == 2  # FULL: SQLite syncs
    app.state.engine.dispose()


def test_after_a_failed_fsync_no_write_is_acknowledged_until_the_database_is_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One fsync fails, the next would succeed: the moves after it answer 503 (not 200 on
    top of a hole in the log), /healthz fails, until the database is checked; then they
    play again."""
    app = sqlite_app(tmp_path)
    with TestClient(app) as c:
        g = new_game(c, "spider", deal=3)
        failures = [1]

        def once(fd: int) -> None:
            if failures:
                failures.pop()
                raise OSError(errno.EIO, "Input/output error")
            os.fdatasync(fd)

        monkeypatch.setattr(groupsync, "_datasync", once)
        from pasyans.server.storage.db import health

        found = health(app.state.engine)
        assert found is not None
        monkeypatch.setattr(found, "RETRY_SECONDS", 3600.0)  # the test says when
        body = {"move": g["view"]["moves"][0]["text"], "version": g["version"]}
        r = c.post(f"/api/games/{g['id']}/moves", json=body)
        assert r.status_code == 503, r.text
        assert r.headers["Retry-After"]
        # The disk answers again, but nothing is acknowledged on top of the hole, and no
        # reader is shown the version whose flush failed.
        assert c.get(f"/api/games/{g['id']}").status_code == 503
        for _ in range(3):
            r = c.post(f"/api/games/{g['id']}/undo", json={"version": g["version"] + 1})
            assert r.status_code == 503, r.text
            assert r.json()["error"]["code"] == "database_unavailable"
            assert r.headers["Retry-After"]
        assert c.post("/api/games", json={"game": "spider", "deal": 4}).status_code == 503
        assert c.get("/healthz").status_code == 503
        assert found.failed
        assert found.recover(force=True)
        assert found.recoveries == 1
        state = c.get(f"/api/games/{g['id']}").json()
        body = {"move": state["view"]["moves"][0]["text"], "version": state["version"]}
        r = c.post(f"/api/games/{g['id']}/moves", json=body)
        assert r.status_code == 200, r.text
        assert c.get("/healthz").status_code == 200
    app.state.engine.dispose()


def test_the_checkpoint_thread_checks_the_database_and_writes_resume(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = sqlite_app(tmp_path)
    with TestClient(app) as c:
        g = new_game(c, "spider", deal=5)
        from pasyans.server.storage.db import health

        found = health(app.state.engine)
        assert found is not None
        monkeypatch.setattr(found, "RETRY_SECONDS", 0.1)
        found.fail(OSError(errno.EIO, "Input/output error"))
        deadline = time.monotonic() + 10
        while found.failed and time.monotonic() < deadline:
            time.sleep(0.05)
        assert found.failed is None and found.recoveries == 1
        body = {"move": g["view"]["moves"][0]["text"], "version": g["version"]}
        assert c.post(f"/api/games/{g['id']}/moves", json=body).status_code == 200
    app.state.engine.dispose()


def test_no_tab_sees_a_version_before_its_flush_has_ended(tmp_path: Path) -> None:
    """With group commit a commit is visible before its flush: another tab of the same
    player reading the game meanwhile must not be shown the new version until it is on
    the disk (else, after a power cut, the disk holds less than a tab was shown)."""
    app = sqlite_app(tmp_path)
    with TestClient(app) as a:
        g = new_game(a, "spider", deal=6)
        cookies = dict(a.cookies)
        entered, release, fsyncs = blocked_flush(app)
        answers: dict[str, int] = {}

        def mover() -> None:
            body = {"move": g["view"]["moves"][0]["text"], "version": g["version"]}
            answers["move"] = a.post(f"/api/games/{g['id']}/moves", json=body).json()["version"]

        def reader() -> None:
            with TestClient(app, cookies=cookies) as b:
                answers["read"] = b.get(f"/api/games/{g['id']}").json()["version"]

        first = threading.Thread(target=mover)
        first.start()
        assert entered.wait(10)  # committed (visible to a read), its flush held
        second = threading.Thread(target=reader)
        second.start()
        time.sleep(0.5)
        seen = dict(answers)
        release.set()
        first.join(10)
        second.join(10)
        assert seen == {}, f"shown before the flush ended: {seen}"
        assert answers == {"move": g["version"] + 1, "read": g["version"] + 1}
        assert fsyncs() >= 1
    app.state.engine.dispose()


_PARTIAL_THEN_FAILED = r"""
import os, sqlite3, sys
from pasyans.server.storage import groupsync

path, trigger = sys.argv[1], sys.argv[2]


def synced_log():  # what the group flush does after a commit
    fd = os.open(path + "-wal", os.O_RDWR)
    os.fsync(fd)
    os.close(fd)


w = sqlite3.connect(path, isolation_level=None)
w.execute("PRAGMA journal_mode=WAL")
w.execute("PRAGMA synchronous=NORMAL")
w.execute("PRAGMA wal_autocheckpoint=0")
w.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)")
for i in range(20):  # a page or so each
    w.execute("INSERT INTO t VALUES (?, ?)", (i, "a" * 3000))
synced_log()
checkpoints = sqlite3.connect(path, isolation_level=None)  # the checkpoint thread's
checkpoints.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
w.execute("UPDATE t SET v = ? WHERE id = 1", ("b" * 3000,))  # acknowledged: on the disk
synced_log()
reader = sqlite3.connect(path, isolation_level=None)
reader.execute("BEGIN")
reader.execute("SELECT count(*) FROM t").fetchall()  # a tab's read holds its snapshot
w.execute("UPDATE t SET v = ? WHERE id = 5", ("c" * 3000,))
synced_log()
busy, log, done = checkpoints.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
assert done < log, (busy, log, done)  # partial: row 1's page copied, the file not synced
reader.execute("COMMIT")
open(trigger, "w").close()  # the next fsync of the database file fails
try:
    checkpoints.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
except sqlite3.OperationalError as e:
    print("checkpoint failed:", e)
else:
    raise SystemExit("the checkpoint's fsync did not fail")
assert not os.path.exists(trigger)
groupsync._check_database(os.path.realpath(path))  # what Health.recover runs
print("checked")
"""


def test_the_check_after_a_failed_fsync_rewrites_what_a_partial_checkpoint_copied(
    tmp_path: Path,
) -> None:
    """A checkpoint that a reader stops part way copies pages into the database file and
    does not sync it (SQLite syncs only a complete one), yet marks them copied. When the
    next checkpoint's fsync of the file fails, those pages are not on the disk, and the
    check before writes resume (a TRUNCATE checkpoint, which copies only what is not
    marked copied, then empties the log) would leave the disk without them: an
    acknowledged write lost after the check (finding 2; the flaky power-cut test). The
    check rewrites the whole file before it syncs it. Run under the power-cut recorder;
    the database the cut leaves must hold row 1's acknowledged value."""
    rec = recorder(tmp_path, fail_suffix=".sqlite3")
    volume, journal, trigger = rec.volume, rec.journal, rec.trigger
    env = {**os.environ, **rec.env}
    out = subprocess.run(
        [sys.executable, "-c", _PARTIAL_THEN_FAILED, str(volume / "t.sqlite3"), str(trigger)],
        env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert "checkpoint failed" in out.stdout and "checked" in out.stdout, out.stdout
    image = Image()
    image.read(journal)
    assert image.failed_syncs == 1 and image.lost_writes > 0
    cut = tmp_path / "cut"
    cut.mkdir()
    image.write(volume, cut)
    db = sqlite3.connect(cut / "t.sqlite3")
    try:
        assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        rows = dict(db.execute("SELECT id, substr(v, 1, 1) FROM t").fetchall())
    finally:
        db.close()
    assert rows[1] == "b", "the acknowledged update of row 1 was lost"
    assert rows[5] == "c"
