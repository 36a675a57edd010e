"""The deal worker is supervised (issue 33, finding 8): killed, ``pasyans serve`` starts
it again; and ``/healthz`` reports a pool that no worker refills."""

from __future__ import annotations

import os
import signal
import time
from datetime import timedelta
from pathlib import Path

import httpx
from fastapi import FastAPI
from fastapi.testclient import TestClient
from servers import Serve

from pasyans.server.pool.entries import HEARTBEAT_ID, PoolWorker, WorkerConfig, stalled_after
from pasyans.server.storage import store
from pasyans.server.storage.models import Health


def deal_workers(parent: int) -> list[int]:
    """The ids of ``parent``'s children running ``pasyans worker``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == parent and b"worker" in cmdline:
            found.append(int(entry))
    return found


def test_a_killed_deal_worker_is_started_again(tmp_path: Path) -> None:
    with Serve(tmp_path / "server.log", {"PASYANS_POOL_TARGET": "0"}) as server:
        proc, base = server.proc, server.base
        deadline = time.monotonic() + 30
        while not (first := deal_workers(proc.pid)) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert len(first) == 1
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:  # its first heartbeat
            if httpx.get(f"{base}/healthz").json().get("pool") == "ok":
                break
            time.sleep(0.2)
        assert httpx.get(f"{base}/healthz").json() == {"status": "ok", "pool": "ok"}
        os.kill(first[0], signal.SIGKILL)
        deadline = time.monotonic() + 30
        again: list[int] = []
        while time.monotonic() < deadline:
            again = [p for p in deal_workers(proc.pid) if p != first[0]]
            if again:
                break
            time.sleep(0.2)
        assert len(again) == 1, "the deal worker was not started again"
    assert "starting it again" in (tmp_path / "server.log").read_text()


def test_healthz_reports_a_pool_that_is_not_refilled(client: TestClient, app: FastAPI) -> None:
    with app.state.sessionmaker() as session:  # PostgreSQL's database outlives one test
        old = session.get(Health, HEARTBEAT_ID)
        if old is not None:
            session.delete(old)
            session.commit()
    assert client.get("/healthz").json() == {"status": "ok", "pool": "none"}
    worker = PoolWorker(app.state.sessionmaker, WorkerConfig(target=0))
    worker.heartbeat()
    assert client.get("/healthz").json() == {"status": "ok", "pool": "ok"}
    late = stalled_after(app.state.settings.pool_job_seconds) + 5
    with app.state.sessionmaker() as session:
        row = session.get(Health, HEARTBEAT_ID)
        assert row is not None
        row.checked_at = store.now() - timedelta(seconds=late)
        session.commit()
    r = client.get("/healthz")
    assert r.status_code == 200
    assert r.json() == {"status": "degraded", "pool": "stalled"}
    worker.heartbeat()
    assert client.get("/healthz").json() == {"status": "ok", "pool": "ok"}
