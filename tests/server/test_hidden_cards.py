"""No answer ever holds a face-down card's identity (property test through the API)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from server_helpers import assert_no_hidden, new_game, post

from pasyans.cards import card_code
from pasyans.rules.spec import PileKind
from pasyans.server.games import service
from pasyans.server.storage.models import GameRow


def _check_view_against_truth(app: FastAPI, data: dict[str, Any]) -> None:
    """Every face-down card is null and every face-up card is shown as it is."""
    assert_no_hidden(data)
    with app.state.sessionmaker() as s:
        row = s.get(GameRow, data["id"])
        assert row is not None
        game = service.rebuild(row)
    spec, st_ = game.spec, game.state
    for i, p in enumerate(spec.piles):
        shown = data["view"]["piles"][p.id]["cards"]
        pile = st_.piles[i]
        hidden = len(pile) if p.kind is PileKind.STOCK else st_.down[i]
        assert shown[:hidden] == [None] * hidden
        assert shown[hidden:] == [card_code(c) for c in pile[hidden:]]


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    data=st.data(),
    game=st.sampled_from(
        [
            ("spider", {"suits": "1"}),
            ("spider", {"suits": "2"}),
            ("spider", {"suits": "4"}),
            ("backbone", {}),
            ("backbone-classic", {}),
            ("nivernais", {}),
        ]
    ),
    deal=st.integers(1, 10**6),
)
def test_random_play_never_shows_a_face_down_card(
    app: FastAPI, data: st.DataObject, game: tuple[str, dict[str, str]], deal: int
) -> None:
    with TestClient(app) as c:
        g = new_game(c, game[0], options=game[1], deal=deal, solvable=False)
        _check_view_against_truth(app, g)
        for _ in range(data.draw(st.integers(5, 40))):
            action = data.draw(st.sampled_from(["move"] * 6 + ["undo", "redo", "hint"]))
            body: dict[str, Any] = {"version": g["version"]}
            if action == "move":
                moves = g["view"]["moves"]
                if not moves:
                    break
                body["move"] = data.draw(st.sampled_from(moves))["json"]
                action = "moves"
            r = post(c, g["id"], action, **body)
            assert r.status_code in (200, 422), r.text
            assert_no_hidden(r.json())
            if r.status_code == 200:
                g = r.json()
                _check_view_against_truth(app, g)


def test_new_spider_game_has_ten_codes_in_the_whole_answer(client: TestClient) -> None:
    r = client.post("/api/games", json={"game": "spider", "deal": 5})
    data = r.json()
    assert_no_hidden(data)  # each move's cards are face-up cards of its pile
    moves = data["view"]["moves"]
    data["view"]["moves"] = [{**m, "cards": []} for m in moves]
    codes = re.findall(r'"([A2-9TJQK][CDHS])"', json.dumps(data))
    assert len(codes) == 10
