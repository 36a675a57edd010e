"""Layouts as JSON (the object ``pasyans deal --json`` prints) turned into a :class:`State`.

``{"game", "options", "piles": {pile_id: [codes bottom→top]}, "face_down": {pile_id: n}}``;
``deal`` and ``kind`` are informative. Piles left out are empty. Without ``face_down`` a
pile is face down as the game deals it: all but the top card in a pile the game deals
face down (Spider's columns), nothing elsewhere. Stock cards are always face down.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pasyans.cards import CardError, parse_card
from pasyans.engine.core import deck_for, initial_state
from pasyans.errors import PasyansError
from pasyans.position import State
from pasyans.rules import get_game
from pasyans.rules.spec import GameSpec, PileKind


class LayoutError(PasyansError):
    """A layout file that does not describe a position of its game."""

    code = "bad_layout"


def state_from_layout(
    data: Any, options: Mapping[str, str] | None = None
) -> tuple[GameSpec, State]:
    """The game and position a layout object describes (its cards checked: the game's
    whole deck, each card exactly as often as the deck has it)."""
    if not isinstance(data, Mapping):
        raise LayoutError("a layout is a JSON object")
    game = data.get("game")
    if not isinstance(game, str):
        raise LayoutError("a layout needs a 'game' id")
    opts = dict(data.get("options") or {})
    opts.update(options or {})
    spec = get_game(game, opts)
    piles_in = data.get("piles")
    if not isinstance(piles_in, Mapping):
        raise LayoutError("a layout needs 'piles': {pile id: [card codes]}")
    unknown = [p for p in piles_in if not spec.has_pile(str(p))]
    if unknown:
        raise LayoutError(f"{spec.id} has no pile {str(unknown[0])[:20]!r}")
    piles: list[tuple[int, ...]] = []
    for p in spec.piles:
        codes = piles_in.get(p.id, [])
        if not isinstance(codes, list):
            raise LayoutError(f"pile {p.id} must be a list of card codes")
        try:
            piles.append(tuple(parse_card(str(c)) for c in codes))
        except CardError as e:
            raise LayoutError(f"pile {p.id}: {e}") from None
    if sorted(c for pile in piles for c in pile) != sorted(deck_for(spec)):
        raise LayoutError(f"the layout's cards are not exactly the {spec.id} deck")
    standard = initial_state(spec, 1).down
    given = data.get("face_down") or {}
    if not isinstance(given, Mapping):
        raise LayoutError("'face_down' is {pile id: count}")
    down: list[int] = []
    for i, p in enumerate(spec.piles):
        n = len(piles[i])
        if p.kind is PileKind.STOCK:
            d = 0
        elif p.id in given:
            d = given[p.id]
            if isinstance(d, bool) or not isinstance(d, int) or not 0 <= d <= max(n - 1, 0):
                raise LayoutError(f"face_down of {p.id} must be 0…{max(n - 1, 0)}")
        else:
            d = max(n - 1, 0) if standard[i] else 0
        down.append(d)
    redeals = data.get("redeals", 0)
    if isinstance(redeals, bool) or not isinstance(redeals, int) or redeals < 0:
        raise LayoutError("'redeals' must be a whole number ≥ 0")
    return spec, State(tuple(piles), tuple(down), redeals)
