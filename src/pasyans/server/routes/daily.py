"""``/api/daily``: daily deals, their leaderboards and display names (docs/daily.md)."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request, Response, status
from pydantic import BaseModel, Field, StrictInt, StrictStr

from pasyans import deals
from pasyans.server.daily import boards, names, start
from pasyans.server.deps import ContextDep
from pasyans.server.errors import ApiError
from pasyans.server.games.service import writing
from pasyans.server.limits.deps import NewGameLimit
from pasyans.server.pool import daily as pool_daily
from pasyans.server.routes.games import E, answer
from pasyans.server.schemas import Difficulty, GameId, StrictIn
from pasyans.server.storage import store
from pasyans.server.storage.models import Player

router = APIRouter(prefix="/api", tags=["daily"])


class DailyGameIn(StrictIn):
    game: GameId
    options: dict[str, StrictStr] = Field(default_factory=dict)
    difficulty: Difficulty
    day: date | None = Field(
        default=None,
        description="A UTC day of the last 30 (default today): past days are practice.",
    )


class NameIn(StrictIn):
    name: StrictStr | None = Field(
        max_length=200,
        description="2-20 letters, digits, single spaces, '_', '-', '.', \"'\"; null: none.",
    )


class ReportIn(StrictIn):
    player: StrictInt = Field(ge=1, le=2**31 - 1, description="A leaderboard's player number.")


class PlayerOut(BaseModel):
    player: int | None = Field(description="The player's number (null before their first game).")
    name: str | None


class DealOut(BaseModel):
    game: str
    options: dict[str, str]
    difficulty: str
    deal: int | None = Field(description="The deal number (pasyans.deals.daily_number).")


class OverviewOut(BaseModel):
    today: str
    days: list[str] = Field(description="The last 30 UTC days, today first.")
    deals: list[DealOut] = Field(description="Today's deals for the games and options asked.")
    games: list[dict[str, Any]] = Field(
        description="The player's ranked daily games of those days."
    )
    streak: int
    best_streak: int


class BoardRow(BaseModel):
    rank: int
    player: int
    name: str | None = Field(description="null: shown as 'Player <player>'.")
    you: bool
    time_ms: int
    moves: int


class MineOut(BaseModel):
    rank: int | None = Field(description="null: not clean (not ranked), or see rank_over.")
    rank_over: int | None = Field(description="Set when the rank is beyond it (10,000).")
    clean: bool
    time_ms: int
    moves: int
    game_id: str


class BoardOut(BaseModel):
    day: str
    game: str
    options: dict[str, str]
    difficulty: str
    deal: int | None
    by: Literal["time", "moves"]
    total: int = Field(description="Clean wins of this deal.")
    top: list[BoardRow]
    you: MineOut | None


def _viewer(ctx: ContextDep) -> int | None:
    return store.player_id(ctx.session, ctx.token_hash)


def _options(request: Request, skip: tuple[str, ...]) -> dict[str, str]:
    return {k: v for k, v in request.query_params.items() if k not in skip}


@router.post("/daily/games", status_code=status.HTTP_201_CREATED, responses=E)
def start_daily(body: DailyGameIn, ctx: ContextDep, limit: NewGameLimit) -> Response:
    """Start (or resume) a daily deal: today's first attempt is ranked; a past day's deal,
    or today's played again, is practice (``daily`` null in the answer)."""
    out, _ = start.start(ctx, body.game, body.options, body.difficulty, body.day, limit)
    return answer(out, status.HTTP_201_CREATED)


@router.get("/daily", responses=E)
def overview(
    ctx: ContextDep,
    game: Annotated[list[GameId], Query(max_length=20)] = [],  # noqa: B006
) -> OverviewOut:
    """Today's deals (of each ``game`` at its default options), the player's ranked daily
    games of the last 30 days and their streak."""
    today = pool_daily.today()
    found = boards.overview(ctx.session, _viewer(ctx), today, pool_daily.DAYS_BACK)
    todays = []
    for g in dict.fromkeys(game):
        values, key = start.key_of(g, {})
        for band in deals.DIFFICULTIES:
            resolved = pool_daily.resolve(ctx.session, today, g, key, band)
            todays.append(DealOut(game=g, options=values, difficulty=band, deal=resolved.deal))
    days = [(today - timedelta(days=i)).isoformat() for i in range(pool_daily.DAYS_BACK)]
    return OverviewOut(today=today.isoformat(), days=days, deals=todays, **found)


@router.get("/daily/board", responses=E)
def leaderboard(
    request: Request,
    ctx: ContextDep,
    game: GameId,
    difficulty: Difficulty,
    day: date | None = None,
    by: Literal["time", "moves"] = "time",
) -> BoardOut:
    """A daily deal's leaderboard: the 20 fastest (or fewest moves) clean wins, how many
    there are, and the player's own result and rank. Options as query parameters."""
    the_day = start.check_day(day)
    values, key = start.key_of(game, _options(request, ("game", "difficulty", "day", "by")))
    board = boards.leaderboard(
        ctx.session, request.app.state.top_cache,
        boards.BoardKey(the_day.isoformat(), game, key, difficulty), by, ctx.token_hash,
        lambda: pool_daily.resolve(ctx.session, the_day, game, key, difficulty).deal,
    )  # fmt: skip
    return BoardOut(
        day=the_day.isoformat(), game=game, options=values, difficulty=difficulty, by=by,
        **board,
    )  # fmt: skip


@router.get("/player", responses=E)
def player(ctx: ContextDep) -> PlayerOut:
    """The player's number and display name."""
    viewer = _viewer(ctx)
    if viewer is None:
        return PlayerOut(player=None, name=None)
    row = ctx.session.get(Player, viewer)
    return PlayerOut(player=viewer, name=None if row is None else row.name)


@router.put("/player/name", responses=E)
def set_name(body: NameIn, ctx: ContextDep) -> PlayerOut:
    """Set (or with null, clear) the name the leaderboards show."""
    name = None
    if body.name is not None:
        name = names.check_name(body.name)
        if name is None:
            raise ApiError("bad_name", text="ui.daily.error_bad_name", status=422)
    ctx.end_read()
    with writing(ctx):
        ctx.session.connection(execution_options={"pasyans_write": True})
        viewer = store.ensure_player(ctx.session, ctx.token_hash)
        names.set_name(ctx.session, viewer, name)
        ctx.session.commit()
    boards.forget_tops(ctx.request)
    return PlayerOut(player=viewer, name=name)


@router.post("/daily/report", responses=E)
def report(body: ReportIn, ctx: ContextDep) -> dict[str, bool]:
    """Report a player's display name: it is hidden from the reporter at once, and from
    everyone after three reports."""
    ctx.end_read()
    with writing(ctx):
        ctx.session.connection(execution_options={"pasyans_write": True})
        viewer = store.ensure_player(ctx.session, ctx.token_hash)
        if not names.report(ctx.session, viewer, body.player, store.now()):
            ctx.session.rollback()
            raise ApiError("not_found", text="ui.daily.error_no_name", status=404)
        ctx.session.commit()
    boards.forget_tops(ctx.request)
    return {"reported": True}
