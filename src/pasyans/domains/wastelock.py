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


def suit_runs(suit: int, n: list[int], w: list[int], k: list[int]) -> int:
    """The fewest column runs ``suit`` needs at that moment: ``n`` copies of each card in
    play, ``w`` of them in the waste's cards up to the one waited for, ``k`` on the stock,
    the spine piles and the tailbone. Tries every pair of foundation chains and every
    count of copies in the columns allowed (a dynamic programme over the ranks)."""
    # cost[(chains still going, copies of the last rank in the columns)]
    cost = {(c, v): (0 if v == 0 else INF) for c in range(3) for v in range(3)}
    for q in range(13):
        card = (q << 2) | suit
        free = n[card] - w[card]
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


def lock(spec: GameSpec, state: State) -> int:
    """The lowest waste index that can never be the waste's top (the position is lost),
    -1 when none is found, -2 when the rule does not apply (see the module docstring)."""
    if not applies(spec, state):
        return -2
    n, w, k = [0] * 64, [0] * 64, [0] * 64
    kept = {PileKind.STOCK, PileKind.SPINE, PileKind.TAILBONE}
    waste: tuple[int, ...] = ()
    for pile, cards in zip(spec.piles, state.piles, strict=True):
        for c in cards:
            n[c & 63] += 1
            if pile.kind in kept:
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
        if sum(runs) > columns:
            return i
    return -1
