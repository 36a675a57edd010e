"""A simple player, to make lost games to analyse (tests and ``benchmarks/analysis.py``):
a card to a foundation when it can, else a random legal move to a position it has not
seen, until the game is won, it runs out of such moves, or ``cap`` moves are played.
``simple_game`` is the game the tests and benchmarks analyse for a deal."""

from __future__ import annotations

import random
from collections.abc import Mapping

from pasyans import deals
from pasyans.engine import core
from pasyans.engine.game import Game
from pasyans.position import State
from pasyans.rules import get_game

SOLVABLE = frozenset({"spine", "backbone"})
"""The games whose simple games start from the solvable layout of the deal (random deals
of them are almost never winnable, so a lost game there would say little)."""


def play_simply(
    game_id: str,
    deal: int,
    options: Mapping[str, object] | None = None,
    *,
    seed: int = 0,
    cap: int = 200,
    start: State | None = None,
) -> Game:
    """The game the simple player makes of ``deal`` (reproducible for a ``seed``)."""
    g = Game(game_id, deal, options, start=start)
    rng = random.Random(seed)
    seen = {g.state}
    while g.moves_made < cap and not g.won:
        fresh = [m for m in g.legal_moves() if core.apply(g.spec, g.state, m) not in seen]
        if not fresh:
            break
        home = [m for m in fresh if m.dst is not None and m.dst.startswith("f")]
        g.play(home[0] if home else rng.choice(fresh))
        seen.add(g.state)
    return g


def simple_game(
    game_id: str, deal: int, options: Mapping[str, object] | None = None, *, cap: int = 200
) -> Game:
    """The simple player's game of ``deal`` with the deal as its seed: from the deal's
    solvable layout for the games in ``SOLVABLE``, else from the deal itself."""
    start = None
    if game_id in SOLVABLE:
        start = deals.start_position(get_game(game_id, options), deal, "solvable", "easy")
    return play_simply(game_id, deal, options, seed=deal, cap=cap, start=start)
