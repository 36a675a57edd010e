"""Positions from card codes and back: for tests, docs, tools and puzzles.

>>> from pasyans.rules import get_game
>>> spine = get_game("spine")
>>> s = build_state(spine, {"t1": "KS QS", "spine": "AH JS"})
>>> pile_codes(spine, s)["t1"]
['KS', 'QS']
>>> [m.to_str() for m in legal_moves(spine, s)]
['spine>t1']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pasyans.cards import card_code, parse_card
from pasyans.engine.core import legal_moves
from pasyans.position import State
from pasyans.rules.spec import GameSpec

__all__ = ["build_state", "legal_moves", "pile_codes"]


def build_state(
    spec: GameSpec,
    piles: Mapping[str, str | Sequence[str]],
    down: Mapping[str, int] | None = None,
    redeals: int = 0,
) -> State:
    """A position of ``spec`` with the named piles holding these cards, bottom to top.

    A pile's cards are a space-separated string (``"KS QS"``) or a list of codes; piles
    not named are empty. ``down[pile_id]`` cards at the bottom of a pile are face down.
    Raises ``KeyError`` for a pile the game does not have. Card counts are not checked.
    """
    cards: list[tuple[int, ...]] = [()] * len(spec.piles)
    for pile_id, codes in piles.items():
        items = codes.split() if isinstance(codes, str) else list(codes)
        cards[spec.pile_index(pile_id)] = tuple(parse_card(c) for c in items)
    hidden = [0] * len(spec.piles)
    for pile_id, n in (down or {}).items():
        hidden[spec.pile_index(pile_id)] = n
    return State(tuple(cards), tuple(hidden), redeals)


def pile_codes(spec: GameSpec, state: State) -> dict[str, list[str]]:
    """Every pile id mapped to its card codes, bottom to top, face-down cards included
    (a tool's view of the position, not a player's)."""
    return {p.id: [card_code(c) for c in state.piles[i]] for i, p in enumerate(spec.piles)}
