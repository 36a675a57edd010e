"""FastAPI dependencies, as ``Annotated`` aliases: ``SettingsDep``, ``SessionDep``,
``PlayerDep`` (the player's token hash) and ``ContextDep``."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy.orm import Session, sessionmaker
from starlette.concurrency import run_in_threadpool

from pasyans.server.games.cache import GameCache
from pasyans.server.games.service import Context
from pasyans.server.settings import Settings


def get_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def get_session(request: Request) -> Iterator[Session]:
    maker: sessionmaker[Session] = request.app.state.sessionmaker
    with maker() as session:
        yield session


def get_player(request: Request) -> str:
    """The hash of the player's token (set by :class:`~pasyans.server.security.PlayerCookie`)."""
    token_hash: str = request.state.token_hash
    return token_hash


SettingsDep = Annotated[Settings, Depends(get_settings)]
SessionDep = Annotated[Session, Depends(get_session)]
PlayerDep = Annotated[str, Depends(get_player)]


async def get_context(request: Request) -> AsyncIterator[Context]:
    """One dependency for the whole context (session, player, settings, cache, limits):
    each dependency costs FastAPI a resolution step on every request.

    ``async``, so that FastAPI runs it in the event loop: a plain or generator dependency
    costs a hop to the thread pool on entry and another on exit (a tenth of a move's
    CPU through ``pasyans serve``, docs/performance.md, "CPU per move"). Making the
    context does no I/O (the session is made when first used, in the route's thread);
    closing a session that was made may (a rollback: a round trip to PostgreSQL), so only
    that runs in the thread pool. A move opens no session: no hop at all."""
    state = request.app.state
    settings: Settings = state.settings
    maker: sessionmaker[Session] = state.sessionmaker
    cache: GameCache = state.game_cache
    ctx = Context(
        maker=maker,
        token_hash=request.state.token_hash,
        cache=cache,
        settings=settings,
        write_lock=state.write_lock,
        request=request,
        limits=getattr(state, "limits", None),
        engine=state.engine,
    )
    try:
        yield ctx
    finally:
        if ctx.has_session:
            await run_in_threadpool(ctx.close)


ContextDep = Annotated[Context, Depends(get_context)]
