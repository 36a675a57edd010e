"""The "obvious moves" autoplayer: what a hurried player does without thinking.

Repeatedly: play the first foundation move if there is one; otherwise the first move that
builds onto a non-empty column (cards from the spine, tailbone or waste first) and leads
to a position not seen before; otherwise click the stock if it can be clicked; else stop.
A solvable deal this player wins is too easy to offer.
"""

from __future__ import annotations

from pasyans.engine.core import apply, is_won, legal_moves
from pasyans.engine.moves import Move
from pasyans.position import State
from pasyans.rules.spec import GameSpec, PileKind

_FEEDERS = (PileKind.SPINE, PileKind.TAILBONE, PileKind.WASTE)


def obvious_play(spec: GameSpec, state: State, limit: int = 2000) -> tuple[State, list[Move]]:
    """Play obvious moves from ``state`` until none is left (or ``limit`` moves)."""
    seen = {state}
    moves: list[Move] = []
    while len(moves) < limit and not is_won(spec, state):
        legal = legal_moves(spec, state)
        pick = _pick(spec, state, legal, seen)
        if pick is None:
            break
        state = apply(spec, state, pick)
        seen.add(state)
        moves.append(pick)
    return state, moves


def obvious_wins(spec: GameSpec, state: State) -> bool:
    """Whether the obvious-moves player wins from ``state``."""
    return is_won(spec, obvious_play(spec, state)[0])


def _pick(spec: GameSpec, state: State, legal: list[Move], seen: set[State]) -> Move | None:
    builds: list[tuple[int, Move]] = []
    for m in legal:
        if m.dst is None:
            continue
        d = spec.index[m.dst]
        dst_kind = spec.piles[d].kind
        src_kind = spec.piles[spec.index[m.src]].kind
        if dst_kind is PileKind.FOUNDATION:
            return m
        if dst_kind is PileKind.COLUMN and state.piles[d] and src_kind is not PileKind.FOUNDATION:
            builds.append((0 if src_kind in _FEEDERS else 1, m))
    builds.sort(key=lambda b: b[0])
    for _, m in builds:
        if apply(spec, state, m) not in seen:
            return m
    if any(m.dst is None for m in legal) and apply(spec, state, Move.stock()) not in seen:
        return Move.stock()
    return None
