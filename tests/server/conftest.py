"""Server fixtures: every API/store test runs on SQLite and on a real PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.pool import NullPool

from pasyans.server.app import create_app
from pasyans.server.settings import Settings


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, empty database on each backend."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'test.sqlite3'}"
    url: str = request.getfixturevalue("postgres_url")
    engine = create_engine(url, poolclass=NullPool)
    with engine.begin() as conn:
        tables = set(inspect(conn).get_table_names())
        if "games" in tables:
            conn.execute(text("TRUNCATE games, players RESTART IDENTITY CASCADE"))
        for table in ("deal_pool", "deal_jobs", "verdicts", "rate_limits", "daily_boards"):
            if table in tables:
                conn.execute(text(f"TRUNCATE {table} RESTART IDENTITY"))
    engine.dispose()
    return url


@pytest.fixture
def make_settings(db_url: str, tmp_path: Path) -> Callable[..., Settings]:
    def make(**changes: object) -> Settings:
        values: dict[str, object] = {
            "database_url": db_url,
            "data_dir": tmp_path / "data",
            "rate_search_per_minute": 0,
            "rate_new_game_per_minute": 0,
            "rate_hint_any_per_minute": 0,
            "rate_new_player_per_hour": 0,
            "rate_history_per_minute": 0,
            "pool_inline": True,
            "hint_seconds": 0.5,
            # A search process started for every app costs each test a process start
            # (importing the server); the test of the start-up turns it back on.
            "solver_prestart": False,
        }
        values.update(changes)
        return Settings(**values)  # type: ignore[arg-type]

    return make


@pytest.fixture
def make_app(make_settings: Callable[..., Settings]) -> Iterator[Callable[..., FastAPI]]:
    apps: list[FastAPI] = []

    def make(**changes: object) -> FastAPI:
        app = create_app(make_settings(**changes))
        apps.append(app)
        return app

    yield make
    for app in apps:
        app.state.engine.dispose()


@pytest.fixture
def app(make_app: Callable[..., FastAPI]) -> FastAPI:
    return make_app()


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app) as c:
        yield c


@pytest.fixture
def other(app: FastAPI) -> Iterator[TestClient]:
    """A second player (their own cookie jar) on the same server."""
    with TestClient(app) as c:
        yield c
