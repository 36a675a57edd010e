"""Spine's solvable deals: the nearest winnable layout to a random shuffle, found by play.

A random Spine deal is almost never winnable, and a deal built backwards from the finished
game has its spine's top in foundation order. This generator starts from a **random
shuffle** and changes it only where it must:

1. The deck is shuffled (the deal's own shuffle first, then seeds drawn from the deal
   number's SplitMix64 stream) and laid out as a Spine deal. Each of the 104 places of the
   layout (a *slot*) keeps its card until a swap changes it.
2. A forward player plays it: foundation moves, then the spine's top onto a column, then a
   column move that uncovers a card never seen before, chosen at random among each kind.
3. When no such move is left, two cards are **swapped in the starting layout**: a card on
   top of a pile and a card no move so far has depended on. A move depends on the cards
   it moves and the card it lands on; swapping two cards no earlier move depended on
   leaves every earlier move legal, so the play goes on from the swapped position without
   replaying. The swap picked gives the top card a place to go, preferring a column (any
   rank) over a foundation (low ranks), so the spine's top keeps a random deal's ranks;
   a card dealt on top at move 0 is swapped only when no other swap helps, so what the
   player sees first stays as dealt.
4. When no swap can help (the spine is gone and every top card has moved), the exact
   search tries to finish the play within :data:`ENDGAME_NODES`; else the shuffle fails.
5. When the player wins, the swapped layout and its line are replayed through the engine
   (every move checked legal): the win that replays is the proof.

The same seed gives the same layout on every machine (SplitMix64, no global state).
"""

from __future__ import annotations

from dataclasses import dataclass

from pasyans.cards import Card, SplitMix64, shuffled
from pasyans.engine.core import deck_for, foundation_targets, is_won, legal_moves
from pasyans.engine.moves import Move
from pasyans.position import State
from pasyans.rules.spec import EmptyColumn, GameSpec, PileKind
from pasyans.solver.search import solve

MAX_STEPS = 1500

ENDGAME_NODES = 3000
"""When no swap can help any more (the spine is gone and every top card has been moved),
the exact search finishes the play from there, within this many nodes."""

SWAP_WEIGHTS = {"column": 8, "builds": 4, "foundation": 1}
"""How often each kind of useful swap is picked: the top card then goes onto a column,
a waiting card can then build onto it, or it goes onto a foundation."""


@dataclass(frozen=True)
class Made:
    """A layout this generator made: the layout, its winning line, the swaps it took."""

    state: State
    line: tuple[Move, ...]
    swaps: int


def nearest_winnable(spec: GameSpec, seed: int) -> Made | None:
    """The play from the shuffle ``seed``: the layout, its line and swap count, or None."""
    return _Builder(spec, seed).run()


class _Builder:
    def __init__(self, spec: GameSpec, seed: int) -> None:
        self.spec = spec
        self.rng = SplitMix64(seed ^ 0x5EED)
        deck = shuffled(deck_for(spec), seed)
        dealt = spec.deal(spec, list(range(len(deck)))).freeze()
        self.cards: list[Card] = list(deck)  # slot -> card (the layout, swaps applied)
        self.slots: list[list[int]] = [list(p) for p in dealt.piles]  # pile -> slots
        self.down = dealt.down
        self.relied: set[int] = set()  # slots some move so far depended on
        self.seen: set[int] = {p[-1] for p in self.slots if p}  # slots ever on top
        self.opening = set(self.seen)  # the slots on top at move 0
        self.index = {p.id: i for i, p in enumerate(spec.piles)}
        self.kind = [p.kind for p in spec.piles]
        self.columns = spec.indexes_of(PileKind.COLUMN)
        self.spine = self.index["spine"]
        self.swaps = 0
        self.line: list[Move] = []

    def below(self, n: int) -> int:
        return self.rng.below(n)

    def state(self) -> State:
        c = self.cards
        return State(tuple(tuple(c[s] for s in p) for p in self.slots), self.down, 0)

    def layout(self) -> State:
        """The starting layout with the swaps made so far."""
        return self.spec.deal(self.spec, self.cards).freeze()

    # --- playing --------------------------------------------------------------------------

    def play(self, m: Move) -> None:
        i, j = self.index[m.src], self.index[m.dst or ""]
        src, dst = self.slots[i], self.slots[j]
        unit = src[-m.cards :]
        del src[-m.cards :]
        self.relied.update(unit)
        if dst:
            self.relied.add(dst[-1])
        dst.extend(unit)
        if src:
            self.seen.add(src[-1])
        self.line.append(m)

    def choose(self, state: State) -> Move | None:
        moves = legal_moves(self.spec, state)
        kinds = self.kind
        index = self.index
        up = [m for m in moves if kinds[index[m.dst or ""]] is PileKind.FOUNDATION]
        if up:
            return up[self.below(len(up))]
        spine = [m for m in moves if m.src == "spine" and not self.blocks(state, m)]
        if spine:
            return spine[self.below(len(spine))]
        useful = []
        for m in moves:
            src = self.slots[index[m.src]]
            if self.blocks(state, m):
                continue
            if len(src) == m.cards or src[-m.cards - 1] not in self.seen:
                useful.append(m)
        if useful:
            return useful[self.below(len(useful))]
        return None

    def blocks(self, state: State, m: Move) -> bool:
        """Whether ``m`` lays a card over a lower card of its suit in the same column (that
        card must reach its foundation first, so the column would wait on itself)."""
        dst = state.piles[self.index[m.dst or ""]]
        return self._buries(dst, state.piles[self.index[m.src]][-m.cards])

    @staticmethod
    def _buries(pile: tuple[Card, ...], card: Card) -> bool:
        return any(c < card and (c ^ card) & 3 == 0 for c in pile)

    # --- swapping -------------------------------------------------------------------------

    def swap(self, state: State) -> bool:
        """Swap a free top card with a free card elsewhere so that a move opens; False when
        no swap opens one."""
        spec = self.spec
        wanted = foundation_targets(spec, state)
        tops = {c: state.piles[c][-1] for c in self.columns if state.piles[c]}
        spine_top = state.piles[self.spine][-1] if state.piles[self.spine] else None
        free = [s for p in self.slots for s in p if s not in self.relied]
        free_tops = [p[-1] for i, p in enumerate(self.slots) if p and p[-1] not in self.relied]
        any_empty = spec.empty_column is EmptyColumn.ANY
        empty_column = any(not state.piles[c] for c in self.columns)
        # (weight, top slot, other slot) in tiers: the first tier with an option is used.
        # Tier 1 keeps the tops dealt at move 0; tier 2 changes one; tier 3 brings a
        # card for a foundation (a low card).
        tiers: list[list[tuple[int, int, int]]] = [[], [], []]
        where = {s: i for i, p in enumerate(self.slots) for s in p}
        for a in free_tops:
            pile = where[a]
            # card -> the reason a swap would help (later reasons overwrite earlier ones)
            good: dict[Card, str] = {}
            if empty_column and len(self.slots[pile]) > 1:  # a card for the empty column
                fits_empty = range(52) if any_empty else range(48, 52)
                good = dict.fromkeys(fits_empty, "column")
            for x in wanted:
                good[x] = "foundation"
            if pile != self.spine and spine_top is not None:
                good[spine_top + 4] = "builds"
            for c, t in tops.items():
                if c != pile and t >= 4 and not self._buries(state.piles[c], t - 4):
                    good[t - 4] = "column"
            mine = self.cards[a]
            opening = a in self.opening
            for b in free:
                x = self.cards[b]
                why = good.get(x)
                if why is None or b == a or x == mine:
                    continue
                if why == "builds" and where[b] == self.spine:
                    continue  # that would move the spine's top card itself
                tier = 2 if why == "foundation" else 1 if opening else 0
                tiers[tier].append((SWAP_WEIGHTS[why], a, b))
        options = tiers[0] or tiers[1] or tiers[2]
        if not options:
            return False
        total = sum(w for w, _, _ in options)
        pick = self.below(total)
        for w, a, b in options:
            pick -= w
            if pick < 0:
                self.cards[a], self.cards[b] = self.cards[b], self.cards[a]
                self.swaps += 1
                return True
        return False  # pragma: no cover - the weights sum to total

    def run(self) -> Made | None:
        spec = self.spec
        for _ in range(MAX_STEPS):
            state = self.state()
            if is_won(spec, state):
                return Made(self.layout(), tuple(self.line), self.swaps)
            m = self.choose(state)
            if m is None:
                if self.swap(state):
                    continue
                end = solve(spec, state, nodes=ENDGAME_NODES)
                if end.result != "won":
                    return None
                for m in end.moves:
                    self.play(m)
                continue
            self.play(m)
        return None
