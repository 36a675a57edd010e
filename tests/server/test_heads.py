"""Request heads (issue 33, finding 1): the player cookie is read in one linear pass and
``http.cookies`` never runs on a request (its unquoting is quadratic in backslashes on
CPython before 3.11.10, CVE-2024-7592). The 431 cap on a head's size is tested against a
real ``pasyans serve`` in test_serve.py; the p99 figures come from benchmarks/big_heads.py.
"""

from __future__ import annotations

import http.cookies

import pytest
from fastapi.testclient import TestClient
from server_helpers import new_game

from pasyans.server.security import COOKIE, player_token

TOKEN = "A" * 43


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (None, None),
        ("", None),
        (f"{COOKIE}={TOKEN}", TOKEN),
        (f"a=1; {COOKIE}={TOKEN}; b=2", TOKEN),
        (f"  {COOKIE} =  {TOKEN}  ", TOKEN),
        (f'{COOKIE}="{TOKEN}"', None),  # never quoted: not a token
        (f"{COOKIE}={TOKEN}x", None),
        (f"{COOKIE}={TOKEN[:-1]}", None),
        (f"{COOKIE}=bad; {COOKIE}={'B' * 43}", "B" * 43),  # the first valid one
        (f"x{COOKIE}={TOKEN}", None),
        (f"{COOKIE}", None),
        ('a="' + "\\" * 100_000 + '"; ' + f"{COOKIE}={TOKEN}", TOKEN),
    ],
)
def test_the_player_token_is_read_from_the_cookie_header(
    raw: str | None, expected: str | None
) -> None:
    assert player_token(raw) == expected


def test_no_request_unquotes_a_cookie_with_http_cookies(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The quadratic unquoting is never reached: not by the player's cookie, not by
    Starlette's ``Request.cookies`` (which FastAPI reads for every route)."""
    g = new_game(client, "spider", deal=1)
    calls: list[int] = []
    real = http.cookies._unquote

    def watched(text: str) -> str:
        calls.append(len(text))
        return real(text)

    monkeypatch.setattr(http.cookies, "_unquote", watched)
    token = client.cookies[COOKIE]
    client.cookies.clear()
    backslashes = 'junk="' + "\\" * 6000 + '"'
    for path in (f"/api/games/{g['id']}", "/api/games", "/", "/healthz"):
        r = client.get(path, headers={"Cookie": f"{backslashes}; {COOKIE}={token}"})
        assert r.status_code == 200, (path, r.text)
        assert "set-cookie" not in r.headers  # the same player, read from among the rest
    assert calls == []
