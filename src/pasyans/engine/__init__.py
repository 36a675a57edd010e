"""The rules engine: positions, moves, legality, automatic actions, the player view and a
:class:`Game` with undo and redo. No web, no database, no I/O."""

from __future__ import annotations

from pasyans.engine.core import (
    MAX_DEAL,
    apply,
    autocollect_moves,
    initial_state,
    is_stuck,
    is_won,
    legal_moves,
    play_checked,
    score,
    smart_moves,
    stock_action,
)
from pasyans.engine.game import Game
from pasyans.engine.moves import Move, parse_move
from pasyans.engine.view import player_view
from pasyans.position import Event, State

__all__ = [
    "MAX_DEAL",
    "Event",
    "Game",
    "Move",
    "State",
    "apply",
    "autocollect_moves",
    "initial_state",
    "is_stuck",
    "is_won",
    "legal_moves",
    "parse_move",
    "play_checked",
    "player_view",
    "score",
    "smart_moves",
    "stock_action",
]
