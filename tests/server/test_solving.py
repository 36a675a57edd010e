"""Solver work per request is bounded (250 ms) and every verdict is remembered in the
database, so a repeated ``winnable`` or hint costs nothing on any worker. On SQLite and
PostgreSQL."""

from __future__ import annotations

import os
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from pasyans.server import solving
from pasyans.server.models import Verdict
from pasyans.solver import hints


def _game(c: TestClient, deal: int, solvable: bool = False) -> dict[str, Any]:
    r = c.post("/api/games", json={"game": "spine", "deal": deal, "solvable": solvable})
    assert r.status_code == 201, r.text
    return dict(r.json())


def test_winnable_spends_at_most_250_ms_of_solver(make_app: Any) -> None:
    """Before: an undecidable position took the full 2 s, every time."""
    hints.LINES.clear()
    app = make_app(winnable_seconds=5.0, hint_seconds=5.0)
    before = solving.STATS.searches
    with TestClient(app) as c:
        for deal in (21, 22):
            g = _game(c, deal)
            r = c.post(f"/api/games/{g['id']}/winnable", json={"version": g["version"]})
            assert r.status_code == 200
            r = c.post(f"/api/games/{g['id']}/hint", json={"version": g["version"]})
            assert r.status_code == 200
    assert solving.STATS.searches > before
    assert solving.STATS.max_cpu_seconds <= solving.SOLVER_CPU_CAP + 0.03


def test_repeated_winnable_costs_nothing_on_any_worker(make_app: Any) -> None:
    """An undecided (or decided) verdict is kept in the database: another worker (another
    app on the same database, with an empty memory) answers it without a search."""
    hints.LINES.clear()
    a = make_app()
    b = make_app()
    with TestClient(a) as ca:
        g = _game(ca, 23)
        first = ca.post(f"/api/games/{g['id']}/winnable", json={"version": g["version"]})
        assert first.status_code == 200
        searches = solving.STATS.searches
        for _ in range(3):
            r = ca.post(f"/api/games/{g['id']}/winnable", json={"version": g["version"]})
            assert r.json() == first.json()
        hints.LINES.clear()  # the other worker's process memory is empty
        with TestClient(b, cookies=dict(ca.cookies)) as cb:
            r = cb.post(f"/api/games/{g['id']}/winnable", json={"version": g["version"]})
            assert r.json() == first.json()
        assert solving.STATS.searches == searches


def test_a_found_win_is_kept_along_its_line(make_app: Any) -> None:
    """A hint that finds a win stores every position of the line: the next hints along it
    cost no search, on any worker."""
    hints.LINES.clear()
    app = make_app()
    with TestClient(app) as c:
        g = _game(c, 11, solvable=True)
        r = c.post(f"/api/games/{g['id']}/hint", json={"version": g["version"]})
        g = r.json()
        assert g["hint"]["source"] == "solver" and g["hint"]["winnable"] is True
        with app.state.sessionmaker() as s:
            assert (s.scalar(select(func.count()).select_from(Verdict)) or 0) > 50
        hints.LINES.clear()
        searches = solving.STATS.searches
        for _ in range(20):
            g = c.post(
                f"/api/games/{g['id']}/moves",
                json={"version": g["version"], "move": g["hint"]["move"]["text"]},
            ).json()
            g = c.post(f"/api/games/{g['id']}/hint", json={"version": g["version"]}).json()
            assert g["hint"]["source"] == "solver"
        assert solving.STATS.searches == searches


def test_the_search_processes_start_with_the_server(make_app: Any) -> None:
    """The app's startup starts the search processes (in the background): the first hint
    after a server start does not wait for the forkserver to import the solver (once
    16 s), and runs in a process that was already there."""
    solving.SEARCHES.shutdown()  # none left from an earlier test
    app = make_app(solver_prestart=True)
    with TestClient(app) as c:
        assert solving.SEARCHES.ready.wait(120)  # before any request
        pids = solving.SEARCHES.started
        assert pids and os.getpid() not in pids
        for pid in pids:
            os.kill(pid, 0)  # alive
        g = _game(c, 21)
        r = c.post(f"/api/games/{g['id']}/winnable", json={"version": g["version"]})
        assert r.status_code == 200
        executor = solving.SEARCHES._executor
        assert executor is not None and set(executor._processes) == set(pids)
    assert not solving.SEARCHES.ready.is_set()  # stopped with the app


def test_no_search_process_before_a_search_without_prestart(make_app: Any) -> None:
    """With ``solver_prestart`` off the processes start at the first search, as before."""
    solving.SEARCHES.shutdown()
    with TestClient(make_app(solver_prestart=False)) as c:
        c.get("/healthz")
        assert not solving.SEARCHES.ready.wait(0.5)
        assert solving.SEARCHES._executor is None


def test_a_starved_search_answers_unknown_at_once(
    make_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A search process that gets no CPU in time (a busy machine) gives "unknown" after its
    budget + SEARCH_GRACE (before: a 500 after 30 s), remembered like any "unknown": asking
    again runs no search."""
    hints.LINES.clear()
    calls: list[object] = []

    def starved(*args: object) -> None:
        calls.append(args)
        raise solving.Starved

    monkeypatch.setattr(solving.SEARCHES, "run", starved)
    app = make_app()
    with TestClient(app) as c:
        g = _game(c, 24)
        r = c.post(f"/api/games/{g['id']}/winnable", json={"version": g["version"]})
        assert r.status_code == 200 and r.json()["result"] == "unknown"
        r = c.post(f"/api/games/{g['id']}/hint", json={"version": g["version"]})
        assert r.status_code == 200 and r.json()["hint"]["source"] != "solver"
        assert len(calls) == 1
        with app.state.sessionmaker() as s:
            assert s.scalar(select(Verdict.result)) == "unknown"
