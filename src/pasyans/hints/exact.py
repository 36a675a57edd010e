"""The hint's exact search of a full-information position, with the process-wide
memory of what earlier searches found (:data:`LINES`), and "is this still winnable?"."""

from __future__ import annotations

from collections.abc import Sequence

from pasyans import caches
from pasyans.engine import core
from pasyans.engine.moves import Move
from pasyans.hints.model import Winnable
from pasyans.hints.recent import Recent
from pasyans.hints.sampling import visible
from pasyans.hints.visible import hidden_to_player
from pasyans.position import State
from pasyans.rules.spec import GameSpec
from pasyans.solver.search import solve
from pasyans.solver.shorten import shortened


class Lines:
    """What earlier searches found, by exact position (bounded, least recently used first
    out, thread-safe): the next move of a found win for every position along its line, and
    the positions proven lost. A player who follows a hint then gets the next hint at once,
    and asking again in a lost position needs no new proof. Only full-information
    positions are stored, so nothing here can leak a hidden card."""

    def __init__(self, size: int = 100_000) -> None:
        self._memory: Recent[tuple[Move | None]] = Recent(size)  # (None,): proven lost

    @property
    def size(self) -> int:
        return self._memory.size

    def get(self, spec: GameSpec, state: State) -> tuple[bool, Move | None]:
        """``(True, move)``: a win starts with ``move``; ``(True, None)``: proven lost;
        ``(False, None)``: nothing known."""
        entry = self._memory.get(spec, state)
        if entry is None:
            return False, None
        return True, entry[0]

    def won(
        self, spec: GameSpec, state: State, moves: Sequence[Move], keep: int | None = None
    ) -> tuple[Move, ...]:
        """Remember the win ``moves`` from ``state``: each position on it (the first
        ``keep`` of them when given), its next move. A line kept whole (the player's
        position: it is followed to the end) has its detours cut first
        (:func:`shortened`: a search's first win can be many times longer than need be);
        a sample's line, kept in part, is not (it would cost every sample's search up to
        0.07 s, and the sampled votes would change). Returns the line remembered."""
        short = shortened(spec, state, moves) if keep is None else tuple(moves)
        line: list[tuple[State, tuple[Move | None]]] = []
        for m in short[:keep]:
            line.append((state, (m,)))
            state = core.apply(spec, state, m)
        self._memory.put_all(spec, line)
        return short

    def lost(self, spec: GameSpec, state: State) -> None:
        self._memory.put(spec, state, (None,))

    def clear(self) -> None:
        self._memory.clear()


LINES = caches.register("hints.lines", Lines(), bound=100_000)
"""The process-wide memory of :func:`suggest` and :func:`winnable`."""


def _search(
    spec: GameSpec,
    state: State,
    seconds: float | None,
    nodes: int | None = None,
    keep: int | None = None,
) -> tuple[Winnable, Move | None]:
    """The exact answer for a full-information ``state``, from :data:`LINES` when an
    earlier search already found it; a new result is remembered (a win: the first
    ``keep`` positions of its line, all when None)."""
    known_, move = LINES.get(spec, state)
    if known_:
        return ("won", move) if move is not None else ("lost", None)
    result = solve(spec, state, seconds=seconds, nodes=nodes)
    if result.result == "won":
        return "won", LINES.won(spec, state, result.moves, keep)[0]
    if result.result == "lost":
        LINES.lost(spec, state)
    return result.result, None


def winnable(spec: GameSpec, state: State, *, seconds: float = 1.0) -> Winnable:
    """Is this still winnable? ``won`` (a win was found), ``lost`` (proven) or ``unknown``.

    With hidden cards the answer comes from the player's knowledge only: ``lost`` when no
    move, deal or redeal is left, ``won`` when the game is won, otherwise ``unknown``
    (:func:`estimate` then gives the sampled share).
    """
    if core.is_won(spec, state):
        return "won"
    if hidden_to_player(spec, state):
        return "lost" if core.is_stuck(spec, visible(spec, state)) else "unknown"
    return _search(spec, state, seconds)[0]
