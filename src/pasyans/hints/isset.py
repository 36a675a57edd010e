"""Information-set values over the candidate lines (``Budget.isset``, Spider, issue 34).

The tally rates a move by the samples won after it, and each sample's search knows every
card that will come up (strategy fusion). :mod:`pasyans.hints.deeper` removes that at a
move that turns a card up, but values a move that turns nothing up by the tally of the
view after it, where the next reveal is again rated by samples that know its card. Here
every one of the tally's K best moves is valued at its next *event* instead, as the
no-peek player's lines (:func:`pasyans.hints.player.candidates`) are cut:

- a move that turns a card up is its own line;
- a move that turns nothing up is followed by the candidate lines of the view after it
  (reveal-free moves up to a card turned up or a run completed; the first :data:`LINES`
  in the candidates' order, by the visible score after the event); the player walks
  them learning nothing, so the move is worth its best line; with no such line, the
  view after it is the leaf;
- a line's event that turns a card up is valued by the mean, over the cards ``r`` that
  can come up (:func:`pasyans.hints.deeper.outcomes`, at most :data:`CAP` strata,
  weighted by their share of the unseen cards), of the leaf at the view after the event
  with ``r`` face up; an event that turns nothing up, by the leaf after it;
- a leaf is the share of :data:`INNER` samples of that view won by the determinized
  search (no guard: each sample searched once, at the hint's nodes a sample).

The move of highest value is played (ties: the tally's order). Every line and every draw
comes from the player's view (:func:`pasyans.hints.sampling.known`), so two positions
that differ only in hidden cards give the same hint under the same seed. The leaves'
tallies are remembered with the others (``hints.sampled.TALLIES``): the next hint along
a line meets the same views with a card face up and reuses them.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from pasyans.cards import Card
from pasyans.domains.spider import DEAL, SpiderGame
from pasyans.engine import core
from pasyans.engine.moves import Move
from pasyans.hints import deeper, player, sampling
from pasyans.hints.macro import View
from pasyans.position import State
from pasyans.rules.spec import GameSpec

CAP = 8
"""The most distinct cards an event is valued over (strata of the sorted unseen cards,
:func:`pasyans.hints.deeper.outcomes`)."""

INNER = 8
"""Samples of each leaf."""

LINES = 1
"""Candidate lines valued after a move that turns nothing up (the first, by the visible
score after its event: one, so that a move costs no more than a reveal)."""

WALK = 200
"""Positions the candidates' walk expands (:func:`pasyans.hints.player.candidates`)."""


@dataclass(frozen=True)
class Valued:
    """One move valued: its ``value`` (its best line's), the line (the move first, the
    event last) and the cards its event was valued over (``r`` and weight; empty when
    the event turns nothing up)."""

    move: Move
    value: float
    line: tuple[Move, ...] = ()
    cards: tuple[tuple[Card, float], ...] = ()


def coupled(spec: GameSpec, root: State, roots: Sequence[State], v: State) -> list[State] | None:
    """Completions of ``v`` (a view reached from the view ``root`` by moves of face-up
    cards and at most one card turned up) coupled with ``roots`` (completions of
    ``root``): each keeps its root sample's card at every hidden place, except that the
    card turned up is swapped in from the first hidden place that held it (a uniform
    completion of ``root`` so becomes a uniform completion of ``v``). The values of
    different moves are then compared on the same hidden cards, as the guard's scores
    are (common random numbers). None when ``v``'s hidden places are not ``root``'s."""
    places = sampling.slots(spec, v)
    before = sampling.slots(spec, root)
    have = set(places)
    if not have <= set(before):
        return None
    gone = [p for p in before if p not in have]
    if len(gone) > 1:
        return None
    out = []
    for s in roots:
        cards = {p: s.piles[p[0]][p[1]] for p in before}
        if gone:
            i, k = gone[0]
            r = v.piles[i][k]
            if cards[gone[0]] != r:
                where = next((p for p in before if p != gone[0] and cards[p] == r), None)
                if where is None:
                    return None
                cards[where] = cards[gone[0]]
        out.append(sampling.complete(v, places, [cards[p] for p in places]))
    return out


def event_value(
    spec: GameSpec,
    view: State,
    line: tuple[Move, ...],
    leaf: Callable[[State], float],
    cap: int = CAP,
) -> Valued:
    """``line`` (moves from ``view``, the last one its event) valued at its event: the
    weighted mean of ``leaf`` over the cards that can come up, else ``leaf`` after it."""
    pos = view
    for m in line[:-1]:
        pos = core.apply(spec, pos, m)
    event = line[-1]
    after = core.apply(spec, pos, event)
    slot = sampling.turned(spec, after)
    if slot is None:
        return Valued(line[0], leaf(after), line)
    cards = deeper.outcomes(spec, pos, cap)
    total = sum(leaf(deeper.turned_up(pos, slot, after, r)) * w for r, w in cards)
    return Valued(line[0], total, line, tuple(cards))


def lines_after(
    spec: GameSpec, view: State, move: Move, avoid: Collection[View], count: int = LINES
) -> list[tuple[Move, ...]]:
    """The first ``count`` candidate lines (no deal) of the view after ``move``, each
    with ``move`` in front."""
    after = core.apply(spec, view, move)
    game = SpiderGame(spec, after)
    found = player.candidates(game, cap=WALK, avoid=avoid, width=count)
    return [(move, *(game.move(s) for s in c.line)) for c in found if c.event != DEAL][:count]


def value(
    spec: GameSpec,
    view: State,
    move: Move,
    leaf: Callable[[State], float],
    avoid: Collection[View] = (),
    cap: int = CAP,
) -> Valued:
    """``move`` valued at its next event (see the module)."""
    if sampling.revealed(spec, view, move) is not None:
        return event_value(spec, view, (move,), leaf, cap)
    lines = lines_after(spec, view, move, avoid)
    if not lines:
        return Valued(move, leaf(core.apply(spec, view, move)), (move,))
    values = [event_value(spec, view, line, leaf, cap) for line in lines]
    return max(values, key=lambda v: v.value)  # (ties: the first line)


def choose(
    spec: GameSpec,
    view: State,
    t: sampling.Tally,
    move: Move | None,
    width: int,
    leaf: Callable[[State], float],
    avoid: Collection[State] = (),
    seen: Collection[View] = (),
    cap: int = CAP,
    margin: float = 0.0,
) -> tuple[Move | None, tuple[Valued, ...]]:
    """The move to play instead of ``move`` (the tally's choice), and the values
    computed: the ``width`` best moves of the tally (``move`` first, the stock's deal
    left out, none back to a position of ``avoid``), each valued by :func:`value`
    (``seen``: the packed views played, which no line goes back to), the highest played
    (ties: the tally's order); another move than ``move`` only when its value exceeds
    ``move``'s by more than ``margin``. ``move`` unchanged (no values) when it is None or the
    stock, or when it is won in every sample (:func:`pasyans.hints.deeper.decisive`)."""
    top = deeper.contenders(spec, view, t, move, width, avoid)
    if top is None:
        return move, ()
    values = tuple(value(spec, view, m, leaf, seen, cap) for m in top)
    best = max(range(len(values)), key=lambda i: (values[i].value, -i))
    if values[best].value <= values[0].value + margin:
        best = 0
    return values[best].move, values
