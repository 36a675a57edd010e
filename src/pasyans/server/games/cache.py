"""A small per-process LRU of rebuilt :class:`~pasyans.engine.Game` objects.

Keyed by (game row id, version): a version names exactly one position, so an entry can
never be stale, and the database stays the source of truth (several worker processes each
keep their own cache). A request *takes* its entry out while it works on the game, so no
two requests ever share a mutable Game.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from pasyans.engine import Game


class GameCache:
    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[tuple[str, int], Game] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def take(self, game_id: str, version: int) -> Game | None:
        with self._lock:
            game = self._items.pop((game_id, version), None)
            if game is None:
                self.misses += 1
            else:
                self.hits += 1
            return game

    def put(self, game_id: str, version: int, game: Game) -> None:
        if self.size <= 0:
            return
        with self._lock:
            self._items[(game_id, version)] = game
            self._items.move_to_end((game_id, version))
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def __len__(self) -> int:
        return len(self._items)
