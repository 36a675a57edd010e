"""Pages, static files, /docs, /healthz and the security headers on every answer."""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from pasyans.server.routes import pages

PATHS = [
    "/",
    "/play/spider",
    "/rules/spine",
    "/stats",
    "/history",
    "/devices",
    "/daily",
    "/api/daily/board?game=spine&difficulty=easy",
    "/replay/abc",
    "/api/catalog",
    "/api/nothing",
    "/healthz",
    "/docs",
    "/openapi.json",
    "/static/nothing.js",
]


@pytest.mark.parametrize("path", PATHS)
def test_security_headers_everywhere(client: TestClient, path: str) -> None:
    r = client.get(path)
    csp = r.headers["content-security-policy"]
    assert "default-src 'self'" in csp and "script-src 'self'" in csp
    assert "frame-ancestors 'none'" in csp
    assert "unsafe-inline" not in csp.split("script-src")[1].split(";")[0]
    assert not re.search(r"https?://", csp)  # no other origin
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["x-frame-options"] == "DENY"
    assert r.headers["referrer-policy"] == "same-origin"


def test_error_answers_have_headers_too(client: TestClient) -> None:
    r = client.post("/api/games", json={"game": "nope"})
    assert r.status_code == 422 and r.headers["x-frame-options"] == "DENY"


@pytest.mark.parametrize("path", PATHS[:6])
def test_pages_answer_the_index(client: TestClient, path: str) -> None:
    r = client.get(path)
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/html")
    assert r.headers["cache-control"] == "no-cache"
    index = pages.STATIC / "index.html"
    if index.is_file():
        # index.html as written, its static files named by content hash (and the preloads
        # of the catalog and of the page's script pack).
        # The catalogue's version is injected too, so the page asks for a cacheable copy.
        assert re.search(r'<meta name="pasyans-messages" content="[0-9a-f]{12}">', r.text)
        served = re.sub(r'<link rel="(modulepreload|preload)"[^>]*>\n', "", r.text)
        served = re.sub(r'<meta name="pasyans-messages" content="[0-9a-f]+">\n', "", served)
        unhash = re.sub(r"\.[0-9a-f]{10}\.(js|css|svg|png)", r".\1", served)
        assert unhash == index.read_text(encoding="utf-8")
        assert served != unhash
    else:
        assert "Pasyans" in r.text
    assert "set-cookie" not in r.headers  # pages set no cookie; the API does


def test_placeholder_without_index(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pages, "STATIC", pages.STATIC / "no-such-dir")
    r = client.get("/")
    assert r.status_code == 200 and "<script" not in r.text


def test_static_files_are_revalidated(client: TestClient) -> None:
    files = [p for p in pages.STATIC.rglob("*") if p.is_file()] if pages.STATIC.is_dir() else []
    if not files:
        assert client.get("/static/app.js").status_code == 404
        return
    rel = files[0].relative_to(pages.STATIC).as_posix()
    r = client.get(f"/static/{rel}")
    assert r.status_code == 200 and r.headers["cache-control"] == "no-cache"
    assert "etag" in r.headers


def test_docs_page_is_served_from_this_origin(client: TestClient) -> None:
    r = client.get("/docs")
    assert r.status_code == 200
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", r.text, re.S)
    assert scripts and all('src="/' in attrs and not body.strip() for attrs, body in scripts)
    for src in re.findall(r'(?:src|href)="([^"]+)"', r.text):
        assert src.startswith("/")
        assert client.get(src).status_code == 200, src
    spec = client.get("/openapi.json").json()
    assert "/api/games/{game_id}/moves" in spec["paths"]
    assert "/api/catalog" in spec["paths"]


def test_healthz(client: TestClient, app: FastAPI) -> None:
    r = client.get("/healthz")
    assert r.status_code == 200 and r.json() == {"status": "ok", "pool": "none"}
    assert "set-cookie" not in r.headers


def test_healthz_reports_a_dead_database(app: FastAPI) -> None:
    class Broken:
        def connect(self) -> Any:
            raise OSError("database is gone")

    engine = app.state.engine
    app.state.engine = Broken()
    try:
        with TestClient(app) as c:
            r = c.get("/healthz")
    finally:
        app.state.engine = engine
    assert r.status_code == 503
    assert r.json() == {"status": "unavailable", "code": "database_unavailable"}
    assert r.headers["retry-after"]
