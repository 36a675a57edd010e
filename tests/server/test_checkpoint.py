"""SQLite's WAL checkpoints run in a thread of the web worker, not inside the commit of a
request (docs/performance.md, the costly-client load run)."""

from __future__ import annotations

import time
from pathlib import Path

from fastapi.testclient import TestClient
from sqlalchemy import text

from pasyans.server.app import create_app
from pasyans.server.settings import Settings
from pasyans.server.storage import checkpoint


def test_checkpoints_leave_the_requests(tmp_path: Path) -> None:
    """SQLite only (PostgreSQL has no checkpoint inside a request's commit)."""
    app = create_app(
        Settings(
            database_url=f"sqlite:///{tmp_path / 'c.sqlite3'}",
            data_dir=tmp_path / "data",
            solver_prestart=False,
        )
    )
    with app.state.engine.connect() as conn:
        pages = conn.execute(text("PRAGMA wal_autocheckpoint")).scalar()
    assert pages == checkpoint.AUTO_PAGES  # SQLite's default: 1,000, inside a commit
    limits_bind = app.state.limits.maker.kw["bind"]
    with limits_bind.connect() as conn:
        assert conn.execute(text("PRAGMA wal_autocheckpoint")).scalar() == checkpoint.AUTO_PAGES
    with TestClient(app) as c:
        for _ in range(3):
            assert c.post("/api/games", json={"game": "spider"}).status_code == 201
        deadline = time.monotonic() + 10
        while app.state.checkpointer.runs == 0 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert app.state.checkpointer.runs > 0
        with app.state.engine.connect() as conn:  # the log was copied back: nothing left
            busy, log, done = conn.execute(text("PRAGMA wal_checkpoint(PASSIVE)")).one()
        assert busy == 0 and log == done
    assert app.state.checkpointer.stop.is_set()  # stopped with the app
    app.state.engine.dispose()
