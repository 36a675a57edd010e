"""Deal numbers to layouts, for both kinds of deal.

``random``: the project's stable shuffle of the deck (:func:`pasyans.engine.initial_state`).
``solvable``: a layout proven winnable and not trivial, made from the deal number and a
difficulty (``easy``, ``medium``, ``hard``) by :func:`make_solvable`
(:mod:`pasyans.solvable.generate`). Servers and the CLI create and load games through here,
so both kinds rebuild the same. A saved solvable game keeps its layout
(:func:`saved_start`), its difficulty and the generator version that made it, so it
replays whatever generator later makes the deals.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from datetime import date
from functools import lru_cache
from typing import Any, Literal

from pasyans import caches
from pasyans.engine import Game, initial_state
from pasyans.engine.core import MAX_DEAL, deck_for
from pasyans.errors import OptionError, RetiredDealError, SavedGameError
from pasyans.position import State
from pasyans.rules import get_game
from pasyans.rules.spec import GameSpec
from pasyans.solvable.generate import (
    DEFAULT_DIFFICULTY,
    DIFFICULTIES,
    GENERATOR_VERSION,
    SolvableDeal,
    check_difficulty,
    check_generator,
    make_solvable,
)

__all__ = [
    "DEFAULT_DIFFICULTY",
    "DIFFICULTIES",
    "GENERATOR_VERSION",
    "KINDS",
    "SolvableDeal",
    "check_difficulty",
    "check_generator",
    "daily_generator",
    "daily_number",
    "default_kind",
    "kinds_for",
    "load_game",
    "make_solvable",
    "new_game",
    "saved_start",
    "start_position",
]

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


DAILY_ATTEMPTS = 3
"""How many numbers a daily deal may try, in order, when the generator finds no solvable
layout for the first (``attempt`` of :func:`daily_number`)."""


def daily_number(day: date, game: str, options_key: str, difficulty: str, attempt: int = 0) -> int:
    """The deal number of the daily deal of ``day`` (UTC) for a game, its option set
    (``options_key``: every option as ``name=value``, sorted by name, joined by ``&``) and
    a difficulty: the same for everyone, from the date alone, so anyone can reproduce it.
    ``attempt`` 1, 2 … give the next numbers to try should the generator find no solvable
    layout for the first. A number in the ordinary range (1 … ``MAX_DEAL``).

    >>> from datetime import date
    >>> n = daily_number(date(2026, 12, 3), "spine", "empty=kings&runs=single&spine=56", "easy")
    >>> n == daily_number(date(2026, 12, 3), "spine", "empty=kings&runs=single&spine=56", "easy")
    True
    >>> n != daily_number(date(2026, 12, 4), "spine", "empty=kings&runs=single&spine=56", "easy")
    True
    >>> 1 <= n <= MAX_DEAL
    True
    """
    check_difficulty(difficulty)
    if not isinstance(day, date):
        raise OptionError("a daily deal's day is a date")
    text = f"pasyans-daily/{day.isoformat()}/{game}/{options_key}/{difficulty}/{attempt}"
    digest = hashlib.sha256(text.encode()).digest()
    return 1 + int.from_bytes(digest[:8], "big") % MAX_DEAL


DAILY_GENERATORS: tuple[tuple[date, int], ...] = ((date(2026, 12, 4), 5), (date(2026, 12, 5), 6))
"""When each generator version started making the daily deals: (first UTC day, version),
oldest first. Days before the first release listed keep :data:`DAILY_FIRST_GENERATOR`."""

DAILY_FIRST_GENERATOR = 4
"""The generator version of the daily deals of the days before any in
:data:`DAILY_GENERATORS` (version 4 made every daily deal published until 2026-12-03)."""


def daily_generator(day: date) -> int:
    """The generator version that makes the daily deals of ``day`` (UTC): a version bump
    never changes a daily deal already published, so the version is a function of the
    day (:data:`DAILY_GENERATORS`).

    >>> from datetime import date
    >>> daily_generator(date(2026, 12, 3)), daily_generator(date(2026, 12, 4))
    (4, 5)
    >>> daily_generator(date(2026, 12, 5))
    6
    """
    if not isinstance(day, date):
        raise OptionError("a daily deal's day is a date")
    version = DAILY_FIRST_GENERATOR
    for first, v in DAILY_GENERATORS:
        if day >= first:
            version = v
    return version


def default_kind(game_id: str) -> str:
    """The kind of deal a new game gets when the player does not choose."""
    return "solvable" if game_id in SOLVABLE_BY_DEFAULT else "random"


def start_position(
    spec: GameSpec,
    deal: int,
    kind: str = "random",
    difficulty: str | None = None,
    generator: int = GENERATOR_VERSION,
) -> State:
    """The starting layout of deal ``deal`` of the given kind (same number, same layout);
    ``difficulty`` (default ``medium``) chooses among solvable layouts, as generator
    version ``generator`` made them (an older version's number keeps its layout; an
    unknown version is an :class:`OptionError`)."""
    if kind == "random":
        return initial_state(spec, deal)
    if kind == "solvable":
        if kind not in kinds_for(spec.id, spec.option_values):
            raise OptionError(
                "Solvable deals are not offered for this game with these options:"
                " choose a random deal.",
                "solvable_unavailable",
            )
        band = check_difficulty(difficulty)
        check_generator(generator)
        options = tuple(sorted(spec.option_values.items()))
        return _solvable(spec.id, options, deal, band, generator).state
    raise OptionError(f"deal kind {str(kind)[:20]!r} is not available (kinds: random, solvable)")


@lru_cache(maxsize=256)
def _solvable(
    game_id: str, options: tuple[tuple[str, str], ...], deal: int, difficulty: str, generator: int
) -> SolvableDeal:
    return make_solvable(game_id, dict(options), deal, difficulty, generator)


caches.register("deals.solvable", _solvable, bound=256, memory=False)


def new_game(
    game_id: str,
    deal: int,
    options: Mapping[str, object] | None = None,
    kind: str | None = None,
    difficulty: str | None = None,
    start: State | None = None,
    generator: int = GENERATOR_VERSION,
) -> Game:
    """A fresh game of deal ``deal``; ``kind`` defaults to the game's default kind.

    A solvable game gets ``difficulty`` (default ``medium``; ignored for random deals),
    made by generator version ``generator`` (default the current one; an older version
    deals the number as it did then).
    ``start`` is a layout the caller already has (the server's deal pool, made by
    :func:`make_solvable` for the same game, options, number and difficulty): it is
    checked to hold the game's deck and used as it is; without it the layout is made here.
    """
    spec = get_game(game_id, options)
    k = kind or default_kind(game_id)
    if k not in KINDS:
        raise OptionError(f"deal kind {str(k)[:20]!r} is not available (kinds: random, solvable)")
    if k == "random":
        return Game(game_id, deal, options, start=start_position(spec, deal, k), kind=k)
    band = check_difficulty(difficulty)
    check_generator(generator)
    layout = (
        start_position(spec, deal, k, band, generator)
        if start is None
        else saved_start(spec, deal, k, start.to_json())
    )
    return Game(game_id, deal, options, start=layout, kind=k, difficulty=band, generator=generator)


def load_game(saved: Mapping[str, Any], *, trusted: bool = False) -> Game:
    """Rebuild a saved game (see :meth:`Game.to_saved`) of either kind; ``trusted`` as in
    :meth:`Game.from_saved`. A stored ``start`` layout is used as it is (checked first).

    Anything that is not a saved game (not an object, no game or deal, options that are
    not an object, an unknown kind, difficulty or generator) raises
    :class:`SavedGameError`."""
    if not isinstance(saved, Mapping):
        raise SavedGameError(f"a saved game is an object, not {type(saved).__name__}")
    options = saved.get("options")
    if options is not None and not isinstance(options, Mapping):
        raise SavedGameError("the options of a saved game are an object of name: value")
    for name in ("game", "deal"):
        if name not in saved:
            raise SavedGameError(f"a saved game needs {name!r}")
    kind = saved.get("kind", "random")
    if kind not in KINDS:
        raise SavedGameError(f"unknown deal kind {str(kind)[:20]!r} (kinds: random, solvable)")
    try:
        if saved.get("difficulty") is not None:
            check_difficulty(saved["difficulty"])
        # Generator 1 is retired: saved_start replays its stored layout, or answers
        # RetiredDealError without one.
        if saved.get("generator") not in (None, 1):
            check_generator(saved["generator"])
        spec = get_game(saved["game"], options)
        start = saved_start(spec, saved["deal"], kind, saved.get("start"),
                            saved.get("difficulty"), saved.get("generator"))  # fmt: skip
    except (OptionError, TypeError) as e:
        raise SavedGameError(f"not a saved game of this library: {e}") from e
    return Game.from_saved(saved, start=start, trusted=trusted)


def saved_start(
    spec: GameSpec,
    deal: int,
    kind: str,
    stored: Any = None,
    difficulty: str | None = None,
    generator: int | None = None,
) -> State:
    """The starting layout of a saved game: ``stored`` (a :meth:`State.to_json` object)
    when there is one, else made again from the deal number. Solvable layouts are stored
    because they come from a search: a stronger solver may make another layout for the
    same number, and a saved game must still replay. A stored layout must hold the
    game's whole deck in its piles, or :class:`SavedGameError` is raised. A solvable game
    saved with no layout by generator version 1 (``generator`` 1 or None: games saved
    before layouts were stored) raises :class:`RetiredDealError`: version 1 is out of the
    library, and another version's layout would not replay its moves. A solvable game of
    a later version saved without its layout is made again by that version."""
    if stored is None and kind == "solvable" and generator in (None, 1):
        raise RetiredDealError(
            "this game was dealt by generator version 1, which is retired, and was saved"
            " without its layout: it can no longer be rebuilt"
        )
    if stored is None:
        # A solvable game is rebuilt by the version that dealt it (not None: refused above).
        version = check_generator(generator) if kind == "solvable" and generator else 0
        return start_position(spec, deal, kind, difficulty, version or GENERATOR_VERSION)
    try:
        state = State.from_json(stored)
    except ValueError as e:
        raise SavedGameError(f"the stored layout is not a position: {e}") from e
    cards = sorted(c for p in state.piles for c in p)
    if len(state.piles) != len(spec.piles) or cards != sorted(deck_for(spec)):
        raise SavedGameError("the stored layout does not hold this game's deck")
    return state
