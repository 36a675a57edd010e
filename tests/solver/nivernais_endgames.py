"""Small Nivernais end games where the up and down foundations of a suit cross: the
loose cards are what one or two suits still need, scattered over the columns, a few
reserve cells and the stock (SplitMix64 from a seed), in a chosen pass."""

from __future__ import annotations

from pasyans.cards import SplitMix64
from pasyans.engine.core import apply, legal_moves
from pasyans.position import State, Table
from pasyans.rules import get_game
from pasyans.rules.spec import GameSpec


def crossing_endgame(
    seed: int, loose: int = 12, redeals: int = 2, cells: int = 4, stock: int = 0
) -> tuple[GameSpec, State]:
    """About ``loose`` cards off the foundations (from one or two suits whose up and
    down foundations stand at random ranks), at most ``cells`` of them in reserve cells
    and ``stock`` in the stock, the rest in the six columns; ``redeals`` already used."""
    spec = get_game("nivernais")
    rng = SplitMix64(seed)
    t = Table.empty(len(spec.piles))
    t.redeals = redeals
    first = rng.below(4)
    open_suits = [(first + i) % 4 for i in range(1 + rng.below(4))]
    share = max(2, loose // len(open_suits))
    cards: list[int] = []
    for suit in range(4):
        up, down = 13, 1  # ranks on top of the up and down foundations (down: 1 = full)
        if suit in open_suits:
            up_need = min(13, rng.below(share + 1))
            up, down = 13 - up_need, 1 + min(13, share - up_need)
            cards += [(r - 1) << 2 | suit for r in range(up + 1, 14)]
            cards += [(r - 1) << 2 | suit for r in range(1, down)]
        t.piles[spec.index[f"f{suit + 1}"]] = tuple((r - 1) << 2 | suit for r in range(1, up + 1))
        t.piles[spec.index[f"f{suit + 5}"]] = tuple(
            (r - 1) << 2 | suit for r in range(13, down - 1, -1)
        )
    cards.sort(key=lambda _: rng.next())
    n_cells = min(cells, len(cards) // 2)
    for i in range(n_cells):
        t.piles[spec.index[f"r{i + 1}"]] = (cards.pop(),)
    return spec, _lay(spec, t, rng, cards, min(stock, len(cards) // 2), 3)


def _lay(
    spec: GameSpec, t: Table, rng: SplitMix64, cards: list[int], n_stock: int, most: int
) -> State:
    """``n_stock`` of ``cards`` (from the end) into the stock, the rest scattered over the
    first one to ``most`` columns."""
    if n_stock:
        t.piles[spec.index["stock"]] = tuple(cards.pop() for _ in range(n_stock))
    cols = 1 + rng.below(most)
    for c in cards:
        t.put(spec.index[f"t{1 + rng.below(cols)}"], (c,))
    return t.freeze()


def locked_endgame(seed: int, loose: int = 16, stock: int = 4) -> tuple[GameSpec, State]:
    """A final-pass end game with the eight reserve cells full, made for the cell lock
    (``nivernais.locked``) to matter: ``crossing_endgame``'s loose cards, the eight
    furthest in rank from their suit's foundations in the cells, ``stock`` of the rest in
    the stock and the others in one or two columns."""
    spec, state = crossing_endgame(seed, loose, 2, 0, 0)
    t = Table(state)
    rng = SplitMix64(seed + 1000)
    founds = [len(t.piles[spec.index[f"f{i}"]]) for i in range(1, 9)]
    cards: list[int] = []
    for i in range(1, 7):
        cards += t.piles[spec.index[f"t{i}"]]
        t.piles[spec.index[f"t{i}"]] = ()

    def gap(card: int) -> int:
        r, s = (card >> 2) + 1, card & 3
        up, down = founds[s], 14 - founds[s + 4]
        return min(abs(r - up), abs(down - r))

    cards.sort(key=lambda c: (-gap(c), rng.next()))
    for i in range(min(8, len(cards) - 2)):
        t.piles[spec.index[f"r{i + 1}"]] = (cards.pop(0),)
    cards.sort(key=lambda _: rng.next())
    return spec, _lay(spec, t, rng, cards, min(stock, len(cards) - 1), 2)


def playout(spec: GameSpec, state: State, seed: int, steps: int) -> list[State]:
    """Positions along a random play-out (foundation moves preferred, so it gets far)."""
    rng = SplitMix64(seed)
    out = [state]
    for _ in range(steps):
        moves = legal_moves(spec, state)
        if not moves:
            break
        up = [m for m in moves if m.dst is not None and m.dst.startswith("f")]
        pick = up if up and rng.below(3) else moves
        state = apply(spec, state, pick[rng.below(len(pick))])
        out.append(state)
    return out
