"""How hard a deal is: the randomised simple player's playouts, and the trivial-deal test.

**The simple player** (:func:`simple_player_wins`) is the deterministic "obvious moves"
player of :mod:`pasyans.solvable.autoplay`: the first foundation move if there is one,
otherwise the first build onto a non-empty column (spine, tailbone and waste cards
first) that leads to a new position, otherwise the stock. A solvable deal it wins, or one
that offers autocollect before the first move, is *trivial* and never dealt.

**The measure** (:func:`measure`): :data:`PLAYOUTS` games of the *randomised* simple
player, each from the start of the deal with its own fixed seed: a foundation move when
there is one (chosen at random among them), otherwise any legal move (the stock click
included) chosen uniformly among those that lead to a position this playout has not seen,
until none is left or :data:`MAX_MOVES` moves are made. Its *progress* is the share of
the 104 cards it got to the foundations (Spider: cards in completed runs, plus half a
card for every card lying on the next higher card of its suit at the end, so a Spider
playout that completes no run still scores how far it got). The measure is
``1 - mean progress``: 0 is a deal the randomised player always wins, 1 one where it
places nothing. The same layout always gets the same measure.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

from pasyans.cards import SplitMix64
from pasyans.engine.core import (
    apply,
    autocollect_moves,
    cards_on_foundations,
    is_won,
    legal_moves,
)
from pasyans.position import State
from pasyans.rules.spec import Foundations, GameSpec, PileKind
from pasyans.solvable.autoplay import obvious_wins

PLAYOUTS = 8
MAX_MOVES = 400


@dataclass(frozen=True)
class Playouts:
    """What the randomised simple player did on one layout."""

    measure: float  # 1 - mean progress (0 easy … 1 hard)
    wins: int  # playouts won, of ``PLAYOUTS``


def is_trivial(spec: GameSpec, state: State) -> bool:
    """Autocollect is offered at move 0, or the simple player wins the deal."""
    return autocollect_moves(spec, state) is not None or simple_player_wins(spec, state)


def simple_player_wins(spec: GameSpec, state: State) -> bool:
    """Whether the documented simple player (see the module docstring) wins from ``state``."""
    return obvious_wins(spec, state)


def measure(spec: GameSpec, state: State, playouts: int = PLAYOUTS) -> Playouts:
    """The difficulty measure of a layout (see the module docstring)."""
    total = 0.0
    wins = 0
    for n in range(playouts):
        end = playout(spec, state, SplitMix64(0xD1FF + n))
        total += progress(spec, end)
        wins += is_won(spec, end)
    return Playouts(round(1.0 - total / playouts, 4), wins)


def playout(spec: GameSpec, state: State, rng: SplitMix64) -> State:
    """One game of the randomised simple player; returns where it stopped."""
    kinds = [p.kind for p in spec.piles]
    index = spec.index
    seen = {state}
    for _ in range(MAX_MOVES):
        if is_won(spec, state):
            break
        moves = legal_moves(spec, state)
        up = [m for m in moves if m.dst is not None and kinds[index[m.dst]] is PileKind.FOUNDATION]
        if up:
            state = apply(spec, state, up[rng.below(len(up))])
            seen.add(state)
            continue
        while moves:
            m = moves.pop(rng.below(len(moves)))
            nxt = apply(spec, state, m)
            if nxt not in seen:
                state = nxt
                seen.add(state)
                break
        else:
            break
    return state


def progress(spec: GameSpec, state: State) -> float:
    """The share of the game done in ``state``, 0 to 1 (see the module docstring)."""
    placed = float(cards_on_foundations(spec, state))
    if spec.foundations is Foundations.NONE:  # Spider: half a card per built same-suit pair
        for i in spec.indexes_of(PileKind.COLUMN):
            pile = state.piles[i]
            up = pile[state.down[i] :]
            placed += 0.5 * sum(1 for a, b in pairwise(up) if a - b == 4)
    return min(1.0, placed / 104)
