"""Solvable deals made by playing **forward** while the stock's cards are chosen as they come.

For games whose only hidden cards are in the stock, dealt face up onto the columns, and
whose columns never take a card from the player (Nivernais), the exact search is too weak
to prove random shuffles won within a player's patience. So the layout is made together
with a win:

1. The 32 cards of the opening layout (columns and reserve cells) come from a
   SplitMix64 Fisher–Yates shuffle of the deck, as in a random deal.
2. The stock starts as placeholders. A player (:func:`_choose`) plays forward: foundation
   moves (reserve cells first), then a column's top card into a cell when that uncovers
   a card the foundations want, then the stock (deal or redeal), then any cell move.
3. Whenever placeholders land face up on the columns, each becomes a real card drawn from
   the cards not yet placed: with probability :data:`LEAN` one the foundations want now
   (if any), otherwise any of them, uniformly.
4. When the play wins, the placeholders are replaced by the cards they became, and the
   line is **replayed through the engine** from that layout (:func:`play_checked`, every
   move checked legal): a win that replays is the proof. Otherwise the next seed of the
   deal number's stream is tried.

The same deal number gives the same layout everywhere (SplitMix64, no global state).

Generator versions 1 and 2 used this with :data:`LEAN` 0.6: their first stock deal held
about twice a random deal's Aces and Kings. Version 3 leans no more
(:func:`play_layout`): the forward player plays **real shuffles**, the deal's own first,
and a shuffle whose play wins (and replays) is kept. A solvable deal is then a random deal
that this player wins, the only lean being towards deals the player can win.
"""

from __future__ import annotations

from pasyans.cards import Card, SplitMix64
from pasyans.engine.core import apply, deck_for, foundation_targets, is_won, legal_moves
from pasyans.engine.core import play_checked as _checked
from pasyans.engine.moves import Move
from pasyans.position import State
from pasyans.rules.spec import GameSpec, PileKind

LEAN = 0.6
"""How often a card coming out of the stock is one the foundations want (when one is left)."""

ATTEMPTS = 400
"""Seeds tried per deal number (about 7% of plays win at LEAN 0.6; 400 failures in a row
have a probability near 1e-13)."""

SHUFFLE_ATTEMPTS = 4000
"""Shuffles played per deal number by :func:`play_layout`'s generator (version 3): about
1.5% of random Nivernais deals are won by the forward player, so 4,000 plays (about 30 s)
all fail with a probability near 1e-26."""

MAX_MOVES = 3000

_PLACEHOLDER = 2000
"""Stock cards not chosen yet are 2000, 2001, …: above every real card, so they match no
rank and no suit while they lie hidden in the stock."""


def supports(spec: GameSpec, state: State) -> bool:
    """Whether this generator applies: no column ever takes a card from the player, and
    no card is face down outside the stock (so a placeholder only ever shows up face up on
    a column, after a deal or a refill)."""
    return spec.has_pile("stock") and not spec.feeds.get(PileKind.COLUMN) and not any(state.down)


def play_and_deal(spec: GameSpec, seed: int, lean: float = LEAN) -> tuple[State, list[Move]] | None:
    """One forward play from ``seed``: the layout and its winning line, or None."""
    return _Play(spec, SplitMix64(seed), lean).run()


def play_layout(spec: GameSpec, state: State, seed: int) -> list[Move] | None:
    """The forward player's winning line from the real layout ``state`` (its random
    choices seeded by ``seed``; no card is chosen, nothing leans), or None when it loses."""
    made = _Play(spec, SplitMix64(seed), 0.0).run(state)
    return None if made is None else made[1]


def play_end(spec: GameSpec, state: State, seed: int) -> State:
    """Where the forward player's game from the real layout ``state`` ends (won, stuck,
    or :data:`MAX_MOVES` moves), its random choices seeded by ``seed`` as in
    :func:`play_layout`. It reads only face-up cards: the stock's are seen as they land."""
    play = _Play(spec, SplitMix64(seed), 0.0)
    for _ in range(MAX_MOVES):
        if is_won(spec, state):
            break
        m = play.choose(state)
        if m is None:
            break
        state = apply(spec, state, m)
    return state


def solvable_by_play(spec: GameSpec, deal: int) -> State | None:
    """The first layout of ``deal``'s stream whose forward play wins and replays, or None."""
    stream = SplitMix64(deal)
    for _ in range(ATTEMPTS):
        made = play_and_deal(spec, stream.next())
        if made is None:
            continue
        layout, line = made
        if replays_to_a_win(spec, layout, line):
            return layout
    return None


def replays_to_a_win(spec: GameSpec, state: State, line: list[Move]) -> bool:
    """Every move legal (checked by the engine) and the last position won."""
    for m in line:
        state = _checked(spec, state, m)
    return is_won(spec, state)


class _Play:
    def __init__(self, spec: GameSpec, rng: SplitMix64, lean: float) -> None:
        self.spec = spec
        self.rng = rng
        self.lean_per_mille = round(lean * 1000)
        self.stock = spec.index["stock"]
        self.columns = spec.indexes_of(PileKind.COLUMN)
        self.chosen: dict[Card, Card] = {}

    def below(self, n: int) -> int:
        return self.rng.next() % n

    def run(self, layout: State | None = None) -> tuple[State, list[Move]] | None:
        """Play from ``layout`` as it is, or (None) from a shuffle whose stock's cards
        are chosen as they come out."""
        spec = self.spec
        if layout is not None:
            start = layout
            self.left = []
        else:
            deck = deck_for(spec)
            for i in range(len(deck) - 1, 0, -1):  # Fisher–Yates
                j = self.below(i + 1)
                deck[i], deck[j] = deck[j], deck[i]
            opening = spec.deal(spec, deck).freeze()
            # The stock's cards are not chosen yet: they stay in ``self.left`` until dealt.
            self.left = list(opening.piles[self.stock])
            piles = list(opening.piles)
            piles[self.stock] = tuple(_PLACEHOLDER + i for i in range(len(self.left)))
            start = State(tuple(piles), opening.down, opening.redeals)
        state = start
        line: list[Move] = []
        while not is_won(spec, state):
            if len(line) >= MAX_MOVES:
                return None
            m = self.choose(state)
            if m is None:
                return None
            line.append(m)
            state = self.reveal(apply(spec, state, m))
        if layout is not None:
            return layout, line
        piles = list(start.piles)
        piles[self.stock] = tuple(self.chosen[c] for c in start.piles[self.stock])
        return State(tuple(piles), start.down, start.redeals), line

    def reveal(self, state: State) -> State:
        """Choose the cards that placeholders on the columns stand for."""
        piles = list(state.piles)
        for c in self.columns:
            if not any(card >= _PLACEHOLDER for card in piles[c]):
                continue
            out: list[Card] = []
            for card in piles[c]:
                if card >= _PLACEHOLDER:
                    piles[c] = tuple(out)  # the cards above are not on the table yet
                    card = self.draw(State(tuple(piles), state.down, state.redeals), card)
                out.append(card)
            piles[c] = tuple(out)
            state = State(tuple(piles), state.down, state.redeals)
        return state

    def draw(self, state: State, placeholder: Card) -> Card:
        """A card not yet placed: leaning toward one the foundations want."""
        wanted = foundation_targets(self.spec, state)
        fits = [i for i, card in enumerate(self.left) if card in wanted]
        if fits and self.below(1000) < self.lean_per_mille:
            i = fits[self.below(len(fits))]
        else:
            i = self.below(len(self.left))
        card = self.left.pop(i)
        self.chosen[placeholder] = card
        return card

    def choose(self, state: State) -> Move | None:
        """The forward player's move (see the module docstring), or None when stuck."""
        spec = self.spec
        moves = legal_moves(spec, state)
        kind = {m: spec.piles[spec.index[m.dst]].kind for m in moves if m.dst is not None}
        up = [m for m in moves if kind.get(m) is PileKind.FOUNDATION]
        from_cells = [m for m in up if spec.piles[spec.index[m.src]].kind is PileKind.RESERVE]
        if from_cells or up:
            pool = from_cells or up
            return pool[self.below(len(pool))]
        to_cells = [m for m in moves if kind.get(m) is PileKind.RESERVE]
        wanted = foundation_targets(spec, state)
        useful = [m for m in to_cells if _uncovers(state, spec.index[m.src], wanted)]
        if useful:
            return useful[self.below(len(useful))]
        stock = [m for m in moves if m.dst is None]
        if stock:
            return stock[0]
        if to_cells:
            return to_cells[self.below(len(to_cells))]
        return None


def _uncovers(state: State, pile: int, wanted: dict[Card, list[int]]) -> bool:
    p = state.piles[pile]
    return len(p) > 1 and p[-2] in wanted
