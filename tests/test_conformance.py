"""Conformance: every registered game, with every option combination, keeps the contract
of GAMES.md (layout, deck, pile ids, determinism) and its invariants through a long
random playout with undo and redo."""

from __future__ import annotations

from collections import Counter
from itertools import pairwise

import pytest

from pasyans.cards import SplitMix64, card_code, double_deck, rank, suit
from pasyans.engine.build import pile_codes
from pasyans.engine.core import initial_state, is_stuck, is_won, legal_moves, play_checked
from pasyans.engine.game import Game
from pasyans.position import State
from pasyans.rules import GAMES, get_game, variants
from pasyans.rules.spec import Foundations, GameSpec, PileKind

VARIANTS = variants()
IDS = [f"{g}-{'-'.join(o.values()) or 'default'}" for g, o in VARIANTS]
PILE_IDS = (
    {f"t{i}" for i in range(1, 11)}
    | {f"f{i}" for i in range(1, 9)}
    | {f"r{i}" for i in range(1, 9)}
    | {"stock", "waste", "spine", "spine1", "spine2", "tailbone", "done"}
)


def expected_counts(game_id: str, options: dict[str, str]) -> dict[str, int]:
    """The number of cards in every non-empty pile at the start, as GAMES.md gives it."""
    if game_id == "spine":
        spine = int(options["spine"])
        return {"spine": spine} | {f"t{i}": (104 - spine) // 8 for i in range(1, 9)}
    if game_id in ("backbone", "backbone-classic"):
        n = 10 if game_id == "backbone" else 9
        cols = {f"t{i}": 1 for i in range(1, 9)}
        return {"spine1": n, "spine2": n, "tailbone": 1, "stock": 104 - 2 * n - 9} | cols
    if game_id == "spider":
        return {"stock": 50} | {f"t{i}": 6 if i <= 4 else 5 for i in range(1, 11)}
    assert game_id == "nivernais"
    cells = {f"r{i}": 1 for i in range(1, 9)}
    return {"stock": 72} | {f"t{i}": 4 for i in range(1, 7)} | cells


def test_every_game_of_games_md_is_registered() -> None:
    assert list(GAMES) == ["spine", "backbone", "backbone-classic", "spider", "nivernais"]
    assert len(VARIANTS) == 12 + 1 + 1 + 3 + 1


def test_the_stock_sizes_of_games_md() -> None:
    assert expected_counts("backbone", {})["stock"] == 75
    assert expected_counts("backbone-classic", {})["stock"] == 77


@pytest.mark.parametrize(("game_id", "options"), VARIANTS, ids=IDS)
@pytest.mark.parametrize("deal", [1, 2, 999_999])
def test_layout(game_id: str, options: dict[str, str], deal: int) -> None:
    spec = get_game(game_id, options)
    assert {p.id for p in spec.piles} <= PILE_IDS
    assert len({p.id for p in spec.piles}) == len(spec.piles)
    state = initial_state(spec, deal)
    assert state == initial_state(get_game(game_id, dict(options)), deal)  # deterministic
    assert state != initial_state(spec, deal + 1)
    codes = pile_codes(spec, state)
    counts = {pile_id: len(cards) for pile_id, cards in codes.items() if cards}
    assert counts == expected_counts(game_id, options)
    assert sum(counts.values()) == 104
    deck = Counter(c for cards in codes.values() for c in cards)
    suits = {"1": "S", "2": "SH"}.get(options.get("suits", "4"), "CDHS")
    copies = 8 // len(suits)
    assert deck == {f"{r}{s}": copies for s in suits for r in "A23456789TJQK"}
    for i, p in enumerate(spec.piles):
        if spec.id == "spider" and p.kind is PileKind.COLUMN:
            assert state.down[i] == len(state.piles[i]) - 1  # one face-up card per column
        else:
            assert state.down[i] == 0  # everything else is face up (or in the stock)
    assert state.redeals == 0 and not is_won(spec, state)


def check_invariants(spec: GameSpec, state: State, start: State) -> None:
    """What must hold in every position reached by legal play."""
    assert Counter(c for p in state.piles for c in p) == Counter(double_deck(spec.deck_suits))
    assert 0 <= state.redeals <= spec.passes - 1
    foundations = spec.indexes_of(PileKind.FOUNDATION)
    for i, p in enumerate(spec.piles):
        pile, down = state.piles[i], state.down[i]
        assert 0 <= down <= len(pile)
        if p.kind is PileKind.COLUMN:
            assert down < len(pile) or not pile  # a column's top card is face up
        elif p.kind is not PileKind.STOCK:
            assert down == 0
        if p.kind is PileKind.RESERVE:
            assert len(pile) <= 1
        if p.kind in (PileKind.SPINE, PileKind.TAILBONE):
            assert pile == start.piles[i][: len(pile)]  # nothing ever goes onto the spine
        if p.locked_by is not None and state.piles[spec.pile_index(p.locked_by)]:
            assert pile == start.piles[i]
        if p.kind is PileKind.DONE:
            assert len(pile) % 13 == 0
        if p.kind is PileKind.FOUNDATION and pile:
            step = 1
            first = 1
            if spec.foundations is Foundations.UP_DOWN and foundations.index(i) >= 4:
                step, first = -1, 13
            assert rank(pile[0]) == first
            assert all(suit(c) == suit(pile[0]) for c in pile)
            if spec.foundations is Foundations.UP_DOWN:
                assert suit(pile[0]) == foundations.index(i) % 4
            assert all(rank(b) - rank(a) == step for a, b in pairwise(pile))
    if spec.id == "nivernais" and state.piles[spec.pile_index("stock")]:
        assert all(state.piles[c] for c in spec.indexes_of(PileKind.COLUMN))
    if is_stuck(spec, state):
        assert not legal_moves(spec, state)


@pytest.mark.parametrize(("game_id", "options"), VARIANTS, ids=IDS)
def test_random_playout_with_undo_keeps_every_invariant(
    game_id: str, options: dict[str, str]
) -> None:
    for deal in (3, 4):
        game = Game(game_id, deal, options)
        rng = SplitMix64(deal)
        for _ in range(250):
            check_invariants(game.spec, game.state, game.start)
            legal = game.legal_moves()
            roll = rng.below(10)
            if roll == 0 and game.can_undo:
                before = game.state
                game.undo()
                game.redo()
                assert game.state == before
            elif roll == 1 and game.can_undo:
                game.undo()
            elif legal:
                move = legal[rng.below(len(legal))]
                assert play_checked(game.spec, game.state, move) is not None
                game.play(move)
            elif game.can_undo:
                game.undo()  # a dead end: back out and try another line
            else:
                break
        replay = Game.from_saved(game.to_saved())
        assert replay.state == game.state


def test_tool_view_codes_match_the_cards() -> None:
    spec = get_game("spider")
    state = initial_state(spec, 1)
    codes = pile_codes(spec, state)
    assert codes["t1"] == [card_code(c) for c in state.piles[spec.pile_index("t1")]]
