"""``hints.halving``: successive halving gives the candidates still alive the same
samples, keeps the better half each round, and stops when a round comes back short."""

from __future__ import annotations

from collections.abc import Sequence

from pasyans.hints import halving


def test_the_better_half_goes_on_with_the_same_samples() -> None:
    seen: list[tuple[tuple[int, ...], int, int]] = []

    def play(alive: Sequence[int], drawn: int, batch: int) -> tuple[int, list[int], list[int]]:
        seen.append((tuple(alive), drawn, batch))
        return batch, [c * batch for c in alive], [batch if c == 4 else 0 for c in alive]

    h = halving.halve(5, 60, play)
    assert halving.rounds(5) == 3 and halving.rounds(1) == 1
    # 3 rounds: 60 // (3 x 5) = 4 samples each, then the best 3 get 60 // 9 = 6, then 2 get 10
    assert seen == [((0, 1, 2, 3, 4), 0, 4), ((4, 3, 2), 4, 6), ((4, 3), 10, 10)]
    assert h.best == 4 and h.counts == (4, 4, 10, 20, 20) and h.wins[4] == 20
    assert h.totals == (0, 4, 20, 60, 80)


def test_a_short_round_ends_it_and_a_single_candidate_is_capped() -> None:
    def short(alive: Sequence[int], drawn: int, batch: int) -> tuple[int, list[int], list[int]]:
        return 1, [1 if c == 2 else 0 for c in alive], [0] * len(alive)

    h = halving.halve(4, 400, short)
    assert h.counts == (1, 1, 1, 1) and h.best == 2  # stopped after the first round

    batches: list[int] = []

    def one(alive: Sequence[int], drawn: int, batch: int) -> tuple[int, list[int], list[int]]:
        batches.append(batch)
        return batch, [0], [0]

    assert halving.halve(1, 400, one, alone=16).counts == (16,) and batches == [16]
