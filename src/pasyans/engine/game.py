"""A game being played: history, unlimited undo and redo, counters, saving and replay."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pasyans.engine import auto as safe
from pasyans.engine import core
from pasyans.engine.moves import FOLLOW_UP, Move, parse_move
from pasyans.engine.view import player_view
from pasyans.errors import (
    IllegalMoveError,
    NothingToRedoError,
    NothingToUndoError,
    PasyansError,
    SavedGameError,
)
from pasyans.position import Event, State
from pasyans.rules.registry import RULES_VERSION, get_game
from pasyans.rules.spec import GameSpec, PileKind


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
        difficulty: str | None = None,
        generator: int | None = None,
    ) -> None:
        self.spec: GameSpec = get_game(game_id, options)
        self.deal = core.check_deal_number(deal)
        self.kind = kind
        """How deal numbers become layouts: ``random`` (the plain shuffle) or ``solvable``
        (see :mod:`pasyans.deals`); ``start`` must then be given."""
        self.difficulty = difficulty
        """A solvable deal's band (``easy``, ``medium``, ``hard``); None for random deals."""
        self.generator = generator
        """The version of the generator that made a solvable layout; None for random."""
        self.start = start if start is not None else core.initial_state(self.spec, deal)
        self._states: list[State] = [self.start]
        self._moves: list[Move] = []
        self._follow: list[bool] = []
        """``_follow[k]``: move ``k`` is a safe auto-move that followed move ``k - 1``
        (undone and redone with it)."""
        self._texts: list[str] = []
        """``_texts[k]``: move ``k`` as saved (:meth:`saved_moves`), made once when played,
        so saving a long line does not turn every move back into text each time."""
        self._cursor = 0
        self._saved = 0
        """The length of the line as last saved (:meth:`mark_saved`)."""
        self._low = 0
        """The first index of the line changed since then (``>= _saved``: only appended)."""
        self.undos = 0
        self.hints = 0
        self._legal: tuple[State, list[Move]] | None = None
        self._collect: tuple[State, bool] | None = None

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
        """Whether the engine proves that foundation moves alone finish the game (kept for
        the position: the view asks again for the same position)."""
        if self._collect is None or self._collect[0] is not self.state:
            found = core.autocollect_moves(self.spec, self.state) is not None
            self._collect = (self.state, found)
        return self._collect[1]

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
            autocollect=self.autocollect_available(),
        )

    # --- playing -------------------------------------------------------------------------

    def play(self, move: Move | str | Mapping[str, Any], *, auto: bool = False) -> list[Event]:
        """Play a move (a :class:`Move`, its text or its JSON); returns what happened.

        Raises :class:`~pasyans.errors.InvalidMoveError` for bad notation and
        :class:`~pasyans.errors.IllegalMoveError` when it is not legal; nothing changes then.
        Playing drops the redo list. ``auto``: the safe auto-moves to the foundations
        (:mod:`pasyans.engine.auto`) follow it, as part of the same undo step; their
        events carry ``"auto": True``.
        """
        m = move if isinstance(move, Move) else parse_move(move)
        events: list[Event] = []
        known = self._legal
        if m.dst is not None and known is not None and known[0] is self.state and m in known[1]:
            new = core.apply(self.spec, self.state, m, events)  # listed legal by the view
        else:
            new = core.play_checked(self.spec, self.state, m, events)
        self._push(m, new)
        if auto:
            events.extend(self._follow_up(m))
        return events

    def _follow_up(self, after: Move) -> list[Event]:
        events: list[Event] = []
        for m in safe.follow_ups(self.spec, self.state, after):
            mine: list[Event] = []
            self._push(m, core.apply(self.spec, self.state, m, mine), follow=True)
            events.extend({**e, "auto": True} for e in mine)
        return events

    def _push(self, move: Move, new: State, *, follow: bool = False) -> None:
        self._low = min(self._low, self._cursor)
        del self._moves[self._cursor :]
        del self._follow[self._cursor :]
        del self._texts[self._cursor :]
        del self._states[self._cursor + 1 :]
        self._moves.append(move)
        self._follow.append(follow)
        self._texts.append((FOLLOW_UP if follow else "") + move.to_str())
        self._states.append(new)
        self._cursor += 1

    def _step_start(self) -> int:
        """Where the last undo step (a move and its auto-moves) of the line begins."""
        k = self._cursor - 1
        while k > 0 and self._follow[k]:
            k -= 1
        return k

    def undo(self) -> Move:
        """Take back the last move with all its automatic follow-ups (the engine's and the
        safe auto-moves); returns the move."""
        if not self.can_undo:
            raise NothingToUndoError("there is no move to undo")
        self._cursor = self._step_start()
        self._low = min(self._low, self._cursor)
        self.undos += 1
        return self._moves[self._cursor]

    def redo(self) -> list[Event]:
        """Play the last undone move again, with the auto-moves that followed it."""
        if not self.can_redo:
            raise NothingToRedoError("there is no move to redo")
        events: list[Event] = []
        first = True
        while self.can_redo and (first or self._follow[self._cursor]):
            mine: list[Event] = []
            move = self._moves[self._cursor]
            core.apply(self.spec, self._states[self._cursor], move, mine)
            if self._follow[self._cursor]:
                mine = [{**e, "auto": True} for e in mine]
            events.extend(mine)
            self._cursor += 1
            first = False
        return events

    def retarget(self, move: Move | str | Mapping[str, Any], *, auto: bool = False) -> list[Event]:
        """Send the card(s) of the last move somewhere else instead: the last move (with its
        auto-moves) is replaced by ``move``, which must move the same cards from the same
        pile to another destination legal before the last move. This is smart-move
        cycling: it is one move, not an undo (``undos`` and ``moves_made`` count it as the
        move it replaces). Drops the redo list. Refused (nothing changes) when the last
        move or its auto-moves refilled a pile or turned up a card anywhere but in the
        move's own source pile: choosing again after seeing it would be an undo.
        """
        m = move if isinstance(move, Move) else parse_move(move)
        if not self.can_undo:
            raise IllegalMoveError("there is no move to send elsewhere", "nothing_to_retarget")
        k = self._step_start()
        last = self._moves[k]
        if last.is_stock or m.is_stock or (m.src, m.cards) != (last.src, last.cards):
            raise IllegalMoveError(
                f"{m.to_str()}: a retarget moves the cards of the last move ({last.to_str()})",
                "not_the_last_move",
            )
        if m == last:
            raise IllegalMoveError(f"{m.to_str()}: that is where the cards are", "same_target")
        before = self._states[k]
        seen: list[Event] = []
        for j in range(k, self._cursor):
            core.apply(self.spec, self._states[j], self._moves[j], seen)
        # A card turned up in the move's own source pile would be turned up wherever the
        # cards went, and refusing it would stop click-cycling on every covered column;
        # whether that is a peek worth an undo is left open (docs/rules-decisions.md).
        if any(
            e.get("type") == "refill" or (e.get("type") == "flip" and e.get("pile") != last.src)
            for e in seen
        ):
            raise IllegalMoveError(
                "the last move turned up a card: use undo to play otherwise", "revealed"
            )
        events: list[Event] = []
        new = core.play_checked(self.spec, before, m, events)
        self._cursor = k
        self._push(m, new)
        if auto:
            events.extend(self._follow_up(m))
        return events

    def _next_auto_move(self) -> Move | None:
        """The safe auto-move that would follow the line as it stands (None after a move
        off a foundation, or when no card is safe to send up): what a ``+`` in a saved
        list must name."""
        k = self._step_start()
        if k < 0 or not self._moves:
            return None
        first = self._moves[k]
        if first.dst is not None and self.spec.piles[self.spec.index[first.src]].kind is (
            PileKind.FOUNDATION
        ):
            return None
        return safe.safe_move(self.spec, self.state)

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
        """The same deal from the start. The hints and undos used so far stay counted:
        they belong to this game's summary, and a restart must not hide them."""
        self._states = [self.start]
        self._moves = []
        self._follow = []
        self._texts = []
        self._low = 0
        self._cursor = 0

    # --- saving --------------------------------------------------------------------------

    def to_saved(self) -> dict[str, Any]:
        """Game id, options, deal number, rules version and the move list; a solvable
        deal also keeps its starting layout (``start``, :meth:`State.to_json`), its
        ``difficulty`` and the ``generator`` version that made it: it was made by a
        search, and a later generator may make a different layout from the same number."""
        saved: dict[str, Any] = {
            "game": self.id,
            "options": self.options,
            "deal": self.deal,
            "kind": self.kind,
            "rules_version": RULES_VERSION,
            "moves": self.saved_moves(),
        }
        if self.kind != "random":
            saved["start"] = self.start.to_json()
            saved["difficulty"] = self.difficulty
            saved["generator"] = self.generator
        elif self.start != core.initial_state(self.spec, self.deal):
            saved["start"] = self.start.to_json()  # a custom start: not the deal's layout
        return saved

    def saved_moves(self) -> list[str]:
        """The line's moves as text; a safe auto-move is marked ``+`` (``+t3>f1``): it is
        undone and redone with the move before it."""
        return self._texts[: self._cursor]

    def line_changes(self) -> list[str] | None:
        """What :meth:`saved_moves` gained since :meth:`mark_saved`: the moves added at its
        end when the line only grew (``[]``: unchanged), None when moves were taken back or
        replaced (the line must be saved whole). For a store that appends."""
        if self._low < self._saved:
            return None
        return self._texts[self._saved : self._cursor]

    def mark_saved(self) -> None:
        """The current line is what the store holds (see :meth:`line_changes`)."""
        self._saved = self._low = self._cursor

    def redo_moves(self) -> list[str]:
        """The redo list as text, marked as in :meth:`saved_moves`."""
        return self._texts[self._cursor :]

    @classmethod
    def from_saved(
        cls, saved: Mapping[str, Any], *, start: State | None = None, trusted: bool = False
    ) -> Game:
        """Rebuild a saved game by replaying its moves; raises :class:`SavedGameError`.

        A ``solvable`` deal needs its ``start`` (use :func:`pasyans.deals.load_game`).
        ``trusted``: the moves come from our own store, where each was checked when played;
        they are replayed with :func:`core.apply` after a per-move legality test
        (:func:`core.is_legal`: the legal-move generator run for the move's source pile
        alone), so a corrupt list still raises instead of giving a wrong position."""
        try:
            game = cls(
                saved["game"],
                saved["deal"],
                saved.get("options"),
                start=start,
                kind=saved.get("kind", "random"),
                difficulty=saved.get("difficulty"),
                generator=saved.get("generator"),
            )
            if saved.get("rules_version", RULES_VERSION) != RULES_VERSION:
                raise SavedGameError("saved with other rules")
            moves = saved["moves"]
            if not isinstance(moves, list):
                raise SavedGameError("the moves of a saved game are a list")
            for n, text in enumerate(moves, 1):
                follow = isinstance(text, str) and text.startswith(FOLLOW_UP)
                m = parse_move(text[1:] if follow else text)
                if follow and (n == 1 or m != game._next_auto_move()):
                    raise SavedGameError(f"move {n} ({text[:20]}) cannot be an auto-move")
                if not trusted:
                    game._push(m, core.play_checked(game.spec, game.state, m), follow=follow)
                    continue
                if not core.is_legal(game.spec, game.state, m):
                    raise SavedGameError(f"move {n} ({m.to_str()}) is not legal there")
                game._push(m, core.apply(game.spec, game.state, m), follow=follow)
        except KeyError as e:
            raise SavedGameError(f"a saved game needs {e}") from e
        except PasyansError as e:
            if isinstance(e, SavedGameError):
                raise
            raise SavedGameError(f"the saved game does not replay: {e}") from e
        return game
