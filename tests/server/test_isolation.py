"""Players: a cookie per player; another player's game is 404 on every endpoint."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from server_helpers import GAME_ACTIONS, move, new_game, post, state

from pasyans.server.security import COOKIE


def test_cookie_flags(client: TestClient) -> None:
    r = client.get("/api/catalog")
    cookie = r.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE}=")
    for flag in ("HttpOnly", "SameSite=Lax", "Path=/"):
        assert flag in cookie
    assert "Secure" not in cookie  # plain http
    assert "set-cookie" not in client.get("/api/catalog").headers  # kept, not renewed


def test_secure_cookie_behind_https_proxy(make_app: Any) -> None:
    trusting = make_app(trust_proxy=True)
    # The proxy is a peer in forwarded_allow_ips (default 127.0.0.1); others are not believed.
    with TestClient(trusting, client=("127.0.0.1", 50000)) as c:
        r = c.get("/api/catalog", headers={"x-forwarded-proto": "https"})
        assert "Secure" in r.headers["set-cookie"]
        assert "strict-transport-security" in r.headers
    untrusting = make_app()
    with TestClient(untrusting) as c:
        r = c.get("/api/catalog", headers={"x-forwarded-proto": "https"})
        assert "Secure" not in r.headers["set-cookie"]
    with TestClient(untrusting, base_url="https://testserver") as c:
        assert "Secure" in c.get("/api/catalog").headers["set-cookie"]


@pytest.mark.parametrize(("method", "path", "body"), GAME_ACTIONS)
def test_other_players_game_is_404(
    client: TestClient, other: TestClient, method: str, path: str, body: dict[str, Any] | None
) -> None:
    g = new_game(client)
    url = f"/api/games/{g['id']}{path}"
    missing = f"/api/games/{'x' * 22}{path}"
    theirs = other.request(method, url, json=body if method == "POST" else None)
    nothing = other.request(method, missing, json=body if method == "POST" else None)
    assert theirs.status_code == 404, theirs.text
    assert theirs.json() == nothing.json()
    assert state(client, g["id"]) == g  # untouched


def test_other_players_lists_and_current_are_their_own(
    client: TestClient, other: TestClient
) -> None:
    new_game(client)
    assert other.get("/api/games").json()["games"] == []
    r = other.get("/api/current?game=spider")
    assert r.status_code == 200 and r.json() is None
    assert client.get("/api/current?game=spider").status_code == 200


def test_a_bad_cookie_gets_a_new_player(client: TestClient, app: FastAPI) -> None:
    g = new_game(client)
    with TestClient(app, cookies={COOKIE: "guess"}) as c:
        r = c.get(f"/api/games/{g['id']}")
        assert r.status_code == 404
        assert r.headers["set-cookie"].startswith(f"{COOKIE}=")


def test_closed_tab_resumes_with_the_same_cookie(client: TestClient, app: FastAPI) -> None:
    g = move(client, new_game(client))
    token = client.cookies[COOKIE]
    with TestClient(app, cookies={COOKIE: token}) as tab:
        r = tab.get("/api/current?game=spider")
        assert r.status_code == 200
        assert r.json()["id"] == g["id"] and r.json()["version"] == g["version"]
        assert r.json()["view"] == g["view"]
        out = post(tab, g["id"], "undo", version=g["version"])
        assert out.status_code == 200
    assert state(client, g["id"])["version"] == g["version"] + 1
