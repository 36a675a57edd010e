"""The rule vocabulary: a game is a frozen :class:`GameSpec` made of these values.

A game is data (piles, how columns build, what an empty column takes, which piles may
feed which, the stock's behaviour, passes) plus a few named hooks for what does not fit
(the deal pattern, Spider's flips and completed runs, Nivernais' refill). Options are
applied with :func:`dataclasses.replace` by the game's ``configure`` hook.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from pasyans.cards import Card
from pasyans.position import Table


class PileKind(StrEnum):
    """What a pile is for. The same words are used in JSON, the UI and the docs."""

    COLUMN = "column"
    FOUNDATION = "foundation"
    RESERVE = "reserve"
    STOCK = "stock"
    WASTE = "waste"
    SPINE = "spine"
    TAILBONE = "tailbone"
    DONE = "done"


class Build(StrEnum):
    """How a non-empty column takes a card (or a run's lowest card)."""

    DOWN_SUIT = "down-suit"  # one rank lower, same suit
    DOWN_ANY = "down-any"  # one rank lower, any suit
    NONE = "none"  # never takes a card from the player


class EmptyColumn(StrEnum):
    """What an empty column takes."""

    ANY = "any"
    KINGS = "kings"
    NONE = "none"


class Stock(StrEnum):
    """What a click on the stock does."""

    NONE = "none"  # no stock
    TURN = "turn"  # one card to the waste; redeal turns the waste back over
    DEAL_ROW = "deal-row"  # one card onto every column (Spider)
    DEAL_COLUMNS = "deal-columns"  # four cards onto each column; redeal regathers (Nivernais)


class Foundations(StrEnum):
    """How the foundations build."""

    UP = "up"  # any empty foundation takes an Ace; then up in suit to the King
    UP_DOWN = "up-down"  # f1..f4 up from Ace (C, D, H, S); f5..f8 down from King (C, D, H, S)
    NONE = "none"  # Spider: complete runs leave the table on their own


class Score(StrEnum):
    """How the score is counted (GAMES.md, "Score")."""

    FOUNDATION_CARDS = "foundation-cards"  # one point per card on the foundations
    SPIDER = "spider"  # 500, -1 per move, +100 per completed run


@dataclass(frozen=True)
class PileSpec:
    """One pile of the layout. ``locked_by`` names a pile that must be empty first."""

    id: str
    kind: PileKind
    locked_by: str | None = None


@dataclass(frozen=True)
class OptionSpec:
    """A game option: its allowed values, the first being the default."""

    name: str
    values: tuple[str, ...]
    title_en: str
    title_ru: str
    value_titles_en: tuple[str, ...] = ()
    value_titles_ru: tuple[str, ...] = ()

    @property
    def default(self) -> str:
        return self.values[0]


DealHook = Callable[["GameSpec", list[Card]], "Table"]
"""Lays the shuffled 104 cards out into a new table."""

AfterHook = Callable[["GameSpec", "Table"], None]
"""Automatic follow-ups after every action (flip, completed run, refill)."""

StuckHook = Callable[["GameSpec", "Table"], bool]
"""Extra "stuck" detection for positions where the moves left cannot help."""

ConfigureHook = Callable[["GameSpec", Mapping[str, str]], "GameSpec"]
"""Applies validated option values to the base spec."""


@dataclass(frozen=True)
class GameSpec:
    """A whole game: its layout, its rules and its hooks."""

    id: str
    title_en: str
    title_ru: str
    piles: tuple[PileSpec, ...]
    deal: DealHook
    column_build: Build
    empty_column: EmptyColumn
    feeds: Mapping[PileKind, frozenset[PileKind]]
    foundations: Foundations
    stock: Stock
    score: Score
    runs_move: bool = False
    empty_column_refuses: frozenset[PileKind] = frozenset()
    passes: int = 1
    deck_suits: tuple[int, ...] = (0, 1, 2, 3)
    after_action: AfterHook | None = None
    stuck_hook: StuckHook | None = None
    options: tuple[OptionSpec, ...] = ()
    configure: ConfigureHook | None = None
    option_values: Mapping[str, str] = field(default_factory=dict)
    params: Mapping[str, int] = field(default_factory=dict)
    domain: str | None = None
    """The solver's fast domain for this game, by name (``pasyans.domains.registry``); None:
    the engine's generic one."""
    index: Mapping[str, int] = field(init=False, repr=False, compare=False)
    by_kind: Mapping[PileKind, tuple[int, ...]] = field(init=False, repr=False, compare=False)
    kinds: tuple[PileKind, ...] = field(init=False, repr=False, compare=False)
    """Each pile's kind, in :attr:`piles`' order."""
    ids: tuple[str, ...] = field(init=False, repr=False, compare=False)
    """Each pile's id, in :attr:`piles`' order."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "index", {p.id: i for i, p in enumerate(self.piles)})
        object.__setattr__(self, "kinds", tuple(p.kind for p in self.piles))
        object.__setattr__(self, "ids", tuple(p.id for p in self.piles))
        kinds = {
            kind: tuple(i for i, p in enumerate(self.piles) if p.kind is kind) for kind in PileKind
        }
        object.__setattr__(self, "by_kind", kinds)

    def pile_index(self, pile_id: str) -> int:
        """Index of a pile id in :attr:`piles`; raises ``KeyError`` for an unknown id."""
        return self.index[pile_id]

    def has_pile(self, pile_id: str) -> bool:
        return pile_id in self.index

    def indexes_of(self, kind: PileKind) -> tuple[int, ...]:
        """Indexes of every pile of a kind, left to right."""
        return self.by_kind[kind]


def piles(kind: PileKind, prefix: str, count: int) -> tuple[PileSpec, ...]:
    """``count`` piles of a kind named ``prefix1`` … ``prefixN``."""
    return tuple(PileSpec(f"{prefix}{i}", kind) for i in range(1, count + 1))
