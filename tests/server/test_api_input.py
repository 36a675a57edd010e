"""The API of issue 13: retarget (cycling is one move), safe auto-moves sent with a move
and undone with it, a won game refuses more moves, /api/current on a first visit."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from server_helpers import new_game, post, state


def _spine_pair(client: TestClient) -> dict[str, Any]:
    """A Spine game whose first legal card move has a second destination."""
    for deal in range(1, 60):
        g = new_game(client, "spine", deal=deal, solvable=False)
        by_src: dict[tuple[str, int], list[str]] = {}
        for m in g["view"]["moves"]:
            j = m["json"]
            if "to" in j:
                by_src.setdefault((j["from"], j["cards"]), []).append(m["text"])
        for texts in by_src.values():
            if len(texts) >= 2:
                g["pair"] = texts[:2]
                return g
    raise AssertionError("no deal with a card of two destinations")


def test_retarget_is_one_move_and_no_undo(client: TestClient) -> None:
    g = _spine_pair(client)
    first, second = g["pair"]
    r = post(client, g["id"], "moves", move=first, version=g["version"])
    assert r.status_code == 200, r.text
    r = post(client, g["id"], "retarget", move=second, version=r.json()["version"])
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["view"]["counters"]["moves"] == 1 and out["view"]["counters"]["undos"] == 0
    assert out["events"][0] == {"type": "retarget"}
    again = state(client, g["id"])
    assert again["view"] == out["view"]  # stored: the rebuilt game agrees
    listed = client.get("/api/games").json()["games"][0]
    assert listed["undos"] == 0 and listed["moves"] == 1


def test_a_retarget_is_a_move_played_in_moves_total(client: TestClient) -> None:
    """``moves_total`` counts every move played: the retarget's move too, while the line's
    move count (``moves``) stays 1 and the retarget is no undo."""
    g = _spine_pair(client)
    first, second = g["pair"]
    r = post(client, g["id"], "moves", move=first, version=g["version"])
    r = post(client, g["id"], "retarget", move=second, version=r.json()["version"])
    r = post(client, g["id"], "retarget", move=first, version=r.json()["version"])
    assert r.status_code == 200, r.text
    assert r.json()["view"]["counters"]["moves"] == 1
    item = client.get("/api/history").json()["items"][0]
    assert item["id"] == g["id"]
    assert (item["moves"], item["moves_total"], item["undos"]) == (1, 3, 0)
    r = post(client, g["id"], "retarget", move=first, version=r.json()["version"])
    assert r.status_code == 422  # refused (same target): nothing counted
    assert client.get("/api/history").json()["items"][0]["moves_total"] == 3


def test_a_refused_retarget_changes_nothing(client: TestClient) -> None:
    g = _spine_pair(client)
    r = post(client, g["id"], "retarget", move=g["pair"][1], version=g["version"])
    assert r.status_code == 422 and r.json()["error"]["reason"] == "nothing_to_retarget"
    assert state(client, g["id"])["version"] == g["version"]


def test_auto_moves_come_with_the_move_and_leave_with_its_undo(client: TestClient) -> None:
    # Backbone: an Ace turned from the stock goes up at once when auto is asked for.
    for deal in range(1, 40):
        g = new_game(client, "backbone", deal=deal)
        version = g["version"]
        for _ in range(75):
            r = post(client, g["id"], "moves", move="stock", version=version, auto=True)
            assert r.status_code == 200, r.text
            out = r.json()
            version = out["version"]
            if any(e.get("auto") for e in out["events"]):
                break
        else:
            continue
        moves = out["view"]["counters"]["moves"]
        autos = [e for e in out["events"] if e.get("auto")]
        assert all(e["to"].startswith("f") for e in autos)
        undone = post(client, g["id"], "undo", version=version).json()
        assert undone["view"]["counters"]["moves"] == moves - 1 - len(autos)
        redone = post(client, g["id"], "redo", version=undone["version"]).json()
        assert redone["view"]["piles"] == out["view"]["piles"]
        assert state(client, g["id"])["view"] == redone["view"]
        return
    raise AssertionError("no Ace turned up in the first deals")


def test_current_answers_null_on_a_first_visit(client: TestClient) -> None:
    r = client.get("/api/current?game=nivernais")
    assert r.status_code == 200 and r.json() is None
