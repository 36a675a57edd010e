"""The trusted replay (``Game.from_saved(..., trusted=True)``): the same game as the checked
replay, its per-move test (``core.is_legal``) answers exactly what ``legal_moves`` lists,
and a corrupt move list still raises :class:`SavedGameError`."""

from __future__ import annotations

import random

import pytest

from pasyans import deals
from pasyans.engine import core
from pasyans.engine.game import Game
from pasyans.engine.moves import Move
from pasyans.errors import SavedGameError
from pasyans.rules import variants

VARIANTS = variants()
IDS = [f"{g}-{'-'.join(o.values()) or 'default'}" for g, o in VARIANTS]


def walk(game_id: str, options: dict[str, str], deal: int, steps: int) -> Game:
    rnd = random.Random(deal)
    game = Game(game_id, deal, options)
    for _ in range(steps):
        moves = game.legal_moves()
        if not moves:
            break
        game.play(rnd.choice(moves))
    return game


@pytest.mark.parametrize(("game_id", "options"), VARIANTS, ids=IDS)
def test_per_move_test_equals_the_generator(game_id: str, options: dict[str, str]) -> None:
    """Every move the notation can name (every pile pair, every count, the stock), in
    positions along random games: legal for one exactly when listed by the other."""
    checked = 0
    for deal in (1, 2):
        game = walk(game_id, options, deal, 0)
        rnd = random.Random(deal)
        ids = [p.id for p in game.spec.piles] + ["t9", "f8", "r1", "nowhere"]
        candidates = {Move.stock()} | {
            Move(a, b, n) for a in ids for b in ids for n in range(1, 14)
        }
        for _ in range(30):
            state = game.state
            listed = set(core.legal_moves(game.spec, state))
            assert {m for m in candidates if core.is_legal(game.spec, state, m)} == listed
            checked += 1
            moves = game.legal_moves()
            if not moves:
                break
            game.play(rnd.choice(moves))
    assert checked >= 3


@pytest.mark.parametrize(("game_id", "options"), VARIANTS, ids=IDS)
def test_trusted_replay_gives_the_same_game(game_id: str, options: dict[str, str]) -> None:
    game = walk(game_id, options, 11, 150)
    saved = game.to_saved()
    trusted = deals.load_game(saved, trusted=True)
    checked = deals.load_game(saved)
    assert trusted.state == checked.state == game.state
    assert trusted.moves == checked.moves and trusted.moves_made == game.moves_made
    assert trusted.view() == checked.view()


@pytest.mark.parametrize(
    "corrupt",
    [
        lambda moves: [*moves, "t1>t1"],  # onto itself
        lambda moves: [*moves, "t1>f9"],  # no such pile (bad notation)
        lambda moves: [*moves, "garbage"],
        lambda moves: [*moves, "spine>t1"],  # not a pile of Spider
        lambda moves: [*moves, "t1>t2:13"],  # more cards than a run
        lambda moves: moves[1:],  # a move lost
        lambda moves: [moves[0], *moves],  # a move duplicated
    ],
)
def test_a_corrupt_move_list_raises(corrupt: object) -> None:
    game = walk("spider", {"suits": "4"}, 5, 40)
    saved = game.to_saved()
    assert callable(corrupt)
    bad = {**saved, "moves": corrupt(saved["moves"])}
    with pytest.raises(SavedGameError):
        deals.load_game(bad, trusted=True)
    with pytest.raises(SavedGameError):
        deals.load_game(bad)


def test_trusted_replay_refuses_a_move_the_rules_refuse() -> None:
    """A card moved onto a card it does not fit: structurally possible, never legal."""
    game = walk("spider", {"suits": "4"}, 8, 0)
    spec, state = game.spec, game.state
    ids = [p.id for p in spec.piles if p.id.startswith("t")]
    listed = set(core.legal_moves(spec, state))
    illegal = next(Move(a, b) for a in ids for b in ids if a != b and Move(a, b) not in listed)
    with pytest.raises(SavedGameError, match="not legal"):
        deals.load_game({**game.to_saved(), "moves": [illegal.to_str()]}, trusted=True)
