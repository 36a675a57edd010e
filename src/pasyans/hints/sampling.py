"""Sampled search over the hidden cards ("determinization").

A player with hidden cards knows the visible cards, how many cards lie face down where,
and what they saw earlier. Every arrangement of the unseen cards that fits this is equally
likely (the deal is a uniform shuffle), so a hint draws a few such arrangements, runs the
full-information search (:func:`pasyans.solver.search.solve`) on each, and plays the move
that starts a win in the most of them.

The inputs are only what the player knows (:func:`known`): the visible position, plus
the stock after a redeal (the redeal rebuilt it, in an order the player watched, from
cards that were all face up; since then cards only left it). The unseen cards are the
deck minus every card the player knows, so two positions that differ only in their hidden
cards give the same samples for the same seed.

Strategy fusion: each sample "knows" its own cards, so a move can look good only because
every sample plans with cards the player has not seen. With the guard, :func:`tally`
scores each candidate move by in how many samples a win is found after it, not by how
many samples' searches happened to start with it, and :func:`choose` plays the best
(ties to a move that turns a card up); the follower benchmark measures both ways
(``benchmarks/follow.py --no-guard``).
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from pasyans.cards import Card, shuffled
from pasyans.domains import _core_abi as abi
from pasyans.domains.built import compiled
from pasyans.engine import core
from pasyans.engine.moves import Move
from pasyans.position import State
from pasyans.rules.spec import GameSpec, PileKind

HIDDEN = abi.HIDDEN
"""The placeholder for a card the player cannot see. It matches no rank and no suit, so no
rule ever lets it move or take a card."""

Slot = tuple[int, int]
"""A hidden place: (pile index, position from the bottom)."""


def visible(spec: GameSpec, state: State) -> State:
    """The position as the player sees it: face-down and stock cards replaced by
    :data:`HIDDEN` (their number stays visible, their identity does not)."""
    piles = list(state.piles)
    for i, p in enumerate(spec.piles):
        pile = piles[i]
        n = len(pile) if p.kind is PileKind.STOCK else min(state.down[i], len(pile))
        if n:
            piles[i] = (HIDDEN,) * n + pile[n:]
    return State(tuple(piles), state.down, state.redeals)


def known(spec: GameSpec, state: State) -> State:
    """What a player who remembers what they saw knows: :func:`visible`, except that after
    a redeal the stock is known (it was rebuilt, without shuffling, from face-up cards)."""
    view = visible(spec, state)
    if state.redeals == 0 or not spec.has_pile("stock"):
        return view
    stock = spec.index["stock"]
    piles = list(view.piles)
    piles[stock] = state.piles[stock]
    return State(tuple(piles), view.down, view.redeals)


def slots(spec: GameSpec, view: State) -> list[Slot]:
    """The hidden places of a :func:`known` position, pile by pile, bottom first."""
    return [(i, k) for i, pile in enumerate(view.piles) for k, c in enumerate(pile) if c == HIDDEN]


def unseen(spec: GameSpec, view: State) -> list[Card]:
    """The cards the player has not seen (sorted): the deck minus every known card."""
    left = Counter(core.deck_for(spec))
    for pile in view.piles:
        for c in pile:
            if c != HIDDEN:
                left[c] -= 1
    if any(n < 0 for n in left.values()):
        raise ValueError("a position holds more copies of a card than the deck")
    return sorted(left.elements())


def seed_for(spec: GameSpec, view: State, seed: int) -> int:
    """A seed for the samples of ``view``: the same for the same hidden places and unseen
    cards, so a move that turns nothing up keeps the samples (and their remembered wins)."""
    h = hashlib.blake2b(digest_size=8)
    h.update(repr((spec.id, seed, slots(spec, view), unseen(spec, view))).encode())
    return int.from_bytes(h.digest(), "big")


def complete(view: State, places: Sequence[Slot], cards: Sequence[Card]) -> State:
    """``view`` with ``cards[j]`` put at ``places[j]``."""
    piles = [list(p) for p in view.piles]
    for (i, k), c in zip(places, cards, strict=True):
        piles[i][k] = c
    return State(tuple(tuple(p) for p in piles), view.down, view.redeals)


def samples(spec: GameSpec, view: State, count: int, seed: int = 0, start: int = 0) -> list[State]:
    """``count`` completions of a :func:`known` position, each a uniformly random
    arrangement of the unseen cards over the hidden places (the project's stable shuffle,
    so the same on every machine); ``start``: skip that many (the next batch of the same
    sequence)."""
    places = slots(spec, view)
    cards = unseen(spec, view)
    if len(cards) != len(places):
        raise ValueError("the unseen cards do not fill the hidden places")
    base = seed_for(spec, view, seed)
    return [complete(view, places, c) for c in draws(cards, base, start, count)]


def draws(cards: Sequence[Card], base: int, start: int, count: int) -> list[list[Card]]:
    """The arrangements of ``cards`` that :func:`samples` puts in the hidden places: the
    stable shuffle (:func:`pasyans.cards.shuffled`) by the seeds ``base + start`` to
    ``base + start + count - 1``; compiled when the core is built (``pl_shuffle`` in
    csrc/player.c, the same draws), else :func:`draws_py`, the reference."""
    if compiled is None or not hasattr(compiled, "cards_shuffled") or count <= 0:
        return draws_py(cards, base, start, count)
    return compiled.cards_shuffled(cards, base & _MASK, start, count)


def draws_py(cards: Sequence[Card], base: int, start: int, count: int) -> list[list[Card]]:
    """:func:`draws` in Python."""
    return [shuffled(cards, base + j) for j in range(start, start + count)]


_MASK = (1 << 64) - 1


def revealed(spec: GameSpec, view: State, move: Move) -> Slot | None:
    """The hidden place whose card ``move`` turns up (by its source, or by a run
    completed at its destination), else None."""
    return turned(spec, core.apply(spec, view, move))


def turned(spec: GameSpec, after: State) -> Slot | None:
    """The first hidden place of a column left face up in ``after`` (a view just after a
    move: a card it turned up, by its source or by a run completed at its destination),
    else None."""
    for i, pile in enumerate(after.piles):
        d = after.down[i]
        if spec.piles[i].kind is PileKind.COLUMN and len(pile) > d and pile[d] == HIDDEN:
            return (i, d)
    return None


@dataclass(frozen=True)
class Tally:
    """What the searches of the samples found: how many were won, proven lost or left
    unknown, how many winning samples each first move starts (``votes``), and, with the
    guard, each candidate move's ``scores``: in how many samples a win is found after it."""

    won: int
    lost: int
    unknown: int
    votes: tuple[tuple[Move, int], ...]
    scores: tuple[tuple[Move, int], ...] = ()

    @property
    def samples(self) -> int:
        return self.won + self.lost + self.unknown

    def count(self, move: Move) -> int:
        """In how many samples ``move`` starts a found win."""
        return dict(self.scores).get(move) or dict(self.votes).get(move, 0)


Search = Callable[[State], tuple[str, Move | None]]
"""A full-information search of one sample: its outcome and, when won, its first move."""

CANDIDATES = 4
"""How many of the samples' favourite first moves the guard scores in every sample."""


def tally(
    spec: GameSpec,
    view: State,
    states: Sequence[State],
    search: Search,
    *,
    guard: bool = True,
    extra: Sequence[Move] | Callable[[], Sequence[Move]] = (),
    stop: Callable[[], bool] = lambda: False,
) -> Tally:
    """Search every sample. With ``guard`` (against strategy fusion), each candidate move
    (the :data:`CANDIDATES` favourite first moves, and every move that turns a card up)
    is also searched after, in every sample won, so that it is scored by in how many
    samples a win follows it, not only by how many samples' searches happened to start
    with it; when the stock is among them, the ``extra`` moves too (a list, or a function
    that gives it). Samples not won from the position are not searched again (no move wins
    there within the budget). ``stop``: a time budget is spent; candidates not scored
    by then are left out (so is one whose searches it cut short)."""
    won = lost = 0
    votes: Counter[Move] = Counter()
    firsts: list[Move | None] = []
    states = list(states)
    for s in states:
        outcome, first = search(s)
        if outcome == "won":
            won += 1
            if first is not None:
                votes[first] += 1
        elif outcome == "lost":
            lost += 1
        firsts.append(first if outcome == "won" else None)
    ordered = sorted(votes.items(), key=lambda e: (-e[1], e[0].to_str()))
    scores: list[tuple[Move, int]] = []
    if guard and won:
        candidates = [m for m, _ in ordered[:CANDIDATES]]
        if any(m.dst is None for m in candidates):
            added = extra() if callable(extra) else extra
            candidates += [m for m in added if m not in candidates]
        for m in core.legal_moves(spec, view):
            if m not in candidates and m.dst is not None and reveals(spec, view, m):
                candidates.append(m)
        for m in candidates:
            if stop():
                break
            n = 0
            for s, first in zip(states, firsts, strict=True):
                if first is None:
                    continue
                n += first == m or search(core.apply(spec, s, m))[0] == "won"
            if stop():
                break
            scores.append((m, n))
    return Tally(won, lost, len(states) - won - lost, tuple(ordered), tuple(scores))


def reveals(spec: GameSpec, view: State, move: Move) -> bool:
    """Whether ``move`` turns a face-down column card up."""
    return sum(core.apply(spec, view, move).down) < sum(view.down)


def choose(
    spec: GameSpec,
    view: State,
    t: Tally,
    *,
    guard: bool = True,
    avoid: Collection[State] = (),
) -> Move | None:
    """The move to play, never one back to a position in ``avoid`` (already played).

    Without ``guard``: the first move of the most samples' found wins (ties: notation
    order). With it: the candidate after which a win is found in the most samples; ties
    go to a move that turns a card up, then to any move but the stock (dealing commits
    every column to cards each sample "knows"; waiting keeps the options open), then to
    the most votes."""
    votes = dict(t.votes)
    if guard and t.scores:
        scored = [(m, n) for m, n in t.scores if n and core.apply(spec, view, m) not in avoid]
        if scored:
            return min(
                scored,
                key=lambda e: (
                    -e[1],
                    not reveals(spec, view, e[0]),
                    e[0].dst is None,
                    -votes.get(e[0], 0),
                    e[0].to_str(),
                ),
            )[0]
    ordered = [(m, n) for m, n in t.votes if core.apply(spec, view, m) not in avoid]
    return ordered[0][0] if ordered else None


def spider_score(spec: GameSpec, view: State) -> int:
    """How far a Spider position looks from a win, from what the player sees (lower is
    better): every face-down card weighs most (turning one up is what the player cannot
    plan for), then every place in a face-up stretch where two cards do not follow in
    suit (less when they follow in rank); an empty column and a completed run are bonuses.
    Only face-up cards are read."""
    score = -DONE_BONUS * (core.cards_on_foundations(spec, view) // 13)
    for p, pile, down in zip(spec.piles, view.piles, view.down, strict=True):
        if p.kind is not PileKind.COLUMN:
            continue
        if not pile:
            score -= EMPTY_BONUS
            continue
        score += DOWN_COST * down
        for j in range(max(down, 0) + 1, len(pile)):
            gap = pile[j - 1] - pile[j]
            if gap != 4:
                score += 3 if (pile[j - 1] >> 2) - (pile[j] >> 2) == 1 else 4
    return score


DOWN_COST = abi.VIEW_DOWN
EMPTY_BONUS = abi.VIEW_EMPTY
DONE_BONUS = abi.VIEW_DONE
