"""HTTP edges of issue 33, finding 12: a bad ``Content-Length`` gets the API's JSON error,
and a 405 names every method the path takes."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient


@pytest.mark.parametrize("length", ["abc", "-1", "1e3", " 12"])
def test_a_bad_content_length_gets_the_json_error(client: TestClient, length: str) -> None:
    r = client.post(
        "/api/games",
        content=b'{"game": "spider"}',
        headers={"Content-Type": "application/json", "Content-Length": length},
    )
    assert r.status_code == 400, r.text
    assert r.headers["content-type"].startswith("application/json")
    assert r.json()["error"]["code"] == "bad_request"
    assert r.json()["error"]["message_ru"]


@pytest.mark.parametrize(
    ("path", "allowed"),
    [("/api/games", {"GET", "HEAD", "POST"}), ("/api/games/abc", {"GET", "HEAD"})],
)
def test_a_405_names_every_method_of_the_path(
    client: TestClient, path: str, allowed: set[str]
) -> None:
    r = client.options(path)
    assert r.status_code == 405
    assert set(r.headers["Allow"].split(", ")) >= allowed
    assert r.json()["error"]["code"] == "method_not_allowed"
