"""Game knowledge for the search, as small named helpers derived from a game's spec.

The search itself knows only the engine's protocol (``legal_moves``, ``apply``,
``is_won``). Everything game-specific comes in through :class:`Knowledge`:

- :func:`canonical_key` — the transposition-table key. Piles the rules treat alike are
  sorted: the columns when no rule depends on a column's place (no stock dealing into
  them in order), the foundations when any empty one takes any Ace, the two spine piles
  of Backbone, Nivernais' reserve cells (no rule reads a cell's place). A foundation that
  builds up in suit from the Ace is keyed by its top card.
- :func:`safe_foundation_move` — a foundation move that can be played at once without
  losing a win (see ``docs/solver.md`` for why each rule is sound).
- :func:`dedupe` — of several moves that lead to equivalent positions (the same card to
  two alike empty columns or two alike foundations) only the first is kept.
- :func:`priority` — move ordering, best first.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass

from pasyans.domains import spinelock
from pasyans.domains.spider import order
from pasyans.domains.updown import dead, forced_move, settled
from pasyans.engine.moves import Move
from pasyans.position import State
from pasyans.rules.spec import Build, Foundations, GameSpec, PileKind, Stock


@dataclass(frozen=True)
class Knowledge:
    """What the search needs to know about one game (with its options)."""

    spec: GameSpec
    columns: tuple[int, ...]
    foundations: tuple[int, ...]
    others: tuple[int, ...]
    spines: tuple[int, ...]
    reserves: tuple[int, ...]
    columns_alike: Callable[[State], bool]
    foundations_alike: bool
    foundations_permanent: bool
    guided: bool = False
    restarts: bool = False  # search by restarting dives (Backbone: see search.py)

    def key(self, state: State) -> Hashable:
        return canonical_key(self, state)

    def children(self, state: State, moves: list[Move]) -> list[Move]:
        """The moves to search from ``state``, best first (a single safe move if any)."""
        return self.guided_children(state, moves)[0]

    def guided_children(
        self, state: State, moves: list[Move], *, prune: bool = True
    ) -> tuple[list[Move], bool]:
        """Like :meth:`children`, plus whether a move was dropped by an *unproven* rule
        (:func:`shuffle_moves`, only for games with ``guided``). If so, running out of
        positions no longer proves a loss."""
        if not self.guided and dead_position(self, state):
            return [], False  # provably lost: no child, the search backtracks
        safe = safe_foundation_move(self, state, moves)
        if safe is not None:
            return [safe], False
        kept = dedupe(self, state, moves)
        dropped = False
        if self.guided and prune:
            n = len(kept)
            kept = [m for m in kept if not shuffle_move(self, state, m)]
            dropped = len(kept) < n
            kept.sort(key=lambda m: guided_priority(self, state, m), reverse=True)
        elif self.guided:
            kept.sort(key=lambda m: guided_priority(self, state, m), reverse=True)
        else:
            kept.sort(key=lambda m: priority(self, state, m), reverse=True)
        return kept, dropped


def knowledge_for(spec: GameSpec) -> Knowledge:
    """Derive the helpers from the spec's data (no game ids are looked at)."""
    columns = spec.indexes_of(PileKind.COLUMN)
    foundations = spec.indexes_of(PileKind.FOUNDATION)
    spines = spec.indexes_of(PileKind.SPINE)
    reserves = spec.indexes_of(PileKind.RESERVE)
    grouped = set(columns) | set(foundations) | set(spines) | set(reserves)
    others = tuple(i for i in range(len(spec.piles)) if i not in grouped)

    if spec.stock in (Stock.NONE, Stock.TURN):
        # Nothing is ever dealt into a column by its place: columns are interchangeable.
        def alike(state: State) -> bool:
            return True
    elif spec.stock is Stock.DEAL_ROW:
        stock = spec.index["stock"]

        # Spider deals one card to t1, t2, … in order: alike only once the stock is empty.
        def alike(state: State) -> bool:
            return not state.piles[stock]
    else:  # DEAL_COLUMNS: refills and redeals go by the columns' places, until none is left.

        def alike(state: State) -> bool:
            return settled(spec, state)

    return Knowledge(
        spec=spec,
        columns=columns,
        foundations=foundations,
        others=others,
        spines=spines,
        reserves=reserves,
        columns_alike=alike,
        foundations_alike=spec.foundations is Foundations.UP,
        foundations_permanent=PileKind.FOUNDATION not in spec.feeds.get(PileKind.COLUMN, ()),
        # Spider: no foundations to play to; wins come from building suits in the columns,
        # so the search is guided by a heuristic and drops "shuffle" moves (unproven).
        guided=spec.stock is Stock.DEAL_ROW,
        # Backbone (a tailbone): deep dives that go wrong early need restarts.
        restarts=spec.has_pile("tailbone"),
    )


def canonical_key(k: Knowledge, state: State) -> Hashable:
    """A key equal for positions the rules cannot tell apart (see module docstring)."""
    piles, down = state.piles, state.down
    if k.columns_alike(state):
        cols: tuple[object, ...] = tuple(sorted((piles[c], down[c]) for c in k.columns))
    else:
        cols = tuple((piles[c], down[c]) for c in k.columns)
    if k.foundations_alike:
        founds: tuple[object, ...] = tuple(
            sorted(piles[f][-1] if piles[f] else -1 for f in k.foundations)
        )
    else:
        founds = tuple(len(piles[f]) for f in k.foundations)
    spines = tuple(sorted(piles[s] for s in k.spines))
    cells = tuple(sorted(piles[r] for r in k.reserves))
    rest = tuple((piles[i], down[i]) for i in k.others)
    return (cols, founds, spines, cells, rest, state.redeals)


def _kind(k: Knowledge, pile_id: str) -> PileKind:
    return k.spec.piles[k.spec.index[pile_id]].kind


def safe_foundation_move(
    k: Knowledge, state: State, moves: list[Move], *, returning: bool = False
) -> Move | None:
    """A foundation move that never loses a win, or None.

    Only for foundations that build up in suit from the Ace (Spine, Backbone):
    - an Ace is always safe (nothing is ever built on an Ace, and while an Ace is off the
      foundations one of the eight foundations is empty);
    - when foundation cards never leave (Spine, Backbone classic) and columns build down
      in suit, a card is safe once both copies of the card one rank lower in its suit are
      on the foundations: nothing can ever be built on it again;
    - ``returning`` (the post-game analysis's searches of Backbone, whose foundation
      cards may come back to the columns): the same rule there too. Why it is sound:
      ``fp_children_rule`` in csrc/engine.c, the compiled search's, which this is the
      reference of (tests/analysis/test_returning_safe.py compares the two).
    """
    if k.spec.foundations is Foundations.UP_DOWN:
        return _safe_from_cell(k, state, moves)
    if k.spec.foundations is not Foundations.UP:
        return None
    piles = state.piles
    general = (k.foundations_permanent or returning) and k.spec.column_build is Build.DOWN_SUIT
    for m in moves:
        if m.dst is None or _kind(k, m.dst) is not PileKind.FOUNDATION:
            continue
        card = piles[k.spec.index[m.src]][-1]
        r = card >> 2
        if r == 0:
            return m
        if not general:
            continue
        if _copies_up(piles, k.foundations, card - 4) >= 2:
            return m
    return None


def _safe_from_cell(k: Knowledge, state: State, moves: list[Move]) -> Move | None:
    """Up-and-down foundations (Nivernais): the forced moves of
    :func:`pasyans.domains.updown.forced_move` (a cell's card whose twin is on a foundation
    or in another cell; in the final pass, a column's card whose twin is on a foundation)."""
    return forced_move(k.spec, state, moves, k.foundations, k.reserves, k.columns)


def dead_position(k: Knowledge, state: State) -> bool:
    """Whether ``state`` provably cannot be won (up-and-down foundations: see
    :func:`pasyans.domains.updown.dead`); such a position gets no children."""
    if k.spec.foundations is Foundations.UP_DOWN:
        return dead(k.spec, state, k.foundations, k.reserves, k.columns)
    if k.spines and spinelock.applies(k.spec):
        return spinelock.dead(state, k.foundations, k.spines, k.spec.index["tailbone"])
    return False


def _copies_up(piles: tuple[tuple[int, ...], ...], foundations: tuple[int, ...], card: int) -> int:
    """How many copies of ``card`` are on the foundations (up-in-suit foundations)."""
    n = 0
    for f in foundations:
        p = piles[f]
        if p and (p[-1] & 3) == (card & 3) and p[-1] >= card:
            n += 1
    return n


def dedupe(k: Knowledge, state: State, moves: list[Move]) -> list[Move]:
    """Drop moves that lead to the same canonical position as an earlier move."""
    piles, down = state.piles, state.down
    alike = k.columns_alike(state)
    seen: set[tuple[object, ...]] = set()
    out: list[Move] = []
    for m in moves:
        if m.dst is None:
            out.append(m)
            continue
        d = k.spec.index[m.dst]
        kind = k.spec.piles[d].kind
        if kind is PileKind.COLUMN and alike:
            tag: tuple[object, ...] = (m.src, m.cards, "c", piles[d], down[d])
        elif kind is PileKind.FOUNDATION and k.foundations_alike:
            tag = (m.src, m.cards, "f", piles[d][-1] if piles[d] else -1)
        elif kind is PileKind.RESERVE:
            tag = (m.src, m.cards, "r", piles[d])
        else:
            out.append(m)
            continue
        if tag in seen:
            continue
        seen.add(tag)
        out.append(m)
    return out


def priority(k: Knowledge, state: State, m: Move) -> int:
    """A move's place in the search order: higher first."""
    spec = k.spec
    if m.dst is None:
        return 0
    s, d = spec.index[m.src], spec.index[m.dst]
    src_kind, dst_kind = spec.piles[s].kind, spec.piles[d].kind
    src = state.piles[s]
    left = len(src) - m.cards
    value = 0
    if dst_kind is PileKind.FOUNDATION:
        value += 100
    if src_kind is PileKind.FOUNDATION:
        return -50
    if src_kind is PileKind.COLUMN:
        if left == 0:
            value += 30  # empties a column
        elif state.down[s] >= left:
            value += 40  # turns up a face-down card
        elif dst_kind is PileKind.COLUMN:
            below, lowest = src[left - 1], src[left]
            if below - lowest == 4:
                value -= 40  # the unit already sits on its same-suit parent
            elif (below >> 2) - (lowest >> 2) == 1:
                value -= 10  # already on a parent of another suit
    elif src_kind in (PileKind.SPINE, PileKind.TAILBONE, PileKind.WASTE):
        value += 20
        if src_kind is not PileKind.WASTE and spec.has_pile("tailbone"):
            # Backbone: digging the spine first finds far more wins (deals 1-100 at
            # 5,000 nodes: 85 won instead of 72); Spine's order (and so its solvable
            # deals) is left as it was.
            value += 60
    if dst_kind is PileKind.COLUMN:
        dst = state.piles[d]
        if dst:
            value += 10
            if dst[-1] - src[left] == 4:
                value += 15  # same suit
        else:
            value -= 20
    if dst_kind is PileKind.RESERVE:
        value -= 5
    return value


def shuffle_move(k: Knowledge, state: State, m: Move) -> bool:
    """A column-to-column move that only shuffles a unit between equivalent places.

    True when the move neither empties its column nor turns a card up, and the unit
    already sits on a card one rank higher (its natural parent) while the destination
    is no better: an empty column, or a parent that is not of the unit's suit when the
    unit already sits on its suit (or any parent of another suit when it sits on one of
    another suit). Such moves are *not* proven useless (they can make room for another
    move), so the search that drops them may not conclude "lost".
    """
    if m.dst is None:
        return False
    spec = k.spec
    s, d = spec.index[m.src], spec.index[m.dst]
    if spec.piles[s].kind is not PileKind.COLUMN or spec.piles[d].kind is not PileKind.COLUMN:
        return False
    src = state.piles[s]
    left = len(src) - m.cards
    if left == 0 or state.down[s] >= left:
        return False
    below, lowest = src[left - 1], src[left]
    if (below >> 2) - (lowest >> 2) != 1:
        return False  # the unit does not sit on a parent: moving it frees that card
    dst = state.piles[d]
    if not dst:
        return True
    if below - lowest == 4:
        return True  # already on its suit: anywhere else is the same or worse
    return dst[-1] - lowest != 4  # on another suit: only a same-suit parent improves


def guided_priority(k: Knowledge, state: State, m: Move) -> int:
    """Spider's move order: build same-suit runs, turn cards up, empty columns (the
    packed search's :func:`pasyans.domains.spider.order`, on the engine's piles)."""
    if m.dst is None:
        return -100  # the stock last
    spec = k.spec
    return order(state.piles, state.down, (spec.index[m.src], spec.index[m.dst], m.cards))


def distance(k: Knowledge, state: State) -> int:
    """How far a Spider position looks from a win (lower is better): cards not yet in
    complete runs, face-down cards and cards still in the stock weigh most, then every
    place where a column's cards do not follow in suit."""
    piles, down = state.piles, state.down
    score = 0
    for c in k.columns:
        p = piles[c]
        dn = down[c]
        score += 3 * dn
        for i in range(dn + 1, len(p)):
            if p[i - 1] - p[i] != 4:
                score += 2
        if not p:
            score -= 4
    for i in k.others:
        if k.spec.piles[i].kind is PileKind.STOCK:
            score += len(piles[i])
        elif k.spec.piles[i].kind is PileKind.DONE:
            score -= 3 * len(piles[i])
    return score
