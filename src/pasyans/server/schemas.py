"""Request and answer bodies (pydantic). Families by role: ``…In`` for requests,
``…Out`` for answers. The player view is the engine's JSON (``docs/player-view.md``)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr

OptionValue = StrictStr | StrictInt

PlayerView = dict[str, Any]
"""The engine's player view; face-down cards are null."""


class StrictIn(BaseModel):
    model_config = ConfigDict(extra="forbid")


class GameCreateIn(StrictIn):
    game: str = Field(max_length=40, examples=["spider"])
    deal: StrictInt | None = Field(default=None, description="1 … 2147483647; random when omitted.")
    options: dict[str, OptionValue] = Field(default_factory=dict, examples=[{"suits": 2}])
    solvable: StrictBool | None = Field(
        default=None, description="true: a proven-winnable deal; omitted: the game's default."
    )


class VersionIn(StrictIn):
    version: StrictInt = Field(ge=0, description="The version the request was made on.")


class MoveJson(StrictIn):
    from_: str = Field(alias="from", max_length=12)
    to: str | None = Field(default=None, max_length=12)
    cards: StrictInt | None = Field(default=None, ge=1, le=104)


class MoveIn(VersionIn):
    move: StrictStr | MoveJson = Field(
        description="Text notation ('t3>f1', 't3>t5:4', 'stock') or its JSON form.",
        examples=["t3>f1"],
    )

    def move_data(self) -> str | dict[str, Any]:
        if isinstance(self.move, str):
            return self.move[:40]
        return self.move.model_dump(by_alias=True, exclude_none=True)


class EmptyIn(StrictIn):
    pass


class GameOut(BaseModel):
    id: str
    game: str
    options: dict[str, str]
    deal: int
    kind: str
    status: Literal["playing", "won", "lost", "abandoned"]
    version: int
    time_ms: int
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


class WinnableOut(BaseModel):
    result: Literal["won", "lost", "unknown"]


class ActiveOut(BaseModel):
    time_ms: int


class GameSummary(BaseModel):
    id: str
    game: str
    options: dict[str, str]
    deal: int
    kind: str
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
    rules: RulesText


class CatalogOut(BaseModel):
    games: list[CatalogGame]


class HealthOut(BaseModel):
    status: Literal["ok", "unavailable"]
    code: str | None = Field(
        default=None, description="Why not (503): database_busy, database_read_only, …"
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
