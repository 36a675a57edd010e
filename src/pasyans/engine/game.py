"""A game being played: history, unlimited undo and redo, counters, saving and replay."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pasyans.engine import core
from pasyans.engine.moves import Move, parse_move
from pasyans.engine.view import player_view
from pasyans.errors import (
    NothingToRedoError,
    NothingToUndoError,
    PasyansError,
    SavedGameError,
)
from pasyans.position import Event, State
from pasyans.rules.registry import RULES_VERSION, get_game
from pasyans.rules.spec import GameSpec


class Game:
    """One deal of one game, with its move history.

    >>> g = Game("spider", deal=1, options={"suits": "1"})
    >>> events = g.play(g.legal_moves()[0])
    >>> g.moves_made, g.score
    (1, 499)
    >>> g.undo()
    Move.parse('t1>t5')
    >>> g.moves_made, g.undos, g.score
    (0, 1, 500)
    """

    def __init__(
        self,
        game_id: str,
        deal: int,
        options: Mapping[str, object] | None = None,
        *,
        start: State | None = None,
        kind: str = "random",
    ) -> None:
        self.spec: GameSpec = get_game(game_id, options)
        self.deal = core.check_deal_number(deal)
        self.kind = kind
        """How deal numbers become layouts: ``random`` (the plain shuffle) or ``solvable``
        (see :mod:`pasyans.deals`); ``start`` must then be given."""
        self.start = start if start is not None else core.initial_state(self.spec, deal)
        self._states: list[State] = [self.start]
        self._moves: list[Move] = []
        self._cursor = 0
        self.undos = 0
        self.hints = 0
        self._legal: tuple[State, list[Move]] | None = None

    # --- reading -------------------------------------------------------------------------

    @property
    def id(self) -> str:
        return self.spec.id

    @property
    def options(self) -> dict[str, str]:
        return dict(self.spec.option_values)

    @property
    def state(self) -> State:
        return self._states[self._cursor]

    @property
    def moves(self) -> list[Move]:
        """The moves that led to the current position."""
        return self._moves[: self._cursor]

    @property
    def moves_made(self) -> int:
        return self._cursor

    @property
    def can_undo(self) -> bool:
        return self._cursor > 0

    @property
    def can_redo(self) -> bool:
        return self._cursor < len(self._moves)

    def legal_moves(self) -> list[Move]:
        if self._legal is None or self._legal[0] is not self.state:
            self._legal = (self.state, core.legal_moves(self.spec, self.state))
        return list(self._legal[1])

    @property
    def won(self) -> bool:
        return core.is_won(self.spec, self.state)

    @property
    def stuck(self) -> bool:
        return core.is_stuck(self.spec, self.state)

    @property
    def score(self) -> int:
        return core.score(self.spec, self.state, self.moves_made)

    def autocollect_available(self) -> bool:
        return core.autocollect_moves(self.spec, self.state) is not None

    def smart_moves(self, pile_id: str, index: int | None = None) -> list[Move]:
        return core.smart_moves(self.spec, self.state, pile_id, index)

    def view(self) -> dict[str, Any]:
        """The player view (no face-down card's identity)."""
        return player_view(
            self.spec,
            self.state,
            deal=self.deal,
            moves_made=self.moves_made,
            undos=self.undos,
            hints=self.hints,
            can_undo=self.can_undo,
            can_redo=self.can_redo,
            legal=self.legal_moves(),
        )

    # --- playing -------------------------------------------------------------------------

    def play(self, move: Move | str | Mapping[str, Any]) -> list[Event]:
        """Play a move (a :class:`Move`, its text or its JSON); returns what happened.

        Raises :class:`~pasyans.errors.InvalidMoveError` for bad notation and
        :class:`~pasyans.errors.IllegalMoveError` when it is not legal; nothing changes then.
        Playing drops the redo list.
        """
        m = move if isinstance(move, Move) else parse_move(move)
        events: list[Event] = []
        new = core.play_checked(self.spec, self.state, m, events)
        self._push(m, new)
        return events

    def _push(self, move: Move, new: State) -> None:
        del self._moves[self._cursor :]
        del self._states[self._cursor + 1 :]
        self._moves.append(move)
        self._states.append(new)
        self._cursor += 1

    def undo(self) -> Move:
        """Take back the last move with all its automatic follow-ups; returns it."""
        if not self.can_undo:
            raise NothingToUndoError("there is no move to undo")
        self._cursor -= 1
        self.undos += 1
        return self._moves[self._cursor]

    def redo(self) -> list[Event]:
        """Play the last undone move again."""
        if not self.can_redo:
            raise NothingToRedoError("there is no move to redo")
        move = self._moves[self._cursor]
        events: list[Event] = []
        core.apply(self.spec, self._states[self._cursor], move, events)
        self._cursor += 1
        return events

    def autocollect(self) -> list[Event]:
        """Play every remaining card up to the foundations (only when the engine proves it
        possible); each card is one move."""
        moves = core.autocollect_moves(self.spec, self.state)
        if moves is None:
            raise PasyansError("autocollect is not available here", "no_autocollect")
        events: list[Event] = []
        for m in moves:
            events.extend(self.play(m))
        return events

    def restart(self) -> None:
        """The same deal from the start, with fresh counters."""
        self._states = [self.start]
        self._moves = []
        self._cursor = 0
        self.undos = 0
        self.hints = 0

    # --- saving --------------------------------------------------------------------------

    def to_saved(self) -> dict[str, Any]:
        """Game id, options, deal number, rules version and the move list."""
        return {
            "game": self.id,
            "options": self.options,
            "deal": self.deal,
            "kind": self.kind,
            "rules_version": RULES_VERSION,
            "moves": [m.to_str() for m in self.moves],
        }

    @classmethod
    def from_saved(cls, saved: Mapping[str, Any], *, start: State | None = None) -> Game:
        """Rebuild a saved game by replaying its moves; raises :class:`SavedGameError`.

        A ``solvable`` deal needs its ``start`` (use :func:`pasyans.deals.load_game`)."""
        try:
            game = cls(
                saved["game"],
                saved["deal"],
                saved.get("options"),
                start=start,
                kind=saved.get("kind", "random"),
            )
            if saved.get("rules_version", RULES_VERSION) != RULES_VERSION:
                raise SavedGameError("saved with other rules")
            for text in saved.get("moves", []):
                game.play(text)
        except KeyError as e:
            raise SavedGameError(f"a saved game needs {e}") from e
        except PasyansError as e:
            if isinstance(e, SavedGameError):
                raise
            raise SavedGameError(f"the saved game does not replay: {e}") from e
        return game
