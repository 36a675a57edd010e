"""The catalog says where "solvable only" deals are offered, and the API keeps to it."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from pasyans import deals


def _games(client: TestClient) -> dict[str, dict[str, object]]:
    r = client.get("/api/catalog")
    assert r.status_code == 200
    return {g["id"]: g for g in r.json()["games"]}


def test_solvable_options_follow_the_solver(client: TestClient) -> None:
    games = _games(client)
    assert len(games["spider"]["solvable_options"]) == 3  # 1, 2 and 4 suits
    assert games["nivernais"]["solvable_options"] == [{}]
    assert games["nivernais"]["deal_kinds"] == ["random", "solvable"]
    assert len(games["spine"]["solvable_options"]) == 12  # every option set
    assert games["backbone"]["solvable_options"] == [{}]


def test_solvable_where_not_offered_is_refused_at_once(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every game offers solvable deals today; a game that could not would be listed so.
    real = deals.kinds_for

    def kinds(game_id: str, options: object = None) -> tuple[str, ...]:
        if game_id == "spider" and options and dict(options).get("suits") in ("4", 4):  # type: ignore[call-overload]
            return ("random",)
        return real(game_id, options)  # type: ignore[arg-type]

    monkeypatch.setattr(deals, "kinds_for", kinds)
    body = {"game": "spider", "deal": 3, "options": {"suits": "4"}, "solvable": True}
    r = client.post("/api/games", json=body, headers={"Accept-Language": "ru"})
    assert r.status_code == 422
    err = r.json()["error"]
    assert err["code"] == "solvable_unavailable"
    assert "обычную раздачу" in err["message"] and "random deal" in err["message_en"]
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
