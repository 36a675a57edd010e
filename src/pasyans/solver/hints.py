"""Hints that never cheat, and "is this still winnable?".

- No hidden card (Spine always; the other games once nothing is face down and the stock is
  empty): the hint is the first move of a win the exact search finds within the budget;
  when the search proves there is no win, or runs out of time, the hint says so.
- A win or a loss once found is remembered by position (:data:`LINES`), so following the
  hints, or asking twice, costs no new search.
- Hidden cards: the position is first projected to what the player sees
  (:func:`visible`: every face-down and stock card becomes the same placeholder), and only
  that projection reaches the ranked heuristic. The true hidden cards are never read.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from pasyans.engine import core
from pasyans.engine.moves import Move
from pasyans.position import State
from pasyans.rules.spec import Build, GameSpec, PileKind
from pasyans.solver.search import solve

HIDDEN = 1000
"""The placeholder for a card the player cannot see. It matches no rank and no suit, so no
rule ever lets it move or take a card."""

Winnable = Literal["won", "lost", "unknown"]


@dataclass(frozen=True)
class Hint:
    """One suggested move, or none. ``winnable``: True when a win from here was found,
    False when proven lost, None when unknown (or hidden cards make it unknowable)."""

    move: Move | None
    source: str  # "solver", "heuristic" or "none"
    winnable: bool | None
    message: str
    message_ru: str = ""


class Lines:
    """What earlier searches found, by exact position (bounded, least recently used first
    out, thread-safe): the next move of a found win for every position along its line, and
    the positions proven lost. A player who follows a hint then gets the next hint at once,
    and asking again in a lost position needs no new proof. Only full-information
    positions are stored, so nothing here can leak a hidden card."""

    def __init__(self, size: int = 100_000) -> None:
        self.size = size
        self._lock = threading.Lock()
        self._data: OrderedDict[tuple[int, State], tuple[GameSpec, Move | None]] = OrderedDict()

    def get(self, spec: GameSpec, state: State) -> tuple[bool, Move | None]:
        """``(True, move)``: a win starts with ``move``; ``(True, None)``: proven lost;
        ``(False, None)``: nothing known."""
        key = (id(spec), state)
        with self._lock:
            entry = self._data.get(key)
            if entry is None or entry[0] is not spec:
                return False, None
            self._data.move_to_end(key)
            return True, entry[1]

    def _put(self, spec: GameSpec, state: State, move: Move | None) -> None:
        key = (id(spec), state)
        self._data[key] = (spec, move)
        self._data.move_to_end(key)
        while len(self._data) > self.size:
            self._data.popitem(last=False)

    def won(self, spec: GameSpec, state: State, moves: Sequence[Move]) -> None:
        """Remember the win ``moves`` from ``state``: each position on it, its next move."""
        with self._lock:
            for m in moves:
                self._put(spec, state, m)
                state = core.apply(spec, state, m)

    def lost(self, spec: GameSpec, state: State) -> None:
        with self._lock:
            self._put(spec, state, None)

    def clear(self) -> None:
        with self._lock:
            self._data.clear()


LINES = Lines()
"""The process-wide memory of :func:`suggest` and :func:`winnable`."""


def _search(spec: GameSpec, state: State, seconds: float) -> tuple[Winnable, Move | None]:
    """The exact answer for a full-information ``state``, from :data:`LINES` when an
    earlier search already found it; a new result is remembered."""
    known, move = LINES.get(spec, state)
    if known:
        return ("won", move) if move is not None else ("lost", None)
    result = solve(spec, state, seconds=seconds)
    if result.result == "won":
        LINES.won(spec, state, result.moves)
        return "won", result.moves[0]
    if result.result == "lost":
        LINES.lost(spec, state)
    return result.result, None


def visible(spec: GameSpec, state: State) -> State:
    """The position as the player sees it: face-down and stock cards replaced by
    :data:`HIDDEN` (their number stays visible, their identity does not)."""
    piles = list(state.piles)
    for i, p in enumerate(spec.piles):
        pile = piles[i]
        n = len(pile) if p.kind is PileKind.STOCK else min(state.down[i], len(pile))
        if n:
            piles[i] = (HIDDEN,) * n + pile[n:]
    return State(tuple(piles), state.down, state.redeals)


def suggest(
    spec: GameSpec, state: State, *, seconds: float = 1.0, history: Sequence[State] = ()
) -> Hint:
    """A hint for ``state``: from the exact search when no card is hidden, otherwise from
    the visible cards alone. ``history``: positions already played (not suggested again
    by the heuristic). ``seconds`` bounds the search."""
    if core.is_won(spec, state):
        return Hint(None, "none", True, "The game is won.", "Партия выиграна.")
    if core.has_hidden_cards(spec, state):
        view = visible(spec, state)
        move = heuristic_move(spec, view, [visible(spec, h) for h in history])
        if move is None:
            return Hint(
                None, "none", None, "No useful move is in sight.", "Полезного хода не видно."
            )
        return Hint(
            move,
            "heuristic",
            None,
            "A move that looks useful (cards are still hidden).",
            "Этот ход выглядит полезным (часть карт ещё скрыта).",
        )
    outcome, first = _search(spec, state, seconds)
    if first is not None:
        return Hint(first, "solver", True, "This move starts a win.", "Этот ход ведёт к победе.")
    if outcome == "lost":
        return Hint(
            None,
            "solver",
            False,
            "No win is possible from here: undo, or start a new deal.",
            "Отсюда выиграть нельзя: отмените ходы или начните новую раздачу.",
        )
    move = heuristic_move(spec, state, history)
    message = "No win was found in the time allowed; this move looks useful."
    message_ru = "За отведённое время победа не найдена; этот ход выглядит полезным."
    if move is None:
        return Hint(
            None,
            "none",
            None,
            "No win was found in the time allowed.",
            "За отведённое время победа не найдена.",
        )
    return Hint(move, "heuristic", None, message, message_ru)


def winnable(spec: GameSpec, state: State, *, seconds: float = 1.0) -> Winnable:
    """Is this still winnable? ``won`` (a win was found), ``lost`` (proven) or ``unknown``.

    With hidden cards the answer comes from the player's view only: ``lost`` when no move,
    deal or redeal is left, ``won`` when the game is won, otherwise ``unknown``.
    """
    if core.is_won(spec, state):
        return "won"
    if core.has_hidden_cards(spec, state):
        return "lost" if core.is_stuck(spec, visible(spec, state)) else "unknown"
    return _search(spec, state, seconds)[0]


def heuristic_move(spec: GameSpec, state: State, history: Sequence[State] = ()) -> Move | None:
    """The best-ranked move by visible features, or None when no move looks useful.
    Call it on :func:`visible` positions when cards are hidden."""
    seen = set(history)
    best: tuple[int, Move] | None = None
    for m in core.legal_moves(spec, state):
        after = core.apply(spec, state, m)
        if after in seen:
            continue  # going back to a position already seen is not progress
        value = _value(spec, state, m, after)
        if value > 0 and (best is None or value > best[0]):
            best = (value, m)
    return None if best is None else best[1]


def _value(spec: GameSpec, before: State, move: Move, after: State) -> int:
    if move.dst is None:
        return 1
    dst = spec.index[move.dst]
    dst_kind = spec.piles[dst].kind
    src = spec.index[move.src]
    src_kind = spec.piles[src].kind
    gained = core.cards_on_foundations(spec, after) - core.cards_on_foundations(spec, before)
    value = 100 * max(gained, 0)
    if dst_kind is PileKind.FOUNDATION:
        value += 50
    if sum(after.down) < sum(before.down):
        value += 40  # turns up a card
    if not after.piles[src]:
        value += 20  # empties a pile
    pile = before.piles[src]
    left = len(pile) - move.cards
    if dst_kind is PileKind.COLUMN and before.piles[dst]:
        value += 10
        if before.piles[dst][-1] - pile[left] == 4:
            value += 5  # builds in suit
        if src_kind is PileKind.COLUMN and left > before.down[src]:
            below = pile[left - 1]
            if below - pile[left] == 4 or (
                spec.column_build is Build.DOWN_ANY and (below >> 2) - (pile[left] >> 2) == 1
            ):
                value -= 30  # it already sits on a card it builds on: moving it gains nothing
    if src_kind in (PileKind.SPINE, PileKind.TAILBONE, PileKind.WASTE):
        value += 5
    if src_kind is PileKind.FOUNDATION:
        value -= 30
    return value
