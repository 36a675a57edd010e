"""Hardening (issue 15): bad ids, connection hygiene, storage trouble, one game in
progress per option set, kept statistics. Each on SQLite and on PostgreSQL."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from server_helpers import GAME_ACTIONS, move, new_game, post, without_bands
from sqlalchemy import create_engine, event, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.pool import NullPool

from pasyans.server.security import EscapeControl, escape_control
from pasyans.server.stats import records as stats
from pasyans.server.storage import store
from pasyans.server.storage.models import GameRow, PlayerStats

GAME_ENDPOINTS = GAME_ACTIONS
BAD_IDS = ["%00", "%00%0AINFO%20forged", "a%00b", "abc%0D%0A", "%C3%A9t%C3%A9", "a.b", "a b",
           "x" * 33, "%FF", "%E2%80%A8"]  # fmt: skip


# --- ids and logs -------------------------------------------------------------------------


def test_any_id_outside_the_alphabet_is_404_everywhere(client: TestClient) -> None:
    new_game(client)  # the player exists, so the lookup would reach the database
    for bad in BAD_IDS:
        for method, tail, body in GAME_ENDPOINTS:
            r = client.request(method, f"/api/games/{bad}{tail}", json=body)
            assert r.status_code == 404, (bad, tail, r.status_code, r.text)
            assert r.json()["error"]["code"] == "not_found"


def test_log_lines_escape_control_characters() -> None:
    assert escape_control("a\x00b\nc\r\x1b[31m\u2028") == "a\\x00b\\nc\\r\\x1b[31m\\u2028"
    record = logging.LogRecord(
        "uvicorn.access", logging.INFO, "", 0, '%s - "%s %s HTTP/%s" %d',
        ("1.2.3.4:5", "GET", "/api/games/\x00\nINFO forged", "1.1", 404), None,
    )  # fmt: skip
    assert EscapeControl().filter(record)
    line = record.getMessage()
    assert "\n" not in line and "\x00" not in line and "\\nINFO forged" in line


# --- connection hygiene ---------------------------------------------------------------------


def test_api_answers_are_not_stored_by_caches(client: TestClient) -> None:
    g = new_game(client)
    for r in (
        client.get(f"/api/games/{g['id']}"),
        client.get("/api/catalog"),
        client.get("/api/stats"),
        client.get("/api/games/nope"),
        client.post("/api/games", json={"game": "chess"}),
        client.post("/api/games", content=b"x", headers={"content-type": "text/plain"}),
        client.get("/healthz"),
    ):
        assert r.headers.get("cache-control") == "no-store", (r.request.url, r.status_code)


def test_head_works_wherever_get_does(client: TestClient) -> None:
    g = new_game(client)
    for path in (f"/api/games/{g['id']}", "/api/catalog", "/api/stats", "/api/history",
                 f"/api/current?game={g['game']}", "/api/games", "/healthz", "/openapi.json",
                 f"/api/games/{g['id']}/replay", "/", "/play/spider"):  # fmt: skip
        get = client.get(path)
        head = client.head(path)
        assert head.status_code == get.status_code == 200, (path, head.status_code)
        assert head.content == b""
        assert head.headers["content-type"] == get.headers["content-type"]
    assert client.head("/api/games/nope").status_code == 404


def test_every_post_needs_a_json_content_type(client: TestClient) -> None:
    g = new_game(client)
    posts = [f"/api/games/{g['id']}{tail}" for method, tail, _ in GAME_ENDPOINTS
             if method == "POST"] + ["/api/games", "/api/stats/reset"]  # fmt: skip
    for path in posts:
        for headers in (
            {"content-type": "text/plain"},
            {},
            {"content-type": "application/x-www-form-urlencoded"},
        ):
            r = client.post(path, content=b"{}", headers=headers)
            assert r.status_code == 415, (path, headers, r.status_code)
            assert r.json()["error"]["code"] == "unsupported_media_type"
    ok = client.post(f"/api/games/{g['id']}/active", content=b"{}",
                     headers={"content-type": "application/json; charset=utf-8"})  # fmt: skip
    assert ok.status_code == 200
    assert client.get(f"/api/games/{g['id']}").json() | {"time_ms": 0} == g | {"time_ms": 0}


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_forwarded_proto_is_believed_only_from_trusted_proxies(
    make_app: Callable[..., FastAPI],
) -> None:
    https = {"x-forwarded-proto": "https"}
    # TestClient's peer is "testclient".
    with TestClient(make_app(trust_proxy=True, forwarded_allow_ips="127.0.0.1")) as c:
        r = c.get("/api/stats", headers=https)
        assert "secure" not in r.headers["set-cookie"].lower()
        assert "strict-transport-security" not in r.headers
    with TestClient(make_app(trust_proxy=True, forwarded_allow_ips="testclient")) as c:
        r = c.get("/api/stats", headers=https)
        assert "secure" in r.headers["set-cookie"].lower()


# --- one game in progress -------------------------------------------------------------------


def _playing(app: FastAPI) -> list[tuple[int, str, str]]:
    with app.state.sessionmaker() as s:
        rows = s.execute(
            select(GameRow.player_id, GameRow.game, GameRow.options_key).where(
                GameRow.status == store.PLAYING
            )
        ).all()
    return [tuple(r) for r in rows]  # type: ignore[misc]


def test_racing_new_games_leave_one_in_progress(app: FastAPI) -> None:
    with TestClient(app) as c:
        new_game(c, "spine")
        cookies = dict(c.cookies)

    def start(i: int) -> int:
        with TestClient(app, cookies=cookies) as tab:
            return tab.post("/api/games", json={"game": "spine", "deal": 10 + i}).status_code

    for _ in range(3):
        with ThreadPoolExecutor(8) as pool:
            codes = list(pool.map(start, range(8)))
        assert codes == [201] * 8
        playing = _playing(app)
        assert len(playing) == len(set(playing)) == 1, playing


def test_the_database_refuses_a_second_game_in_progress(app: FastAPI, client: TestClient) -> None:
    g = new_game(client, "spine")
    with app.state.sessionmaker() as s:
        row = s.get(GameRow, g["id"])
        assert row is not None
        twin = GameRow(**{c.key: getattr(row, c.key) for c in GameRow.__table__.columns})
        twin.id = "twin"
        s.add(twin)
        with pytest.raises(IntegrityError):
            s.commit()


# --- storage trouble ------------------------------------------------------------------------


def _is_503(r: Any, code: str | None = None) -> None:
    assert r.status_code == 503, r.text
    assert int(r.headers["retry-after"]) > 0
    got = r.json().get("code") or r.json()["error"]["code"]
    assert got.startswith("database_")
    if code is not None:
        assert got == code


def _on_connect(app: FastAPI, sql: str) -> None:
    """Run ``sql`` on every new connection of the app's engine (old ones are dropped)."""
    engine = app.state.engine

    def run(conn: Any, _record: Any) -> None:
        conn.cursor().execute(sql)
        conn.commit()  # PostgreSQL: a SET inside a rolled-back transaction is undone

    event.listen(engine, "connect", run)
    engine.dispose()


def test_read_only_storage_is_503(app: FastAPI, client: TestClient, db_url: str) -> None:
    g = new_game(client)
    assert client.get("/healthz").status_code == 200
    _on_connect(
        app,
        "PRAGMA query_only=ON"
        if db_url.startswith("sqlite")
        else "SET default_transaction_read_only = on",
    )
    t = time.monotonic()
    _is_503(client.get("/healthz"), "database_read_only")
    _is_503(post(client, g["id"], "moves", move=g["view"]["moves"][0]["text"], version=1),
            "database_read_only")  # fmt: skip
    _is_503(client.post("/api/games", json={"game": "spine"}), "database_read_only")
    assert time.monotonic() - t < 10
    assert client.get(f"/api/games/{g['id']}").json()["version"] == 1  # reads still work


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_a_full_disk_is_503(app: FastAPI, client: TestClient) -> None:
    g = new_game(client)
    with app.state.engine.connect() as conn:
        pages = conn.exec_driver_sql("PRAGMA page_count").scalar()
    # The file may not grow any more: what a full disk looks like to SQLite.
    _on_connect(app, f"PRAGMA max_page_count={pages}")
    pad = {"game": "spine"}
    for _ in range(200):  # fill the last free pages
        r = client.post("/api/games", json=pad)
        if r.status_code == 503:
            break
        assert r.status_code == 201
    _is_503(r, "database_full")
    _is_503(client.get("/healthz")) if client.get("/healthz").status_code == 503 else None
    assert client.get(f"/api/games/{g['id']}").status_code == 200


def test_a_held_lock_is_503_within_the_timeout(
    make_app: Callable[..., FastAPI], db_url: str
) -> None:
    app = make_app(db_busy_seconds=1.0)
    with TestClient(app) as client:
        g = new_game(client)
        locker = create_engine(db_url, poolclass=NullPool)
        with locker.connect() as conn:
            if db_url.startswith("sqlite"):
                conn.exec_driver_sql("BEGIN EXCLUSIVE")
            else:
                conn.exec_driver_sql("BEGIN")
                conn.exec_driver_sql("LOCK TABLE games, health IN ACCESS EXCLUSIVE MODE")
            t = time.monotonic()
            r = post(client, g["id"], "moves", move=g["view"]["moves"][0]["text"], version=1)
            _is_503(r, "database_busy")
            _is_503(client.get("/healthz"), "database_busy")
            assert time.monotonic() - t < 6
            conn.rollback()
        locker.dispose()
        r = post(client, g["id"], "moves", move=g["view"]["moves"][0]["text"], version=1)
        assert r.status_code == 200


@pytest.mark.parametrize("db_url", ["postgresql"], indirect=True)
@pytest.mark.postgres
def test_a_stopped_database_is_503(make_app: Callable[..., FastAPI], db_url: str) -> None:
    from devtools import free_port

    app = make_app()
    # The same server, then a port where nothing listens: what a stopped server looks like.
    app.state.engine.dispose()
    dead = db_url.rsplit("@", 1)[0] + f"@127.0.0.1:{free_port()}/pasyans_test"
    dead_app = make_app(database_url=dead, migrate_on_start=False)
    with TestClient(dead_app) as c:
        t = time.monotonic()
        _is_503(c.get("/healthz"), "database_unavailable")
        _is_503(c.post("/api/games", json={"game": "spine"}), "database_unavailable")
        _is_503(c.get("/api/stats"), "database_unavailable")
        assert time.monotonic() - t < 10


# --- kept statistics ------------------------------------------------------------------------


def test_stats_never_read_every_game(app: FastAPI, client: TestClient) -> None:
    """``/api/stats`` reads the kept figures, the games in progress and at most
    POINTS_LIMIT finished games per chart: never a player's whole list of games."""
    for _ in range(3):
        g = move(client, new_game(client, "spine"))
        post(client, g["id"], "giveup", version=g["version"])
    seen: list[str] = []

    def spy(_conn: Any, _cur: Any, statement: str, *_: Any) -> None:
        seen.append(" ".join(statement.split()).lower())

    event.listen(app.state.engine, "before_cursor_execute", spy)
    try:
        assert client.get("/api/stats").json()["total"]["played"] == 3
        assert client.get("/api/stats?game=spine").json()["total"]["played"] == 3
    finally:
        event.remove(app.state.engine, "before_cursor_execute", spy)
    on_games = [s for s in seen if " from games" in s]
    assert on_games
    for s in on_games:
        assert " limit " in s or "status = 'playing'" in s or "games.id in" in s, s


def test_kept_figures_equal_a_recount(app: FastAPI, client: TestClient) -> None:
    for i in range(4):
        g = move(client, new_game(client, "spider", options={"suits": 1 + i % 2}))
        if i % 2:
            post(client, g["id"], "giveup", version=g["version"])
    new_game(client, "spider", options={"suits": 1})  # abandons the first
    with app.state.sessionmaker() as s:
        player = s.scalar(select(GameRow.player_id).limit(1))
        kept = stats.kept_statistics(s, player)
        recount = stats.statistics(stats.records(s, player))
        assert without_bands(kept) == recount

        def kept_rows() -> list[tuple[Any, ...]]:
            rows = s.scalars(select(PlayerStats)).all()
            return sorted(
                (r.game, r.options_key, r.kind, r.difficulty, r.played, r.won, r.abandoned,
                 r.given_up) for r in rows
            )  # fmt: skip

        snapshot = kept_rows()
        stats.rebuild(s, player)
        s.commit()
        after = kept_rows()
        assert after == snapshot
        assert len(after) == 1 + 1 + 2 + 2  # total, spider, two option sets, their deals


# --- bounded work per game ------------------------------------------------------------------


def test_a_move_list_has_a_cap(make_app: Callable[..., FastAPI]) -> None:
    with TestClient(make_app(max_moves=12)) as c:
        g = new_game(c, "spider", options={"suits": 1})
        played = 0
        while played < 12:
            g = move(c, g)
            played += 1
        r = post(c, g["id"], "moves", move=g["view"]["moves"][0]["text"], version=g["version"])
        assert r.status_code == 422, r.text
        err = r.json()["error"]
        assert err["code"] == "too_many_moves" and "12" in err["message_en"]
        assert err["message_ru"] != err["message_en"]
        g.pop("events")
        assert c.get(f"/api/games/{g['id']}").json() == g  # nothing changed
        g = post(c, g["id"], "undo", version=g["version"]).json()  # undo still works
        assert g["view"]["counters"]["moves"] == 11
        g = post(c, g["id"], "redo", version=g["version"]).json()
        assert g["view"]["counters"]["moves"] == 12
