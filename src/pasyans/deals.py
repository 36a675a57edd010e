"""Deal numbers to layouts, for both kinds of deal.

``random``: the project's stable shuffle of the deck (:func:`pasyans.engine.initial_state`).
``solvable``: a layout proven winnable, made from the deal number alone (solver issue).
Servers and the CLI create and load games through here, so both kinds rebuild the same.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any, Literal

from pasyans.engine import Game, initial_state
from pasyans.errors import OptionError
from pasyans.position import State
from pasyans.rules import get_game
from pasyans.rules.spec import GameSpec

DealKind = Literal["random", "solvable"]
KINDS: tuple[str, ...] = ("random", "solvable")


SOLVABLE_BY_DEFAULT = frozenset({"spine"})
"""Games whose random deals are almost never winnable: they deal solvable layouts unless
the player asks for a random one."""


def kinds_for(game_id: str, options: Mapping[str, object] | None = None) -> tuple[str, ...]:
    """The deal kinds offered for a game (and options, when given). Every game and option
    set offers both today; the catalog, the API and the home page all ask here, so a game
    whose deals the solver cannot prove won quickly can leave "solvable" out.

    >>> kinds_for("spine"), kinds_for("spider", {"suits": "4"})
    (('random', 'solvable'), ('random', 'solvable'))
    """
    return KINDS


def default_kind(game_id: str) -> str:
    """The kind of deal a new game gets when the player does not choose."""
    return "solvable" if game_id in SOLVABLE_BY_DEFAULT else "random"


def start_position(spec: GameSpec, deal: int, kind: str = "random") -> State:
    """The starting layout of deal ``deal`` of the given kind (same number, same layout)."""
    if kind == "random":
        return initial_state(spec, deal)
    if kind == "solvable":
        if kind not in kinds_for(spec.id, spec.option_values):
            raise OptionError(
                "Solvable deals are not offered for this game with these options:"
                " choose a random deal.",
                "solvable_unavailable",
            )
        return _solvable(spec.id, tuple(sorted(spec.option_values.items())), deal)
    raise OptionError(f"deal kind {kind[:20]!r} is not available (kinds: random, solvable)")


@lru_cache(maxsize=256)
def _solvable(game_id: str, options: tuple[tuple[str, str], ...], deal: int) -> State:
    from pasyans.solver.generate import solvable_layout

    return solvable_layout(get_game(game_id, dict(options)), deal)


def new_game(
    game_id: str, deal: int, options: Mapping[str, object] | None = None, kind: str | None = None
) -> Game:
    """A fresh game of deal ``deal``; ``kind`` defaults to the game's default kind."""
    spec = get_game(game_id, options)
    k = kind or default_kind(game_id)
    return Game(game_id, deal, options, start=start_position(spec, deal, k), kind=k)


def load_game(saved: Mapping[str, Any], *, trusted: bool = False) -> Game:
    """Rebuild a saved game (see :meth:`Game.to_saved`) of either kind; ``trusted`` as in
    :meth:`Game.from_saved`."""
    spec = get_game(saved["game"], saved.get("options"))
    kind = saved.get("kind", "random")
    start = start_position(spec, saved["deal"], kind)
    return Game.from_saved(saved, start=start, trusted=trusted)
