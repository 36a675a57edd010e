"""Dead positions of Backbone classic: a spine card that can never leave the spine.

In Backbone classic the spine and tailbone cards may not go to an empty column and
foundation cards never move, so a spine card of rank ``r`` leaves only onto a foundation
of its suit standing at ``r - 1`` or onto a column topped by its suit's ``r + 1``. Spine
piles never receive a card: what lies under a spine card stays under it until it leaves.
If every copy still in play of a card it needs lies under it, it never leaves, and the
position is lost (``docs/solver.md``, "Dead positions").
"""

from __future__ import annotations

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


def _tops(state: State, foundations: tuple[int, ...]) -> dict[int, list[int]]:
    """Per suit, the ranks (1-13, 0 when empty) on top of its foundations."""
    out: dict[int, list[int]] = {0: [], 1: [], 2: [], 3: []}
    empty = 0
    for f in foundations:
        p = state.piles[f]
        if p:
            out[p[-1] & 3].append((p[-1] >> 2) + 1)
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
    tops = _tops(state, foundations)
    # Copies of each card on the foundations (each foundation holds Ace..top of a suit).
    on_found: dict[int, int] = {}
    for s, ranks in tops.items():
        for top in ranks:
            for r in range(1, top + 1):
                card = ((r - 1) << 2) | s
                on_found[card] = on_found.get(card, 0) + 1
    everything: dict[int, int] = {}
    for s in spines:
        under: dict[int, int] = {}
        for card in piles[s]:
            if _stuck(card, under, on_found, tops):
                return True
            under[card] = under.get(card, 0) + 1
            everything[card] = everything.get(card, 0) + 1
    # The tailbone lies over both spine piles: everything in them is under it.
    return any(_stuck(card, everything, on_found, tops) for card in piles[tailbone])


def _stuck(
    card: int, under: dict[int, int], on_found: dict[int, int], tops: dict[int, list[int]]
) -> bool:
    """``card`` can never leave when every copy in play of what it needs is under it."""
    r, s = (card >> 2) + 1, card & 3

    def buried(v: int) -> bool:
        left = 2 - on_found.get(v, 0)
        return left <= under.get(v, 0)

    if r < 13 and not buried(card + 4):
        return False  # its suit's r + 1 may still top a column
    for top in tops[s]:
        if top >= r:
            continue  # this foundation has passed the card's rank
        if all(not buried(((k - 1) << 2) | s) for k in range(top + 1, r)):
            return False  # this foundation may still reach r - 1
    return True
