"""The player view: its schema, and no face-down card's identity anywhere in it."""

from __future__ import annotations

import json
import re

from pasyans.cards import card_code
from pasyans.engine.build import build_state
from pasyans.engine.game import Game
from pasyans.engine.view import player_view
from pasyans.rules import get_game

CODE = re.compile(r'"([A2-9TJQK][CDHS])"')


def test_spider_view_schema_and_nulls() -> None:
    game = Game("spider", 1)
    view = game.view()
    assert set(view) == {
        "game", "options", "deal", "rules_version", "piles", "moves", "stock", "counters",
        "flags",
    }  # fmt: skip
    assert (view["game"], view["options"], view["deal"]) == ("spider", {"suits": "4"}, 1)
    t1 = view["piles"]["t1"]
    assert t1["kind"] == "column" and t1["cards"][:5] == [None] * 5
    assert isinstance(t1["cards"][5], str) and CODE.fullmatch(f'"{t1["cards"][5]}"')
    assert view["piles"]["stock"] == {"kind": "stock", "cards": [None] * 50}
    assert view["piles"]["done"] == {"kind": "done", "cards": []}
    assert view["stock"] == {"action": "deal", "refusal": None}
    assert view["counters"] == {
        "moves": 0, "undos": 0, "hints": 0, "score": 500, "foundation_cards": 0,
    }  # fmt: skip
    assert view["flags"] == {
        "won": False, "stuck": False, "autocollect": False, "can_undo": False,
        "can_redo": False, "redeals_left": 0, "passes_left": 1,
    }  # fmt: skip
    for item in view["moves"]:
        assert set(item) == {"text", "json"}
    assert {"text": "stock", "json": {"from": "stock"}} in view["moves"]
    json.dumps(view)  # plain JSON


def test_foundation_and_lock_fields() -> None:
    niv = Game("nivernais", 1).view()["piles"]
    assert niv["f1"] == {"kind": "foundation", "cards": [], "build": "up", "suit": "C"}
    assert niv["f8"]["build"] == "down" and niv["f8"]["suit"] == "S"
    assert niv["r1"]["kind"] == "reserve"
    bb = Game("backbone", 1).view()["piles"]
    assert bb["spine1"]["locked"] is True and bb["f1"]["build"] == "up"
    assert "locked" not in bb["tailbone"]


def test_stock_refusal_is_in_the_view() -> None:
    spider = get_game("spider")
    s = build_state(spider, {"stock": "2H " * 10, "t1": "9C"})
    view = player_view(spider, s, deal=1)
    assert view["stock"]["action"] is None
    assert view["stock"]["refusal"]["code"] == "stock_empty_column"
    assert Game("spine", 1).view()["stock"] is None


def test_no_hidden_card_in_the_json() -> None:
    game = Game("spider", 77, {"suits": "4"})
    for _ in range(15):
        game.play(game.legal_moves()[0])
    text = json.dumps(game.view())
    visible = sorted(
        c for i, pile in enumerate(game.state.piles) if game.spec.piles[i].id != "stock"
        for c in pile[game.state.down[i]:]
    )  # fmt: skip
    assert sorted(CODE.findall(text)) == sorted(card_code(c) for c in visible)


def test_the_example_in_the_docs_is_the_real_output() -> None:
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "player-view.md").read_text()
    code = text.split("```python\n", 1)[1].split("```", 1)[0]
    shown = text.split("```json\n", 1)[1].split("```", 1)[0]
    scope: dict[str, object] = {}
    exec(code, scope)
    assert scope["view"] == json.loads(shown)
