"""A bounded, thread-safe memory of recent answers, per game spec.

The hint and solver memories (found lines, sampled tallies, chosen plans) all need the
same thing: a map that keeps the most recently used entries up to a size, that several
request threads may share, and whose entries belong to one :class:`GameSpec` object (an
entry stored for one spec is never served for another, even one that reuses its ``id``).
The least-recently-used bookkeeping is ``cachetools.LRUCache``; this adds the lock and the
spec check.
"""

from __future__ import annotations

import threading
from collections.abc import Hashable, Iterable
from typing import Generic, TypeVar

from cachetools import LRUCache

from pasyans.rules.spec import GameSpec

V = TypeVar("V")


class Recent(Generic[V]):
    """``(spec, key) -> value``, at most ``size`` entries, least recently used out."""

    def __init__(self, size: int) -> None:
        self._lock = threading.Lock()
        self._data: LRUCache[tuple[int, Hashable], tuple[GameSpec, V]] = LRUCache(maxsize=size)

    @property
    def size(self) -> int:
        return int(self._data.maxsize)

    def get(self, spec: GameSpec, key: Hashable) -> V | None:
        """The value stored for ``spec`` and ``key`` (now the most recent), else None."""
        with self._lock:
            entry = self._data.get((id(spec), key))
        if entry is None or entry[0] is not spec:
            return None
        return entry[1]

    def put(self, spec: GameSpec, key: Hashable, value: V) -> None:
        self.put_all(spec, [(key, value)])

    def put_all(self, spec: GameSpec, items: Iterable[tuple[Hashable, V]]) -> None:
        """Store several entries under one hold of the lock (a line's positions)."""
        with self._lock:
            for key, value in items:
                self._data[(id(spec), key)] = (spec, value)

    def __len__(self) -> int:
        with self._lock:
            return len(self._data)

    def clear(self) -> None:
        with self._lock:
            self._data.clear()
