"""Request and answer bodies (pydantic). Families by role: ``…In`` for requests,
``…Out`` for answers. The player view is the engine's JSON (``docs/player-view.md``)."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Annotated, Any, Literal, Union

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    create_model,
)
from typing_extensions import TypedDict

from pasyans.engine.core import MAX_DEAL
from pasyans.rules import GAMES

OptionValue = StrictStr | StrictInt

Difficulty = Literal["easy", "medium", "hard"]
"""A solvable deal's difficulty band (``pasyans.deals.DIFFICULTIES``)."""

PlayerView = dict[str, Any]
"""The engine's player view; face-down cards are null."""


def _integral(value: Any) -> Any:
    """JSON has one number type: ``124.0`` is the integer 124 (as JSON Schema's
    ``integer`` says); ``124.5``, ``"124"`` and ``true`` are not integers."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


if TYPE_CHECKING:
    Deal = int
    Version = int
    Cards = int
else:
    # The bounds sit on the integer itself, under the converter, so the schema shows them as
    # ``minimum``/``maximum``.
    Deal = Annotated[StrictInt, Field(ge=1, le=MAX_DEAL), BeforeValidator(_integral)]
    Version = Annotated[StrictInt, Field(ge=0), BeforeValidator(_integral)]
    Cards = Annotated[StrictInt, Field(ge=1, le=104), BeforeValidator(_integral)]
"""Integers as the schema's ``"type": "integer"`` means them: exactly what it allows."""

if TYPE_CHECKING:
    GameId = str
else:
    GameId = Literal[tuple(GAMES)]
"""A game id: an enum of the catalog's games in the schema."""


class StrictIn(BaseModel):
    model_config = ConfigDict(extra="forbid")


class GameCreateBase(StrictIn):
    """What every game's ``POST /api/games`` body has besides ``game`` and ``options``."""

    deal: Deal | None = Field(default=None, description="1 … 2147483647; random when omitted.")
    solvable: StrictBool | None = Field(
        default=None, description="true: a proven-winnable deal; omitted: the game's default."
    )
    difficulty: Difficulty | None = Field(
        default=None,
        description="A solvable deal's difficulty; omitted: medium. Ignored for random deals.",
    )
    generator: StrictInt | None = Field(
        default=None,
        description="The generator version that made the solvable deal ``deal`` (a shared"
        " link names it: docs/api.md, 'Old deals and links'); omitted: the current version. An"
        " unknown version is refused; only the current one without ``deal``. Ignored for"
        " random deals.",
    )


def _title(game_id: str) -> str:
    return "".join(part.capitalize() for part in game_id.split("-"))


def _option_values(values: tuple[str, ...]) -> Any:
    """An option's values as an enum; a number may also be sent as a JSON number."""
    numbers = tuple(int(v) for v in values if v.isdigit())
    return Annotated[Literal[values + numbers], BeforeValidator(_no_lookalike)]


def _no_lookalike(value: Any) -> Any:
    """``true`` and ``2.0`` equal 1 and 2 in Python, but are not option values."""
    if isinstance(value, bool | float):
        raise ValueError("an option value is a string or a whole number")
    return value


def _create_model(game_id: str) -> type[GameCreateBase]:
    """The body of ``POST /api/games`` for one game: its id, and its options with the
    values it allows (enums), so the schema says exactly what the server accepts."""
    spec = GAMES[game_id]
    make_typed_dict: Any = TypedDict
    options: Any = make_typed_dict(
        f"{_title(game_id)}Options",
        {o.name: _option_values(o.values) for o in spec.options},
        total=False,
    )
    setattr(options, "__pydantic_config__", ConfigDict(extra="forbid"))  # noqa: B010
    game: Any = Literal[game_id]
    model: type[GameCreateBase] = create_model(
        f"{_title(game_id)}GameIn",
        __base__=GameCreateBase,
        game=(game, Field(examples=[game_id])),
        options=(options, Field(default_factory=dict)),
    )
    return model


if TYPE_CHECKING:

    class GameCreateIn(GameCreateBase):
        game: str
        options: dict[str, str | int]
else:
    GameCreateIn = Annotated[
        Union[tuple(_create_model(g) for g in GAMES)],  # noqa: UP007
        Field(discriminator="game"),
    ]
    """``POST /api/games``: one body shape per game (``game`` picks it)."""


ActionId = Annotated[StrictStr, Field(pattern=r"^[A-Za-z0-9_-]{8,64}$")]
"""An action id (:data:`pasyans.server.games.actions.ACTION_ID`)."""


class VersionIn(StrictIn):
    version: Version = Field(description="The version the request was made on.")
    action: ActionId | None = Field(
        default=None,
        description="An id of the client's making, 8-64 characters of [A-Za-z0-9_-]: a"
        " repeated id is answered with the first answer (header Pasyans-Replayed: 1) and"
        " changes nothing (docs/api.md, 'Action ids').",
        examples=["k3J9x0aQ2wLm"],
    )


class MoveJson(StrictIn):
    from_: str = Field(alias="from", max_length=12)
    to: str | None = Field(default=None, max_length=12)
    cards: Cards | None = None


class MoveIn(VersionIn):
    move: StrictStr | MoveJson = Field(
        description="Text notation ('t3>f1', 't3>t5:4', 'stock') or its JSON form.",
        examples=["t3>f1"],
    )
    auto: StrictBool = Field(
        default=False,
        description="Play the safe auto-moves to the foundations after it, as part of the"
        " same undo step (the table sends the player's setting, on by default).",
    )

    def move_data(self) -> str | dict[str, Any]:
        if isinstance(self.move, str):
            return self.move[:40]
        return self.move.model_dump(by_alias=True, exclude_none=True)


class EmptyIn(StrictIn):
    pass


class GameOut(BaseModel):
    id: str
    game: GameId
    options: dict[str, str]
    deal: int
    kind: str
    difficulty: Difficulty | None = Field(
        default=None, description="A solvable deal's difficulty; null for a random deal."
    )
    generator: int | None = Field(
        default=None,
        description="The generator version that made a solvable deal (a deal link carries"
        " it); null for a random deal.",
    )
    status: Literal["playing", "won", "lost", "abandoned"]
    version: int
    time_ms: int
    daily: str | None = Field(
        default=None,
        description="The UTC day (YYYY-MM-DD) whose ranked daily deal this is (docs/daily.md).",
    )
    view: PlayerView


class EventsOut(GameOut):
    events: list[dict[str, Any]]


class MoveOut(BaseModel):
    text: str
    json_: dict[str, Any] = Field(alias="json")

    model_config = ConfigDict(populate_by_name=True)


class HintBody(BaseModel):
    move: MoveOut | None
    source: str
    winnable: bool | None
    message: str
    message_ru: str


class HintOut(GameOut):
    hint: HintBody


class EstimateOut(BaseModel):
    """With hidden cards: of ``samples`` ways the hidden cards could lie, ``won`` were
    found winnable and ``lost`` proven lost; ``percent`` = won / samples. An estimate."""

    won: int
    lost: int
    samples: int
    percent: int


class WinnableOut(BaseModel):
    result: Literal["won", "lost", "unknown"]
    estimate: EstimateOut | None = None


class ActiveOut(BaseModel):
    time_ms: int


class GameSummary(BaseModel):
    id: str
    game: str
    options: dict[str, str]
    deal: int
    kind: str
    generator: int | None = Field(
        default=None, description="A solvable deal's generator version; null: random."
    )
    status: str
    moves: int
    undos: int
    hints: int
    score: int
    time_ms: int
    created_at: datetime
    finished_at: datetime | None


class GameListOut(BaseModel):
    games: list[GameSummary]


class Titles(BaseModel):
    en: str
    ru: str


class OptionValueOut(BaseModel):
    value: str
    titles: Titles


class OptionOut(BaseModel):
    name: str
    titles: Titles
    default: str
    values: list[OptionValueOut]


class RulesSection(BaseModel):
    title: str
    paragraphs: list[str]


class RulesText(BaseModel):
    en: list[RulesSection]
    ru: list[RulesSection]


class CatalogGame(BaseModel):
    id: str
    titles: Titles
    options: list[OptionOut]
    deal_kinds: list[str]
    default_deal_kind: str
    solvable_options: list[dict[str, str]] = Field(
        description="The option sets for which 'solvable only' deals are offered."
    )
    max_deal: int
    difficulties: list[str] = Field(
        description="The difficulties a solvable deal is offered in, easiest first."
    )
    default_difficulty: str
    rules: RulesText


class CatalogOut(BaseModel):
    games: list[CatalogGame]


class HealthOut(BaseModel):
    status: Literal["ok", "degraded", "unavailable"]
    code: str | None = Field(
        default=None, description="Why not (503): database_busy, database_read_only, …"
    )
    pool: Literal["ok", "stalled", "none"] | None = Field(
        default=None,
        description="The solvable-deal pool: ok (a deal worker refills it), stalled (one"
        " did, and has stopped: status degraded), none (no deal worker has run).",
    )


class ErrorInner(BaseModel):
    code: str
    message: str
    message_en: str
    message_ru: str
    reason: str | None = None


class ErrorOut(BaseModel):
    code: str = Field(description="Stable error code (the same as error.code).")
    message: str = Field(description="In the request's language (Accept-Language: ru or en).")
    error: ErrorInner
