"""The site's pages: every page path answers ``static/index.html`` (the browser script reads
the path); ``/static`` serves the UI's files."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse, HTMLResponse, Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

STATIC = Path(__file__).resolve().parent.parent / "static"

PLACEHOLDER = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Pasyans</title></head>
<body><h1>Pasyans</h1><p>The browser table is not installed yet. The API is at
<a href="/docs">/docs</a>.</p></body></html>
"""

router = APIRouter(include_in_schema=False)


def index() -> Response:
    page = STATIC / "index.html"
    headers = {"Cache-Control": "no-cache"}
    if page.is_file():
        return FileResponse(page, media_type="text/html; charset=utf-8", headers=headers)
    return HTMLResponse(PLACEHOLDER, headers=headers)


@router.api_route("/", methods=["GET", "HEAD"])
def home() -> Response:
    return index()


@router.api_route("/play/{game}", methods=["GET", "HEAD"])
def play_page(game: str) -> Response:
    return index()


@router.api_route("/rules/{game}", methods=["GET", "HEAD"])
def rules_page(game: str) -> Response:
    return index()


@router.api_route("/stats", methods=["GET", "HEAD"])
def stats_page() -> Response:
    return index()


@router.api_route("/history", methods=["GET", "HEAD"])
def history_page() -> Response:
    return index()


@router.api_route("/replay/{game_id}", methods=["GET", "HEAD"])
def replay_page(game_id: str) -> Response:
    return index()


class Static(StaticFiles):
    """Static files, revalidated on every use (``no-cache`` + ETag: no build step makes
    versioned names, so a changed file must be seen at once)."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        response = await super().get_response(path, scope)
        if response.status_code in (200, 304):
            response.headers["Cache-Control"] = "no-cache"
        return response


def static_files() -> Static:
    return Static(directory=STATIC, check_dir=False)
