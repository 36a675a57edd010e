"""Random spine piles for the tests of the dead-spine and relaxed-spine-game proofs."""

from __future__ import annotations

from dataclasses import dataclass

from pasyans.cards import SplitMix64


@dataclass(frozen=True)
class RandomSpines:
    """Two decks' cards (suit in the low 2 bits, rank above): the top card of each of the
    8 foundations (-1: empty), the two spine piles (up to 11 cards each), the tailbone
    (0 or 1 card) and the rest (shuffled: a stock)."""

    tops: tuple[int, ...]
    pa: tuple[int, ...]
    pb: tuple[int, ...]
    tail: tuple[int, ...]
    rest: tuple[int, ...]

    @property
    def lock(self) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
        """``(pa, pb, tail, sorted tops)``: the arguments of ``spinelock``'s proofs."""
        return self.pa, self.pb, self.tail, tuple(sorted(self.tops))


def random_spines(seed: int) -> RandomSpines:
    rng = SplitMix64(seed)
    tops: list[int] = []
    per_suit = [0, 0, 0, 0]
    for _ in range(8):
        suit = rng.below(4)
        if per_suit[suit] < 2 and rng.below(3):
            per_suit[suit] += 1
            tops.append((rng.below(13) << 2) | suit)
        else:
            tops.append(-1)
    rest = [c for c in range(52) for _ in range(2)]
    for t in tops:
        for c in range(t & 3, t + 1, 4) if t >= 0 else ():
            rest.remove(c)
    for j in range(len(rest) - 1, 0, -1):
        r = rng.below(j + 1)
        rest[j], rest[r] = rest[r], rest[j]
    na, nb, nt = rng.below(12), rng.below(12), rng.below(2)
    return RandomSpines(
        tuple(tops),
        tuple(rest[:na]),
        tuple(rest[na : na + nb]),
        tuple(rest[na + nb : na + nb + nt]),
        tuple(rest[na + nb + nt :]),
    )
