"""The Game object and the position flags: undo/redo, counters, errors, saving,
won/stuck/autocollect, score and smart-move order."""

from __future__ import annotations

from typing import Any

import pytest

from pasyans.engine.build import build_state, pile_codes
from pasyans.engine.core import (
    autocollect_moves,
    is_stuck,
    is_won,
    play_checked,
    score,
    smart_moves,
)
from pasyans.engine.game import Game
from pasyans.engine.moves import Move
from pasyans.errors import (
    IllegalMoveError,
    InvalidMoveError,
    NothingToRedoError,
    NothingToUndoError,
    PasyansError,
    SavedGameError,
)
from pasyans.rules import get_game

SPINE = get_game("spine")
BACKBONE = get_game("backbone")


def up(suit: str, top: str = "K") -> str:
    """An up foundation of ``suit`` from the Ace to ``top``."""
    ranks = "A23456789TJQK"
    return " ".join(f"{r}{suit}" for r in ranks[: ranks.index(top) + 1])


def almost_won(**piles: str) -> dict[str, str]:
    """Every foundation full but f8 (spades up to the Jack), plus ``piles``."""
    found = {f"f{i}": up(s) for i, s in enumerate("CCDDHHS", start=1)}
    return {**found, "f8": up("S", "J"), **piles}


# --- undo, redo, counters ----------------------------------------------------------------


def test_undo_and_redo_are_unlimited() -> None:
    game = Game("spider", 3, {"suits": "1"})
    states = [game.state]
    for _ in range(30):
        game.play(game.legal_moves()[0])
        states.append(game.state)
    for k in range(30, 0, -1):
        game.undo()
        assert game.state == states[k - 1]
    assert game.moves_made == 0 and game.undos == 30 and not game.can_undo
    for k in range(1, 31):
        game.redo()
        assert game.state == states[k]
    assert game.moves_made == 30 and game.undos == 30 and not game.can_redo


def test_undo_and_redo_when_there_is_nothing() -> None:
    game = Game("spine", 1)
    with pytest.raises(NothingToUndoError) as e1:
        game.undo()
    with pytest.raises(NothingToRedoError) as e2:
        game.redo()
    assert (e1.value.code, e2.value.code) == ("nothing_to_undo", "nothing_to_redo")


def test_playing_after_undo_drops_the_redo_list() -> None:
    game = Game("backbone", 2)
    game.play("stock")
    game.undo()
    assert game.can_redo
    game.play("stock")
    assert not game.can_redo and game.moves_made == 1 and game.undos == 1


def test_undoing_a_redeal_gives_it_back() -> None:
    start = build_state(BACKBONE, {"waste": "4C 3C", "t1": "KS"})
    game = Game("backbone", 1, start=start)
    game.play("stock")
    assert game.view()["flags"]["redeals_left"] == 0
    game.undo()
    assert game.state == start and game.view()["flags"]["redeals_left"] == 1


def test_bad_notation_changes_nothing() -> None:
    game = Game("backbone", 5)
    game.play("stock")
    game.play("stock")
    game.undo()
    before = (game.state, game.moves, game.moves_made, game.undos, game.can_redo)
    with pytest.raises(InvalidMoveError) as err:
        game.play("t1=>t2")
    assert err.value.code == "bad_notation"
    assert (game.state, game.moves, game.moves_made, game.undos, game.can_redo) == before


def test_illegal_move_changes_nothing_and_says_why() -> None:
    start = build_state(SPINE, {"t1": "3C 8S 7S", "t2": "9S", "spine": "4C"})
    game = Game("spine", 1, start=start)
    with pytest.raises(IllegalMoveError) as err:
        game.play({"from": "t1", "to": "t2", "cards": 2})
    assert err.value.code == "not_a_run"
    with pytest.raises(IllegalMoveError) as err:
        game.play("t7>f1")
    assert err.value.code == "empty_source"
    with pytest.raises(IllegalMoveError) as err:
        game.play("stock")
    assert err.value.code == "no_stock"
    with pytest.raises(IllegalMoveError) as err:
        game.play("r1>f1")
    assert err.value.code == "unknown_pile"
    assert game.state == start and game.moves_made == 0


def test_play_accepts_a_move_its_text_or_its_json() -> None:
    game = Game("backbone", 1)
    game.play(Move.stock())
    game.play("stock")
    game.play({"from": "stock"})
    assert game.moves_made == 3 and [m.to_str() for m in game.moves] == ["stock"] * 3


def test_restart_gives_the_same_deal_and_keeps_hints_and_undos_counted() -> None:
    game = Game("nivernais", 8)
    start = game.state
    game.play("stock")
    game.undo()
    game.play("stock")
    game.hints += 1
    game.restart()
    assert game.state == start and game.moves_made == 0 and game.moves == []
    assert game.undos == 1 and game.hints == 1  # a restart does not hide them
    assert not game.can_undo


# --- saved games -------------------------------------------------------------------------


def test_a_saved_game_replays_to_the_same_state() -> None:
    game = Game("spider", 4, {"suits": "2"})
    for _ in range(12):
        game.play(game.legal_moves()[-1])
    game.undo()
    saved = game.to_saved()
    assert saved["game"] == "spider" and saved["options"] == {"suits": "2"}
    assert saved["deal"] == 4 and len(saved["moves"]) == 11
    again = Game.from_saved(saved)
    assert again.state == game.state and again.moves == game.moves


@pytest.mark.parametrize(
    "change",
    [{"rules_version": -1}, {"moves": ["t1>t2:9"]}, {"moves": ["nonsense"]}, {"game": "x"}],
)
def test_a_bad_saved_game_is_refused(change: dict[str, object]) -> None:
    saved = {**Game("spine", 1).to_saved(), **change}
    with pytest.raises(PasyansError):
        Game.from_saved(saved)


def test_a_saved_game_needs_its_fields() -> None:
    with pytest.raises(SavedGameError):
        Game.from_saved({"game": "spine"})


# --- won, stuck, autocollect ---------------------------------------------------------------


def test_won_when_every_card_is_on_a_foundation() -> None:
    won = build_state(SPINE, almost_won(f8=up("S")))
    assert is_won(SPINE, won) and not is_stuck(SPINE, won)
    assert score(SPINE, won, 200) == 104
    assert not is_won(SPINE, build_state(SPINE, almost_won(t1="KS QS")))


def test_stuck_when_nothing_is_left_to_do() -> None:
    full = {f"t{i}": "2C" for i in range(2, 9)}
    s = build_state(SPINE, almost_won(t1="QS KS", **full))
    assert is_stuck(SPINE, s)  # KS covers QS and no column is empty
    assert not is_stuck(SPINE, build_state(SPINE, almost_won(t1="QS KS")))  # KS -> t2
    assert not is_stuck(SPINE, build_state(SPINE, almost_won(t1="KS QS", **full)))


def test_autocollect_available_when_the_rest_goes_up_in_order() -> None:
    s = build_state(SPINE, almost_won(t1="KS", spine="QS"))
    assert autocollect_moves(SPINE, s) == [Move("spine", "f8"), Move("t1", "f8")]
    game = Game("spine", 1, start=s)
    assert game.autocollect_available() and game.view()["flags"]["autocollect"]
    game.autocollect()
    assert game.won and game.moves_made == 2  # one move per card
    game.undo()
    assert pile_codes(SPINE, game.state)["t1"] == ["KS"]  # one undo step per card


def test_autocollect_not_available_when_a_card_is_blocked() -> None:
    s = build_state(SPINE, almost_won(t1="QS KS"))
    assert autocollect_moves(SPINE, s) is None
    game = Game("spine", 1, start=s)
    assert not game.autocollect_available()
    with pytest.raises(PasyansError) as err:
        game.autocollect()
    assert err.value.code == "no_autocollect"


def test_autocollect_not_offered_while_a_card_is_hidden() -> None:
    # The stock's card would go up, but it is face down: no proof from hidden cards.
    s = build_state(BACKBONE, almost_won(t1="QS", stock="KS"))
    assert autocollect_moves(BACKBONE, s) is None
    turned = build_state(BACKBONE, almost_won(t1="QS", waste="KS"))
    assert autocollect_moves(BACKBONE, turned) == [Move("t1", "f8"), Move("waste", "f8")]


def test_autocollect_not_for_spider() -> None:
    spider = get_game("spider")
    s = build_state(spider, {"t1": "KS QS JS"})
    assert autocollect_moves(spider, s) is None


def test_autocollect_chooses_between_up_and_down_in_nivernais() -> None:
    niv = get_game("nivernais")
    ranks = "A23456789TJQK"
    piles = {f"f{i}": up(s) for i, s in enumerate("DHS", start=2)}
    piles.update({f"f{i}": " ".join(f"{r}{s}" for r in ranks[::-1]) for i, s in
                  enumerate("DHS", start=6)})  # fmt: skip
    # Clubs: up at 6C, down at 8C. Sending t1's 7C up (tried first) is a dead end.
    piles.update(f1=up("C", "6"), f5="KC QC JC TC 9C 8C")
    piles.update(t1="AC 2C 3C 4C 6C 7C", t2="KC QC JC TC 9C 8C 7C 5C")
    s = build_state(niv, piles)
    assert sum(len(p) for p in s.piles) == 104
    moves = autocollect_moves(niv, s)
    assert moves is not None and moves[0] == Move("t1", "f5") and len(moves) == 14
    stuck = build_state(niv, {**piles, "t1": "AC 2C 3C 6C 4C 7C"})
    assert autocollect_moves(niv, stuck) is None


# --- score and smart moves -----------------------------------------------------------------


def test_score_counts_foundation_cards() -> None:
    s = build_state(BACKBONE, {"f1": "AS 2S", "f4": "AH", "t1": "KD"})
    assert score(BACKBONE, s, 50) == 3


def test_spider_score_counts_moves_in_the_current_line() -> None:
    game = Game("spider", 1)
    assert game.score == 500
    game.play(game.legal_moves()[0])
    game.play(game.legal_moves()[0])
    assert game.score == 498
    game.undo()
    assert game.score == 499 and game.view()["counters"]["score"] == 499


def test_smart_moves_foundation_then_column_then_empty_column() -> None:
    s = build_state(
        BACKBONE,
        {"f1": "AS", "t1": "3S", "waste": "2S", **{f"t{i}": "9D" for i in range(3, 9)}},
    )
    assert [m.to_str() for m in smart_moves(BACKBONE, s, "waste")] == [
        "waste>f1",
        "waste>t1",
        "waste>t2",
    ]
    assert smart_moves(BACKBONE, s, "t9") == [] and smart_moves(BACKBONE, s, "waste", 5) == []


def test_smart_moves_of_a_run_in_spider() -> None:
    spider = get_game("spider")
    s = build_state(spider, {"t1": "4D 9S 8S 7S", "t2": "TD", "t3": "8H"})
    game = Game("spider", 1, start=s)
    assert game.smart_moves("t1", 0) == []  # 4D is not part of the run
    assert [m.to_str() for m in game.smart_moves("t1", 1)] == ["t1>t2:3"] + [
        f"t1>t{i}:3" for i in range(4, 11)
    ]
    assert [m.to_str() for m in game.smart_moves("t1")][:2] == ["t1>t3", "t1>t4"]
    whole = Game("spider", 1, start=build_state(spider, {"t1": "9S 8S", "t2": "TD"}))
    assert [m.to_str() for m in whole.smart_moves("t1", 0)] == ["t1>t2:2"]  # not t1>t3:2


def test_smart_moves_every_legal_move_reachable() -> None:
    game = Game("backbone", 9)
    for _ in range(20):
        game.play("stock")
    by_card = {
        (pile_id, len(game.state.piles[i]) - 1)
        for i, p in enumerate(game.spec.piles)
        if (pile_id := p.id) and game.state.piles[i]
    }
    reachable = {m for pile_id, idx in by_card for m in game.smart_moves(pile_id, idx)}
    assert reachable == {m for m in game.legal_moves() if not m.is_stock}


def test_autocollect_a_whole_table() -> None:
    ranks = "A23456789TJQK"
    piles = {f"t{i}": " ".join(f"{r}{s}" for r in ranks[::-1]) for i, s in enumerate("CDHSCDHS", 1)}
    game = Game("spine", 1, start=build_state(SPINE, piles))
    moves = autocollect_moves(SPINE, game.state)
    assert moves is not None and len(moves) == 104
    game.autocollect()
    assert game.won and game.moves_made == 104
    # One 2S above its Ace: the other Ace (t4) takes it first. An earlier search ran out
    # of its budget here and offered nothing; the proof exists, and it must win.
    swapped = {**piles, "t8": piles["t8"].replace("2S AS", "AS 2S")}
    proof = autocollect_moves(SPINE, build_state(SPINE, swapped))
    assert proof is not None and len(proof) == 104
    state = build_state(SPINE, swapped)
    for m in proof:
        state = play_checked(SPINE, state, m)
    assert is_won(SPINE, state)
    # Both 2S above both Aces of spades: nothing can take either 2S.
    blocked = {**swapped, "t4": piles["t4"].replace("2S AS", "AS 2S")}
    assert autocollect_moves(SPINE, build_state(SPINE, blocked)) is None


def _exhaustive_collect(spec: Any, state: Any) -> bool:
    """Whether foundation moves alone win, by trying every order (no budget, no shortcut):
    the reference for :func:`autocollect_moves` on small positions."""
    from pasyans.engine.core import apply, foundation_moves

    seen: set[Any] = set()

    def go(s: Any) -> bool:
        if is_won(spec, s):
            return True
        if s in seen:
            return False
        seen.add(s)
        return any(go(apply(spec, s, m)) for m in foundation_moves(spec, s))

    return go(state)


@pytest.mark.parametrize("game_id", ["spine", "backbone"])
def test_autocollect_agrees_with_trying_every_order(game_id: str) -> None:
    """Random tables near the end (cards taken off the foundations and dealt back onto the
    columns in a random order, so some are blocked): a proof is offered exactly when one
    exists, and it wins when played with the checked path."""
    import random

    spec = get_game(game_id)
    rng = random.Random(5)
    ranks = "A23456789TJQK"
    found = [p.id for p in spec.piles if p.kind.value == "foundation"]
    columns = [p.id for p in spec.piles if p.kind.value == "column"]
    offered = refused = 0
    for _ in range(60):
        stacks = {f: [f"{r}{s}" for r in ranks] for f, s in zip(found, "CCDDHHSS", strict=True)}
        loose: list[str] = []
        for _ in range(rng.randint(6, 16)):
            f = rng.choice(found)
            if stacks[f]:
                loose.append(stacks[f].pop())
        rng.shuffle(loose)
        piles = {f: " ".join(cards) for f, cards in stacks.items() if cards}
        for card in loose:
            c = rng.choice(columns[:4])
            piles[c] = f"{piles.get(c, '')} {card}".strip()
        state = build_state(spec, piles)
        proof = autocollect_moves(spec, state)
        assert (proof is not None) == _exhaustive_collect(spec, state), piles
        if proof is None:
            refused += 1
            continue
        offered += 1
        for m in proof:
            state = play_checked(spec, state, m)
        assert is_won(spec, state)
    assert offered and refused  # both answers were exercised
