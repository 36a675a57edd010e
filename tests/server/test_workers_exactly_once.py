"""Exactly once across workers (issue 28, "on SQLite and PostgreSQL with several workers"):
``pasyans serve --workers 2`` really running, an action sent on a connection one worker
holds and its id sent again on a connection the *other* worker holds. The second worker
never saw the first request: it answers from the stored answer (``Pasyans-Replayed: 1``),
byte for byte, and applies nothing.

Which worker holds a connection is read from Linux's ``/proc``: the server side of the
TCP connection (``/proc/net/tcp``) and the worker process whose file descriptors hold
that socket."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from server_helpers import assert_no_hidden
from servers import Serve

REPLAYED = "Pasyans-Replayed"

pytestmark = pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="needs Linux /proc")


def descendants(pid: int) -> list[int]:
    """Every process below ``pid`` (uvicorn's workers and their helpers)."""
    parents: dict[int, int] = {}
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            stat = (d / "stat").read_text()
        except OSError:
            continue
        parents[int(d.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    out: list[int] = []
    todo = [pid]
    while todo:
        p = todo.pop()
        kids = [c for c, pp in parents.items() if pp == p]
        out += kids
        todo += kids
    return out


def _hex(port: int) -> str:
    return f"0100007F:{port:04X}"


def worker_of(server_pid: int, server_port: int, client_port: int) -> int | None:
    """The process that holds the server side of the connection from ``client_port``."""
    inode = None
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        f = line.split()
        if f[1] == _hex(server_port) and f[2] == _hex(client_port):
            inode = f[9]
    if inode is None:
        return None
    for pid in descendants(server_pid):
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue
        for fd in fds:
            try:
                if os.readlink(f"/proc/{pid}/fd/{fd}") == f"socket:[{inode}]":
                    return pid
            except OSError:
                continue
    return None


def client_port(r: httpx.Response) -> int:
    sock = r.extensions["network_stream"].get_extra_info("socket")
    port: int = sock.getsockname()[1]
    return port


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def two_workers(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, int]]:
    """A running ``pasyans serve --workers 2`` (no deal-pool process): base URL and pid."""
    settings = {"PASYANS_POOL_WORKER": "false"}
    if request.param == "postgresql":
        settings["PASYANS_DATABASE_URL"] = request.getfixturevalue("postgres_url")
    with Serve(tmp_path / "server.log", settings, 2) as server:
        yield server.base, server.proc.pid


def test_a_resent_id_is_answered_once_by_either_worker(two_workers: tuple[str, int]) -> None:
    base, pid = two_workers
    port = int(base.rsplit(":", 1)[1])
    with httpx.Client(base_url=base, timeout=30) as first:
        g = first.post("/api/games", json={"game": "spider", "deal": 123}).json()
        cookies = dict(first.cookies)
    # Keep-alive connections until two are held by different workers (the second worker
    # may still be starting: up to 2 minutes on a loaded machine).
    held: dict[int, httpx.Client] = {}
    clients: list[httpx.Client] = []
    try:
        for _ in range(400):
            c = httpx.Client(base_url=base, cookies=cookies, timeout=30)
            clients.append(c)
            r = c.get("/healthz")
            assert r.status_code == 200
            w = worker_of(pid, port, client_port(r))
            if w is not None and w not in held:
                held[w] = c
            if len(held) == 2:
                break
            if len(clients) > 8:  # not this one: keep only a few connections open
                c.close()
        assert len(held) == 2, "no connection reached a second worker"
        (wa, a), (wb, b) = held.items()
        body = {"move": g["view"]["moves"][0]["text"], "version": g["version"]}
        body["action"] = "two-workers-0001"
        answer = a.post(f"/api/games/{g['id']}/moves", json=body)
        assert answer.status_code == 200, answer.text
        assert REPLAYED not in answer.headers
        assert worker_of(pid, port, client_port(answer)) == wa
        # The answer was lost; the page resends it, and the other worker takes it.
        again = b.post(f"/api/games/{g['id']}/moves", json=body)
        assert worker_of(pid, port, client_port(again)) == wb != wa
        assert again.status_code == 200, again.text
        assert again.headers[REPLAYED] == "1"
        assert again.content == answer.content
        assert_no_hidden(again.json())
        # Applied once, as both workers see it.
        for c in (a, b):
            now = c.get(f"/api/games/{g['id']}").json()
            assert now["version"] == g["version"] + 1
            assert now["view"]["counters"]["moves"] == 1
    finally:
        for c in clients:
            c.close()
