"""Every wait ends below the proxy's timeout (issue 33, finding 9): the rate counters'
lock is taken with a timeout, and a request that a stalled disk holds up answers 503
within ``answer_seconds``, /healthz included (docs/deploy.md, "Timeouts")."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from server_helpers import new_game
from servers import sqlite_app

from pasyans.server.errors import ApiError
from pasyans.server.storage.db import log_flusher


def test_the_rate_counters_wait_for_the_write_lock_is_bounded(tmp_path: Path) -> None:
    app = sqlite_app(tmp_path, db_busy_seconds=0.5, rate_hint_per_minute=10)
    limits = app.state.limits
    charges = limits.charges("search", "player", "127.0.0.1")
    assert charges
    outcome: list[object] = []

    def hit() -> None:
        try:
            outcome.append(limits.hit(charges))
        except ApiError as e:
            outcome.append(e)

    with app.state.write_lock:  # a writer that does not let go
        t = threading.Thread(target=hit, daemon=True)
        started = time.monotonic()
        t.start()
        t.join(10)
        waited = time.monotonic() - started
    assert not t.is_alive(), "the counter waited for the lock with no timeout"
    assert len(outcome) == 1 and isinstance(outcome[0], ApiError), outcome
    assert outcome[0].code == "database_busy" and outcome[0].status == 503
    assert waited < 3
    app.state.engine.dispose()


@pytest.mark.parametrize("path", ["move", "healthz"])
def test_a_stalled_disk_answers_503_within_the_deadline(tmp_path: Path, path: str) -> None:
    """The disk freezes (the group flush's fsync never returns): a move and /healthz get
    503 with ``Retry-After`` within ``answer_seconds`` instead of hanging; once the disk
    answers again, so does the server."""
    app = sqlite_app(tmp_path, answer_seconds=1.0)
    with TestClient(app) as c:
        g = new_game(c, "spider", deal=2)
        flusher = log_flusher(app.state.engine)
        assert flusher is not None
        thaw = threading.Event()
        real = flusher._fsync

        def frozen() -> None:
            thaw.wait(60)
            real()

        flusher._fsync = frozen  # type: ignore[method-assign]
        try:
            started = time.monotonic()
            if path == "move":
                body = {"move": g["view"]["moves"][0]["text"], "version": g["version"]}
                r = c.post(f"/api/games/{g['id']}/moves", json=body)
            else:
                r = c.get("/healthz")
            waited = time.monotonic() - started
            assert r.status_code == 503, r.text
            assert r.json()["error"]["code"] == "database_unavailable"
            assert r.headers["Retry-After"]
            assert waited < 5, waited
        finally:
            thaw.set()
            flusher._fsync = real  # type: ignore[method-assign]
        time.sleep(0.2)
        assert c.get("/healthz").status_code == 200
    app.state.engine.dispose()
