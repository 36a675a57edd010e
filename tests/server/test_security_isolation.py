"""Security, table-driven over every endpoint of the OpenAPI schema:

- player isolation: another player's game is 404 exactly like a missing one on every
  ``{game_id}`` endpoint, and every per-player list or figure (games, current, stats,
  history, reset) shows and touches only the caller's own games;
- bad input on every endpoint that takes a body (malformed JSON, not JSON, too large,
  unknown field) or a game id (unknown game): a 4xx with a stable code, nothing changes;
- the security headers on every kind of answer, errors and a crash included.

A new endpoint must be added to the tables below: ``test_tables_cover_every_endpoint``
fails otherwise.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from server_helpers import GAME_ACTIONS, move, new_game, post, state

from pasyans.server.security import COOKIE

# (method, path) -> a valid body for a game at version 1 (None: no body).
GAME_ENDPOINTS: dict[tuple[str, str], dict[str, Any] | None] = {
    (method, "/api/games/{game_id}" + tail): body for method, tail, body in GAME_ACTIONS
}
# The analysis of a game (docs/analysis.md) is the owner's alone, like its actions.
GAME_ENDPOINTS[("POST", "/api/games/{game_id}/analysis")] = {}
GAME_ENDPOINTS[("GET", "/api/games/{game_id}/analysis")] = None
PLAYER_ENDPOINTS = {
    ("GET", "/api/games"),
    ("GET", "/api/current"),
    ("GET", "/api/stats"),
    ("GET", "/api/history"),
    ("POST", "/api/stats/reset"),
    ("POST", "/api/games"),
    ("GET", "/api/devices"),
    ("POST", "/api/devices/code"),
    ("POST", "/api/devices/link"),
    ("POST", "/api/devices/{device_id}/unlink"),
    ("GET", "/api/me/export"),
    ("POST", "/api/me/delete"),
    # Daily deals (docs/daily.md): the player's own games, result, name and reports.
    ("GET", "/api/daily"),
    ("GET", "/api/daily/board"),
    ("POST", "/api/daily/games"),
    ("POST", "/api/daily/report"),
    ("GET", "/api/player"),
    ("PUT", "/api/player/name"),
}
PUBLIC_ENDPOINTS = {("GET", "/api/catalog"), ("GET", "/api/messages"), ("GET", "/healthz")}
# An analysis's share name is its capability: whoever holds it sees that game alone
# (tests/server/test_api_analysis.py).
SHARED_ENDPOINTS = {
    ("GET", "/api/analyses/{share}"),
    ("GET", "/api/analyses/{share}/position"),
    ("GET", "/api/analyses/{share}/way"),
    ("POST", "/api/analyses/{share}/practice"),
}
# Endpoints with a JSON body: a valid body (game ids filled in by the test).
BODY_ENDPOINTS: dict[tuple[str, str], dict[str, Any]] = {
    **{k: v for k, v in GAME_ENDPOINTS.items() if v is not None},
    ("POST", "/api/games"): {"game": "spider", "deal": 5},
    ("POST", "/api/stats/reset"): {"confirm": True},
    ("POST", "/api/devices/code"): {},
    ("POST", "/api/devices/link"): {"code": "0000-0000-0000"},
    ("POST", "/api/devices/{device_id}/unlink"): {},
    ("POST", "/api/me/delete"): {"confirm": True},
    ("POST", "/api/daily/games"): {"game": "spider", "difficulty": "easy"},
    ("POST", "/api/daily/report"): {"player": 1},
    ("PUT", "/api/player/name"): {"name": "Anna"},
}


def schema_operations(app: FastAPI) -> set[tuple[str, str]]:
    paths: dict[str, dict[str, Any]] = app.openapi()["paths"]
    return {(m.upper(), p) for p, ops in paths.items() for m in ops}


def test_tables_cover_every_endpoint(app: FastAPI) -> None:
    assert (
        schema_operations(app)
        == set(GAME_ENDPOINTS) | PLAYER_ENDPOINTS | PUBLIC_ENDPOINTS | SHARED_ENDPOINTS
    )


# --- isolation ----------------------------------------------------------------------------


@pytest.fixture
def owner(client: TestClient) -> dict[str, Any]:
    """The first player's records: a finished game (counted: one move, given up) and a
    game in progress with one move."""
    done = move(client, new_game(client, "spider", options={"suits": 1}))
    r = post(client, done["id"], "giveup", version=done["version"])
    assert r.status_code == 200, r.text
    playing = move(client, new_game(client, "spider", options={"suits": 1}, deal=9))
    return {
        "done": state(client, done["id"]),
        "playing": state(client, playing["id"]),
        "games": client.get("/api/games").json(),
        "stats": client.get("/api/stats").json(),
        "history": client.get("/api/history").json(),
        "replay": client.get(f"/api/games/{done['id']}/replay").json(),
    }


def assert_owner_untouched(client: TestClient, owner: dict[str, Any]) -> None:
    for key in ("done", "playing"):
        assert state(client, owner[key]["id"]) == owner[key]
    for key, url in (("games", "/api/games"), ("stats", "/api/stats"), ("history", "/api/history")):
        assert client.get(url).json() == owner[key], key


def test_another_players_game_is_404_everywhere(
    client: TestClient, other: TestClient, owner: dict[str, Any]
) -> None:
    for (method, path), body in GAME_ENDPOINTS.items():
        for which in ("done", "playing"):
            version = {"version": owner[which]["version"]} if body and "version" in body else {}
            payload = None if body is None else {**body, **version}
            theirs = other.request(method, path.format(game_id=owner[which]["id"]), json=payload)
            missing = other.request(method, path.format(game_id="x" * 22), json=payload)
            assert theirs.status_code == 404, (method, path, which, theirs.text)
            assert theirs.json() == missing.json()
            assert theirs.json()["error"]["code"] == "not_found"
    assert_owner_untouched(client, owner)


def test_lists_and_figures_are_per_player(
    client: TestClient, other: TestClient, owner: dict[str, Any]
) -> None:
    assert owner["stats"]["total"]["played"] == 1
    assert [i["id"] for i in owner["history"]["items"]] == [
        owner["playing"]["id"],
        owner["done"]["id"],
    ]
    assert owner["replay"]["steps"] == 1
    # The other player sees none of it...
    assert other.get("/api/games").json()["games"] == []
    r = other.get("/api/current?game=spider&suits=1")
    assert r.status_code == 200 and r.json() is None
    stats = other.get("/api/stats").json()
    assert stats["games"] == [] and stats["total"]["played"] == 0
    assert stats["total"]["in_progress"] == 0 and stats["total"]["points"] == []
    assert other.get("/api/stats?game=spider&suits=1").json()["games"] == []
    history = other.get("/api/history").json()
    assert history["items"] == [] and history["total"] == 0
    # ...and their reset deletes nothing of it.
    r = other.post("/api/stats/reset", json={"confirm": True})
    assert r.status_code == 200 and r.json() == {"deleted": 0}
    # Their devices, export and deletion are theirs alone too (docs/devices.md).
    mine = client.get("/api/devices").json()["devices"]
    assert len(mine) == 1 and other.get("/api/devices").json() == {"devices": []}
    r = other.post(f"/api/devices/{mine[0]['id']}/unlink", json={})
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
    assert other.get("/api/me/export").json()["games"] == []
    r = other.post("/api/me/delete", json={"confirm": True})
    assert r.status_code == 200 and r.json() == {"games": 0, "devices": 0}
    assert client.get("/api/devices").json()["devices"] == mine
    assert_owner_untouched(client, owner)
    # Their own game is theirs alone, and the owner's current game stays the owner's.
    theirs = new_game(other, "spider", options={"suits": 1}, deal=9)
    assert client.get("/api/current?game=spider&suits=1").json()["id"] == owner["playing"]["id"]
    assert other.get("/api/current?game=spider&suits=1").json()["id"] == theirs["id"]
    assert_owner_untouched(client, owner)


def test_a_forged_cookie_is_a_stranger(app: FastAPI, owner: dict[str, Any]) -> None:
    for forged in ("", "x" * 43, "../../etc", owner["done"]["id"], "a" * 500):
        with TestClient(app, cookies={COOKIE: forged}) as c:
            r = c.get(f"/api/games/{owner['done']['id']}")
            assert r.status_code == 404
            assert c.get("/api/history").json()["total"] == 0


# --- bad input on every endpoint ------------------------------------------------------------


@pytest.fixture
def fresh(client: TestClient) -> Iterator[dict[str, Any]]:
    g = move(client, new_game(client, "spider", options={"suits": 1}))
    yield {k: v for k, v in g.items() if k != "events"}


def _url(path: str, game: dict[str, Any]) -> str:
    return path.format(game_id=game["id"], device_id="nosuchdevice")


def _body(key: tuple[str, str], game: dict[str, Any]) -> dict[str, Any]:
    body = dict(BODY_ENDPOINTS[key])
    if "version" in body:
        body["version"] = game["version"]
    return body


def _assert_error(r: Any, status: int, code: str) -> None:
    assert r.status_code == status, r.text
    err = r.json()["error"]
    assert err["code"] == code and err["message_en"] and err["message_ru"]
    assert r.headers["x-frame-options"] == "DENY"


def _unchanged(client: TestClient, game: dict[str, Any], games: Any) -> None:
    assert state(client, game["id"]) == game
    assert client.get("/api/games").json() == games


BAD_BODIES: list[tuple[str, bytes | None, dict[str, str], int, str]] = [
    ("malformed JSON", b'{"version": 1,', {"content-type": "application/json"}, 400,
     "malformed_json"),
    ("not JSON", b'{"version": 1}', {"content-type": "text/plain"}, 415,
     "unsupported_media_type"),
    ("a JSON list", b"[1, 2]", {"content-type": "application/json"}, 422, "validation_error"),
    ("a JSON string", b'"stock"', {"content-type": "application/json"}, 422,
     "validation_error"),
    ("too large", b'{"pad": "' + b"x" * 20000 + b'"}', {"content-type": "application/json"},
     413, "body_too_large"),
    ("bad Content-Length", b"{}", {"content-type": "application/json", "content-length": "x"},
     400, "bad_request"),
]  # fmt: skip


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_bad_bodies_everywhere(client: TestClient, fresh: dict[str, Any]) -> None:
    games = client.get("/api/games").json()
    for method, path in BODY_ENDPOINTS:
        for what, content, headers, status, code in BAD_BODIES:
            r = client.request(method, _url(path, fresh), content=content, headers=headers)
            assert (r.status_code, r.json()["error"]["code"]) == (status, code), (path, what)
            _assert_error(r, status, code)
        body = {**_body((method, path), fresh), "admin": True}
        r = client.request(method, _url(path, fresh), json=body)
        _assert_error(r, 422, "validation_error")
    _unchanged(client, fresh, games)


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_oversized_chunked_body_without_length(make_app: Any) -> None:
    app = make_app(max_body_bytes=1024)
    with TestClient(app) as c:
        g = new_game(c)

        def chunks() -> Iterator[bytes]:
            yield b'{"version": 1, "move": "stock", "pad": "'
            for _ in range(10):
                yield b"x" * 500
            yield b'"}'

        r = c.post(
            f"/api/games/{g['id']}/moves",
            content=chunks(),
            headers={"content-type": "application/json"},
        )
        _assert_error(r, 413, "body_too_large")
        assert state(c, g["id"]) == g


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_unknown_games_everywhere(client: TestClient, fresh: dict[str, Any]) -> None:
    games = client.get("/api/games").json()
    for (method, path), body in GAME_ENDPOINTS.items():
        for game_id in ("nope", "x" * 22, "x" * 300, "%00", "..", "' OR 1=1 --"):
            r = client.request(method, path.format(game_id=game_id), json=body)
            assert r.status_code == 404, (path, game_id, r.text)
            _assert_error(r, 404, "not_found")
    _unchanged(client, fresh, games)


BAD_QUERIES = [
    ("/api/current?game=chess", "unknown_game"),
    ("/api/current?game=spider&suits=3", "bad_option"),
    ("/api/current?game=spider&colour=red", "bad_option"),
    ("/api/current?game=" + "s" * 41, "validation_error"),
    ("/api/stats?game=chess", "unknown_game"),
    ("/api/stats?game=spider&suits=9", "bad_option"),
    ("/api/stats?suits=2", "validation_error"),
    ("/api/history?page=0", "validation_error"),
    ("/api/history?per_page=1000", "validation_error"),
    ("/api/history?page=x", "validation_error"),
    ("/api/games?limit=0", "validation_error"),
    ("/api/games?offset=-1", "validation_error"),
    ("/api/games/{game_id}/replay?step=-1", "validation_error"),
    ("/api/games/{game_id}/replay?step=ten", "validation_error"),
]


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_bad_queries(client: TestClient, fresh: dict[str, Any]) -> None:
    games = client.get("/api/games").json()
    for url, code in BAD_QUERIES:
        r = client.get(url.format(game_id=fresh["id"]))
        assert (r.status_code, r.json()["error"]["code"]) == (422, code), url
        _assert_error(r, 422, code)
    _unchanged(client, fresh, games)


BAD_NEW_GAMES: list[tuple[dict[str, Any], str]] = [
    ({"game": "spider", "deal": -1}, "bad_deal"),
    ({"game": "spider", "deal": 2**63}, "bad_deal"),
    ({"game": "spider", "deal": 1.5}, "validation_error"),
    ({"game": "spider", "options": {"suits": "1", "extra": "x"}}, "bad_option"),
    ({"game": "spider", "options": []}, "validation_error"),
    ({"game": "spider", "solvable": "yes"}, "validation_error"),
    ({"game": "", "deal": 1}, "unknown_game"),
    ({"game": "s" * 5000}, "validation_error"),
]


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_bad_new_games_change_nothing(client: TestClient, fresh: dict[str, Any]) -> None:
    games = client.get("/api/games").json()
    for body, code in BAD_NEW_GAMES:
        r = client.post("/api/games", json=body)
        assert (r.status_code, r.json()["error"]["code"]) == (422, code), body
        _assert_error(r, 422, code)
    _unchanged(client, fresh, games)


GARBAGE = ["", " ", "t1>", ">t2", "t1>t2:0", "t1>t2:-1", "t1>t2:1000", "t1->t2",
           "stock!", "t1>t2;drop", "\u0000", "t1>t2:4:4", "f1>f1", "x" * 5000]  # fmt: skip


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_garbage_notation(client: TestClient, fresh: dict[str, Any]) -> None:
    games = client.get("/api/games").json()
    for garbage in GARBAGE:
        r = post(client, fresh["id"], "moves", move=garbage, version=fresh["version"])
        assert r.status_code == 422, (garbage, r.text)
        _assert_error(r, 422, r.json()["error"]["code"])
        assert r.json()["error"]["code"] in ("bad_notation", "validation_error"), garbage
    _unchanged(client, fresh, games)


# --- headers on every kind of answer ---------------------------------------------------------


def _assert_headers(r: Any) -> None:
    csp = r.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp
    assert "unsafe-inline" not in csp.split("script-src")[1].split(";")[0]
    assert "http" not in csp
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["x-frame-options"] == "DENY"
    assert r.headers["referrer-policy"] == "same-origin"


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_headers_on_every_kind_of_answer(make_app: Any) -> None:
    app = make_app(max_body_bytes=1024, rate_new_game_per_minute=1, rate_new_game_burst=2)

    @app.get("/api/crash", include_in_schema=False)
    def crash() -> None:
        raise RuntimeError("a bug")

    with TestClient(app, raise_server_exceptions=False) as c:
        g = new_game(c)
        undo = f"/api/games/{g['id']}/undo"
        answers = {
            "201": c.post("/api/games", json={"game": "spine"}),  # the limiter's burst
            "429": c.post("/api/games", json={"game": "spine"}),
            "200 move": post(c, g["id"], "moves", move=g["view"]["moves"][0]["text"], version=1),
            "409": post(c, g["id"], "undo", version=1),
            "400": c.post(undo, content=b"{", headers={"content-type": "application/json"}),
            "413": c.post(undo, content=b"x" * 2000),
            "415": c.post(undo, content=b"{}", headers={"content-type": "text/plain"}),
            "404": c.get("/api/games/nope"),
            "405": c.delete("/api/catalog"),
            "422": post(c, g["id"], "moves", move="jump!", version=2),
            "500": c.get("/api/crash"),
            "HEAD /": c.head("/"),
            "page": c.get("/play/spider"),
            "docs": c.get("/docs"),
            "docs asset": c.get("/docs/assets/swagger-ui.css"),
            "openapi": c.get("/openapi.json"),
            "static 404": c.get("/static/nothing.js"),
            "static traversal": c.get("/static/../pyproject.toml"),
            "healthz": c.get("/healthz"),
        }
    for name, r in answers.items():
        assert str(r.status_code) == name.split()[0] or not name[0].isdigit(), (name, r.text)
        _assert_headers(r)
    crash_body = answers["500"].json()["error"]
    assert crash_body["code"] == "internal_error" and "a bug" not in answers["500"].text
    assert answers["static traversal"].status_code == 404


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_headers_on_a_real_static_file(client: TestClient) -> None:
    from pasyans.server.routes import pages

    files = sorted(p for p in pages.STATIC.rglob("*") if p.is_file())
    assert files, "the UI's static files are missing"
    for f in files[:5]:
        r = client.get(f"/static/{f.relative_to(pages.STATIC).as_posix()}")
        assert r.status_code == 200
        _assert_headers(r)
