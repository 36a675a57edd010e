"""The registry of games by id, and option validation.

>>> get_game("spider", {"suits": "2"}).option_values["suits"]
'2'
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import product

from pasyans import caches
from pasyans.errors import OptionError, UnknownGameError
from pasyans.rules.backbone import BACKBONE, BACKBONE_CLASSIC
from pasyans.rules.common import with_options
from pasyans.rules.nivernais import NIVERNAIS
from pasyans.rules.spec import GameSpec
from pasyans.rules.spider import SPIDER
from pasyans.rules.spine import SPINE

RULES_VERSION = 1
"""Bumped whenever a rule change could alter a saved game's replay."""

GAMES: dict[str, GameSpec] = {
    g.id: g for g in (SPINE, BACKBONE, BACKBONE_CLASSIC, SPIDER, NIVERNAIS)
}


def game_ids() -> list[str]:
    return list(GAMES)


def variants() -> list[tuple[str, dict[str, str]]]:
    """Every registered game with every combination of its option values, defaults first.

    >>> len(variants()), variants()[0]
    (18, ('spine', {'empty': 'kings', 'runs': 'single', 'spine': '56'}))
    """
    out = []
    for game_id, spec in GAMES.items():
        names = [o.name for o in spec.options]
        for values in product(*(o.values for o in spec.options)):
            out.append((game_id, dict(zip(names, values, strict=True))))
    return out


def resolve_options(game_id: str, options: Mapping[str, object] | None = None) -> dict[str, str]:
    """Every option of the game, given values checked and the rest defaulted."""
    base = GAMES.get(game_id) if isinstance(game_id, str) else None
    if base is None:
        shown = game_id[:40] if isinstance(game_id, str) else game_id
        raise UnknownGameError(f"unknown game {shown!r:.60}; games: {', '.join(GAMES)}")
    given = {str(k): str(v) for k, v in (options or {}).items()}
    known = {o.name: o for o in base.options}
    for name, value in given.items():
        if name not in known:
            allowed = ", ".join(known) or "none"
            raise OptionError(f"{game_id} has no option {name[:40]!r} (options: {allowed})")
        if value not in known[name].values:
            allowed = "|".join(known[name].values)
            raise OptionError(f"option {name}={value[:40]!r} is not allowed ({allowed})")
    return {o.name: given.get(o.name, o.default) for o in base.options}


_CACHE: dict[tuple[str, tuple[tuple[str, str], ...]], GameSpec] = caches.register(
    "rules.specs", {}, bound=1024, memory=False
)  # one per game and option set (a few dozen)


def get_game(game_id: str, options: Mapping[str, object] | None = None) -> GameSpec:
    """The game ``game_id`` with ``options`` applied (unknown ids and values raise)."""
    values = resolve_options(game_id, options)
    key = (game_id, tuple(sorted(values.items())))
    spec = _CACHE.get(key)
    if spec is None:
        base = GAMES[game_id]
        spec = base.configure(base, values) if base.configure else base
        spec = with_options(spec, values)
        _CACHE[key] = spec
    return spec
