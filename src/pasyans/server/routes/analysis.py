"""``/api/games/{id}/analysis`` and ``/api/analyses/{share}``: the analysis of a finished
game (docs/analysis.md). The request only queues it; the deal worker's process family
makes it (:mod:`pasyans.server.pool.analyses`), and these routes read its row."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Response
from pydantic import BaseModel, Field

from pasyans.engine import player_view
from pasyans.engine.core import apply
from pasyans.engine.game import Game
from pasyans.engine.moves import FOLLOW_UP, Move
from pasyans.errors import PasyansError
from pasyans.position import State
from pasyans.server.deps import ContextDep
from pasyans.server.errors import ApiError
from pasyans.server.games import replay, service
from pasyans.server.games.service import writing
from pasyans.server.limits.deps import NewGameLimit, ReplayLimit
from pasyans.server.pool import analyses
from pasyans.server.routes.games import E as GAME_ERRORS
from pasyans.server.schemas import EmptyIn, ErrorOut, PlayerView, StrictIn
from pasyans.server.storage import store
from pasyans.server.storage.models import AnalysisRow, GameRow

router = APIRouter(prefix="/api", tags=["analysis"])

E: dict[int | str, dict[str, Any]] = {
    **{code: GAME_ERRORS[code] for code in (400, 413, 415)},
    404: {"model": ErrorOut, "description": "No such game for this player, or no analysis"},
    409: {"model": ErrorOut, "description": "The game is still being played"},
    429: {"model": ErrorOut, "description": "Another analysis of this player is running"},
}

RETRY_SECONDS = 1
Moves = Annotated[int, Query(ge=0, le=100_000)]
"""A query parameter counting moves (of the game, or of its winning line)."""


class AnalysisOut(BaseModel):
    """An analysis: its state, and when ``done`` its ``result`` (docs/analysis.md)."""

    game_id: str = Field(description="The analysed game.")
    version: int = Field(description="The game's version it analyses.")
    status: Literal["queued", "running", "done", "failed"]
    progress: float = Field(description="0…1; written at least every half second while running.")
    share: str = Field(description="The public link's name: /analysis/<share> shows this game.")
    method: str | None = Field(description="How the player's chance was estimated.")
    error: str | None = Field(description="Why a failed analysis failed (timeout, …).")
    game: dict[str, Any] = Field(description="game, options, deal, kind, status, moves.")
    result: dict[str, Any] | None = Field(description="The analysis (docs/analysis.md).")


class PositionOut(BaseModel):
    step: int = Field(description="Moves of the game played.")
    along: int = Field(description="Then moves of the winning line played.")
    steps: int = Field(description="The game's moves.")
    way: int = Field(description="Moves of the winning line from this step (0: none known).")
    view: PlayerView


def out(job: AnalysisRow, row: GameRow) -> dict[str, Any]:
    return {
        "game_id": job.game_id,
        "version": job.game_version,
        "status": job.status,
        "progress": round(job.progress, 3),
        "share": job.share,
        "method": job.method,
        "error": job.error,
        "game": {
            "game": row.game,
            "options": row.options,
            "deal": row.deal,
            "kind": row.kind,
            "status": row.status,
            "moves": len(row.moves),
        },
        "result": job.result if job.status == "done" else None,
    }


def answer(job: AnalysisRow, row: GameRow) -> Response:
    body = AnalysisOut.model_validate(out(job, row)).model_dump_json()
    done = job.status in ("done", "failed")
    headers = {} if done else {"Retry-After": str(RETRY_SECONDS)}
    return Response(body, status_code=200 if done else 202, media_type="application/json",
                    headers=headers)  # fmt: skip


@router.post("/games/{game_id}/analysis", responses=E, status_code=202)
def start_analysis(game_id: str, ctx: ContextDep, body: EmptyIn | None = None) -> Response:
    """Queue the analysis of a finished game (won, given up or abandoned): ``202`` while
    it is queued or running (poll the ``GET``), ``200`` once done (answered from storage).
    One queued or running analysis per player: another game's answers ``429``."""
    row = service.owned(ctx, game_id, lines=False)
    if row.status == "playing":
        raise ApiError("game_in_progress", status=409, text="ui.analysis.not_finished")
    ctx.end_read()
    with writing(ctx):
        ctx.session.connection(execution_options={"pasyans_write": True})
        stored = ctx.session.get(GameRow, game_id)
        assert stored is not None
        asked, job = analyses.ask(ctx.session, stored)
        if asked == "busy" or job is None:
            ctx.session.rollback()
            raise ApiError("rate_limited", text="ui.analysis.busy",
                           headers={"Retry-After": str(5)})  # fmt: skip
        ctx.session.commit()
        return answer(job, stored)


@router.get("/games/{game_id}/analysis", responses=E)
def get_analysis(game_id: str, ctx: ContextDep) -> Response:
    """The analysis of the game as it is now: ``202`` (with ``Retry-After``) while queued or
    running, ``200`` when done or failed; ``404`` when none was asked for."""
    row = service.owned(ctx, game_id, lines=False)
    job = analyses.find(ctx.session, game_id, row.version)
    stored = ctx.session.get(GameRow, game_id)
    if job is None or stored is None:
        raise ApiError("not_found", text="ui.analysis.notfound")
    return answer(job, stored)


def _shared(ctx: Any, share: str) -> tuple[AnalysisRow, GameRow]:
    job = analyses.shared(ctx.session, share[:32])
    row = None if job is None else ctx.session.get(GameRow, job.game_id)
    if job is None or row is None:
        raise ApiError("not_found", text="ui.analysis.notfound")
    return job, row


@router.get("/analyses/{share}", responses=E)
def get_shared(share: str, ctx: ContextDep) -> Response:
    """The analysis behind a shared link (anyone holding it): that game alone."""
    job, row = _shared(ctx, share)
    return answer(job, row)


@router.get("/analyses/{share}/position", responses=E)
def get_position(
    share: str,
    ctx: ContextDep,
    _limit: ReplayLimit,
    step: Moves = 0,
    along: Moves = 0,
) -> PositionOut:
    """The position after ``step`` moves of the game and then ``along`` moves of the
    solver's winning line from there (only where the analysis knows one), as a player
    view: face-down cards stay hidden."""
    row, line, way, step, along, state = _along(ctx, share, step, along)
    view = player_view(line.spec, state, deal=row.deal, moves_made=step + along,
                       can_undo=False, can_redo=False, legal=[])  # fmt: skip
    return PositionOut.model_validate(
        {"step": step, "along": along, "steps": len(line.moves), "way": len(way), "view": view}
    )


WAY_CHUNK = 60
"""The most positions of the winning line one ``/way`` request answers."""


class WayOut(BaseModel):
    step: int = Field(description="Moves of the game played.")
    along: int = Field(description="Then moves of the winning line played before the first view.")
    steps: int = Field(description="The game's moves.")
    way: int = Field(description="Moves of the winning line from this step (0: none known).")
    moves: list[str] = Field(description="The line's moves after ``along``, one per view.")
    views: list[PlayerView] = Field(
        description=f"The positions after each of those moves (at most {WAY_CHUNK})."
    )


@router.get("/analyses/{share}/way", responses=E)
def get_way(
    share: str,
    ctx: ContextDep,
    _limit: ReplayLimit,
    step: Moves = 0,
    along: Moves = 0,
    count: Annotated[int, Query(ge=1, le=WAY_CHUNK)] = WAY_CHUNK,
) -> WayOut:
    """The winning line from the position after ``step`` moves of the game, after its
    first ``along`` moves: the next ``count`` moves (at most :data:`WAY_CHUNK`) with the
    player view after each (face-down cards stay hidden), for the page to animate
    without a request a move. Empty where the analysis knows no line from ``step``."""
    row, line, way, step, along, state = _along(ctx, share, step, along)
    views = []
    texts = way[along : along + count]
    for k, text in enumerate(texts, along + 1):
        state = apply(line.spec, state, Move.parse(text))
        views.append(player_view(line.spec, state, deal=row.deal, moves_made=step + k,
                                 can_undo=False, can_redo=False, legal=[]))  # fmt: skip
    return WayOut.model_validate({"step": step, "along": along, "steps": len(line.moves),
                                  "way": len(way), "moves": texts, "views": views})  # fmt: skip


def _along(
    ctx: Any, share: str, step: int, along: int
) -> tuple[GameRow, replay.Line, list[str], int, int, State]:
    """The analysed game's line, the winning line from ``step`` (both clamped) and the
    position ``along`` moves into it."""
    job, row = _shared(ctx, share)
    if job.status != "done" or job.result is None:
        raise ApiError("not_found", text="ui.analysis.notfound")
    try:
        line = replay.LINES.get(row)
    except PasyansError as e:
        raise ApiError("bad_saved_game", str(e)) from e
    step = min(step, len(line.moves))
    way = way_from(job.result, line.moves, step)
    along = min(along, len(way))
    state = line.states[step]
    for text in way[:along]:
        state = apply(line.spec, state, Move.parse(text))
    return row, line, way, step, along, state


class PracticeIn(StrictIn):
    step: int = Field(ge=0, le=100_000, description="From the position after this many moves.")


@router.post("/analyses/{share}/practice", responses=E, status_code=201)
def practice(share: str, body: PracticeIn, ctx: ContextDep, charge: NewGameLimit) -> dict[str, Any]:
    """ "Try again from here": a new practice game for the caller, from the position after
    ``step`` moves of the analysed game (its kind is ``practice``: it never counts in the
    statistics, and the caller's game in progress of those options stays as it is)."""
    _, row = _shared(ctx, share)
    try:
        line = replay.LINES.get(row)
    except PasyansError as e:
        raise ApiError("bad_saved_game", str(e)) from e
    start = line.states[min(body.step, len(line.moves))]
    game = Game(row.game, row.deal, row.options, start=start, kind=store.PRACTICE)
    ctx.end_read()
    charge()
    return service.store_new(ctx, game, None)


def way_from(result: dict[str, Any], moves: tuple[str, ...], step: int) -> list[str]:
    """The winning line from position ``step``: the played moves up to the last position
    proven won, then the solver's line; empty when ``step`` is not proven won."""
    end = result.get("way_from")
    if end is None or step > end:
        return []
    played = [m.removeprefix(FOLLOW_UP) for m in moves[step:end]]
    return played + list(result.get("way", []))
