"""Deal numbers to layouts, for both kinds of deal.

``random``: the project's stable shuffle of the deck (:func:`pasyans.engine.initial_state`).
``solvable``: a layout proven winnable, made from the deal number alone (solver issue).
Servers and the CLI create and load games through here, so both kinds rebuild the same.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pasyans.engine import Game, initial_state
from pasyans.errors import OptionError
from pasyans.position import State
from pasyans.rules import get_game
from pasyans.rules.spec import GameSpec

DealKind = Literal["random", "solvable"]
KINDS: tuple[str, ...] = ("random", "solvable")


def default_kind(game_id: str) -> str:
    """The kind of deal a new game gets when the player does not choose."""
    return "random"


def start_position(spec: GameSpec, deal: int, kind: str = "random") -> State:
    """The starting layout of deal ``deal`` of the given kind."""
    if kind == "random":
        return initial_state(spec, deal)
    raise OptionError(f"deal kind {kind[:20]!r} is not available (kinds: random)")


def new_game(
    game_id: str, deal: int, options: Mapping[str, object] | None = None, kind: str | None = None
) -> Game:
    """A fresh game of deal ``deal``; ``kind`` defaults to the game's default kind."""
    spec = get_game(game_id, options)
    k = kind or default_kind(game_id)
    return Game(game_id, deal, options, start=start_position(spec, deal, k), kind=k)


def load_game(saved: Mapping[str, Any]) -> Game:
    """Rebuild a saved game (see :meth:`Game.to_saved`) of either kind."""
    spec = get_game(saved["game"], saved.get("options"))
    kind = saved.get("kind", "random")
    return Game.from_saved(saved, start=start_position(spec, saved["deal"], kind))
