"""Rate limits on the costly endpoints answer 429 with Retry-After."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from pasyans.server.limits import RateLimiter


def test_token_bucket() -> None:
    lim = RateLimiter(per_minute=60, burst=2)
    assert lim.check("a", now=0.0) == 0
    assert lim.check("a", now=0.0) == 0
    assert lim.check("a", now=0.0) > 0  # burst spent
    assert lim.check("b", now=0.0) == 0  # per player
    assert lim.check("a", now=1.01) == 0  # one token a second


def test_new_game_rate_limited(make_app: Any) -> None:
    app = make_app(rate_new_game_per_minute=1, rate_new_game_burst=2)
    with TestClient(app) as c:
        body = {"game": "spine"}
        assert c.post("/api/games", json=body).status_code == 201
        assert c.post("/api/games", json=body).status_code == 201
        r = c.post("/api/games", json=body)
        assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
        assert int(r.headers["retry-after"]) >= 1
        assert len(c.get("/api/games").json()["games"]) == 2


def test_hint_rate_limited(make_app: Any) -> None:
    app = make_app(rate_hint_per_minute=1, rate_hint_burst=1)
    with TestClient(app) as c:
        g = c.post("/api/games", json={"game": "spider", "deal": 3}).json()
        assert c.post(f"/api/games/{g['id']}/hint", json={"version": 1}).status_code == 200
        r = c.post(f"/api/games/{g['id']}/hint", json={"version": 2})
        assert r.status_code == 429
        assert c.get(f"/api/games/{g['id']}").json()["version"] == 2
