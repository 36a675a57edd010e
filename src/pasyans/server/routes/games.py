"""``/api/games`` and ``/api/current``: create, read and play games."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

import pydantic_core
from fastapi import APIRouter, Query, Request, Response, status

from pasyans.engine import Game
from pasyans.rules import resolve_options
from pasyans.server.deps import ContextDep
from pasyans.server.games import actions, service
from pasyans.server.games.service import Context
from pasyans.server.games.solving import hint_for, winnable_for
from pasyans.server.limits.deps import HintLimit, NewGameLimit, UndoRedoLimit
from pasyans.server.schemas import (
    ActiveOut,
    EmptyIn,
    ErrorOut,
    EventsOut,
    GameCreateIn,
    GameId,
    GameListOut,
    GameOut,
    GameSummary,
    HintOut,
    MoveIn,
    VersionIn,
    WinnableOut,
)
from pasyans.server.stats import records as stats
from pasyans.server.storage import store
from pasyans.server.storage.store import GameData

router = APIRouter(prefix="/api", tags=["games"])

# ``service.play`` or ``service.retarget``: a move's step inside ``service.act``.
MoveStep = Callable[[Game, GameData, str | dict[str, Any], bool], list[dict[str, Any]]]

E: dict[int | str, dict[str, Any]] = {
    202: {"model": ErrorOut, "description": "deal_preparing: ask again after Retry-After"},
    400: {"model": ErrorOut, "description": "The body is not JSON"},
    404: {"model": ErrorOut, "description": "No such game for this player"},
    409: {"model": ErrorOut, "description": "Stale version or finished game, with the state"},
    413: {"model": ErrorOut, "description": "The body is too large"},
    415: {"model": ErrorOut, "description": "The body is not application/json"},
    422: {"model": ErrorOut, "description": "Invalid or illegal request; nothing changes"},
    429: {"model": ErrorOut, "description": "Too many costly requests (hint, new game)"},
    503: {"model": ErrorOut, "description": "pool_busy: too many deals queued; Retry-After"},
}


def answer(out: dict[str, Any], status_code: int = 200) -> Response:
    """The answer's JSON, as the route's ``response_model`` would write it, without
    validating again what the service built (a game's view is a plain dict in the schema:
    validation would only copy it); tests check the answers against the OpenAPI schema."""
    return Response(pydantic_core.to_json(out), status_code, media_type="application/json")


@router.post("/games", status_code=status.HTTP_201_CREATED, responses=E, response_model=GameOut)
def create_game(body: GameCreateIn, ctx: ContextDep, limit: NewGameLimit) -> Response:
    """Start a game; it becomes the current game for its game id and options."""
    out = service.create(
        ctx,
        body.game,
        body.options,
        body.deal,
        body.solvable,
        body.difficulty,
        charge=limit,
        generator=body.generator,
    )
    return answer(out, status.HTTP_201_CREATED)


@router.get("/games", responses=E)
def list_games(
    ctx: ContextDep,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> GameListOut:
    """The player's games, newest first."""
    rows = store.list_games(ctx.session, ctx.token_hash, limit=limit, offset=offset)
    return GameListOut(games=[game_summary(r) for r in rows])


def game_summary(row: store.AnyRow) -> GameSummary:
    """One game of ``GET /api/games``: its statistics record's fields of the same names."""
    return GameSummary.model_validate(stats.record_of(row), from_attributes=True)


@router.get("/current", responses=E)
def current_game(
    request: Request, ctx: ContextDep, game: Annotated[GameId, Query()]
) -> GameOut | None:
    """The player's unfinished game for ``game`` and the options given as query parameters;
    ``null`` (still 200) when there is none: a first visit is not an error."""
    options = {k: v for k, v in request.query_params.items() if k != "game"}
    values = resolve_options(game, options)
    row = store.current_game(ctx.session, ctx.token_hash, game, store.options_key(values))
    if row is None:
        return None
    return GameOut.model_validate(service.read(ctx, row))


@router.get("/games/{game_id}", responses=E, response_model=GameOut)
def get_game(game_id: str, ctx: ContextDep) -> Response:
    return answer(service.read(ctx, service.owned(ctx, game_id, lines=False)))


def acted(out: actions.Answer) -> Response:
    """An action's answer; a kept one (a repeated action id) says so in a header."""
    headers = {actions.REPLAYED_HEADER: "1"} if out.replayed else None
    return Response(out.body, out.status, headers=headers, media_type="application/json")


def with_events(out: dict[str, Any], events: Any) -> dict[str, Any]:
    return {**out, "events": events}


def without_result(out: dict[str, Any], _result: Any) -> dict[str, Any]:
    return out


def moved(ctx: Context, game_id: str, body: MoveIn, step: MoveStep) -> Response:
    """A move or a retarget (``step``: ``service.play`` or ``service.retarget``): one action
    that counts as a move, its events in the answer."""
    move = body.move_data()
    return acted(
        service.act(
            ctx,
            game_id,
            body.version,
            lambda g, r: step(g, r, move, body.auto),
            with_events,
            action_id=body.action,
            counts_as_move=True,
        )
    )


@router.post("/games/{game_id}/moves", responses=E, response_model=EventsOut)
def play_move(game_id: str, body: MoveIn, ctx: ContextDep) -> Response:
    """Play a move; ``events`` lists the move and its automatic follow-ups in order."""
    return moved(ctx, game_id, body, service.play)


@router.post("/games/{game_id}/retarget", responses=E, response_model=EventsOut)
def retarget(game_id: str, body: MoveIn, ctx: ContextDep) -> Response:
    """Smart-move cycling: replace the last move by another destination of the same cards.

    One move, not an undo: ``undos`` and the move count stay as they were (see
    ``docs/rules-decisions.md``). Refused when the last move turned up a hidden card."""
    return moved(ctx, game_id, body, service.retarget)


@router.post("/games/{game_id}/undo", responses=E, response_model=EventsOut)
def undo(game_id: str, body: VersionIn, ctx: ContextDep, _limit: UndoRedoLimit) -> Response:
    return acted(
        service.act(ctx, game_id, body.version, service.undo, with_events, action_id=body.action)
    )


@router.post("/games/{game_id}/redo", responses=E, response_model=EventsOut)
def redo(game_id: str, body: VersionIn, ctx: ContextDep, _limit: UndoRedoLimit) -> Response:
    return acted(
        service.act(
            ctx,
            game_id,
            body.version,
            service.redo,
            with_events,
            action_id=body.action,
            counts_as_move=True,
        )
    )


@router.post("/games/{game_id}/autocollect", responses=E, response_model=EventsOut)
def autocollect(game_id: str, body: VersionIn, ctx: ContextDep) -> Response:
    """Send every remaining card to the foundations; one event list, one version step."""
    return acted(
        service.act(
            ctx,
            game_id,
            body.version,
            service.autocollect,
            with_events,
            action_id=body.action,
            counts_as_move=True,
        )
    )


@router.post("/games/{game_id}/restart", responses=E, response_model=EventsOut)
def restart(game_id: str, body: VersionIn, ctx: ContextDep) -> Response:
    return acted(
        service.act(ctx, game_id, body.version, service.restart, with_events, action_id=body.action)
    )


@router.post("/games/{game_id}/giveup", responses=E, response_model=GameOut)
def give_up(game_id: str, body: VersionIn, ctx: ContextDep) -> Response:
    return acted(
        service.act(
            ctx, game_id, body.version, service.give_up, without_result, action_id=body.action
        )
    )


@router.post("/games/{game_id}/hint", responses=E, response_model=HintOut)
def hint(game_id: str, body: VersionIn, ctx: ContextDep, _limit: HintLimit) -> Response:
    """One useful move judged from what the player can see; counts a hint. A repeated
    action id is answered before any search."""
    kept = service.replayed(ctx, game_id, body.action)
    if kept is not None:
        return acted(kept)
    found = hint_for(ctx, game_id, body.version)

    def count(game: Any, row: Any) -> None:
        game.hints += 1

    def with_hint(out: dict[str, Any], _result: Any) -> dict[str, Any]:
        return {**out, "hint": found}

    return acted(service.act(ctx, game_id, body.version, count, with_hint, action_id=body.action))


@router.post("/games/{game_id}/winnable", responses=E)
def winnable(game_id: str, body: VersionIn, ctx: ContextDep, _limit: HintLimit) -> WinnableOut:
    """Whether the position can still be won, within the server's time budget."""
    return WinnableOut.model_validate(winnable_for(ctx, game_id, body.version))


@router.post("/games/{game_id}/active", responses=E)
def active(game_id: str, ctx: ContextDep, body: EmptyIn | None = None) -> ActiveOut:
    """The page's heartbeat while visible: counts active playing time."""
    return ActiveOut(time_ms=service.heartbeat(ctx, game_id))
