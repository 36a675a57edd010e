"""A fuzz run of the OpenAPI schema with schemathesis, against the ASGI app on SQLite and
on PostgreSQL.

Every operation gets generated requests (valid and invalid), once with the generated game
id and once with a real game of the player's: never a 500, every status code, content
type and body as the schema says. Bounded: a few dozen examples per operation.
"""

from __future__ import annotations

import itertools
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from pasyans.server.app import create_app
from pasyans.server.security import COOKIE
from pasyans.server.settings import Settings

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]
MAX_EXAMPLES = 20
TOKEN = secrets.token_urlsafe(32)
GAMES = itertools.cycle(
    [
        {"game": "spider", "options": {"suits": 1}},
        {"game": "spine", "solvable": False},
        {"game": "backbone"},
        {"game": "nivernais"},
        {"game": "backbone-classic"},
    ]
)


@pytest.fixture(
    scope="module", params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]
)
def fuzz_app(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[FastAPI]:
    tmp: Path = tmp_path_factory.mktemp("fuzz")
    url = (
        f"sqlite:///{tmp / 'fuzz.sqlite3'}"
        if request.param == "sqlite"
        else request.getfixturevalue("postgres_url")
    )
    app = create_app(
        Settings(
            database_url=url,
            data_dir=tmp / "data",
            hint_seconds=0.2,
            winnable_seconds=0.2,
            rate_search_per_minute=0,
            rate_new_game_per_minute=0,
            rate_hint_any_per_minute=0,
            rate_new_player_per_hour=0,
            pool_inline=True,
            # Solvable (daily) deals are made inside the request here: a hard Backbone
            # one took over the default 10 s beside CI's browsers (503, once).
            answer_seconds=30.0,
        )
    )
    yield app
    app.state.engine.dispose()


@pytest.fixture(scope="module")
def api_schema(fuzz_app: FastAPI) -> Any:
    return schemathesis.openapi.from_asgi("/openapi.json", fuzz_app)


@pytest.fixture(scope="module")
def player(fuzz_app: FastAPI) -> Iterator[TestClient]:
    with TestClient(fuzz_app, cookies={COOKIE: TOKEN}) as c:
        yield c


def _operations() -> list[tuple[str, str]]:
    """Every (method, path) of the schema (read from an app that never opens its database)."""
    app = create_app(Settings(database_url="sqlite:///unused.sqlite3", migrate_on_start=False))
    paths: dict[str, dict[str, Any]] = app.openapi()["paths"]
    return [(m.upper(), p) for p, ops in paths.items() for m in ops]


CALL_TIMEOUT = 60
"""Seconds a call may take (schemathesis's default is 10). With ``pool_inline`` a new
solvable or daily deal is generated inside the request (in production the deal worker
makes it ahead of time), and version 4's bands take a few CPU seconds a number, more on a
loaded CI machine; the checks on the answer are unchanged."""


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
@pytest.mark.parametrize(("method", "path"), _operations())
def test_api_conforms_to_its_schema(
    api_schema: Any, player: TestClient, method: str, path: str, mode: GenerationMode
) -> None:
    operation = api_schema[path][method]
    headers = {"cookie": f"{COOKIE}={TOKEN}"}

    @given(case=operation.as_strategy(generation_mode=mode))
    @settings(
        max_examples=MAX_EXAMPLES,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        derandomize=True,
        database=None,
    )
    def check(case: Any) -> None:
        response = case.call(headers=headers, timeout=CALL_TIMEOUT)
        case.validate_response(response, checks=CHECKS)
        if "game_id" in (case.path_parameters or {}):
            game = player.post("/api/games", json=next(GAMES))
            assert game.status_code == 201, game.text
            case.path_parameters["game_id"] = game.json()["id"]
            response = case.call(headers=headers, timeout=CALL_TIMEOUT)
            case.validate_response(response, checks=CHECKS)

    try:
        check()
    except Unsatisfiable:
        # Nothing of this operation can be made invalid (no body, no constrained parameter).
        assert mode is GenerationMode.NEGATIVE
