"""The engine's errors: one hierarchy on top of ``ValueError``, each with a stable code."""

from __future__ import annotations


class PasyansError(ValueError):
    """Base of every engine error. ``code`` is stable and safe to show to clients."""

    code = "error"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code


class UnknownGameError(PasyansError):
    """No game with that id."""

    code = "unknown_game"


class OptionError(PasyansError):
    """An option that the game does not have, or a value it does not allow."""

    code = "bad_option"


class DealNumberError(PasyansError):
    """A deal number outside the allowed range."""

    code = "bad_deal"


class InvalidMoveError(PasyansError):
    """Text or JSON that is not a move in the notation."""

    code = "bad_notation"


class IllegalMoveError(PasyansError):
    """A well-formed move that is not legal in the current position."""

    code = "illegal_move"


class NothingToUndoError(PasyansError):
    code = "nothing_to_undo"


class NothingToRedoError(PasyansError):
    code = "nothing_to_redo"


class SavedGameError(PasyansError):
    """A saved game that cannot be rebuilt."""

    code = "bad_saved_game"


class RetiredDealError(SavedGameError):
    """A saved solvable game with no stored layout, dealt by generator version 1, which
    the library no longer has: the game cannot be rebuilt (the API answers 410)."""

    code = "deal_retired"
