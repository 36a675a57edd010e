"""Lost positions of the stock's last pass: too few columns for a waste card's turn.

The reference of ``fp_wastelock`` (csrc/engine.c, "The last pass's column capacity"),
which the post-game analysis's Backbone searches use as a leaf (a position it proves
lost is not expanded); ``tests/analysis/test_wastelock.py`` compares the two and checks
the rule against the exhaustive search without it.

With no redeal left, a waste card leaves only from the waste's top. The ``i``-th waste
card from the bottom can go home only after a moment at which it is the waste's top;
then the waste is exactly the cards ``0 .. i``, the stock, the spine piles and the
tailbone hold at most the copies they hold now (nothing goes back to them), and every
other card is on a foundation or in a column. A suit's foundations (at most two: it has
two aces) hold its ranks ``1 .. a`` and ``1 .. b``, a copy each, and a chain cannot pass
a rank whose copies are all in the waste's cards ``0 .. i``. A column of these games is
one run down in suit (one card at a time onto the next rank of its suit, or onto an
empty column): it holds one interval of ranks of one suit. ``m(q)`` copies of rank ``q``
of a suit in the columns need at least ``max(0, m(q) - m(q - 1))`` intervals starting at
``q``. If, for every choice of the chains and of ``m`` within what the counts allow, the
intervals outnumber the columns, that moment never comes: the card never leaves the
waste, and the position is lost (docs/analysis.md, "The last pass's column capacity").

**The cuts.** At that moment the stock is not any subset of what it holds now: it is
dealt from the top, so it holds its first ``t`` cards from the bottom for some ``t``, and
each card dealt before then lay above the waited card and has left the waste. Each spine
pile is played from its exposed end, so it holds its first ``a`` cards, and the tailbone
lies there only while both piles are whole. So for each cut (the tailbone there or not,
``a`` and ``b``, ``t``) the copies still on the stock and the spine are exact, and the card
is never the top only if the intervals outnumber the columns for every cut. The count
with every such copy free is the least over more choices, so it is tried first: when it
outnumbers the columns, so does every cut.
"""

from __future__ import annotations

from itertools import pairwise

from pasyans.position import State
from pasyans.rules.spec import Build, GameSpec, PileKind, Stock

INF = 1000


def applies(spec: GameSpec, state: State) -> bool:
    """Whether the rule holds for ``state``: a stock turned a card at a time in its last
    pass, columns that build down in suit, each of them one such run now."""
    if spec.stock is not Stock.TURN or spec.column_build is not Build.DOWN_SUIT:
        return False
    if state.redeals < spec.passes - 1:
        return False
    for pile, piles in zip(spec.piles, state.piles, strict=True):
        if pile.kind is PileKind.COLUMN:
            cards = [c & 63 for c in piles]
            if any(a - b != 4 for a, b in pairwise(cards)):
                return False
    return True


def suit_runs(
    suit: int, n: list[int], w: list[int], k: list[int], e: list[int] | None = None
) -> int:
    """The fewest column runs ``suit`` needs at that moment: ``n`` copies of each card in
    play, ``w`` of them in the waste's cards up to the one waited for, ``e`` surely still
    on the stock (its cut; None: none) and ``k`` maybe still on the stock, the spine piles
    or the tailbone. Tries every pair of foundation chains and every count of copies in
    the columns allowed (a dynamic programme over the ranks)."""
    # cost[(chains still going, copies of the last rank in the columns)]
    cost = {(c, v): (0 if v == 0 else INF) for c in range(3) for v in range(3)}
    for q in range(13):
        card = (q << 2) | suit
        free = n[card] - w[card] - (e[card] if e is not None else 0)
        nxt = {(c, v): INF for c in range(3) for v in range(3)}
        for (c, u), was in cost.items():
            if was >= INF:
                continue
            for c2 in range(min(c, free) + 1):
                hi = free - c2
                lo = max(0, hi - k[card])
                for v in range(lo, min(hi, 2) + 1):
                    t = was + max(0, v - u)
                    nxt[(c2, v)] = min(nxt[(c2, v)], t)
        cost = nxt
    return min(cost.values())


def lock(spec: GameSpec, state: State, *, cut: bool = True) -> int:
    """The lowest waste index that can never be the waste's top (the position is lost),
    -1 when none is found, -2 when the rule does not apply (see the module docstring);
    ``cut=False``: every stock and spine copy free, without the cuts (the rule before them)."""
    if not applies(spec, state):
        return -2
    n, w, k = [0] * 64, [0] * 64, [0] * 64
    waste: tuple[int, ...] = ()
    for pile, cards in zip(spec.piles, state.piles, strict=True):
        for c in cards:
            n[c & 63] += 1
            if pile.kind in (PileKind.STOCK, PileKind.SPINE, PileKind.TAILBONE):
                k[c & 63] += 1
        if pile.kind is PileKind.WASTE:
            waste = cards
    if max(n) > 2:
        return -1
    runs = [suit_runs(s, n, w, k) for s in range(4)]
    columns = sum(p.kind is PileKind.COLUMN for p in spec.piles)
    for i, c in enumerate(waste):
        w[c & 63] += 1
        runs[c & 3] = suit_runs(c & 3, n, w, k)
        if sum(runs) > columns or (cut and _every_cut(spec, state, n, w, columns)):
            return i
    return -1


def _every_cut(spec: GameSpec, state: State, n: list[int], w: list[int], columns: int) -> bool:
    """Whether the intervals outnumber the columns at every cut (the module docstring): the
    stock's first ``t`` cards, the spine piles' first ``a`` and ``b``, the tailbone."""
    stock: tuple[int, ...] = ()
    tail: tuple[int, ...] = ()
    piles: list[tuple[int, ...]] = []
    for pile, cards in zip(spec.piles, state.piles, strict=True):
        if pile.kind is PileKind.STOCK:
            stock = cards
        elif pile.kind is PileKind.TAILBONE:
            tail = cards
        elif pile.kind is PileKind.SPINE:
            piles.append(cards)
    if len(piles) > 2:
        return False  # more spine piles than the cuts know of: no verdict
    piles += [()] * (2 - len(piles))
    cuts = [(tail, len(piles[0]), len(piles[1]))] if tail else []
    cuts += [((), a, b) for a in range(len(piles[0]), -1, -1) for b in range(len(piles[1]), -1, -1)]
    none = [0] * 64
    for kept, a, b in cuts:
        e = [0] * 64
        for c in (*stock, *piles[0][:a], *piles[1][:b], *kept):
            e[c & 63] += 1
        runs = [suit_runs(s, n, w, none, e) for s in range(4)]
        t = len(stock)
        while sum(runs) > columns and t > 0:
            d = stock[t - 1] & 63
            e[d] -= 1
            t -= 1
            runs[d & 3] = suit_runs(d & 3, n, w, none, e)
        if sum(runs) <= columns:
            return False
    return True
