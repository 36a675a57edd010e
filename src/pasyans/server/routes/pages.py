"""The site's pages: every page path answers ``static/index.html`` (the browser script reads
the path); ``/static`` serves the UI's files: the packed, content-hashed ones of
:mod:`pasyans.server.assets` cached for a year, any other file revalidated on each use."""

from __future__ import annotations

import json
from html import escape as html_escape
from pathlib import Path
from urllib.parse import urlencode

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

from pasyans import messages
from pasyans.rules import GAMES
from pasyans.server.assets import IMMUTABLE, assets

STATIC = Path(__file__).resolve().parent.parent / "static"

PLACEHOLDER = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Pasyans</title></head>
<body><h1>Pasyans</h1><p>The browser table is not installed yet. The API is at
<a href="/docs">/docs</a>.</p></body></html>
"""

router = APIRouter(include_in_schema=False)


def index(pack: str | None = None, fetches: tuple[str, ...] = ()) -> Response:
    """The page; ``pack`` names the script pack the page will load, fetched at once, and
    ``fetches`` the API answers it will ask for first."""
    headers = {"Cache-Control": "no-cache"}
    html = assets().index_html if (STATIC / "index.html").is_file() else None
    if html is None:
        return HTMLResponse(PLACEHOLDER, headers=headers)
    # Every page asks for the catalog and the messages first: fetched while the scripts
    # load. The messages' URLs carry the catalogue's version (cached for a year).
    version = messages.digest()
    early = [
        f'<meta name="pasyans-messages" content="{version}">',
        *(
            f'<link rel="preload" href="{html_escape(u)}" as="fetch" crossorigin="anonymous">'
            for u in (*message_urls(), "/api/catalog", *fetches)
        ),
    ]
    url = assets().urls.get(f"js/{pack}.js") if pack else None
    if url:
        early.append(f'<link rel="modulepreload" href="{url}">')
    html = html.replace("</head>", "\n".join(early) + "\n</head>", 1)
    return HTMLResponse(html, headers=headers)


def message_urls() -> list[str]:
    """The catalogue's URL, every language in one answer, as ``i18n.js`` asks for it."""
    return [f"/api/messages?{urlencode({'lang': 'all', 'v': messages.digest()})}"]


ICONS = (("icons/icon-192.png", "192x192", "any"), ("icons/icon-512.png", "512x512", "any"),
         ("icons/maskable-512.png", "512x512", "maskable"))  # fmt: skip
"""The app's icons (made by ``tools/make_icons.py``): path under static/, size, purpose."""


@router.get("/manifest.webmanifest")
def manifest() -> Response:
    """The web app manifest: the site installs as an app that opens on the home page."""
    urls = assets().urls
    body = {
        "name": "Pasyans",
        "short_name": "Pasyans",
        "description": "Patience games: Spider, Nivernais, Spine, Backbone.",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#1d4d38",
        "theme_color": "#1d4d38",
        "icons": [
            {"src": urls.get(p, f"/static/{p}"), "sizes": s, "type": "image/png", "purpose": u}
            for p, s, u in ICONS
        ],
    }
    return Response(
        json.dumps(body),
        media_type="application/manifest+json",
        headers={"Cache-Control": "no-cache"},
    )


@router.get("/sw.js")
def service_worker() -> Response:
    """The service worker (``static/sw.js``), at the root so that it covers every page;
    revalidated on each use, so a new one is seen at once."""
    return Response(
        (STATIC / "sw.js").read_bytes(),
        media_type="text/javascript; charset=utf-8",
        headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"},
    )


@router.api_route("/", methods=["GET", "HEAD"])
def home() -> Response:
    return index("home")


@router.api_route("/play/{game}", methods=["GET", "HEAD"])
def play_page(game: str, request: Request) -> Response:
    return index("play", current_fetch(game, request))


def current_fetch(game: str, request: Request) -> tuple[str, ...]:
    """The table's first question, ``/api/current`` for the address's options, exactly as
    the page will ask it (play.js: each option of the catalog in its order, a missing or
    unknown value replaced by the default), so the answer is on its way while the scripts
    load."""
    spec = GAMES.get(game)
    if spec is None:
        return ()
    q = request.query_params
    values = {o.name: (q[o.name] if q.get(o.name) in o.values else o.default) for o in spec.options}
    return ("/api/current?" + urlencode({"game": game, **values}),)


@router.api_route("/rules/{game}", methods=["GET", "HEAD"])
def rules_page(game: str) -> Response:
    return index()


@router.api_route("/stats", methods=["GET", "HEAD"])
def stats_page() -> Response:
    return index()


@router.api_route("/devices", methods=["GET", "HEAD"])
def devices_page() -> Response:
    return index()


@router.api_route("/daily", methods=["GET", "HEAD"])
def daily_page() -> Response:
    return index("daily")


@router.api_route("/history", methods=["GET", "HEAD"])
def history_page() -> Response:
    return index()


@router.api_route("/replay/{game_id}", methods=["GET", "HEAD"])
def replay_page(game_id: str) -> Response:
    return index()


@router.api_route("/analysis/{share}", methods=["GET", "HEAD"])
def analysis_page(share: str) -> Response:
    return index()


class Static(StaticFiles):
    """Static files: a content-hashed name is immutable; any other file is revalidated on
    every use (``no-cache`` + ETag), so a changed file is seen at once."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        hashed = assets().get(path)
        if hashed is not None:
            return Response(
                hashed.body if scope["method"] != "HEAD" else b"",
                media_type=hashed.media_type,
                headers={"Cache-Control": IMMUTABLE, "Content-Length": str(len(hashed.body))},
            )
        response = await super().get_response(path, scope)
        if response.status_code in (200, 304):
            response.headers["Cache-Control"] = "no-cache"
        return response


def static_files() -> Static:
    return Static(directory=STATIC, check_dir=False)
