"""The UI's static files as served: packed per page, content-hashed, cached, compressed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from pasyans.server import assets


def _static(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        f = tmp_path / name
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(text, encoding="utf-8")
    return tmp_path


def test_packs_the_core_and_each_page(tmp_path: Path) -> None:
    static = _static(
        tmp_path,
        {
            "index.html": '<script type="module" src="/static/js/app.js"></script>',
            "css/app.css": "body { color: red; }",
            "js/app.js": 'import { a } from "./lib.js";\nconst page = () => import("./page.js");\n'
            "export const x = a + 1;\n",
            "js/lib.js": "export function a() { return 1; }\nconst b = 2;\nexport { b as c };\n",
            "js/page.js": 'import * as lib from "./lib.js";\nimport { d } from "./only.js";\n'
            "export class Page {}\n",
            "js/only.js": "export const d = 4;\n",
        },
    )
    built = assets.build(static)
    core = built.by_path[built.urls["js/app.js"].removeprefix("/static/")].body.decode()
    page = built.by_path[built.urls["js/page.js"].removeprefix("/static/")].body.decode()
    assert '__P.defs["lib"]' in core and '__P.defs["app"]' in core and "only" not in core
    assert '__P.defs["only"]' in page and '__P.defs["page"]' in page and '"lib"' in page
    assert "return { a, c: b };" in core
    assert '__P.load("page")' in core and built.urls["js/page.js"] in core
    assert re.search(r'src="/static/js/app\.[0-9a-f]{10}\.js"', built.index_html or "")
    assert built.urls["css/app.css"] in core  # scripts find the hashed names


@pytest.mark.parametrize(
    "source",
    [
        'import thing from "./lib.js";\n',  # a default import
        "export default 1;\n",
        'export * from "./lib.js";\n',
    ],
)
def test_refuses_forms_it_does_not_take(tmp_path: Path, source: str) -> None:
    static = _static(tmp_path, {"js/app.js": source, "js/lib.js": "export const a = 1;\n"})
    with pytest.raises(assets.AssetError):
        assets.build(static)


def test_refuses_an_import_cycle(tmp_path: Path) -> None:
    static = _static(
        tmp_path,
        {
            "js/app.js": 'import { b } from "./b.js";\nexport const a = 1;\n',
            "js/b.js": 'import { a } from "./app.js";\nexport const b = 2;\n',
        },
    )
    with pytest.raises(assets.AssetError, match="cycle"):
        assets.build(static)


def test_the_real_ui_packs() -> None:
    built = assets.build()
    assert "js/app.js" in built.urls and "js/play.js" in built.urls and "deck.svg" in built.urls
    core = built.by_path[built.urls["js/app.js"].removeprefix("/static/")].body.decode()
    for other in ("stats", "charts", "history", "replay", "table-controller"):
        assert f'__P.defs["{other}"]' not in core, other


def test_hashed_files_are_immutable_and_compressed(client: TestClient) -> None:
    page = client.get("/play/spider", headers={"Accept-Encoding": "gzip"})
    assert page.headers["cache-control"] == "no-cache"
    assert page.headers.get("content-encoding") == "gzip"
    urls = re.findall(r'"(/static/[^"]+\.[0-9a-f]{10}\.(?:js|css))"', page.text)
    assert len(urls) >= 3  # the styles, the core script, the table's pack (preloaded)
    for url in urls:
        r = client.get(url, headers={"Accept-Encoding": "gzip"})
        assert r.status_code == 200
        assert r.headers["cache-control"] == "public, max-age=31536000, immutable"
        assert r.headers.get("content-encoding") == "gzip"
    deck = client.get(assets.assets().urls["deck.svg"], headers={"Accept-Encoding": "gzip"})
    assert deck.headers["content-type"].startswith("image/svg+xml")
    assert "immutable" in deck.headers["cache-control"]
    api = client.get("/api/catalog", headers={"Accept-Encoding": "gzip"})
    assert api.headers.get("content-encoding") == "gzip"
