"""What makes the site installable and usable offline, as the server sends it: the web
app manifest, its icons, the service worker (docs/ui.md, "Offline")."""

from __future__ import annotations

from fastapi.testclient import TestClient

from pasyans.server.assets import IMMUTABLE

PNG = b"\x89PNG\r\n\x1a\n"


def test_the_manifest_names_the_app_and_its_icons(client: TestClient) -> None:
    r = client.get("/manifest.webmanifest")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("application/manifest+json")
    m = r.json()
    assert m["name"] == "Pasyans" and m["start_url"] == "/" and m["display"] == "standalone"
    sizes = {(i["sizes"], i["purpose"]) for i in m["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} == sizes
    for icon in m["icons"]:
        got = client.get(icon["src"])
        assert got.status_code == 200, icon
        assert got.headers["content-type"] == "image/png"
        assert got.headers["cache-control"] == IMMUTABLE  # a content-hashed name
        assert got.content.startswith(PNG)
        side = int(icon["sizes"].split("x")[0])
        # The PNG's own width and height (IHDR) are the size the manifest says.
        assert int.from_bytes(got.content[16:20]) == side == int.from_bytes(got.content[20:24])


def test_the_page_links_the_manifest(client: TestClient) -> None:
    html = client.get("/").text
    assert '<link rel="manifest" href="/manifest.webmanifest">' in html


def test_the_service_worker_is_served_at_the_root(client: TestClient) -> None:
    r = client.get("/sw.js")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/javascript")
    assert r.headers["cache-control"] == "no-cache"
    assert r.headers["service-worker-allowed"] == "/"
    # It leaves every /api/ request to the network (the browser test checks its cache).
    assert 'url.pathname.startsWith("/api/")) return;' in r.text
