"""The app's cache of the leaderboards' tops (docs/daily.md): per board and order, the top
rows with their names and the deal's number, so that a leaderboard request whose board
has not changed reads only what is the viewer's own (one statement).

An entry holds while its stamp, the board's count of clean wins when it was read, is
still the board's count (a new clean win changes the top only by adding to the count),
and for at most :attr:`TopCache.ttl` seconds: a name set or reported through another
worker shows within that time; through this one at once (:meth:`TopCache.clear`).
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class TopRow:
    player: int
    name: str | None
    """The name as everyone sees it (None: hidden, or none set)."""
    time_ms: int
    moves: int


@dataclass(frozen=True)
class Top:
    stamp: int
    rows: tuple[TopRow, ...]
    deal: int | None
    until: float
    ladder: tuple[tuple[tuple[Any, ...], int], ...] = ()
    """Every 100th order key of the first 10,000 clean wins, with how many wins come
    strictly before it (a rank then counts at most about 100 index entries)."""


class TopCache:
    """A bounded, thread-safe map of (board, order) to :class:`Top` (least recently used
    first out)."""

    def __init__(self, size: int = 1024, ttl: float = 5.0) -> None:
        self.size = size
        self.ttl = ttl
        self._entries: OrderedDict[tuple[Any, ...], Top] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, board: Any, by: str) -> Top | None:
        """The entry, if it is younger than :attr:`ttl` (its stamp is the caller's check)."""
        with self._lock:
            found = self._entries.get((board, by))
            if found is None or found.until < time.monotonic():
                return None
            self._entries.move_to_end((board, by))
            return found

    def put(
        self,
        board: Any,
        by: str,
        stamp: int,
        rows: list[TopRow],
        deal: int | None,
        ladder: tuple[tuple[tuple[Any, ...], int], ...] = (),
    ) -> Top:
        top = Top(stamp, tuple(rows), deal, time.monotonic() + self.ttl, ladder)
        with self._lock:
            self._entries[(board, by)] = top
            self._entries.move_to_end((board, by))
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)
        return top

    def clear(self) -> None:
        """Forget every entry (a name set or reported, a player's results moved or gone)."""
        with self._lock:
            self._entries.clear()
