"""Dead positions of Backbone classic: a spine card that can never leave the spine.

In Backbone classic the spine and tailbone cards may not go to an empty column and
foundation cards never move, so a spine card of rank ``r`` leaves only onto a foundation
of its suit standing at ``r - 1`` or onto a column topped by its suit's ``r + 1``. Spine
piles never receive a card: what lies under a spine card stays under it until it leaves.
If every copy still in play of a card it needs lies under it, it never leaves, and the
position is lost (``docs/solver.md``, "Dead positions"). The card rules (:func:`_pinned`)
find such waits one pattern at a time; the relaxed spine game (:func:`_stranded`) tries
every order in which the spine and tailbone cards could leave with every other card free,
and sees all they see and more ("The relaxed spine game").
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from pasyans import caches
from pasyans.position import State
from pasyans.rules.spec import Build, Foundations, GameSpec, PileKind


def applies(spec: GameSpec) -> bool:
    """Whether the rule holds for ``spec``: spine cards refused by empty columns,
    foundations that build up in suit and never give cards back, columns down in suit."""
    return (
        spec.foundations is Foundations.UP
        and PileKind.FOUNDATION not in spec.feeds.get(PileKind.COLUMN, frozenset())
        and PileKind.SPINE in spec.empty_column_refuses
        and PileKind.TAILBONE in spec.empty_column_refuses
        and spec.column_build is Build.DOWN_SUIT
    )


def _tops(founds: tuple[int, ...]) -> dict[int, list[int]]:
    """Per suit, the ranks (1-13, 0 when empty) on top of its foundations."""
    out: dict[int, list[int]] = {0: [], 1: [], 2: [], 3: []}
    empty = 0
    for top in founds:
        if top >= 0:
            out[top & 3].append((top >> 2) + 1)
        else:
            empty += 1
    for s in range(4):  # empty foundations take any Ace: give each suit up to two
        while len(out[s]) < 2 and empty:
            out[s].append(0)
            empty -= 1
    return out


def dead(
    state: State,
    foundations: tuple[int, ...],
    spines: tuple[int, ...],
    tailbone: int,
) -> bool:
    """Whether some spine (or tailbone) card can never leave: see the module docstring."""
    piles = state.piles
    founds = tuple(sorted(piles[f][-1] if piles[f] else -1 for f in foundations))
    return _dead(piles[spines[0]], piles[spines[1]], piles[tailbone], founds)


@lru_cache(maxsize=1 << 16)
def _dead(
    pa: tuple[int, ...], pb: tuple[int, ...], tail: tuple[int, ...], founds: tuple[int, ...]
) -> bool:
    """:func:`dead` on what it depends on: the spine piles, the tailbone and the top
    cards of the foundations (-1 when empty); many positions share them. The card rules
    first (cheap), then the relaxed spine game (:func:`_stranded`)."""
    return _pinned(pa, pb, tail, founds) or _stranded(pa, pb, tail, _tops(founds))


caches.register("domains.spinelock_dead", _dead, bound=1 << 16, memory=False)


def _pinned(
    pa: tuple[int, ...], pb: tuple[int, ...], tail: tuple[int, ...], founds: tuple[int, ...]
) -> bool:
    """The card rules of rule 5 (``docs/solver.md``): a card waiting on cards under
    itself, two cards each waiting on the other, a card that can only go up leaving a
    lower card of its suit no way."""
    tops = _tops(founds)
    # Copies of each card on the foundations (each foundation holds Ace..top of a suit).
    on_found: dict[int, int] = {}
    for s, ranks in tops.items():
        for top in ranks:
            for r in range(1, top + 1):
                card = ((r - 1) << 2) | s
                on_found[card] = on_found.get(card, 0) + 1
    facts = _Facts(on_found, tops, _never_on_column((pa, pb, tail), on_found))
    # prefix[n]: how many copies of each card the first n cards of a pile (from its
    # covered end) hold; prefix[len] is the whole pile.
    prefix_a, prefix_b = _prefixes(pa), _prefixes(pb)
    # The tailbone lies over both spine piles: everything in them is under it.
    for card in tail:
        if _stuck(card, prefix_a[-1], prefix_b[-1], facts):
            return True
        both = dict(prefix_a[-1])
        for c, n in prefix_b[-1].items():
            both[c] = both.get(c, 0) + n
        below = [(z, prefix_a[j]) for j, z in enumerate(pa)]
        below += [(z, prefix_b[j]) for j, z in enumerate(pb)]
        if _leaves_nothing(card, both, below, facts):
            return True
    for pile, prefix in ((pa, prefix_a), (pb, prefix_b)):
        for i, x in enumerate(pile):
            below = [(z, prefix[j]) for j, z in enumerate(pile[:i])]
            if _leaves_nothing(x, prefix[i], below, facts):
                return True
    # first[x]: the fewest cards of the other pile that, lying under or at one of its
    # cards Y, keep card x of this pile from leaving before Y has left (len + 1: never).
    first_a = [_first(c, prefix_a[i], prefix_b, facts) for i, c in enumerate(pa)]
    if min(first_a, default=1) == 0:
        return True  # a card waits on cards under itself only
    first_b = [_first(c, prefix_b[j], prefix_a, facts) for j, c in enumerate(pb)]
    if min(first_b, default=1) == 0:
        return True
    # X = pa[i] waits for pb[j] to leave when j + 1 >= first_a[i], and pb[j] waits for
    # pa[i] when i + 1 >= first_b[j]: neither can leave first.
    for i, fa in enumerate(first_a):
        for j in range(max(fa - 1, 0), len(pb)):
            if i + 1 >= first_b[j]:
                return True
    return False


STRANDED_STATES = 1 << 11
"""States the relaxed game of :func:`_stranded` may visit before it gives up (not dead)."""


def _stranded(
    pa: tuple[int, ...], pb: tuple[int, ...], tail: tuple[int, ...], tops: dict[int, list[int]]
) -> bool:
    """Whether the spine piles and the tailbone can never all be emptied, even in a
    relaxed game where every card outside them is free: it may go up a foundation or top
    a column at any moment, as one likes (``docs/solver.md``, "The relaxed spine game").

    In the relaxed game the exposed card (the tailbone's, else each spine pile's last) of
    rank ``r`` leaves onto a column when a copy of its suit's ``r + 1`` is neither in the
    piles nor on a foundation, or goes up a foundation of its suit standing at ``t < r``
    when every rank ``t+1 .. r-1`` of the suit has such a free copy (raising the
    foundation with them). Reductions that keep the answer: a card that can go onto a
    column goes there at once, and a card going up takes the higher foundation of its
    suit that is below it. The states are (cards left in each pile, each suit's two
    tops); True when no state with the piles empty is reachable.

    Long because the relaxed game's moves and its search over states are one small exact
    search, read best in one place next to the proof it implements."""
    if any(len(tops[s]) != 2 for s in range(4)):
        return False  # not two foundations a suit: not this game's positions
    start = tuple(tuple(sorted(tops[s])) for s in range(4))
    piles = (pa, pb, tail)
    prefix = (_prefixes(pa), _prefixes(pb), _prefixes(tail))
    seen: set[tuple[int, int, int, tuple[tuple[int, ...], ...]]] = set()
    stack = [(len(pa), len(pb), len(tail), start)]
    while stack:
        state = stack.pop()
        if state in seen:
            continue
        if len(seen) >= STRANDED_STATES:
            return False  # too many to settle: not proven
        seen.add(state)
        left = state[:3]
        at = state[3]
        exposed = [2] if left[2] else [w for w in (0, 1) if left[w]]
        if not exposed:
            return False  # the piles can be emptied

        def free(
            card: int, left: tuple[int, ...] = left, at: tuple[tuple[int, ...], ...] = at
        ) -> int:
            r, s = (card >> 2) + 1, card & 3
            up = sum(1 for t in at[s] if t >= r)
            return 2 - up - sum(prefix[w][left[w]].get(card, 0) for w in range(3))

        def gone(w: int, left: tuple[int, ...] = left) -> tuple[int, int, int]:
            return (left[0] - (w == 0), left[1] - (w == 1), left[2] - (w == 2))

        onto = [
            w for w in exposed if piles[w][left[w] - 1] < 48 and free(piles[w][left[w] - 1] + 4)
        ]
        if onto:
            stack.append((*gone(onto[0]), at))
            continue
        for w in reversed(exposed):
            card = piles[w][left[w] - 1]
            r, s = (card >> 2) + 1, card & 3
            lo, hi = at[s]
            j = 1 if hi < r else 0 if lo < r else -1
            if j < 0:
                continue
            if all(free(((k - 1) << 2) | s) for k in range(at[s][j] + 1, r)):
                pair = tuple(sorted((r, at[s][1 - j])))
                stack.append((*gone(w), (*at[:s], pair, *at[s + 1 :])))
    return True


def _leaves_nothing(
    x: int,
    under_x: dict[int, int],
    below: list[tuple[int, dict[int, int]]],
    facts: _Facts,
) -> bool:
    """A card ``x`` that can only go up (never onto a column) takes one foundation of its
    suit to its rank first; a card ``z`` of its suit and lower rank under it leaves after
    it, so it can only use the other foundation or a column. True when, whichever
    foundation ``x`` takes, some such ``z`` then has neither (``below`` lists each card
    under ``x`` with the cards under it)."""
    r, s = (x >> 2) + 1, x & 3
    if r < 13 and x + 4 not in facts.never_on_column:
        left = 2 - facts.on_found.get(x + 4, 0)
        if left > under_x.get(x + 4, 0):
            return False  # x may still go onto a column
    zs = [(z, u) for z, u in below if z & 3 == s and (z >> 2) + 1 < r]
    if not zs:
        return False
    tops = facts.tops[s]
    choices = [n for n, t in enumerate(tops) if t < r]
    for n in choices:
        t_f = tops[n]
        t_g = [t for m, t in enumerate(tops) if m != n]
        if not any(_no_way(z, u, under_x, x, t_f, r, t_g, facts) for z, u in zs):
            return False  # x may take this foundation and leave the others a way
    return True


def _no_way(
    z: int,
    under_z: dict[int, int],
    under_x: dict[int, int],
    x: int,
    t_f: int,
    r: int,
    t_g: list[int],
    facts: _Facts,
) -> bool:
    """Whether ``z`` (under ``x``) has no way out once ``x`` has gone up on a foundation
    that stood at ``t_f``: that foundation took one copy of each rank ``t_f+1 .. r-1``."""
    zr, s = (z >> 2) + 1, z & 3

    def taken(k: int) -> int:
        return 1 if t_f < k < r else 0

    # Onto a column topped by its suit's next rank.
    v = z + 4
    if v not in facts.never_on_column:
        left = 2 - facts.on_found.get(v, 0) - under_z.get(v, 0) - taken(zr + 1)
        if v == x:
            left -= 1  # x never tops a column
        if left > 0:
            return False
    # Onto the other foundation, standing below z's rank.
    for t in t_g:
        if t >= zr:
            continue
        ok = True
        for k in range(t + 1, zr):
            card = ((k - 1) << 2) | s
            in_play = 2 - facts.on_found.get(card, 0)
            free = in_play - under_x.get(card, 0)  # may leave before x
            reach = in_play - under_z.get(card, 0)  # may leave before z
            if reach - taken(k) < 1 or (taken(k) and free < 1):
                ok = False
                break
        if ok:
            return False
    return True


@dataclass(frozen=True)
class _Facts:
    on_found: dict[int, int]  # copies of each card on the foundations
    tops: dict[int, list[int]]  # per suit, the ranks on top of its two foundations
    never_on_column: set[int]  # cards no copy of which can ever top a column again


def _never_on_column(
    locked_piles: tuple[tuple[int, ...], ...], on_found: dict[int, int]
) -> set[int]:
    """Cards no copy of which can top a column again: every copy in play is in the spine
    or the tailbone (which never go to an empty column) and is a King, or a card whose
    suit's next rank is itself such a card (a spine card reaches a column only onto it).
    Copies anywhere else (columns, waste, stock) are taken to be able to."""
    locked: dict[int, int] = {}
    for pile in locked_piles:
        for c in pile:
            locked[c] = locked.get(c, 0) + 1
    out: set[int] = set()
    for s in range(4):
        for r in range(12, -1, -1):  # King (12) down to Ace (0), as 0-based ranks
            card = (r << 2) | s
            in_play = 2 - on_found.get(card, 0)
            if in_play > locked.get(card, 0):
                continue  # a copy outside the spine may get onto a column
            if r == 12 or card + 4 in out:
                out.add(card)
    return out


def _prefixes(pile: tuple[int, ...]) -> list[dict[int, int]]:
    out: list[dict[int, int]] = [{}]
    for card in pile:
        d = dict(out[-1])
        d[card] = d.get(card, 0) + 1
        out.append(d)
    return out


def _first(
    card: int,
    under: dict[int, int],
    other: list[dict[int, int]],
    facts: _Facts,
) -> int:
    """The least ``n`` such that ``card`` cannot leave while the other pile's ``n``-th
    card (counted from its covered end) and all under it are still there; 0 when the
    cards under ``card`` alone keep it; ``len(other)`` when nothing does."""
    for n, held in enumerate(other):
        if _stuck(card, under, held, facts):
            return n
    return len(other)


def _stuck(
    card: int,
    under: dict[int, int],
    held: dict[int, int],
    facts: _Facts,
) -> bool:
    """``card`` cannot leave while every copy in play of something it needs is among
    ``under`` (the cards under it) and ``held`` (cards of the other spine pile)."""
    r, s = (card >> 2) + 1, card & 3

    def buried(v: int) -> bool:
        left = 2 - facts.on_found.get(v, 0)
        return left <= under.get(v, 0) + held.get(v, 0)

    if r < 13 and card + 4 not in facts.never_on_column and not buried(card + 4):
        return False  # its suit's r + 1 may still top a column
    for top in facts.tops[s]:
        if top >= r:
            continue  # this foundation has passed the card's rank
        if all(not buried(((k - 1) << 2) | s) for k in range(top + 1, r)):
            return False  # this foundation may still reach r - 1
    return True
