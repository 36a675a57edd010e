"""The catalog says where "solvable only" deals are offered, and the API keeps to it."""

from __future__ import annotations

from fastapi.testclient import TestClient


def _games(client: TestClient) -> dict[str, dict[str, object]]:
    r = client.get("/api/catalog")
    assert r.status_code == 200
    return {g["id"]: g for g in r.json()["games"]}


def test_solvable_options_follow_the_solver(client: TestClient) -> None:
    games = _games(client)
    assert games["spider"]["solvable_options"] == [{"suits": "1"}]
    assert games["nivernais"]["solvable_options"] == [{}]
    assert games["nivernais"]["deal_kinds"] == ["random", "solvable"]
    assert len(games["spine"]["solvable_options"]) == 12  # every option set
    assert games["backbone"]["solvable_options"] == [{}]


def test_solvable_where_not_offered_is_refused_at_once(client: TestClient) -> None:
    body = {"game": "spider", "deal": 3, "options": {"suits": "4"}, "solvable": True}
    r = client.post("/api/games", json=body, headers={"Accept-Language": "ru"})
    assert r.status_code == 422
    err = r.json()["error"]
    assert err["code"] == "solvable_unavailable"
    assert "Паука" in err["message"] and "random deal" in err["message_en"]
    # Issue 3's flat form: code and message (in the request's language) at the top.
    assert r.json()["code"] == "solvable_unavailable" and r.json()["message"] == err["message_ru"]
    en = client.post("/api/games", json=body, headers={"Accept-Language": "en"}).json()
    assert en["code"] == "solvable_unavailable" and en["message"] == err["message_en"]
    listed = client.get("/api/games")
    assert listed.status_code == 200 and listed.json()["games"] == []  # nothing was created


def test_solvable_nivernais_through_the_api(client: TestClient) -> None:
    body = {"game": "nivernais", "deal": 8, "solvable": True}
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    game = r.json()
    assert game["deal"] == 8 and game["kind"] == "solvable"
    assert all(card is None for card in game["view"]["piles"]["stock"]["cards"])
    again = client.post("/api/games", json=body).json()
    assert again["view"]["piles"] == game["view"]["piles"]  # the number reproduces the deal
