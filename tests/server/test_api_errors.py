"""Bad input: each gets a clear 4xx with a stable code, and nothing changes."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import move, new_game, post, state


def _error(r: Any, status: int, code: str) -> dict[str, Any]:
    assert r.status_code == status, r.text
    body: dict[str, Any] = r.json()
    err = body["error"]
    assert err["code"] == code
    assert err["message"] and err["message_en"] and err["message_ru"]
    assert "Traceback" not in r.text
    return body


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"game": "chess"}, "unknown_game"),
        ({"game": "spider", "options": {"suits": 3}}, "bad_option"),
        ({"game": "spider", "options": {"colour": "red"}}, "bad_option"),
        ({"game": "spider", "deal": 0}, "bad_deal"),
        ({"game": "spider", "deal": 2**31}, "bad_deal"),
        ({"game": "spider", "deal": "seven"}, "validation_error"),
        ({"game": "spider", "extra": 1}, "validation_error"),
        ({"deal": 1}, "validation_error"),
        ({"game": ["spider"]}, "validation_error"),
    ],
)
def test_bad_new_game(client: TestClient, body: dict[str, Any], code: str) -> None:
    _error(client.post("/api/games", json=body), 422, code)
    assert client.get("/api/games").json()["games"] == []


def test_malformed_json(client: TestClient) -> None:
    r = client.post(
        "/api/games", content=b"{not json", headers={"content-type": "application/json"}
    )
    _error(r, 400, "malformed_json")


def test_not_json(client: TestClient) -> None:
    r = client.post(
        "/api/games", content=b'{"game": "spine"}', headers={"content-type": "text/plain"}
    )
    _error(r, 415, "unsupported_media_type")


@pytest.mark.parametrize(
    "body",
    [
        {"game": "spider", "deal": True},
        {"game": "spider", "deal": "5"},
        {"game": "spider", "options": {"suits": True}},
        {"game": "spider", "options": {"suits": 2.0}},
    ],
)
def test_no_type_coercion(client: TestClient, body: dict[str, Any]) -> None:
    _error(client.post("/api/games", json=body), 422, "validation_error")


def test_oversized_body(make_app: Any) -> None:
    app = make_app(max_body_bytes=1024)
    with TestClient(app) as c:
        g = new_game(c)
        big = {"move": "t1>t2", "version": 1, "pad": "x" * 2000}
        _error(post(c, g["id"], "moves", **big), 413, "body_too_large")
        assert state(c, g["id"]) == g


def test_unknown_route_and_method(client: TestClient) -> None:
    _error(client.get("/api/nothing"), 404, "not_found")
    _error(client.delete("/api/catalog"), 405, "method_not_allowed")


def test_message_follows_accept_language(client: TestClient) -> None:
    r = client.post("/api/games", json={"game": "chess"}, headers={"accept-language": "ru"})
    err = r.json()["error"]
    assert err["message"] == err["message_ru"] != err["message_en"]
    r = client.post(
        "/api/games", json={"game": "chess"}, headers={"accept-language": "en;q=0.9, ru;q=0.5"}
    )
    assert r.json()["error"]["message"] == r.json()["error"]["message_en"]


BAD_MOVES: list[tuple[Any, int, str]] = [
    ("t1>f1", 422, "illegal_move"),  # Spider has no foundations
    ("t11>t2", 422, "bad_notation"),
    ("jump!", 422, "bad_notation"),
    ("t1>t1", 422, "bad_notation"),
    ({"from": "t1"}, 422, "bad_notation"),
    ({"from": "t1", "to": "t2", "cards": 0}, 422, "validation_error"),
    ({"from": "t1", "to": "t2", "colour": 1}, 422, "validation_error"),
    (17, 422, "validation_error"),
    (None, 422, "validation_error"),
]


@pytest.mark.parametrize(("bad", "status", "code"), BAD_MOVES)
def test_bad_moves_change_nothing(client: TestClient, bad: Any, status: int, code: str) -> None:
    g = move(client, new_game(client))
    _error(post(client, g["id"], "moves", move=bad, version=g["version"]), status, code)
    assert state(client, g["id"]) == {k: v for k, v in g.items() if k != "events"}


def test_illegal_move_names_a_reason(client: TestClient) -> None:
    g = new_game(client)
    legal = {m["text"] for m in g["view"]["moves"]}
    illegal = next(
        f"t{a}>t{b}"
        for a in range(1, 11)
        for b in range(1, 11)
        if a != b and f"t{a}>t{b}" not in legal
    )
    body = _error(post(client, g["id"], "moves", move=illegal, version=1), 422, "illegal_move")
    assert body["error"]["reason"] == "does_not_fit"
    assert state(client, g["id"]) == g


def test_missing_version_and_unknown_fields(client: TestClient) -> None:
    g = new_game(client)
    _error(post(client, g["id"], "undo"), 422, "validation_error")
    _error(post(client, g["id"], "undo", version=1, force=True), 422, "validation_error")
    _error(post(client, g["id"], "undo", version="1x"), 422, "validation_error")
    _error(post(client, g["id"], "active", version=1), 422, "validation_error")
    assert state(client, g["id"]) == g


def test_nothing_to_undo_or_redo(client: TestClient) -> None:
    g = new_game(client)
    _error(post(client, g["id"], "undo", version=1), 422, "nothing_to_undo")
    _error(post(client, g["id"], "redo", version=1), 422, "nothing_to_redo")
    _error(post(client, g["id"], "autocollect", version=1), 422, "no_autocollect")
    assert state(client, g["id"]) == g


@pytest.mark.parametrize("action", ["moves", "undo", "redo", "restart", "hint", "giveup"])
def test_stale_version_is_409_with_the_current_state(client: TestClient, action: str) -> None:
    g = new_game(client)
    g2 = move(client, g)
    body: dict[str, Any] = {"version": 1}
    if action == "moves":
        body["move"] = g["view"]["moves"][0]["text"]
    out = _error(post(client, g["id"], action, **body), 409, "stale_version")
    assert out["version"] == 2 and out["view"] == g2["view"] and out["id"] == g["id"]
    assert state(client, g["id"])["version"] == 2


def test_two_tabs_never_duplicate_a_move(client: TestClient) -> None:
    """Both tabs send a move made on version 1: exactly one is played."""
    g = new_game(client)
    m = g["view"]["moves"][0]["text"]
    first = post(client, g["id"], "moves", move=m, version=1)
    second = post(client, g["id"], "moves", move=m, version=1)
    assert first.status_code == 200 and second.status_code == 409
    now = state(client, g["id"])
    assert now["version"] == 2 and now["view"]["counters"]["moves"] == 1


def test_current_with_bad_options(client: TestClient) -> None:
    _error(client.get("/api/current?game=spider&suits=9"), 422, "bad_option")
    _error(client.get("/api/current?game=chess"), 422, "unknown_game")
    _error(client.get("/api/current"), 422, "validation_error")
