"""The solvable-deal pool: requests take deals made ahead of time and never run the
generator; a number the pool lacks is queued (202) and made by the worker in a bounded
job. On SQLite and PostgreSQL."""

from __future__ import annotations

import os
import threading
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event, func, select

from pasyans.deals import SolvableDeal
from pasyans.engine import initial_state
from pasyans.rules import get_game
from pasyans.rules.registry import resolve_options
from pasyans.server.pool import entries as pool
from pasyans.server.storage import store
from pasyans.server.storage.models import DealJob, GameRow, PoolEntry
from pasyans.solvable.generate import GenerationError

SPINE = resolve_options("spine", {})
SPINE_KEY = store.options_key(SPINE)


def _made(deal: int, difficulty: str = "medium") -> SolvableDeal:
    """A stand-in for the generator: the random layout of the number (tests only)."""
    return SolvableDeal(
        initial_state(get_game("spine"), deal), difficulty, 0.5, pool.generator_version()
    )


def _add(app: Any, deal: int, difficulty: str = "medium") -> None:
    with app.state.sessionmaker() as s:
        pool.add(s, "spine", SPINE_KEY, deal, _made(deal, difficulty))
        s.commit()


def _no_generator(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object) -> SolvableDeal:
        raise AssertionError("the generator ran inside a request")

    monkeypatch.setattr(pool, "make_solvable", refuse)
    monkeypatch.setattr("pasyans.solvable.generate.solvable_layout", refuse)


def test_new_solvable_game_takes_from_the_pool(
    make_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before: the generator ran inside the request (Spider 4 suits 12.7 s)."""
    app = make_app(pool_inline=False)
    _add(app, 101)
    _add(app, 102)
    _no_generator(monkeypatch)
    with TestClient(app) as a, TestClient(app) as b:
        ga = a.post("/api/games", json={"game": "spine", "solvable": True}).json()
        gb = b.post("/api/games", json={"game": "spine", "solvable": True}).json()
        assert {ga["deal"], gb["deal"]} == {101, 102}  # one entry each
        row = a.get(f"/api/games/{ga['id']}").json()
        assert row["kind"] == "solvable"
    with app.state.sessionmaker() as s:
        taken = s.scalar(select(func.count()).where(PoolEntry.taken_at.is_not(None)))
        assert taken == 2
        stored = s.scalar(select(GameRow).where(GameRow.id == ga["id"]))
        assert stored is not None and stored.difficulty == "medium" and stored.start is not None
    # Nothing free left: an entry already played is dealt again rather than waiting.
    with TestClient(app) as c:
        r = c.post("/api/games", json={"game": "spine", "solvable": True})
        assert r.status_code == 201 and r.json()["deal"] in (101, 102)


def test_requested_number_missing_is_queued(make_app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    app = make_app(pool_inline=False)
    _no_generator(monkeypatch)
    body = {"game": "spine", "solvable": True, "deal": 4242, "difficulty": "hard"}
    with TestClient(app) as c:
        t0 = time.perf_counter()
        r = c.post("/api/games", json=body)
        assert time.perf_counter() - t0 < 2.0
        assert r.status_code == 202, r.text
        assert r.json()["error"]["code"] == "deal_preparing"
        assert int(r.headers["retry-after"]) >= 1
        assert c.post("/api/games", json=body).status_code == 202  # still one job
        assert c.get("/api/games").json()["games"] == []
    with app.state.sessionmaker() as s:
        jobs = s.scalars(select(DealJob)).all()
        assert [(j.deal, j.difficulty, j.finished_at) for j in jobs] == [(4242, "hard", None)]
    # The worker makes it (the stand-in generator, in a child process), then it is served.
    monkeypatch.setattr(pool, "make_solvable", lambda g, o, d, band: _made(d, band))
    worker = pool.PoolWorker(app.state.sessionmaker, pool.WorkerConfig(target=0))
    assert worker.step() is True and worker.made == 1
    with TestClient(app) as c:
        r = c.post("/api/games", json=body)
        assert r.status_code == 201, r.text
        g = r.json()
        assert g["deal"] == 4242 and g["kind"] == "solvable"
        start = initial_state(get_game("spine"), 4242)
        assert g["view"]["piles"] == c.get(f"/api/games/{g['id']}").json()["view"]["piles"]
    with app.state.sessionmaker() as s:
        row = s.scalar(select(GameRow).where(GameRow.id == g["id"]))
        assert row is not None and row.start == start.to_json() and row.difficulty == "hard"


def test_failed_job_answers_422(make_app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    app = make_app(pool_inline=False)
    body = {"game": "spine", "solvable": True, "deal": 77}

    def fail(*args: object) -> SolvableDeal:
        raise GenerationError("none")

    monkeypatch.setattr(pool, "make_solvable", fail)
    with TestClient(app) as c:
        assert c.post("/api/games", json=body).status_code == 202
        pool.PoolWorker(app.state.sessionmaker, pool.WorkerConfig(target=0)).step()
        r = c.post("/api/games", json=body)
        assert r.status_code == 422 and r.json()["error"]["code"] == "no_solvable_deal"


def test_generation_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """A deal that takes too long is given up after ``job_seconds`` (the child is killed)."""

    def slow(*args: object) -> SolvableDeal:
        time.sleep(30)
        raise AssertionError("not reached")

    monkeypatch.setattr(pool, "make_solvable", slow)
    t0 = time.monotonic()
    assert pool.generate_bounded("spine", SPINE, 5, "medium", 0.5) == "timeout"
    assert time.monotonic() - t0 < 5


@pytest.mark.skipif(not hasattr(os, "SCHED_IDLE"), reason="Linux scheduling policies")
def test_only_the_generator_runs_idle_not_the_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    """The child that makes the deal runs SCHED_IDLE at the worker's niceness; the process
    that holds the database's locks keeps its policy (an idle-class worker, preempted while
    holding SQLite's write lock, held up every web worker's write)."""

    def report(*args: object) -> SolvableDeal:
        policy, nice = os.sched_getscheduler(0), os.getpriority(os.PRIO_PROCESS, 0)
        raise GenerationError("seen", f"policy={policy},nice={nice}")

    monkeypatch.setattr(pool, "make_solvable", report)
    before = os.sched_getscheduler(0), os.getpriority(os.PRIO_PROCESS, 0)
    seen = pool.generate_bounded("spine", SPINE, 5, "medium", 30, nice=12)
    assert seen == f"policy={os.SCHED_IDLE},nice={max(12, before[1])}"
    assert (os.sched_getscheduler(0), os.getpriority(os.PRIO_PROCESS, 0)) == before
    assert before[0] != os.SCHED_IDLE


def test_an_idle_worker_takes_no_write_lock(make_app: Any) -> None:
    """Looking for requested numbers (every second) is a read; only a claim writes."""
    app = make_app(pool_inline=False)
    engine = app.state.engine
    writes: list[int] = []

    @event.listens_for(engine, "begin")
    def count(conn: Any) -> None:
        if conn.get_execution_options().get("pasyans_write"):
            writes.append(1)

    worker = pool.PoolWorker(app.state.sessionmaker, pool.WorkerConfig(target=0))
    for _ in range(3):
        assert worker.claim_job() is None
    assert writes == []
    with TestClient(app) as c:
        body = {"game": "spine", "solvable": True, "deal": 31}
        assert c.post("/api/games", json=body).status_code == 202
    writes.clear()
    job = worker.claim_job()
    assert job is not None and job.deal == 31 and job.started_at is not None
    assert writes == [1]
    assert worker.claim_job() is None  # claimed: not handed out twice


def test_pending_jobs_are_capped_per_address(make_app: Any) -> None:
    app = make_app(pool_inline=False, pool_max_pending_per_address=2)
    with TestClient(app) as c:
        codes = [
            c.post("/api/games", json={"game": "spine", "solvable": True, "deal": d}).status_code
            for d in (11, 12, 13)
        ]
    assert codes == [202, 202, 429]


def test_numbers_made_per_address_are_capped_per_hour(make_app: Any) -> None:
    """Three pending at a time is not enough: an address that keeps asking for numbers as
    they are made keeps the worker busy. ``pool_requested_per_hour`` numbers an hour per
    address, then 429 with a long Retry-After; asking again for a number already queued
    (the page's retry after 202) is never counted, and an hour later the address may ask
    again."""
    app = make_app(pool_inline=False, pool_max_pending_per_address=10, pool_requested_per_hour=3)

    def ask(c: TestClient, deal: int) -> Any:
        return c.post("/api/games", json={"game": "spine", "solvable": True, "deal": deal})

    with TestClient(app) as c:
        assert [ask(c, d).status_code for d in (11, 12, 13, 11, 12, 13)] == [202] * 6
        with app.state.sessionmaker() as s:  # the worker made them meanwhile
            s.execute(DealJob.__table__.update().values(finished_at=store.now()))
            s.commit()
        r = ask(c, 14)
        assert r.status_code == 429, r.text
        assert r.json()["error"]["code"] == "rate_limited"
        assert int(r.headers["Retry-After"]) >= 60
        # Any number will do (the key's pool is empty): the pool's need, not the address's.
        r = c.post("/api/games", json={"game": "spine", "solvable": True})
        assert r.status_code == 202, r.text
        with app.state.sessionmaker() as s:
            s.execute(
                DealJob.__table__.update().values(
                    requested_at=store.now() - pool.HOUR - timedelta(seconds=1)
                )
            )
            s.commit()
        assert ask(c, 14).status_code == 202


def test_an_address_jobs_are_counted_through_an_index(tmp_path: Path) -> None:
    """Every request for a number not in the pool counts the address's jobs (pending, and
    made in the last hour). Before migration 0006 each count read the whole table."""
    import sqlite3

    from pasyans.server.storage import migrate

    path = tmp_path / "plan.sqlite3"
    migrate.upgrade(f"sqlite:///{path}")
    with sqlite3.connect(path) as db:
        plan = db.execute(
            "EXPLAIN QUERY PLAN SELECT count(*) FROM deal_jobs"
            " WHERE requested_by = ? AND requested_at >= ?",
            ("203.0.113.7", "2026-12-01"),
        ).fetchall()
    assert any("ix_deal_jobs_requester" in str(row[-1]) for row in plan), plan


def test_take_has_one_winner(make_app: Any) -> None:
    """Racing requests never get the same free entry."""
    app = make_app()
    for deal in range(1, 5):
        _add(app, deal)
    got: list[int | None] = []
    lock = threading.Lock()
    barrier = threading.Barrier(8)
    write_lock = app.state.write_lock

    def claim() -> None:
        barrier.wait()
        with app.state.sessionmaker() as s:
            if write_lock is not None:
                write_lock.acquire()
            try:
                s.connection(execution_options={"pasyans_write": True})
                entry = pool.take(s, "spine", SPINE_KEY, "medium")
                s.commit()
            finally:
                if write_lock is not None:
                    write_lock.release()
        with lock:
            got.append(None if entry is None else entry.deal)

    threads = [threading.Thread(target=claim) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(d for d in got if d is not None) == [1, 2, 3, 4]
    assert got.count(None) == 4


def test_worker_fills_every_key(make_app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    app = make_app(pool_inline=False)
    monkeypatch.setattr(pool, "make_solvable", lambda g, o, d, band: _made(d, band))
    worker = pool.PoolWorker(app.state.sessionmaker, pool.WorkerConfig(target=2, games=("spine",)))
    while worker.step():
        pass
    with app.state.sessionmaker() as s:
        counts = pool.free_counts(s)
    keys = {(g, store.options_key(o), d) for g, o, d in pool.all_keys() if g == "spine"}
    assert len(keys) == 36  # 12 option sets, 3 difficulties
    assert counts == dict.fromkeys(keys, 2)


def test_all_keys_cover_every_game() -> None:
    games = {g for g, _, _ in pool.all_keys()}
    assert games == {"spine", "backbone", "backbone-classic", "spider", "nivernais"}
    assert {d for _, _, d in pool.all_keys()} == {"easy", "medium", "hard"}


def test_empty_pool_queues_one_job_per_key(make_app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A fresh site with no deal made yet: the page waits (202) on one job, then plays."""
    app = make_app(pool_inline=False, pool_max_pending_per_address=1)
    _no_generator(monkeypatch)
    body = {"game": "spine", "solvable": True}
    with TestClient(app) as c:
        assert [c.post("/api/games", json=body).status_code for _ in range(3)] == [202] * 3
        with app.state.sessionmaker() as s:
            assert s.scalar(select(func.count()).select_from(DealJob)) == 1
        monkeypatch.setattr(pool, "make_solvable", lambda g, o, d, band: _made(d, band))
        pool.PoolWorker(app.state.sessionmaker, pool.WorkerConfig(target=0)).step()
        r = c.post("/api/games", json=body)
        assert r.status_code == 201 and r.json()["kind"] == "solvable"


def test_serve_runs_the_worker(db_url: str, tmp_path: Path) -> None:
    """``pasyans serve`` starts ``pasyans worker``: the pool fills, a solvable new game is
    served from it at once, and the worker stops with the server."""
    import os
    import signal
    import subprocess
    import sys

    import httpx
    from devtools import free_port

    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("PASYANS_")}
    env.update(
        PASYANS_DATA_DIR=str(tmp_path / "data"),
        PASYANS_DATABASE_URL=db_url,
        PASYANS_POOL_TARGET="1",
        PASYANS_POOL_GAMES="spine",
    )
    log = tmp_path / "serve.log"
    with log.open("w") as out:
        proc = subprocess.Popen(
            [str(Path(sys.executable).parent / "pasyans"), "serve", "--port", str(port)],
            env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    key = (store.options_key(SPINE), "medium")
    try:
        deadline = time.monotonic() + 240
        from sqlalchemy import create_engine
        from sqlalchemy.orm import Session
        from sqlalchemy.pool import NullPool

        engine = create_engine(db_url, poolclass=NullPool)
        filled = False
        while not filled:
            assert proc.poll() is None, log.read_text()
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(1)
            try:
                with Session(engine) as s:
                    filled = pool.free_counts(s).get(("spine", *key), 0) >= 1
            except Exception:  # the tables are not made yet
                continue
        engine.dispose()
        while True:
            try:
                if httpx.get(f"{base}/healthz", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
        r = httpx.post(f"{base}/api/games", json={"game": "spine", "solvable": True}, timeout=30)
        assert r.status_code == 201, r.text
        workers = subprocess.run(
            ["pgrep", "-g", str(proc.pid), "-f", "pasyans worker"], capture_output=True, text=True
        ).stdout.split()
        assert workers, "no worker process in the server's group"
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
    deadline = time.monotonic() + 20  # the worker ends its step, then exits
    while True:
        left = subprocess.run(["pgrep", "-g", str(proc.pid)], capture_output=True, text=True)
        if not left.stdout.split():
            break
        assert time.monotonic() < deadline, f"processes left after the server stopped: {left}"
        time.sleep(0.5)
