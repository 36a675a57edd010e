"""Autocollect's search where foundations go up and down fixed by suit (Nivernais).

Each suit has one foundation up from its Ace and one down from its King, so a foundation's
cards follow from how many it holds, and a position of the search is two tuples of
lengths: the cards left in each table pile and the cards on each foundation. A move is a
few integer steps, not a new :class:`~pasyans.position.State` (the general path built one
per position: 5,000 positions took up to 357 ms, issue 33). A card whose twin is already
on a foundation has one foundation left for good; when that one takes it now it is played
at once (nothing else can go there before it, so playing it first never spoils a win).
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from pasyans.cards import Card

NODES = 200_000
"""A backstop on positions visited; the time limit below is what normally ends a search."""


def collect_up_down(
    piles: Sequence[Sequence[Card]],
    foundations: Sequence[Sequence[Card]],
    seconds: float,
) -> list[tuple[int, int]] | None:
    """Steps ``(table pile, foundation)`` (indexes into the two lists) that bring every
    card up, or None when none is found within ``seconds`` of this thread's CPU time
    (:func:`time.thread_time`: other threads and processes do not shorten it) or within
    :data:`NODES` positions.

    ``foundations``: 8 piles, the first 4 up from the Ace of suit ``n % 4``, the last 4
    down from its King (:func:`pasyans.engine.core.foundation_targets`).

    Long because the search is one loop over an explicit stack, with its memory and its CPU
    clock inline: the whole search runs within a budget of 50 ms."""
    lens = [len(p) for p in piles]
    flen = [len(f) for f in foundations]
    placed: dict[Card, int] = {}
    for f in foundations:
        for c in f:
            placed[c] = placed.get(c, 0) + 1
    deadline = time.thread_time() + seconds
    seen: set[tuple[int, ...]] = set()
    steps: list[tuple[int, int]] = []
    left = [NODES]
    total = sum(lens)

    # WANT[f][n]: the card foundation f takes when it holds n cards (-1: it is full).
    want_at = [
        [(n * 4 + f % 4 if f < 4 else (12 - n) * 4 + f % 4) for n in range(13)] + [-1]
        for f in range(len(flen))
    ]
    fronts = range(len(flen))
    table = range(len(lens))

    def moves() -> list[tuple[int, int, bool]]:
        want: dict[Card, list[int]] = {}
        for f in fronts:
            c = want_at[f][flen[f]]
            if c >= 0:
                if c in want:
                    want[c].append(f)
                else:
                    want[c] = [f]
        out: list[tuple[int, int, bool]] = []
        for i in table:
            n = lens[i]
            if n:
                c = piles[i][n - 1]
                fs = want.get(c)
                if fs is not None:
                    sure = c in placed and placed[c] >= 1
                    out.extend((i, f, sure) for f in fs)
        return out

    def play(i: int, f: int) -> None:
        c = piles[i][lens[i] - 1]
        lens[i] -= 1
        flen[f] += 1
        placed[c] = placed.get(c, 0) + 1
        steps.append((i, f))

    def take_back(k: int) -> None:
        for _ in range(k):
            i, f = steps.pop()
            lens[i] += 1
            flen[f] -= 1
            placed[piles[i][lens[i] - 1]] -= 1

    def search() -> bool:
        forced = 0
        while True:
            options = moves()
            sure = next((m for m in options if m[2]), None)
            if sure is None:
                break
            play(sure[0], sure[1])
            forced += 1
        if len(steps) == total:
            return True
        key = (*lens, *flen)
        if key in seen or left[0] <= 0 or time.thread_time() > deadline:
            take_back(forced)
            return False
        seen.add(key)
        left[0] -= 1
        for i, f, _ in options:
            play(i, f)
            if search():
                return True
            take_back(1)
        take_back(forced)
        return False

    return list(steps) if search() else None
