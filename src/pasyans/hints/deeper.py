"""A reveal valued one level deeper (``Budget.deeper``, issue 34): an information-set
step over the card a move turns up, from a Spider column or, by a click on the stock,
onto the waste (Backbone classic's first pass, :func:`revealed`).

Today's tally rates a move that turns a card up by the samples won after it, and each
sample's search knows every card that will come up later (strategy fusion): the move is
rated as if the player would then play on knowing them all. Here the K best moves of the
tally are valued again, one move deeper, as the player would meet them:

- a move that turns a card up: for each card ``r`` that can come up (the unseen cards,
  each weighted by its share of them; at most :data:`CAP` values, stratified when there
  are more), the player's view after the move with ``r`` face up is tallied afresh
  (``n`` samples of the rest, conditioned on ``r``), and the best next move's share of
  samples won is taken; the move's value is the weighted mean over ``r`` (the player
  picks the next move knowing ``r``, not the cards after it);
- a move that turns nothing up: the best next move's share at the view after it, with
  the same ``n`` samples, so both are valued at the same depth on one scale.

The move of highest value is played (ties: the tally's order). Everything is drawn from
the player's view (:func:`pasyans.hints.sampling.known`), so two positions that differ
only in their hidden cards give the same hint for the same seed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection
from dataclasses import dataclass

from pasyans.cards import Card
from pasyans.engine import core
from pasyans.engine.moves import Move
from pasyans.hints import sampling
from pasyans.position import State
from pasyans.rules.spec import GameSpec

CAP = 6
"""The most distinct cards a reveal is valued over; with more, :func:`outcomes` takes
this many strata of the sorted unseen cards (the middle card of each, weighted by the
stratum's share)."""

INNER = 8
"""Samples of each inner tally: half the product's 16, so a reveal's value rests on up
to ``CAP * INNER`` = 48 searches (three times the tally's 16) at about six times a
hint's cost per move valued."""


@dataclass(frozen=True)
class Valued:
    """One of the K moves valued one level deeper: its ``value`` (the weighted mean of the
    best next move's share of samples won) and the cards it was valued over (``r`` and
    weight; empty for a move that turns nothing up)."""

    move: Move
    value: float
    cards: tuple[tuple[Card, float], ...] = ()


def outcomes(spec: GameSpec, view: State, cap: int = CAP) -> list[tuple[Card, float]]:
    """The cards that can come up at a hidden place of ``view``, each with its share of
    the unseen cards (sorted by card); with more than ``cap`` distinct cards, ``cap``
    strata of the sorted unseen cards, each its middle card with the stratum's share
    (equal cards merged)."""
    cards = sampling.unseen(spec, view)
    if not cards:
        return []
    total = len(cards)
    counts = Counter(cards)
    if len(counts) <= cap:
        return [(c, n / total) for c, n in sorted(counts.items())]
    merged: dict[Card, float] = {}
    for i in range(cap):
        lo, hi = i * total // cap, (i + 1) * total // cap
        mid = cards[(lo + hi) // 2]
        merged[mid] = merged.get(mid, 0.0) + (hi - lo) / total
    return sorted(merged.items())


def turned_up(view: State, slot: sampling.Slot, after: State, card: Card) -> State:
    """``after`` (the view after a move that turned the hidden place ``slot`` of ``view``
    up) with ``card`` there."""
    i, k = slot
    pile = list(after.piles[i])
    pile[k] = card
    piles = list(after.piles)
    piles[i] = tuple(pile)
    return State(tuple(piles), after.down, after.redeals)


def best_share(t: sampling.Tally) -> float:
    """The best next move's share of the samples won after it (the guard's scores, else
    the votes)."""
    if not t.samples or not t.won:
        return 0.0
    best = max((n for _, n in t.scores), default=0) or max((n for _, n in t.votes), default=0)
    return best / t.samples


def ranked(spec: GameSpec, view: State, t: sampling.Tally, avoid: Collection[State]) -> list[Move]:
    """The tally's moves won in some sample, best first in the guard's order (most samples
    won, then a move that turns a card up, then any move but the stock, then votes, then
    notation); never a move back to a position in ``avoid``."""
    votes = dict(t.votes)
    scored = [(m, n) for m, n in t.scores if n and core.apply(spec, view, m) not in avoid]
    scored.sort(
        key=lambda e: (
            -e[1],
            not sampling.reveals(spec, view, e[0]),
            e[0].dst is None,
            -votes.get(e[0], 0),
            e[0].to_str(),
        )
    )
    return [m for m, _ in scored]


def revealed(
    spec: GameSpec, view: State, move: Move, after: State | None = None
) -> sampling.Slot | None:
    """The hidden place whose card ``move`` turns up: a column's
    (:func:`sampling.revealed`), or, where a click on the stock turns its top card onto
    the waste (Backbone classic's first pass), the waste's new top; else None.
    ``after``: the view after ``move``, when the caller has it."""
    if move.dst is not None:
        return sampling.revealed(spec, view, move)
    if not spec.has_pile("waste"):
        return None  # Spider's deal: left out (its cards are many, each its column's)
    if after is None:
        after = core.apply(spec, view, move)
    waste = after.piles[spec.index["waste"]]
    if waste and waste[-1] == sampling.HIDDEN:
        return (spec.index["waste"], len(waste) - 1)
    return None


def value(
    spec: GameSpec,
    view: State,
    move: Move,
    inner: Callable[[State], float],
    cap: int = CAP,
) -> Valued:
    """``move`` valued one level deeper (see the module): ``inner(view)`` is the best next
    move's share at a player's view."""
    after = core.apply(spec, view, move)
    slot = revealed(spec, view, move, after)
    if slot is None:
        return Valued(move, inner(after))
    cards = outcomes(spec, view, cap)
    total = sum(inner(turned_up(view, slot, after, r)) * w for r, w in cards)
    return Valued(move, total, tuple(cards))


def decisive(t: sampling.Tally, move: Move) -> bool:
    """The trigger's opposite: ``move`` is won after in every sample drawn (no sample
    says it loses), so the deeper look is skipped."""
    return dict(t.scores).get(move, 0) >= t.samples > 0


def contenders(
    spec: GameSpec,
    view: State,
    t: sampling.Tally,
    move: Move | None,
    width: int,
    avoid: Collection[State] = (),
) -> list[Move] | None:
    """The moves valued in place of ``move`` (the tally's choice): ``move`` first, then
    the tally's best (:func:`ranked`, none back to a position of ``avoid``), the stock's
    deal left out (but a click that turns a card onto the waste, :func:`revealed`, kept),
    ``width`` in all. None, so ``move`` stands as it is, when it is None, a deal of the
    stock, or :func:`decisive`."""

    def valued(m: Move) -> bool:
        return m.dst is not None or revealed(spec, view, m) is not None

    if move is None or not valued(move) or decisive(t, move):
        return None
    order = [m for m in ranked(spec, view, t, avoid) if valued(m) and m != move]
    return [move, *order][:width]


def choose(
    spec: GameSpec,
    view: State,
    t: sampling.Tally,
    move: Move | None,
    width: int,
    inner: Callable[[State], float],
    avoid: Collection[State] = (),
    cap: int = CAP,
    in_time: Callable[[], bool] = lambda: True,
) -> tuple[Move | None, tuple[Valued, ...]]:
    """The move to play instead of ``move`` (the tally's choice), and the values
    computed: the ``width`` best moves of the tally (``move`` first), stock deal left out,
    each valued by :func:`value`, the highest played (ties: the tally's order). ``move``
    unchanged (no values) when it is None or the stock, when it is :func:`decisive`, or
    when none of those moves turns a card up. The first is valued at once (the caller
    checked the time); no further move once ``in_time()`` is false, and ``move`` stands
    when fewer than two were."""
    top = contenders(spec, view, t, move, width, avoid)
    if top is None or not any(revealed(spec, view, m) is not None for m in top):
        return move, ()
    got: list[Valued] = []
    for m in top:
        if got and not in_time():
            break
        got.append(value(spec, view, m, inner, cap))
    values = tuple(got)
    if len(values) < 2:
        return move, values
    best = max(range(len(values)), key=lambda i: (values[i].value, -i))
    return values[best].move, values
