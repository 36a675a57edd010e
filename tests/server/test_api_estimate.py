"""The Winnable? answer with hidden cards: "unknown" plus a labelled sampled estimate."""

from __future__ import annotations

from fastapi.testclient import TestClient
from server_helpers import assert_no_hidden, new_game, post, state


def test_hidden_cards_give_an_estimate_never_a_verdict(client: TestClient) -> None:
    g = new_game(client, "backbone", deal=5)
    r = post(client, g["id"], "winnable", version=1)
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["result"] == "unknown"
    e = out["estimate"]
    assert set(e) == {"won", "lost", "samples", "percent"}
    assert e["samples"] == 8 and 0 <= e["won"] + e["lost"] <= 8
    assert e["percent"] == round(100 * e["won"] / e["samples"])
    assert_no_hidden(out)
    assert state(client, g["id"])["version"] == 1


def test_no_estimate_when_every_card_is_known(client: TestClient) -> None:
    g = new_game(client, "spine", options={"spine": 24})
    out = post(client, g["id"], "winnable", version=1).json()
    assert out["result"] in ("won", "lost", "unknown") and out["estimate"] is None


def test_a_hint_with_hidden_cards_names_a_move(client: TestClient) -> None:
    g = new_game(client, "spider", deal=3, options={"suits": 1})
    hint = post(client, g["id"], "hint", version=1).json()["hint"]
    assert hint["move"] is not None and hint["move"] in [
        {"text": m["text"], "json": m["json"]} for m in g["view"]["moves"]
    ]
    assert hint["source"] in ("sampled", "heuristic")
    assert hint["winnable"] is None
