"""The OpenAPI page at ``/docs``, served entirely from this origin: Swagger UI's files come
from the ``swagger-ui-bundle-v2`` package and the page has no inline script."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import HTMLResponse, PlainTextResponse
from starlette.staticfiles import StaticFiles

PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Pasyans API</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>
"""

INIT = """window.ui = SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#swagger-ui",
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis],
  layout: "BaseLayout",
});
"""

DOCS_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "frame-ancestors 'none'"
)
"""Swagger UI sets inline styles; scripts stay same-origin only."""


def swagger_dir() -> Path | None:
    try:
        import swagger_ui_bundle  # type: ignore[import-untyped]
    except ImportError:  # pragma: no cover - the package is a dependency
        return None
    path = Path(swagger_ui_bundle.swagger_ui_path)
    return path if path.is_dir() else None


def install_docs(app: FastAPI) -> None:
    """Add ``/docs``, ``/docs/init.js`` and ``/docs/assets``."""

    @app.get("/docs", include_in_schema=False)
    def docs_page() -> HTMLResponse:
        return HTMLResponse(PAGE, headers={"Cache-Control": "no-cache"})

    @app.get("/docs/init.js", include_in_schema=False)
    def docs_init() -> PlainTextResponse:
        return PlainTextResponse(INIT, media_type="text/javascript")

    folder = swagger_dir()
    if folder is not None:
        app.mount("/docs/assets", StaticFiles(directory=folder), name="docs-assets")
