"""The web application: :func:`create_app` builds it from :class:`Settings`.

``uvicorn --factory pasyans.server.app:app_from_env`` builds it from ``PASYANS_*``
environment variables (what ``pasyans serve`` runs in every worker).
"""

from __future__ import annotations

import gc
import logging
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from starlette.middleware.gzip import GZipMiddleware

from pasyans import __version__
from pasyans.server import errors
from pasyans.server.daily.topcache import TopCache
from pasyans.server.docs import install_docs
from pasyans.server.games.cache import GameCache
from pasyans.server.games.solving import SEARCHES
from pasyans.server.limits.rates import SharedLimits
from pasyans.server.routes import analysis as analysis_routes
from pasyans.server.routes import catalog, daily, devices, games, health, pages
from pasyans.server.routes import messages as messages_routes
from pasyans.server.routes import stats as stats_routes
from pasyans.server.security import Security
from pasyans.server.settings import Settings
from pasyans.server.storage import migrate
from pasyans.server.storage.checkpoint import Checkpointer, defer_checkpoints
from pasyans.server.storage.db import make_engine, make_sessionmaker

log = logging.getLogger("pasyans.server")

DESCRIPTION = """The JSON API of the Pasyans patience site. Errors are
`{"error": {"code", "message", "message_en", "message_ru"}}` with a stable `code`;
see `docs/api.md` for every endpoint and example, `docs/api-errors.md` for every
error code."""


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    """At startup, start this worker's search processes in the background (the first hint
    then does not wait for them) and, on SQLite, the WAL checkpoints' thread
    (:mod:`pasyans.server.storage.checkpoint`); at shutdown, stop them: left running, the search
    processes (and their forkserver) outlived the server after a SIGTERM."""
    processes = app.state.settings.solver_processes if app.state.settings.solver_prestart else 0
    threading.Thread(
        target=SEARCHES.start, args=(processes,), name="pasyans-searches", daemon=True
    ).start()
    checkpointer = Checkpointer(app.state.engine, busy_seconds=app.state.settings.db_busy_seconds)
    checkpointer.start()
    app.state.checkpointer = checkpointer
    try:
        yield
    finally:
        checkpointer.close()
        SEARCHES.shutdown()


def create_app(settings: Settings | None = None) -> FastAPI:
    """A ready application: database engine, migrations (unless disabled), routes."""
    settings = settings if settings is not None else Settings()
    url = settings.resolved_database_url()
    if settings.migrate_on_start:
        migrate.upgrade(url)
    engine = make_engine(
        url,
        pool_size=settings.db_pool_size,
        synchronous=settings.sqlite_synchronous,
        group_commit=settings.sqlite_group_commit,
        busy_seconds=settings.db_busy_seconds,
        statement_seconds=settings.db_statement_seconds,
        connect_seconds=settings.db_connect_seconds,
    )

    defer_checkpoints(engine)  # a thread does them (the lifespan), not a request's commit

    app = FastAPI(
        title="Pasyans",
        version=__version__,
        description=DESCRIPTION,
        docs_url=None,
        redoc_url=None,
        lifespan=lifespan,
    )
    app.state.settings = settings
    app.state.engine = engine
    app.state.sessionmaker = make_sessionmaker(engine)
    app.state.game_cache = GameCache(settings.game_cache_size)
    app.state.top_cache = TopCache()
    app.state.write_lock = threading.Lock() if engine.dialect.name == "sqlite" else None
    app.state.limits = SharedLimits(settings, app.state.sessionmaker, app.state.write_lock)
    errors.install(app)
    app.include_router(catalog.router)
    app.include_router(messages_routes.router)
    app.include_router(games.router)
    app.include_router(stats_routes.router)
    app.include_router(devices.router)
    app.include_router(analysis_routes.router)
    app.include_router(daily.router)
    app.include_router(health.router)
    app.include_router(pages.router)
    install_docs(app)
    app.mount("/static", pages.static_files(), name="static")
    # Every text answer, API included; level 6 (zlib's default) rather than Starlette's 9:
    # about half the CPU on a large answer (a statistics page) for a few % more bytes.
    app.add_middleware(GZipMiddleware, minimum_size=500, compresslevel=6)
    app.add_middleware(Security, settings=settings, limits=app.state.limits)
    return app


def app_from_env() -> FastAPI:
    """The factory uvicorn calls in each worker: settings from the environment."""
    app = create_app(Settings())
    freeze_heap()
    return app


def freeze_heap() -> None:
    """Leave what the worker holds at its start out of the garbage collector's full passes.

    A full pass walks every object the process holds, with the interpreter lock held, and
    nearly all of them are the imported modules (about 130,000 objects: 90-175 ms a pass
    on the reference machine). Each pass stalled every request in progress, and the costly
    clients of ``benchmarks/load.py`` make passes come more often
    (docs/notes/2026-12-03-moved-runs.md, "Group commit, and the deal worker's priority").
    Frozen objects are still freed when their last reference goes; only reference cycles
    among them are never collected, and the pass first collects what is garbage now."""
    gc.collect()
    gc.freeze()
