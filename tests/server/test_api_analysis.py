"""The analysis API (docs/analysis.md): a request only queues it, the worker's runner
makes it, polls are cheap reads, a finished analysis is answered from storage, one runs
per player, and the shared link shows that game alone. On SQLite and PostgreSQL."""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.testclient import TestClient
from server_helpers import assert_no_hidden, move, new_game, post

from pasyans.server.pool.analyses import AnalysisRunner


def finished(client: TestClient, moves: int = 3) -> dict:  # type: ignore[type-arg]
    """A Spider (one suit) game with a few moves played, then given up."""
    g = new_game(client, "spider", options={"suits": "1"})
    for _ in range(moves):
        g = move(client, g)
    r = post(client, g["id"], "giveup", version=g["version"])
    assert r.status_code == 200 and r.json()["status"] == "lost", r.text
    return g


def run(app: FastAPI) -> int:
    runner = AnalysisRunner(app.state.sessionmaker, seconds=120, nice=0)
    n = 0
    while runner.step():
        n += 1
    return n


def test_analysis_is_queued_run_by_the_worker_and_kept(app: FastAPI, client: TestClient) -> None:
    g = finished(client)
    r = client.post(f"/api/games/{g['id']}/analysis", json={})
    assert r.status_code == 202 and r.headers["Retry-After"] == "1", r.text
    queued = r.json()
    assert queued["status"] == "queued" and queued["result"] is None and queued["progress"] == 0
    assert client.get(f"/api/games/{g['id']}/analysis").json()["status"] == "queued"
    assert run(app) == 1
    r = client.get(f"/api/games/{g['id']}/analysis")
    assert r.status_code == 200, r.text
    done = r.json()
    assert done["status"] == "done" and done["progress"] == 1.0
    result = done["result"]
    assert result["moves"] == 3 and len(result["points"]) == 4 and len(result["steps"]) == 3
    assert done["method"] == result["method"] == "determinized"
    assert result["verdict"]["code"] == "still_won"  # three moves of a one-suit deal
    # answered from storage: asking again queues nothing
    again = client.post(f"/api/games/{g['id']}/analysis", json={})
    assert again.status_code == 200 and again.json()["result"] == result
    assert run(app) == 0
    # the shared link shows that game, to anyone
    with TestClient(app) as other:
        shared = other.get(f"/api/analyses/{done['share']}")
        assert shared.status_code == 200 and shared.json()["result"] == result
        assert other.get(f"/api/games/{g['id']}/analysis").status_code == 404
        r = other.get(f"/api/analyses/{done['share']}/position", params={"step": 1, "along": 2})
        assert r.status_code == 200, r.text
        pos = r.json()
        assert (pos["step"], pos["along"], pos["steps"]) == (1, 2, 3) and pos["way"] > 2
        assert_no_hidden(pos)
        # the way in one request: the views the position route gives, move by move
        r = other.get(f"/api/analyses/{done['share']}/way", params={"step": 1, "along": 1})
        assert r.status_code == 200, r.text
        way = r.json()
        assert (way["step"], way["along"], way["way"]) == (1, 1, pos["way"])
        assert len(way["views"]) == len(way["moves"]) == min(60, pos["way"] - 1)
        assert way["views"][0] == pos["view"]
        for view in way["views"]:
            assert_no_hidden({"view": view})
        short = other.get(f"/api/analyses/{done['share']}/way", params={"step": 1, "count": 2})
        assert len(short.json()["views"]) == 2
        bad = other.get(f"/api/analyses/{done['share']}/way", params={"count": 61})
        assert bad.status_code == 422
        assert other.get("/api/analyses/nosuchshare/way").status_code == 404
        assert other.get("/api/analyses/nosuchshare").status_code == 404


def test_a_game_in_progress_is_not_analysed(client: TestClient) -> None:
    g = new_game(client, "spider", options={"suits": "1"})
    r = client.post(f"/api/games/{g['id']}/analysis", json={})
    assert r.status_code == 409 and r.json()["error"]["code"] == "game_in_progress"
    assert client.get(f"/api/games/{g['id']}/analysis").status_code == 404


def test_one_analysis_per_player_at_a_time(app: FastAPI, client: TestClient) -> None:
    a = finished(client, moves=1)
    b = new_game(client, "spider", options={"suits": "2"})
    assert post(client, b["id"], "giveup", version=b["version"]).status_code == 200
    assert client.post(f"/api/games/{a['id']}/analysis", json={}).status_code == 202
    r = client.post(f"/api/games/{b['id']}/analysis", json={})
    assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
    assert client.get(f"/api/games/{b['id']}/analysis").status_code == 404  # nothing stored
    run(app)
    assert client.post(f"/api/games/{b['id']}/analysis", json={}).status_code == 202


def test_another_players_game_is_not_found(app: FastAPI, client: TestClient) -> None:
    g = finished(client, moves=1)
    with TestClient(app) as other:
        assert other.post(f"/api/games/{g['id']}/analysis", json={}).status_code == 404


def test_try_again_from_here_is_a_practice_game_apart(app: FastAPI, client: TestClient) -> None:
    """A practice game starts from the asked position, leaves the game in progress alone,
    and never counts in the statistics."""
    g = finished(client, moves=3)
    share = client.post(f"/api/games/{g['id']}/analysis", json={}).json()["share"]
    run(app)
    playing = new_game(client, "spider", options={"suits": "1"})
    before = client.get("/api/stats").json()["total"]
    r = client.post(f"/api/analyses/{share}/practice", json={"step": 2})
    assert r.status_code == 201, r.text
    p = r.json()
    assert p["kind"] == "practice" and p["status"] == "playing" and p["id"] != playing["id"]
    pos = client.get(f"/api/analyses/{share}/position", params={"step": 2}).json()
    assert p["view"]["piles"] == pos["view"]["piles"]
    assert_no_hidden(p)
    p = move(client, p)
    assert post(client, p["id"], "giveup", version=p["version"]).status_code == 200
    assert client.get(f"/api/games/{playing['id']}").json()["status"] == "playing"
    assert client.get("/api/stats").json()["total"] == before
    bad = client.post(f"/api/analyses/{share}/practice", json={"step": -1})
    assert bad.status_code == 422
