"""``GET /healthz``: 200 when the database answers, 503 when it does not."""

from __future__ import annotations

import logging

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from sqlalchemy import Engine, text

from pasyans.server.schemas import HealthOut

router = APIRouter(tags=["health"])
log = logging.getLogger("pasyans.server")


@router.get("/healthz", response_model=HealthOut, responses={503: {"model": HealthOut}})
def healthz(request: Request) -> JSONResponse:
    engine: Engine = request.app.state.engine
    try:
        with engine.connect() as conn:
            conn.execute(text("SELECT 1"))
    except Exception as e:  # any database failure means "not healthy"
        log.warning("health check failed: %s", type(e).__name__)
        return JSONResponse({"status": "unavailable"}, status_code=503)
    return JSONResponse({"status": "ok"}, headers={"Cache-Control": "no-store"})
