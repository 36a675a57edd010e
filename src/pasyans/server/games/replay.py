"""Replays: the positions of a stored game's line, step by step, as player views.

The line is replayed with the engine (every move checked) from the deal's start; step
``k`` is the position after the first ``k`` moves, shown exactly as the player saw it then
(:func:`pasyans.engine.player_view`: face-down cards stay ``null``). Only the moves that
led to the game's final position are replayed: undone moves (the redo list) never show.
The newest line built for each game is kept in a small per-process LRU
(:data:`LINES`, registered in :mod:`pasyans.caches`), keyed by the game, not by its
version: a later version's line reuses the positions of the moves it shares with the
kept one and plays only the rest. Stepping through a replay costs nothing more, and a
new version (a move, an undo, a redo) costs work proportional to what its line adds,
not to the whole game (issue 33: undo and redo of a 5,000-move game, each followed by a
replay, took a core).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pasyans import caches, deals
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
    base: tuple[object, ...] = ()
    """What the line starts from (rules, game, options, deal, start): a kept line is
    reused only for the same base."""


def _base(row: AnyRow) -> tuple[object, ...]:
    return (
        row.rules_version,
        row.game,
        tuple(sorted(dict(row.options).items())),
        row.deal,
        row.kind,
        repr(row.start),
        row.difficulty,
    )


def build_line(row: AnyRow, kept: Line | None = None) -> Line:
    """Replay the row's moves from its deal (raises :class:`SavedGameError` if they do not
    replay, e.g. under other rules). With ``kept``, a line of the same game built
    before, the moves the two lines share are not played again."""
    return _build(row, kept)[0]


def _build(row: AnyRow, kept: Line | None) -> tuple[Line, int]:
    """:func:`build_line` and the number of moves it played."""
    if row.rules_version != RULES_VERSION:
        raise SavedGameError("the game was played under other rules and cannot be replayed")
    base = _base(row)
    moves: Sequence[str] = row.moves
    if kept is not None and kept.base == base:
        same = _shared(kept.moves, moves)
        spec, states = kept.spec, list(kept.states[: same + 1])
    else:
        same = 0
        spec = get_game(row.game, row.options)
        states = [deals.saved_start(spec, row.deal, row.kind, row.start, row.difficulty)]
    state = states[-1]
    try:
        for text in moves[same:]:
            state = play_checked(spec, state, Move.parse(text.removeprefix(FOLLOW_UP)))
            states.append(state)
    except PasyansError as e:
        raise SavedGameError(f"the saved game does not replay: {e}") from e
    line = Line(spec=spec, moves=tuple(moves), states=tuple(states), base=base)
    return line, len(moves) - same


def _shared(old: Sequence[str], new: Sequence[str]) -> int:
    """How many moves the two lines share from the start."""
    n = min(len(old), len(new))
    if tuple(old[:n]) == tuple(new[:n]):
        return n
    same = 0
    while old[same] == new[same]:
        same += 1
    return same


class LineCache:
    """A small LRU of replayed lines, the newest built for each game id (see the module
    doc): at most ``size`` games, each line at most the game's move cap of positions."""

    def __init__(self, size: int = 16) -> None:
        self.size = size
        self._items: OrderedDict[str, Line] = OrderedDict()
        self._lock = threading.Lock()
        self.played = 0
        """Moves played by the rebuilds so far (what the cache saves shows here)."""

    def get(self, row: AnyRow) -> Line:
        with self._lock:
            kept = self._items.get(row.id)
            if kept is not None:
                self._items.move_to_end(row.id)
        if kept is not None and kept.moves == tuple(row.moves) and kept.base == _base(row):
            return kept
        line, played = _build(row, kept)
        with self._lock:
            self.played += played
            self._items[row.id] = line
            self._items.move_to_end(row.id)
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return line

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self.played = 0


LINES = caches.register("server.replay_lines", LineCache(), bound=16)
"""The newest replayed line of each of the last 16 games replayed in this process."""


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
