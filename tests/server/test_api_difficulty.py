"""A solvable deal's difficulty through the API: asked for, stored with the generator
version, answered in the game's JSON, listed in the catalog; bad values refused."""

from __future__ import annotations

from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from pasyans import deals
from pasyans.cards import card_code
from pasyans.rules import get_game
from pasyans.server.storage.models import GameRow


def test_the_catalog_lists_the_difficulties(client: TestClient) -> None:
    games = client.get("/api/catalog").json()["games"]
    for g in games:
        assert g["difficulties"] == ["easy", "medium", "hard"]
        assert g["default_difficulty"] == "medium"


def test_a_solvable_game_has_the_difficulty_asked_for(client: TestClient) -> None:
    body = {"game": "spine", "deal": 31, "solvable": True, "difficulty": "hard"}
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    game = r.json()
    assert game["kind"] == "solvable" and game["difficulty"] == "hard"
    expected = deals.make_solvable("spine", {}, 31, "hard").state
    spine = game["view"]["piles"]["spine"]["cards"]
    assert spine == [card_code(c) for c in expected.piles[get_game("spine").index["spine"]]]
    assert client.get(f"/api/games/{game['id']}").json()["difficulty"] == "hard"
    # Stored on the row with the generator's version.
    app = client.app
    with Session(app.state.engine) as s:  # type: ignore[attr-defined]
        row = s.scalars(select(GameRow).where(GameRow.id == game["id"])).one()
        assert row.difficulty == "hard" and row.generator == deals.GENERATOR_VERSION


def test_the_default_is_medium_and_random_deals_have_none(client: TestClient) -> None:
    solvable = client.post("/api/games", json={"game": "spine", "deal": 32}).json()
    assert solvable["kind"] == "solvable" and solvable["difficulty"] == "medium"
    random = client.post(
        "/api/games", json={"game": "spine", "deal": 32, "solvable": False, "difficulty": "easy"}
    ).json()
    assert random["kind"] == "random" and random["difficulty"] is None


def test_an_unknown_difficulty_is_refused(client: TestClient) -> None:
    for bad in ("brutal", 2, None):
        body = {"game": "spine", "deal": 33, "difficulty": bad}
        r = client.post("/api/games", json=body)
        if bad is None:
            assert r.status_code == 201
            continue
        assert r.status_code == 422 and r.json()["code"] == "validation_error"
