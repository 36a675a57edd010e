"""The games, declared as data: see :mod:`pasyans.rules.spec` and :mod:`.registry`."""

from __future__ import annotations

from pasyans.rules.registry import GAMES, game_ids, get_game, resolve_options, variants
from pasyans.rules.spec import GameSpec, OptionSpec, PileKind, PileSpec

__all__ = [
    "GAMES",
    "GameSpec",
    "OptionSpec",
    "PileKind",
    "PileSpec",
    "game_ids",
    "get_game",
    "resolve_options",
    "variants",
]
