"""Group commit on SQLite (server/storage/groupsync.py): an acknowledged write is on the disk, the
fsync of the log is shared by the writes made while the previous one ran, and no lock is
held across it (docs/performance.md, "Group commit")."""

from __future__ import annotations

import errno
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from server_helpers import move, new_game
from sqlalchemy import text

from pasyans.server.app import create_app
from pasyans.server.settings import Settings
from pasyans.server.storage import groupsync
from pasyans.server.storage.db import log_flusher, make_engine


def sqlite_app(tmp_path: Path, **changes: object) -> FastAPI:
    values: dict[str, object] = {
        "database_url": f"sqlite:///{tmp_path / 'g.sqlite3'}",
        "data_dir": tmp_path / "data",
        "solver_prestart": False,
        "rate_new_game_per_minute": 0,
        "rate_new_player_per_hour": 0,
    }
    values.update(changes)
    return create_app(Settings(**values))  # type: ignore[arg-type]


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


def test_a_failed_fsync_is_a_storage_error_and_the_next_flush_tries_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "x.db-wal").write_bytes(b"log")
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
    flusher.flush()  # not counted as done: this caller runs a flush of its own
    assert len(calls) == 2 and flusher.flushes == 1
    flusher.close()


def test_the_flush_follows_a_log_made_again(tmp_path: Path) -> None:
    """The log file replaced (closed by the last connection and made again): the flush
    fsyncs the new file, not the old one it had open; with no log it has nothing to do."""
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
    flusher.flush()
    assert flusher._fd is None
    assert flusher.flushes == 3
    flusher.close()


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
