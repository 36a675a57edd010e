"""The game endpoints on their good paths (each test runs on SQLite and PostgreSQL)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import move, new_game, post, state

from pasyans.deals import new_game as engine_game
from pasyans.engine import core
from pasyans.server.games import replay
from pasyans.server.games.cache import GameCache


def test_create_spider_shows_only_the_ten_top_cards(client: TestClient) -> None:
    g = new_game(client, options={"suits": 2})
    assert g["game"] == "spider" and g["deal"] == 123 and g["options"] == {"suits": "2"}
    assert g["version"] == 1 and g["status"] == "playing" and g["kind"] == "random"
    piles = g["view"]["piles"]
    codes = [c for p in piles.values() for c in p["cards"] if c is not None]
    assert len(codes) == 10
    assert all(p["cards"][-1] is not None for pid, p in piles.items() if pid.startswith("t"))
    assert len(piles["stock"]["cards"]) == 50 and set(piles["stock"]["cards"]) == {None}
    # The same deal as the engine's.
    expected = engine_game("spider", 123, {"suits": "2"}).view()
    assert g["view"] == expected


def test_random_deal_when_omitted(client: TestClient) -> None:
    r = client.post("/api/games", json={"game": "nivernais"})
    assert r.status_code == 201
    assert 1 <= r.json()["deal"] <= 2**31 - 1


def test_move_raises_version_and_returns_events(client: TestClient) -> None:
    g = new_game(client)
    first = g["view"]["moves"][0]
    r = post(client, g["id"], "moves", move=first["json"], version=1)
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["version"] == 2
    assert out["events"][0] == {"type": "move", **first["json"]}
    assert out["view"]["counters"]["moves"] == 1
    assert state(client, g["id"]) == {k: v for k, v in out.items() if k != "events"}


def test_stock_click_events(client: TestClient) -> None:
    g = new_game(client, options={"suits": 1})
    out = move(client, g, "stock")
    assert out["events"] == [{"type": "deal", "from": "stock", "cards": 10}]
    assert len(out["view"]["piles"]["stock"]["cards"]) == 40


def test_undo_back_to_the_exact_start_and_redo(client: TestClient) -> None:
    g = new_game(client)
    g2 = move(client, g)
    g3 = move(client, g2)
    r = post(client, g["id"], "undo", version=g3["version"])
    assert r.status_code == 200
    assert r.json()["events"] == [{"type": "undo", "move": g2["view"]["moves"][0]["text"]}] or (
        r.json()["events"][0]["type"] == "undo"
    )
    r = post(client, g["id"], "undo", version=r.json()["version"])
    back = r.json()
    start_view = dict(g["view"])
    assert back["view"]["piles"] == start_view["piles"]
    assert back["view"]["moves"] == start_view["moves"]
    assert back["view"]["counters"]["undos"] == 2
    assert back["view"]["flags"]["can_redo"] is True
    r = post(client, g["id"], "redo", version=back["version"])
    assert r.status_code == 200
    assert r.json()["view"]["piles"] == g2["view"]["piles"]
    assert r.json()["events"][0]["type"] == "move"


def test_restart_same_deal_fresh_start(client: TestClient) -> None:
    g = new_game(client)
    g2 = move(client, g)
    r = post(client, g["id"], "restart", version=g2["version"])
    assert r.status_code == 200
    out = r.json()
    assert out["events"] == [{"type": "restart"}]
    assert out["view"] == g["view"]
    assert out["version"] == g2["version"] + 1


def test_restart_keeps_the_hints_and_undos_used(client: TestClient) -> None:
    g = new_game(client)
    g = post(client, g["id"], "hint", version=g["version"]).json()
    g2 = move(client, g)
    g3 = post(client, g["id"], "undo", version=g2["version"]).json()
    r = post(client, g["id"], "restart", version=g3["version"])
    assert r.status_code == 200
    listed = {x["id"]: x for x in client.get("/api/games").json()["games"]}
    assert listed[g["id"]]["hints"] == 1 and listed[g["id"]]["undos"] == 1


def test_giveup_marks_lost_and_freezes(client: TestClient) -> None:
    g = new_game(client)
    r = post(client, g["id"], "giveup", version=1)
    assert r.status_code == 200 and r.json()["status"] == "lost"
    r = post(client, g["id"], "moves", move=g["view"]["moves"][0]["text"], version=2)
    assert r.status_code == 409 and r.json()["error"]["code"] == "game_over"
    assert r.json()["status"] == "lost" and r.json()["version"] == 2


def test_hint_counts_and_suggests_a_listed_move(client: TestClient) -> None:
    g = new_game(client)
    r = post(client, g["id"], "hint", version=1)
    assert r.status_code == 200, r.text
    out = r.json()
    hint = out["hint"]
    assert set(hint) == {"move", "source", "winnable", "message", "message_ru"}
    # The hint names its move by text and json; the view's moves also carry their cards.
    listed = [{"text": m["text"], "json": m["json"]} for m in g["view"]["moves"]]
    assert hint["move"] is None or hint["move"] in listed
    assert out["view"]["counters"]["hints"] == 1 and out["version"] == 2
    assert state(client, g["id"])["view"]["counters"]["hints"] == 1


def test_winnable_answers_a_result_and_changes_nothing(client: TestClient) -> None:
    g = new_game(client, "spine", options={"spine": 24})
    r = post(client, g["id"], "winnable", version=1)
    assert r.status_code == 200
    assert r.json()["result"] in ("won", "lost", "unknown")
    assert state(client, g["id"])["version"] == 1


def test_autocollect_plays_every_move_in_one_step(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Autocollect's events come in order, one version step; the result persists."""

    def two_moves(spec: Any, st: Any, budget: int = 0) -> list[Any]:
        first = core.legal_moves(spec, st)[0]
        second = core.legal_moves(spec, core.apply(spec, st, first))[0]
        return [first, second]

    g = new_game(client, options={"suits": 1})
    monkeypatch.setattr(core, "autocollect_moves", two_moves)
    r = post(client, g["id"], "autocollect", version=1)
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["version"] == 2
    assert [e["type"] for e in out["events"]].count("move") == 2
    assert out["view"]["counters"]["moves"] == 2
    monkeypatch.undo()
    again = state(client, g["id"])["view"]
    assert again["piles"] == out["view"]["piles"] and again["counters"] == out["view"]["counters"]


def _none(r: Any) -> bool:
    """No current game: 200 with null (a first visit is not an error)."""
    return bool(r.status_code == 200 and r.json() is None)


def test_current_game_per_game_and_options(client: TestClient) -> None:
    assert _none(client.get("/api/current?game=spider&suits=2"))
    g = new_game(client, options={"suits": 2})
    r = client.get("/api/current", params={"game": "spider", "suits": "2"})
    assert r.status_code == 200 and r.json()["id"] == g["id"]
    assert _none(client.get("/api/current?game=spider"))  # suits=4 is another
    g2 = new_game(client, options={"suits": 2}, deal=7)
    assert client.get("/api/current?game=spider&suits=2").json()["id"] == g2["id"]
    assert state(client, g["id"])["status"] == "abandoned"


def test_list_games_newest_first(client: TestClient) -> None:
    a = new_game(client, "spine")
    b = new_game(client, "nivernais")
    games = client.get("/api/games").json()["games"]
    assert [x["id"] for x in games] == [b["id"], a["id"]]
    assert games[0]["status"] == "playing" and games[0]["moves"] == 0


def test_catalog_lists_every_game_with_rules(client: TestClient) -> None:
    data = client.get("/api/catalog").json()
    ids = [g["id"] for g in data["games"]]
    assert ids == ["spine", "backbone", "backbone-classic", "spider", "nivernais"]
    spider = data["games"][3]
    assert spider["titles"] == {"en": "Spider", "ru": "Паук"}
    suits = spider["options"][0]
    assert suits["name"] == "suits" and suits["default"] == "4"
    assert [v["value"] for v in suits["values"]] == ["4", "2", "1"]
    assert "random" in spider["deal_kinds"] and spider["default_deal_kind"] in spider["deal_kinds"]
    for g in data["games"]:
        for lang in ("en", "ru"):
            assert g["rules"][lang], (g["id"], lang)
            assert all(s["title"] and s["paragraphs"] for s in g["rules"][lang])


def test_a_solvable_game_keeps_its_layout_when_the_solver_changes(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Solvable layouts come from a search; a stronger solver may make another layout from
    the same number. A game already started must still rebuild and replay its own."""
    from pasyans import deals
    from pasyans.engine.core import initial_state
    from pasyans.rules import get_game

    r = client.post("/api/games", json={"game": "spider", "options": {"suits": 1},
                                        "deal": 21, "solvable": True})  # fmt: skip
    assert r.status_code == 201
    g = move(client, r.json())
    # From now on "the solver" makes a different layout for every number.
    spec = get_game("spider", {"suits": "1"})
    other = deals.SolvableDeal(initial_state(spec, 999), "medium", 0.0)
    monkeypatch.setattr(deals, "_solvable", lambda *key: other)
    assert deals.start_position(spec, 21, "solvable") == initial_state(spec, 999)
    app: Any = client.app
    app.state.game_cache = GameCache(4)  # rebuilt from the row, not taken from memory
    monkeypatch.setattr(replay, "LINES", replay.LineCache())
    again = client.get(f"/api/games/{g['id']}")
    assert again.status_code == 200
    assert again.json()["view"]["piles"] == g["view"]["piles"]
    line = client.get(f"/api/games/{g['id']}/replay", params={"step": 1})
    assert line.status_code == 200
    assert line.json()["view"]["piles"] == g["view"]["piles"]
    assert post(client, g["id"], "undo", version=g["version"]).status_code == 200
