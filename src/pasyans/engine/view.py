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
from pasyans.rules.spec import Foundations, GameSpec, PileKind, Stock


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
    passes_left = redeals_left + (1 if _stock_cards(spec, state) else 0)
    piles = {p.id: pile_view(spec, state, i) for i, p in enumerate(spec.piles)}
    return {
        "game": spec.id,
        "options": dict(spec.option_values),
        "deal": deal,
        "rules_version": RULES_VERSION,
        "piles": piles,
        "moves": [
            {"text": m.to_str(), "json": m.to_json(), "cards": _moved_cards(piles, m)}
            for m in legal
        ],
        "smart": smart_order(spec, state, legal, piles),
        "stock": {
            "action": core.stock_action(spec, state),
            "refusal": None if refusal is None else {"code": refusal[0], "message": refusal[1]},
            "badge": _stock_badge(spec, state, redeals_left, passes_left),
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
            "passes_left": passes_left,
        },
    }


def _stock_cards(spec: GameSpec, state: State) -> int:
    return len(state.piles[spec.index["stock"]]) if spec.has_pile("stock") else 0


def _moved_cards(piles: dict[str, dict[str, Any]], move: Move) -> list[str]:
    """The codes of the cards ``move`` carries, bottom of the run first: face-up cards the
    view already shows (a stock click carries none the player may see)."""
    if move.dst is None:
        return []
    cards: list[str | None] = piles[move.src]["cards"][-move.cards :]
    assert None not in cards, "a legal card move carries only face-up cards"
    return [c for c in cards if c is not None]


def smart_order(
    spec: GameSpec, state: State, legal: list[Move], piles: dict[str, dict[str, Any]]
) -> dict[str, list[int]]:
    """What a click on each card plays, as indexes into ``legal``: ``"<pile>:<index>"`` →
    the moves in the order repeated clicks cycle through them (the first is the click's).

    Empty destinations alike (same kind, build and suit) are one destination for a click:
    only the first is kept, so cycling visits only places that differ (a drag reaches the
    others). The stock's click is keyed by its top card's index, ``"stock:-1"`` when empty.
    A card with no move has no key."""
    position = {m: k for k, m in enumerate(legal)}
    runs: dict[tuple[str, int], list[Move]] = {}
    out: dict[str, list[int]] = {}
    for m in legal:
        if m.dst is None:
            out[f"{m.src}:{len(state.piles[spec.index[m.src]]) - 1}"] = [position[m]]
        else:
            runs.setdefault((m.src, m.cards), []).append(m)
    for (src, n), moves in runs.items():
        seen: set[tuple[Any, ...]] = set()
        order: list[int] = []
        for m in sorted(moves, key=lambda m: core.smart_rank(spec, state, m)):
            assert m.dst is not None
            dst = piles[m.dst]
            if not dst["cards"]:
                alike = (dst["kind"], dst.get("build"), dst.get("suit"))
                if alike in seen:
                    continue
                seen.add(alike)
            order.append(position[m])
        out[f"{src}:{len(piles[src]['cards']) - n}"] = order
    return out


def _stock_badge(
    spec: GameSpec, state: State, redeals_left: int, passes_left: int
) -> dict[str, Any] | None:
    """What the stock shows beside its cards: Spider the deals left, Nivernais the redeals
    left, the other games the passes through the stock left."""
    if spec.stock is Stock.DEAL_ROW:
        columns = len(spec.indexes_of(PileKind.COLUMN))
        return {"unit": "deals", "n": _stock_cards(spec, state) // columns}
    if spec.stock is Stock.DEAL_COLUMNS:
        return {"unit": "redeals", "n": redeals_left}
    if spec.stock is Stock.TURN:
        return {"unit": "passes", "n": passes_left}
    return None
