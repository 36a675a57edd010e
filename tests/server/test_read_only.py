"""A read-only database (issue 33, finding 10; docs/deploy.md, "A read-only disk"):
``pasyans serve`` on a database already at the newest revision starts and serves reads,
writes answering 503 ``database_read_only``; one that needs a migration stops the start
with one clear line, no traceback. (Read-only through SQLite's ``mode=ro``: the tests run
as root, whom file permissions do not stop.)"""

from __future__ import annotations

import time
from pathlib import Path

import httpx
from servers import Serve

from pasyans.server.storage import migrate


def serve(tmp_path: Path, url: str) -> Serve:
    """``pasyans serve`` on ``url``, not waited for (``/healthz`` fails on a read-only
    database), with no deal-pool worker."""
    env = {"PASYANS_DATABASE_URL": url, "PASYANS_POOL_WORKER": "false"}
    return Serve(tmp_path / "server.log", env, wait=False)


def test_a_migrated_read_only_database_serves_reads_and_refuses_writes(tmp_path: Path) -> None:
    db = tmp_path / "ro.sqlite3"
    migrate.upgrade(f"sqlite:///{db}")
    server = serve(tmp_path, f"sqlite:///file:{db}?mode=ro&uri=true")
    proc, base, log = server.proc, server.base, server.log
    try:
        deadline = time.monotonic() + 90  # /healthz fails (read-only): wait for a page
        while time.monotonic() < deadline:
            assert proc.poll() is None, log.read_text()
            try:
                if httpx.get(f"{base}/", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            time.sleep(0.2)
        assert httpx.get(f"{base}/").status_code == 200
        assert httpx.get(f"{base}/api/games").status_code == 200
        r = httpx.post(f"{base}/api/games", json={"game": "spider", "deal": 1})
        assert r.status_code == 503
        assert r.json()["error"]["code"] == "database_read_only"
        assert r.headers["Retry-After"]
        health = httpx.get(f"{base}/healthz")
        assert health.status_code == 503 and health.json()["code"] == "database_read_only"
    finally:
        server.stop()
    assert "Traceback" not in log.read_text()


def test_a_read_only_database_that_needs_a_migration_stops_with_one_line(
    tmp_path: Path,
) -> None:
    db = tmp_path / "empty.sqlite3"
    db.write_bytes(b"")  # exists, never migrated
    server = serve(tmp_path, f"sqlite:///file:{db}?mode=ro&uri=true")
    proc, log = server.proc, server.log
    try:
        assert proc.wait(timeout=60) == 1
    finally:
        server.stop()
    text = log.read_text()
    assert "Traceback" not in text
    lines = [line for line in text.splitlines() if line.strip()]
    assert len(lines) == 1, text
    assert lines[0].startswith("pasyans: cannot start: the database") and "read-only" in lines[0]
