"""``GET /healthz``: 200 when the database takes a write, 503 (with a code and
``Retry-After``) when it does not: stopped, locked, read-only or full. A 200 says
``"status": "degraded"`` when the deal worker has stopped refilling the solvable-deal pool
(``"pool": "stalled"``): the site serves, a solvable deal the pool lacks is never made."""

from __future__ import annotations

import logging

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from sqlalchemy import Engine, update
from sqlalchemy.dialects import postgresql, sqlite

from pasyans.server.errors import RETRY_AFTER_SECONDS, storage_code
from pasyans.server.pool.entries import pool_state
from pasyans.server.schemas import HealthOut
from pasyans.server.storage import store
from pasyans.server.storage.models import Health

router = APIRouter(tags=["health"])
log = logging.getLogger("pasyans.server")


def write_check(engine: Engine) -> None:
    """Write (and commit) the one ``health`` row: the check a read cannot give, since a
    read-only or full disk and a write lock still let reads through."""
    with engine.connect() as conn:
        conn = conn.execution_options(pasyans_write=True)  # SQLite: BEGIN IMMEDIATE
        t = store.now()
        result = conn.execute(update(Health).where(Health.id == 1).values(checked_at=t))
        if not result.rowcount:
            insert = postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert
            conn.execute(insert(Health).values(id=1, checked_at=t).on_conflict_do_nothing())
        conn.commit()


@router.get(
    "/healthz",
    response_model=HealthOut,
    responses={503: {"model": HealthOut, "description": "The database takes no writes"}},
)
def healthz(request: Request) -> JSONResponse:
    headers = {"Cache-Control": "no-store"}
    try:
        write_check(request.app.state.engine)
    except Exception as e:  # any database failure means "not healthy"
        code = storage_code(e) or "database_unavailable"
        log.warning("health check failed: %s (%s)", code, type(e).__name__)
        return JSONResponse(
            {"status": "unavailable", "code": code},
            status_code=503,
            headers=headers | {"Retry-After": str(RETRY_AFTER_SECONDS)},
        )
    settings = request.app.state.settings
    try:
        with request.app.state.sessionmaker() as session:
            pool = pool_state(session, settings.pool_job_seconds)
    except Exception as e:
        code = storage_code(e) or "database_unavailable"
        return JSONResponse(
            {"status": "unavailable", "code": code},
            status_code=503,
            headers=headers | {"Retry-After": str(RETRY_AFTER_SECONDS)},
        )
    if pool == "stalled":
        log.warning("health check: the deal pool is not being refilled")
    status = "degraded" if pool == "stalled" else "ok"
    return JSONResponse({"status": status, "pool": pool}, headers=headers)
