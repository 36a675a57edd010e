"""``/api/stats``, ``/api/history`` and ``/api/games/{id}/replay``: the player's records.

The counting rules are in :mod:`pasyans.server.stats.records` and ``docs/statistics.md``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request, Response
from pydantic import BaseModel, Field, StrictBool

from pasyans.errors import PasyansError
from pasyans.rules import resolve_options
from pasyans.server.deps import ContextDep
from pasyans.server.errors import ApiError
from pasyans.server.games import replay, service
from pasyans.server.limits.deps import ReplayLimit
from pasyans.server.schemas import Difficulty, ErrorOut, GameId, PlayerView, StrictIn
from pasyans.server.stats import records as stats
from pasyans.server.stats.records import Result
from pasyans.server.storage import store

router = APIRouter(prefix="/api", tags=["stats"])

E: dict[int | str, dict[str, Any]] = {
    404: {"model": ErrorOut, "description": "No such game for this player"},
    422: {"model": ErrorOut, "description": "Invalid request; nothing changes"},
}
E_REPLAY: dict[int | str, dict[str, Any]] = {
    **E,
    429: {"model": ErrorOut, "description": "Too many replays, undos and redos; Retry-After"},
}
E_BODY: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorOut, "description": "The body is not JSON"},
    413: {"model": ErrorOut, "description": "The body is too large"},
    415: {"model": ErrorOut, "description": "The body is not application/json"},
    422: {"model": ErrorOut, "description": "No confirmation; nothing changes"},
}


class Best(BaseModel):
    value: int = Field(description="Milliseconds (best time) or moves (fewest moves).")
    deal: int
    kind: str
    game: str
    options: dict[str, str]
    id: str = Field(description="The game, for its replay.")


class Point(BaseModel):
    at: datetime = Field(description="When the game ended.")
    result: Result
    time_ms: int
    moves: int
    deal: int
    game: str


class Figures(BaseModel):
    played: int = Field(description="Counted games that ended: won + lost.")
    won: int
    lost: int = Field(description="given_up + abandoned.")
    given_up: int
    abandoned: int
    win_rate: float | None = Field(description="won / played, 0…1; null when none played.")
    clean_wins: int = Field(description="Wins with no hint, undo or restart.")
    in_progress: int = Field(description="Counted games not finished yet (not in played).")
    current_streak: int
    best_streak: int
    best_time: Best | None
    fewest_moves: Best | None
    average_time_ms: int | None = Field(description="Of won games.")
    average_moves: float | None = Field(description="Of won games.")
    hints: int
    undos: int
    points: list[Point] = Field(description="The last 1000 games that ended, oldest first.")


class BandFigures(Figures):
    """An option set's figures for one deal kind and difficulty (``points`` is empty and
    ``in_progress`` 0 here: the option set has them)."""

    kind: str = Field(description="random or solvable.")
    difficulty: Difficulty | None = Field(description="easy, medium or hard; null: random.")


class GameFigures(Figures):
    game: str
    options: dict[str, str]
    options_key: str
    bands: list[BandFigures] = Field(
        description="The same figures per deal kind and difficulty: random first, then easy,"
        " medium and hard."
    )


class StatsOut(BaseModel):
    total: Figures
    games: list[GameFigures]


def _band(difficulty: str | None) -> Difficulty | None:
    """A stored difficulty as the API's type (None for a random deal)."""
    for d in ("easy", "medium", "hard"):
        if difficulty == d:
            return d
    return None


class GameRecordOut(BaseModel):
    """What a history item and a replay both say of a game (:func:`_common`)."""

    id: str
    game: str
    options: dict[str, str]
    deal: int
    kind: str
    difficulty: Difficulty | None = Field(
        default=None, description="A solvable deal's difficulty; null: random."
    )
    generator: int | None = Field(
        default=None,
        description="A solvable deal's generator version (its link carries it); null: random.",
    )
    result: Result
    time_ms: int
    score: int
    hints: int
    undos: int


class HistoryItem(GameRecordOut):
    clean: bool
    moves: int = Field(description="Moves of the final line (what the table showed).")
    moves_total: int = Field(description="Every move played, undone ones and restarts too.")
    restarts: int
    started_at: datetime
    finished_at: datetime | None
    date: datetime = Field(description="finished_at, or started_at while in progress.")


class HistoryOut(BaseModel):
    items: list[HistoryItem]
    page: int
    per_page: int
    total: int
    pages: int


class ResetIn(StrictIn):
    confirm: StrictBool = Field(description="Must be true: the reset cannot be undone.")


class ResetOut(BaseModel):
    deleted: int


class ReplayOut(GameRecordOut):
    step: int = Field(description="Moves played in the view: 0 … steps.")
    steps: int
    moves: list[str] = Field(description="The line in text notation; step k follows moves[k-1].")
    view: PlayerView


def _common(rec: stats.Record) -> dict[str, Any]:
    """The fields a history item and a replay share, from the game's statistics record."""
    return dict(
        id=rec.id,
        game=rec.game,
        options=rec.options,
        deal=rec.deal,
        kind=rec.kind,
        difficulty=_band(rec.difficulty),
        generator=rec.generator,
        result=rec.result,
        time_ms=rec.time_ms,
        score=rec.score,
        hints=rec.hints,
        undos=rec.undos,
    )


def history_item(rec: stats.Record) -> HistoryItem:
    """One game of ``/api/history``."""
    return HistoryItem(
        **_common(rec),
        clean=rec.clean,
        moves=rec.moves,
        moves_total=rec.moves_total,
        restarts=rec.restarts,
        started_at=rec.created_at,
        finished_at=rec.finished_at,
        date=rec.finished_at or rec.created_at,
    )


def replay_out(rec: stats.Record, step: dict[str, Any]) -> ReplayOut:
    """``/api/games/{id}/replay``: the game's record and ``step`` (:func:`replay.replay`)."""
    return ReplayOut(**_common(rec), **step)


@router.get("/stats", responses={422: E[422]}, response_model=StatsOut)
def get_stats(
    request: Request, ctx: ContextDep, game: Annotated[GameId | None, Query()] = None
) -> Response:
    """The player's figures per game and option set, and the total over them.

    ``?game=spider`` keeps one game; option parameters too (``&suits=2``) keep one option
    set (the others take their defaults)."""
    key = None
    if game is not None:
        options = {k: v for k, v in request.query_params.items() if k != "game"}
        values = resolve_options(game, options)
        if options:
            key = store.options_key(values)
    elif len(request.query_params):
        raise ApiError("validation_error", text="error.options_need_game")
    player = store.player_id(ctx.session, ctx.token_hash)
    return validated(StatsOut, stats.kept_statistics(ctx.session, player, game=game, key=key))


@router.get("/history", responses={422: E[422]}, response_model=HistoryOut)
def get_history(
    ctx: ContextDep,
    page: Annotated[int, Query(ge=1, le=100_000)] = 1,
    per_page: Annotated[int, Query(ge=1, le=100)] = 20,
) -> Response:
    """The player's counted games (at least one move made), newest first."""
    player = store.player_id(ctx.session, ctx.token_hash)
    recs, total = stats.history(ctx.session, player, page=page, per_page=per_page)
    return validated(
        HistoryOut,
        dict(
            items=[history_item(r) for r in recs],
            page=page,
            per_page=per_page,
            total=total,
            pages=max(1, -(-total // per_page)),
        ),
    )


def validated(model: type[BaseModel], out: Any) -> Response:
    """``out`` validated once by ``model`` and written as the route's ``response_model``
    would write it (FastAPI would otherwise validate the model's dump a second time: a
    statistics answer holds two charts of up to 1,000 points)."""
    body = model.model_validate(out).model_dump_json(by_alias=True)
    return Response(body, media_type="application/json")


@router.post("/stats/reset", responses=E_BODY)
def reset_stats(body: ResetIn, ctx: ContextDep) -> ResetOut:
    """Forget the player's finished games (figures, charts and history); games in progress
    stay. The body must be ``{"confirm": true}``."""
    if not body.confirm:
        raise ApiError("confirmation_required")
    ctx.session.connection(execution_options={"pasyans_write": True})
    player = store.player_id(ctx.session, ctx.token_hash)
    deleted = stats.reset(ctx.session, player)
    ctx.session.commit()
    return ResetOut(deleted=deleted)


@router.get("/games/{game_id}/replay", responses=E_REPLAY)
def get_replay(
    game_id: str,
    ctx: ContextDep,
    _limit: ReplayLimit,
    step: Annotated[int, Query(ge=0, le=100_000)] = 0,
) -> ReplayOut:
    """The position after ``step`` moves of the game's line, as the player saw it (face-down
    cards stay hidden), with the whole line's moves. Any of the player's games."""
    row = service.owned(ctx, game_id)
    try:
        out = replay.replay(row, step)
    except PasyansError as e:
        raise ApiError("bad_saved_game", str(e)) from e
    return replay_out(stats.record_of(row), out)
