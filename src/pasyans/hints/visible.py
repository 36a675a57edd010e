"""The hint on what the player sees: the ranked heuristic on the visible cards, the
move that keeps the game going, Spider's unsticking deal, and the player's history
projected to what they knew."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pasyans import caches
from pasyans.engine import core
from pasyans.engine.moves import Move
from pasyans.hints import sampling
from pasyans.hints.model import Hint
from pasyans.hints.sampling import HIDDEN, known
from pasyans.position import State
from pasyans.rules.spec import Build, GameSpec, PileKind


def hidden_to_player(spec: GameSpec, state: State) -> bool:
    """Whether the player cannot know some card (face down, or in a stock never seen)."""
    return any(HIDDEN in p for p in known(spec, state).piles)


def visible_hint(
    spec: GameSpec, view: State, seen: Sequence[State], *, keep_going: bool = True
) -> Hint:
    """The visible heuristic's hint for the player's ``view`` (cards still hidden); with
    no such move, :func:`any_move` when ``keep_going``, else "no useful move"."""
    move = heuristic_move(spec, view, seen)
    if move is None and not keep_going:
        return Hint.of(None, "none", None, "hint.nothing_in_sight")
    if move is not None:
        return Hint.of(move, "heuristic", None, "hint.looks_useful_hidden")
    return any_move(spec, view, seen)


def decided(
    spec: GameSpec,
    state: State,
    history: Sequence[State],
    outcome: object,
    first: Move | None,
    *,
    keep_going: bool = True,
) -> Hint:
    """The hint for a position whose every card is known, from the exact search's answer
    (``outcome`` "lost" when proven lost; ``first``: the first move of a win found);
    without either, the heuristic's move (then :func:`any_move` when ``keep_going``)."""
    if first is not None:
        return Hint.of(first, "solver", True, "verdict.win_line")
    if outcome == "lost":
        return Hint.of(None, "solver", False, "verdict.lost")
    move = heuristic_move(spec, state, history)
    if move is None:
        if keep_going and core.legal_moves(spec, state):
            return any_move(spec, state, history)
        return Hint.of(None, "none", None, "verdict.timeout")
    return Hint.of(move, "heuristic", None, "verdict.timeout_useful")


_PROJECTIONS: dict[tuple[int, State, object], State] = caches.register(
    "hints.projections", {}, bound=200_000
)


def _moved_on(spec: GameSpec, state: State) -> tuple[int, int, int]:
    stock = len(state.piles[spec.index["stock"]]) if spec.has_pile("stock") else 0
    return (sum(state.down), core.cards_on_foundations(spec, state), stock)


def _standing(spec: GameSpec, state: State, history: Sequence[State]) -> int:
    """How many of the last moves played turned nothing up, put nothing away and left the
    stock alone (read from the history: what the player saw)."""
    now = _moved_on(spec, state)
    n = 0
    for h in reversed(history):
        if _moved_on(spec, h) != now:
            break
        n += 1
    return n


def unstuck(spec: GameSpec, view: State, seen: Sequence[State]) -> Move | None:
    """Spider, after moves that moved nothing on: the stock's deal when it can be dealt;
    when only empty columns keep it from being dealt, the move into an empty column after
    which the view looks best (:func:`sampling.spider_score`, then notation order), never
    back to a position in ``seen``; else None. Only the player's view is read."""
    moves = core.legal_moves(spec, view)
    deal = next((m for m in moves if m.dst is None), None)
    if deal is not None:
        return deal
    stock = spec.index["stock"]
    if not view.piles[stock]:
        return None
    old = set(seen)
    fills = []
    for m in moves:
        if m.dst is None or view.piles[spec.index[m.dst]]:
            continue
        after = core.apply(spec, view, m)
        if after in old or not view.piles[spec.index[m.src]][: -m.cards]:
            continue  # (moving a whole column to an empty one fills nothing)
        fills.append((sampling.spider_score(spec, after), m.to_str(), m))
    return min(fills)[2] if fills else None


def _projected(spec: GameSpec, state: State, project: Callable[[GameSpec, State], State]) -> State:
    """``project(spec, state)``, remembered (a long history is projected at every hint)."""
    key = (id(spec), state, project)
    out = _PROJECTIONS.get(key)
    if out is None:
        if len(_PROJECTIONS) > 200_000:
            _PROJECTIONS.clear()
        out = _PROJECTIONS[key] = project(spec, state)
    return out


def _after_seen(spec: GameSpec, history: Sequence[State]) -> set[State]:
    return {_projected(spec, h, known) for h in history}


def any_move(spec: GameSpec, state: State, seen: Sequence[State]) -> Hint:
    """A hint that keeps the game going when nothing looks useful: the stock when it can
    be clicked, else a move to a position not seen before, else any legal move; "no
    useful move" only when no move is left at all."""
    moves = core.legal_moves(spec, state)
    if not moves:
        return Hint.of(None, "none", False, "hint.no_move_left")
    old = set(seen)
    fresh = [m for m in moves if core.apply(spec, state, m) not in old]
    stock = [m for m in fresh if m.dst is None]
    move = (stock or fresh or moves)[0]
    return Hint.of(move, "heuristic", None, "hint.keeps_going")


def useful_moves(spec: GameSpec, state: State, count: int) -> list[Move]:
    """The ``count`` best-ranked moves by visible features that are not the stock."""
    ranked = sorted(
        (-_value(spec, state, m, core.apply(spec, state, m)), m.to_str(), m)
        for m in core.legal_moves(spec, state)
        if m.dst is not None
    )
    return [m for v, _, m in ranked[:count] if v < 0]


def heuristic_move(spec: GameSpec, state: State, history: Sequence[State] = ()) -> Move | None:
    """The best-ranked move by visible features, or None when no move looks useful.
    Call it on :func:`visible` positions when cards are hidden."""
    seen = set(history)
    best: tuple[int, Move] | None = None
    for m in core.legal_moves(spec, state):
        after = core.apply(spec, state, m)
        if after in seen:
            continue  # going back to a position already seen is not progress
        value = _value(spec, state, m, after)
        if value > 0 and (best is None or value > best[0]):
            best = (value, m)
    return None if best is None else best[1]


def _value(spec: GameSpec, before: State, move: Move, after: State) -> int:
    if move.dst is None:
        return 1
    dst = spec.index[move.dst]
    dst_kind = spec.piles[dst].kind
    src = spec.index[move.src]
    src_kind = spec.piles[src].kind
    gained = core.cards_on_foundations(spec, after) - core.cards_on_foundations(spec, before)
    value = 100 * max(gained, 0)
    if dst_kind is PileKind.FOUNDATION:
        value += 50
    if sum(after.down) < sum(before.down):
        value += 40  # turns up a card
    if not after.piles[src]:
        value += 20  # empties a pile
    pile = before.piles[src]
    left = len(pile) - move.cards
    if dst_kind is PileKind.COLUMN and before.piles[dst]:
        value += 10
        if before.piles[dst][-1] - pile[left] == 4:
            value += 5  # builds in suit
        if src_kind is PileKind.COLUMN and left > before.down[src]:
            below = pile[left - 1]
            if below - pile[left] == 4 or (
                spec.column_build is Build.DOWN_ANY and (below >> 2) - (pile[left] >> 2) == 1
            ):
                value -= 30  # it already sits on a card it builds on: moving it gains nothing
    if src_kind in (PileKind.SPINE, PileKind.TAILBONE, PileKind.WASTE):
        value += 5
    if src_kind is PileKind.FOUNDATION:
        value -= 30
    return value
