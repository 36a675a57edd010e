"""Autocollect where foundations go up and down by suit (Nivernais): the search runs on
pile lengths, bounded by 50 ms of CPU, and finds proofs the old 5,000-position search
missed (issue 33: that one also took up to 357 ms)."""

from __future__ import annotations

import inspect
import random

from pasyans.engine.core import apply, autocollect_moves, is_won
from pasyans.position import State
from pasyans.rules import get_game
from pasyans.rules.spec import PileKind

NIVERNAIS = get_game("nivernais")


def scattered(seed: int) -> State:
    """A won Nivernais table whose 78 last foundation cards were taken back onto the
    columns (a few to cells) at random: a proof that they all go up exists."""
    rng = random.Random(seed)
    spec = NIVERNAIS
    found = spec.indexes_of(PileKind.FOUNDATION)
    cols = spec.indexes_of(PileKind.COLUMN)
    cells = spec.indexes_of(PileKind.RESERVE)
    piles: list[list[int]] = [[] for _ in spec.piles]
    for nth, f in enumerate(found):
        s = nth % 4
        piles[f] = (
            [r * 4 + s for r in range(13)] if nth < 4 else [(12 - r) * 4 + s for r in range(13)]
        )
    for _ in range(78):
        f = rng.choice([f for f in found if piles[f]])
        c = piles[f].pop()
        free = [r for r in cells if not piles[r]]
        dest = rng.choice([*cols, *free[:1]]) if free and rng.random() < 0.15 else rng.choice(cols)
        piles[dest].append(c)
    return State(tuple(tuple(p) for p in piles), tuple(0 for _ in piles), 2)


def test_autocollect_finds_a_proof_the_old_budget_missed() -> None:
    # Seed 78: the old search gave up after 5,000 positions (645 ms of CPU); this one
    # finds the proof in 30-40 ms of CPU here. That is too close to the default bound
    # (50 ms) for a test on a shared machine, so the bound is given: what is tested is
    # that the search finds what the old one missed, not how fast.
    s = scattered(78)
    moves = autocollect_moves(NIVERNAIS, s, seconds=1.0)
    assert moves is not None and len(moves) == 78
    for m in moves:
        s = apply(NIVERNAIS, s, m)
    assert is_won(NIVERNAIS, s)


def test_autocollect_answers_none_when_its_time_is_up() -> None:
    assert inspect.signature(autocollect_moves).parameters["seconds"].default == 0.05
    assert autocollect_moves(NIVERNAIS, scattered(78), seconds=0.0) is None
    easy = scattered(2)
    assert autocollect_moves(NIVERNAIS, easy) is not None
