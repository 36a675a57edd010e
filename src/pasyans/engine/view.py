"""The player view: a JSON projection of a position for the person playing it.

Hidden information is removed here and only here: a face-down card is ``null``, and
every stock card is face down. Schema: ``docs/player-view.md``.
"""

from __future__ import annotations

from typing import Any

from pasyans.cards import SUITS, card_code
from pasyans.engine import core
from pasyans.engine.moves import Move
from pasyans.position import State
from pasyans.rules.registry import RULES_VERSION
from pasyans.rules.spec import Foundations, GameSpec, PileKind


def pile_view(spec: GameSpec, state: State, i: int) -> dict[str, Any]:
    p = spec.piles[i]
    pile = state.piles[i]
    hidden = len(pile) if p.kind is PileKind.STOCK else state.down[i]
    out: dict[str, Any] = {
        "kind": p.kind.value,
        "cards": [None] * hidden + [card_code(c) for c in pile[hidden:]],
    }
    if p.locked_by is not None:
        out["locked"] = bool(state.piles[spec.index[p.locked_by]])
    if p.kind is PileKind.FOUNDATION and spec.foundations is Foundations.UP_DOWN:
        nth = spec.indexes_of(PileKind.FOUNDATION).index(i)
        out["build"] = "up" if nth < 4 else "down"
        out["suit"] = SUITS[nth % 4]
    elif p.kind is PileKind.FOUNDATION:
        out["build"] = "up"
    return out


def player_view(
    spec: GameSpec,
    state: State,
    *,
    deal: int,
    moves_made: int = 0,
    undos: int = 0,
    hints: int = 0,
    can_undo: bool = False,
    can_redo: bool = False,
    legal: list[Move] | None = None,
    autocollect: bool | None = None,
) -> dict[str, Any]:
    """The whole view of ``state``: piles, legal moves, counters and flags. ``legal`` and
    ``autocollect``: the engine's answers for ``state`` when already known."""
    if legal is None:
        legal = core.legal_moves(spec, state)
    won = core.is_won(spec, state)
    stuck = core.is_stuck(spec, state, legal)
    if autocollect is None:
        autocollect = core.autocollect_moves(spec, state) is not None
    refusal = core.stock_refusal(spec, state) if spec.has_pile("stock") else None
    redeals_left = max(0, spec.passes - 1 - state.redeals)
    return {
        "game": spec.id,
        "options": dict(spec.option_values),
        "deal": deal,
        "rules_version": RULES_VERSION,
        "piles": {p.id: pile_view(spec, state, i) for i, p in enumerate(spec.piles)},
        "moves": [{"text": m.to_str(), "json": m.to_json()} for m in legal],
        "stock": {
            "action": core.stock_action(spec, state),
            "refusal": None if refusal is None else {"code": refusal[0], "message": refusal[1]},
        }
        if spec.has_pile("stock")
        else None,
        "counters": {
            "moves": moves_made,
            "undos": undos,
            "hints": hints,
            "score": core.score(spec, state, moves_made),
            "foundation_cards": core.cards_on_foundations(spec, state),
        },
        "flags": {
            "won": won,
            "stuck": stuck,
            "autocollect": autocollect,
            "can_undo": can_undo,
            "can_redo": can_redo,
            "redeals_left": redeals_left,
            "passes_left": redeals_left + (1 if _stock_cards(spec, state) else 0),
        },
    }


def _stock_cards(spec: GameSpec, state: State) -> int:
    return len(state.piles[spec.index["stock"]]) if spec.has_pile("stock") else 0
