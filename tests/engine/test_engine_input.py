"""Retarget (smart-move cycling as one move), a won game offers no move, and safe
auto-moves as follow-ups of a move (undone and redone with it, saved and replayed)."""

from __future__ import annotations

import pytest

from pasyans.engine.build import build_state, pile_codes
from pasyans.engine.core import is_legal, legal_moves
from pasyans.engine.game import Game
from pasyans.engine.moves import Move
from pasyans.errors import IllegalMoveError, SavedGameError
from pasyans.rules import get_game

BACKBONE = get_game("backbone")
SPINE = get_game("spine")
SPIDER = get_game("spider", {"suits": "1"})


def up(suit: str, top: str = "K") -> str:
    ranks = "A23456789TJQK"
    return " ".join(f"{r}{suit}" for r in ranks[: ranks.index(top) + 1])


def game_at(spec_id: str, piles: dict[str, str], **kw: object) -> Game:
    spec = get_game(spec_id, kw.pop("options", None))  # type: ignore[arg-type]
    return Game(spec_id, 1, spec.option_values, start=build_state(spec, piles, **kw))  # type: ignore[arg-type]


# --- a won game offers no move -------------------------------------------------------------


def won_backbone() -> dict[str, str]:
    return {f"f{i}": up(s) for i, s in enumerate("CCDDHHSS", start=1)}


def test_a_won_backbone_game_lists_no_move_and_refuses_f_to_t() -> None:
    g = game_at("backbone", won_backbone())
    assert g.won
    assert g.legal_moves() == [] and g.view()["moves"] == []
    assert not g.stuck
    with pytest.raises(IllegalMoveError):
        g.play("f1>t1")
    assert g.won and g.moves_made == 0
    assert not is_legal(BACKBONE, g.state, Move.parse("f1>t1"))


def test_a_backbone_game_one_card_short_still_lets_a_foundation_card_down() -> None:
    piles = won_backbone()
    piles["f8"] = up("S", "Q")
    piles["t2"] = "KS"
    g = game_at("backbone", piles)
    assert Move.parse("f1>t1") in g.legal_moves()  # the rule still works before the win
    g.play("t2>f8")
    assert g.won and g.legal_moves() == []


# --- retarget ------------------------------------------------------------------------------


def test_retarget_sends_the_same_card_elsewhere_as_one_move() -> None:
    # 7S can go onto either 8S; the second is reached by retarget, not undo + play.
    g = game_at("spine", {"t1": "8S", "t2": "8S", "t3": "7S", "t4": "KH"})
    g.play("t3>t1")
    g.retarget("t3>t2")
    assert g.moves_made == 1 and g.undos == 0 and g.moves == [Move.parse("t3>t2")]
    assert pile_codes(SPINE, g.state)["t2"] == ["8S", "7S"]
    assert pile_codes(SPINE, g.state)["t1"] == ["8S"]
    g.retarget({"from": "t3", "to": "t1", "cards": 1})  # and back: cycling goes round
    assert g.moves == [Move.parse("t3>t1")] and g.undos == 0
    assert not g.can_redo
    assert Game.from_saved(g.to_saved(), start=g.start).state == g.state


def test_retarget_refusals_change_nothing() -> None:
    g = game_at("spine", {"t1": "8S", "t2": "8S", "t3": "7S", "t4": "6S KH"})
    with pytest.raises(IllegalMoveError) as e:
        g.retarget("t3>t2")
    assert e.value.code == "nothing_to_retarget"
    g.play("t3>t1")
    before = (g.state, g.moves_made, g.undos)
    for text, code in [
        ("t4>t3", "not_the_last_move"),  # another card
        ("t3>t1", "same_target"),
        ("t3>t4", "does_not_fit"),  # 7S does not go onto KH
    ]:
        with pytest.raises(IllegalMoveError) as e:
            g.retarget(text)
        assert e.value.code == code, text
        assert (g.state, g.moves_made, g.undos) == before


def test_retarget_keeps_spider_score_and_moves() -> None:
    g = game_at("spider", {"t1": "9S", "t2": "9S", "t3": "8S", "t4": "KS"}, options={"suits": "1"})
    g.play("t3>t1")
    g.retarget("t3>t2")
    assert (g.moves_made, g.undos, g.score) == (1, 0, 499)


def test_retarget_is_refused_after_a_card_was_turned_up_elsewhere() -> None:
    # t2: a face-down card under KS..2S; the Ace from t3 completes the run, which leaves,
    # and turns up t2's hidden card: choosing again would be an undo with knowledge.
    run = "KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S"
    g = game_at(
        "spider",
        {"t1": "2S", "t2": "5S " + run, "t3": "AS", "t4": "9S"},
        options={"suits": "1"},
        down={"t2": 1},
    )
    g.play("t3>t2")
    assert pile_codes(SPIDER, g.state)["t2"] == ["5S"]
    with pytest.raises(IllegalMoveError) as e:
        g.retarget("t3>t1")
    assert e.value.code == "revealed"


def test_retarget_is_allowed_when_the_card_turned_up_is_in_the_source() -> None:
    g = game_at(
        "spider",
        {"t1": "9S", "t2": "9S", "t3": "5S 8S", "t4": "KS"},
        options={"suits": "1"},
        down={"t3": 1},
    )
    g.play("t3>t1")  # turns up t3's 5S: it would be turned up wherever the 8S went
    g.retarget("t3>t2")
    assert g.undos == 0 and pile_codes(SPIDER, g.state)["t2"] == ["9S", "8S"]


def test_retarget_is_refused_after_a_nivernais_refill() -> None:
    g = game_at("nivernais", {"t1": "5H", "t2": "KC", "stock": "2C 3C 4C 6C"})
    g.play("t1>r1")
    assert len(pile_codes(get_game("nivernais"), g.state)["t1"]) == 4  # refilled: seen
    with pytest.raises(IllegalMoveError) as e:
        g.retarget("t1>r2")
    assert e.value.code == "revealed"
    assert pile_codes(get_game("nivernais"), g.state)["r1"] == ["5H"] and g.moves_made == 1


# --- safe auto-moves -----------------------------------------------------------------------


def test_auto_moves_follow_the_move_and_are_undone_and_redone_with_it() -> None:
    piles = {f"f{i}": up(s) for i, s in enumerate("CCDDHH", start=1)}
    piles |= {"f7": up("S", "4"), "f8": up("S", "4"), "t1": "6S 5S", "t2": "KS", "t3": "5S"}
    spec = get_game("spine")
    g = game_at("spine", {**piles, "spine": "KS QS QS JS JS TS TS 9S 9S 8S 8S 7S 7S 6S"})
    events = g.play("t3>f7", auto=True)  # both 4S are up: every spade that shows follows
    autos = [e for e in events if e.get("auto")]
    assert events[0] == {"type": "move", "from": "t3", "to": "f7", "cards": 1}
    assert autos and all(e["to"].startswith("f") for e in autos)
    assert g.won
    assert g.saved_moves()[0] == "t3>f7" and all(t.startswith("+") for t in g.saved_moves()[1:])
    assert g.moves_made == 18  # every card up is a move, as with autocollect
    saved = g.to_saved()
    again = Game.from_saved(saved, start=g.start)
    assert again.state == g.state and again.saved_moves() == g.saved_moves()
    assert Game.from_saved(saved, start=g.start, trusted=True).state == g.state
    g.undo()
    assert g.moves_made == 0 and g.undos == 1 and g.state == g.start
    assert g.redo_moves() == saved["moves"]
    redone = g.redo()
    assert g.won and len([e for e in redone if e.get("auto")]) == len(autos)
    assert spec.id == "spine"


def test_no_auto_moves_without_the_setting() -> None:
    g = game_at("spine", {"t1": "AS", "t2": "2D AH"})
    g.play("t2>f1")
    assert g.moves_made == 1 and pile_codes(SPINE, g.state)["t1"] == ["AS"]


def test_an_unsafe_card_stays_on_the_table() -> None:
    # 3S with only one 2S up: the other 2S may still need it as a column to build on.
    g = game_at("spine", {"f1": "AS 2S", "f2": "AS", "t1": "3S", "t2": "KD AH", "t3": "2S QC"})
    g.play("t2>f3", auto=True)
    assert pile_codes(SPINE, g.state)["t1"] == ["3S"]
    assert g.moves_made == 1


def test_no_auto_move_brings_back_a_card_taken_off_a_foundation() -> None:
    g = game_at("backbone", {"f1": "AS 2S", "f2": "AS", "t1": "3S", "t2": "KH"})
    g.play("f1>t1", auto=True)  # 2S is safe (both AS up), but the player took it down
    assert pile_codes(BACKBONE, g.state)["t1"] == ["3S", "2S"] and g.moves_made == 1


def test_a_saved_auto_move_must_be_a_foundation_move() -> None:
    g = Game("spider", 1, {"suits": "1"})
    saved = g.to_saved() | {"moves": [g.legal_moves()[0].to_str(), "+stock"]}
    with pytest.raises(SavedGameError):
        Game.from_saved(saved)
    with pytest.raises(SavedGameError):
        Game.from_saved(g.to_saved() | {"moves": ["+t1>f1"]})


def test_a_saved_auto_move_must_be_the_safe_move_there() -> None:
    # One AS up: the 2S is not safe (the other AS may still need it), so "+t1>f1" is a
    # move the player chose, not an auto-move, and a list that says otherwise is refused.
    g = game_at("spine", {"f1": "AS", "t1": "2S", "t2": "KD", "t3": "AH"})
    start = g.state
    with pytest.raises(SavedGameError):
        Game.from_saved(g.to_saved() | {"moves": ["t3>f2", "+t1>f1"]}, start=start)
    with pytest.raises(SavedGameError):
        Game.from_saved(g.to_saved() | {"moves": ["t3>f2", "+t1>f1"]}, start=start, trusted=True)
    ok = Game.from_saved(g.to_saved() | {"moves": ["t3>f2", "t1>f1"]}, start=start)
    assert ok.moves_made == 2


def test_a_saved_auto_move_is_replayed_when_it_is_the_safe_move() -> None:
    g = game_at("spine", {"f1": "AS", "t1": "2S", "t2": "KD", "t3": "AH", "t4": "AS"})
    start = g.state
    g.play("t3>f2", auto=True)
    assert g.saved_moves() == ["t3>f2", "+t4>f3", "+t1>f1"]
    again = Game.from_saved(g.to_saved(), start=start)
    assert again.state == g.state and again.saved_moves() == g.saved_moves()


def test_retarget_replaces_the_move_and_its_auto_moves() -> None:
    # 2H goes up (AH is there); both AH are up so 3H... only one: no follow-up. The AS
    # from t3 follows any move as a safe Ace.
    g = game_at("spine", {"f1": "AH", "t1": "2H", "t2": "3H", "t3": "AS", "t4": "KC"})
    g.play("t1>f1", auto=True)
    assert g.saved_moves() == ["t1>f1", "+t3>f2"]
    g.retarget("t1>t2", auto=True)
    assert g.saved_moves() == ["t1>t2", "+t3>f2"]
    assert g.moves_made == 2 and g.undos == 0
    assert legal_moves(SPINE, g.state) == g.legal_moves()
