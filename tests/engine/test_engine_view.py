"""The player view: its schema, and no face-down card's identity anywhere in it."""

from __future__ import annotations

import json
import re
from typing import Any

from pasyans.cards import card_code
from pasyans.engine.build import build_state
from pasyans.engine.game import Game
from pasyans.engine.moves import Move
from pasyans.engine.view import player_view
from pasyans.rules import get_game

CODE = re.compile(r'"([A2-9TJQK][CDHS])"')


def test_spider_view_schema_and_nulls() -> None:
    game = Game("spider", 1)
    view = game.view()
    assert set(view) == {
        "game", "options", "deal", "rules_version", "piles", "moves", "smart", "stock",
        "counters", "flags",
    }  # fmt: skip
    assert (view["game"], view["options"], view["deal"]) == ("spider", {"suits": "4"}, 1)
    t1 = view["piles"]["t1"]
    assert t1["kind"] == "column" and t1["cards"][:5] == [None] * 5
    assert isinstance(t1["cards"][5], str) and CODE.fullmatch(f'"{t1["cards"][5]}"')
    assert view["piles"]["stock"] == {"kind": "stock", "cards": [None] * 50}
    assert view["piles"]["done"] == {"kind": "done", "cards": []}
    assert view["stock"] == {
        "action": "deal", "refusal": None, "badge": {"unit": "deals", "n": 5},
    }  # fmt: skip
    assert view["counters"] == {
        "moves": 0, "undos": 0, "hints": 0, "score": 500, "foundation_cards": 0,
    }  # fmt: skip
    assert view["flags"] == {
        "won": False, "stuck": False, "autocollect": False, "can_undo": False,
        "can_redo": False, "redeals_left": 0, "passes_left": 1,
    }  # fmt: skip
    for item in view["moves"]:
        assert set(item) == {"text", "json", "cards"}
    assert {"text": "stock", "json": {"from": "stock"}, "cards": []} in view["moves"]
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
    view = game.view()
    assert_moves_carry_shown_cards(view)
    text = json.dumps({**view, "moves": [{**m, "cards": []} for m in view["moves"]]})
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


def assert_moves_carry_shown_cards(view: dict[str, Any]) -> None:
    """Each move's ``cards`` are exactly the face-up cards it takes from its source pile."""
    for m in view["moves"]:
        j = m["json"]
        if "to" not in j:
            assert m["cards"] == []
            continue
        shown = view["piles"][j["from"]]["cards"][-j["cards"] :]
        assert m["cards"] == shown and None not in shown


def test_each_move_names_the_cards_it_carries() -> None:
    spider = get_game("spider", {"suits": "1"})
    s = build_state(
        spider, {"stock": "AS " * 10, "t1": "3S 8S 7S", "t2": "QS 9S"}, down={"t1": 1, "t2": 1}
    )
    view = player_view(spider, s, deal=7)
    by_text = {m["text"]: m["cards"] for m in view["moves"]}
    assert by_text["t1>t2:2"] == ["8S", "7S"] and by_text["t1>t3"] == ["7S"]
    assert_moves_carry_shown_cards(view)


def test_smart_order_is_the_click_order_by_card() -> None:
    backbone = get_game("backbone")
    s = build_state(
        backbone,
        {"waste": "AC 2S 5H", "t1": "6H", "t2": "6S", "f1": "AH 2H 3H 4H", "stock": "KD"},
    )
    view = player_view(backbone, s, deal=1)
    texts = [m["text"] for m in view["moves"]]
    # 5H: the foundation first, then the non-empty column, then ONE of the six empty
    # columns (the others are the same place for a click; a drag reaches them).
    assert [texts[k] for k in view["smart"]["waste:2"]] == ["waste>f1", "waste>t1", "waste>t3"]
    assert sum(t.startswith("waste>") for t in texts) == 8
    assert view["smart"]["stock:0"] == [texts.index("stock")]
    assert view["smart"]["f1:3"] == [texts.index("f1>t3")]
    assert "t1:0" not in view["smart"] and "t2:0" not in view["smart"]  # no move: no key


def test_smart_order_agrees_with_the_engine_on_real_deals() -> None:
    for game_id, options in [("spider", {"suits": "2"}), ("backbone", {}), ("nivernais", {})]:
        game = Game(game_id, 11, options)
        for _ in range(6):
            view = game.view()
            for key, order in view["smart"].items():
                pile, i = key.rsplit(":", 1)
                if pile == "stock":
                    assert [view["moves"][k]["text"] for k in order] == ["stock"]
                    continue
                engine = [m.to_str() for m in game.smart_moves(pile, int(i))]
                shown = [view["moves"][k]["text"] for k in order]
                assert shown[0] == engine[0] and set(shown) <= set(engine)
            keyed = {k for order in view["smart"].values() for k in order}
            for k, m in enumerate(view["moves"]):  # every card with a move has a key
                j = m["json"]
                key = (
                    "stock"
                    if "to" not in j
                    else f"{j['from']}:{len(view['piles'][j['from']]['cards']) - j['cards']}"
                )
                assert key == "stock" or key in view["smart"], key
                if k in keyed:
                    continue
                assert view["piles"][j["to"]]["cards"] == []  # only alike empty places are left out
            game.play(game.legal_moves()[0])


def test_smart_order_keys_the_empty_stock_minus_one() -> None:
    niv = get_game("nivernais")
    view = player_view(niv, build_state(niv, {"t1": "9C", "t2": "4D"}), deal=1)
    texts = [m["text"] for m in view["moves"]]
    assert view["stock"]["action"] == "redeal"
    assert view["smart"]["stock:-1"] == [texts.index("stock")]
    assert view["smart"]["t1:0"] == [texts.index("t1>r1")]  # eight empty cells: one place
    assert view["stock"]["badge"] == {"unit": "redeals", "n": 2}


def test_stock_badge_per_game() -> None:
    assert Game("spider", 3, {"suits": "2"}).view()["stock"]["badge"] == {"unit": "deals", "n": 5}
    assert Game("backbone", 3).view()["stock"]["badge"] == {"unit": "passes", "n": 2}
    assert Game("nivernais", 3).view()["stock"]["badge"] == {"unit": "redeals", "n": 2}
    spider = Game("spider", 3, {"suits": "1"})
    spider.play(Move.stock())
    assert spider.view()["stock"]["badge"] == {"unit": "deals", "n": 4}
