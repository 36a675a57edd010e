"""Replays: the positions of a stored game's line, step by step, as player views.

The line is replayed with the engine (every move checked) from the deal's start; step
``k`` is the position after the first ``k`` moves, shown exactly as the player saw it then
(:func:`pasyans.engine.player_view`: face-down cards stay ``null``). Only the moves that
led to the game's final position are replayed: undone moves (the redo list) never show.
The positions of a game version are kept in a small per-process LRU, so stepping through a
replay costs one rebuild.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from pasyans import deals
from pasyans.engine import player_view
from pasyans.engine.core import play_checked
from pasyans.engine.moves import FOLLOW_UP, Move
from pasyans.errors import PasyansError, SavedGameError
from pasyans.position import State
from pasyans.rules import get_game
from pasyans.rules.registry import RULES_VERSION
from pasyans.rules.spec import GameSpec
from pasyans.server.storage.store import AnyRow


@dataclass(frozen=True)
class Line:
    """The positions of one game's line: ``states[k]`` after ``k`` moves."""

    spec: GameSpec
    moves: tuple[str, ...]
    states: tuple[State, ...]


def build_line(row: AnyRow) -> Line:
    """Replay the row's moves from its deal (raises :class:`SavedGameError` if they do not
    replay, e.g. under other rules)."""
    if row.rules_version != RULES_VERSION:
        raise SavedGameError("the game was played under other rules and cannot be replayed")
    spec = get_game(row.game, row.options)
    state = deals.saved_start(spec, row.deal, row.kind, row.start, row.difficulty)
    states = [state]
    try:
        for text in row.moves:
            state = play_checked(spec, state, Move.parse(text.removeprefix(FOLLOW_UP)))
            states.append(state)
    except PasyansError as e:
        raise SavedGameError(f"the saved game does not replay: {e}") from e
    return Line(spec=spec, moves=tuple(row.moves), states=tuple(states))


class LineCache:
    """A small LRU of replayed lines, keyed by (game id, version)."""

    def __init__(self, size: int = 16) -> None:
        self.size = size
        self._items: OrderedDict[tuple[str, int], Line] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, row: AnyRow) -> Line:
        key = (row.id, row.version)
        with self._lock:
            line = self._items.get(key)
            if line is not None:
                self._items.move_to_end(key)
                return line
        line = build_line(row)
        with self._lock:
            self._items[key] = line
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return line


LINES = LineCache()


def step_view(row: AnyRow, line: Line, step: int) -> dict[str, Any]:
    """The player view after ``step`` moves (0 … len(moves)); no legal moves listed (a
    replay is not played), counters from the replayed line."""
    step = max(0, min(step, len(line.moves)))
    return player_view(
        line.spec,
        line.states[step],
        deal=row.deal,
        moves_made=step,
        can_undo=False,
        can_redo=False,
        legal=[],
    )


def replay(row: AnyRow, step: int) -> dict[str, Any]:
    """The replay answer for ``step`` (clamped to the line)."""
    line = LINES.get(row)
    step = max(0, min(step, len(line.moves)))
    return {
        "step": step,
        "steps": len(line.moves),
        "moves": list(line.moves),
        "view": step_view(row, line, step),
    }
