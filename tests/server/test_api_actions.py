"""Action ids (docs/interfaces.md, "Action ids: exactly once"): a repeated id is answered
with the first answer and applies nothing; refusals are not kept; the newest 64 are kept;
concurrent duplicates apply once. On SQLite and PostgreSQL."""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import partial
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from server_helpers import assert_no_hidden, new_game, state
from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool

from pasyans.server.games.actions import KEPT
from pasyans.server.security import COOKIE

REPLAYED = "Pasyans-Replayed"


def send(client: TestClient, game_id: str, route: str, **body: Any) -> httpx.Response:
    return client.post(f"/api/games/{game_id}/{route}", json=body)


def kept_ids(db_url: str, game_id: str) -> list[str]:
    engine = create_engine(db_url, poolclass=NullPool)
    try:
        with engine.connect() as conn:
            rows = conn.execute(
                text("SELECT action_id FROM game_actions WHERE game_id = :g ORDER BY version"),
                {"g": game_id},
            )
            return [r[0] for r in rows]
    finally:
        engine.dispose()


def first_move(g: dict[str, Any]) -> str:
    text_: str = g["view"]["moves"][0]["text"]
    return text_


def prepare(client: TestClient, route: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """A game ready for ``route`` and the body (without ``action``) to send."""
    g = new_game(client)
    if route in ("undo", "restart"):
        r = send(client, g["id"], "moves", move=first_move(g), version=g["version"])
        g = r.json()
    if route == "redo":
        r = send(client, g["id"], "moves", move=first_move(g), version=g["version"])
        r = send(client, g["id"], "undo", version=r.json()["version"])
        g = r.json()
    body: dict[str, Any] = {"version": g["version"]}
    if route == "moves":
        body["move"] = first_move(g)
    return g, body


@pytest.mark.parametrize("route", ["moves", "undo", "redo", "restart", "giveup", "hint"])
def test_a_repeated_id_gets_the_first_answer_and_applies_once(
    client: TestClient, db_url: str, route: str
) -> None:
    g, body = prepare(client, route)
    first = send(client, g["id"], route, **body, action="act-0001-abcd")
    assert first.status_code == 200, first.text
    assert REPLAYED not in first.headers
    after = state(client, g["id"])
    assert after["version"] == g["version"] + 1
    again = send(client, g["id"], route, **body, action="act-0001-abcd")
    assert again.status_code == 200, again.text
    assert again.headers[REPLAYED] == "1"
    assert again.content == first.content
    assert_no_hidden(again.json())
    # Nothing applied twice: the game is as the first answer left it.
    assert state(client, g["id"]) == after
    assert kept_ids(db_url, g["id"]) == ["act-0001-abcd"]


def test_a_repeat_is_answered_whatever_version_it_names(client: TestClient) -> None:
    g = new_game(client)
    first = send(client, g["id"], "moves", move=first_move(g), version=1, action="move-one-x")
    assert first.status_code == 200
    g2 = first.json()
    second = send(client, g["id"], "undo", version=g2["version"], action="undo-one-x")
    assert second.status_code == 200
    # The first move's answer was lost; the page resends it, naming version 1 still.
    again = send(client, g["id"], "moves", move=first_move(g), version=1, action="move-one-x")
    assert again.status_code == 200 and again.headers[REPLAYED] == "1"
    assert again.json()["version"] == 2
    assert state(client, g["id"])["version"] == 3


def test_a_refusal_is_not_kept_and_is_judged_afresh(client: TestClient, db_url: str) -> None:
    g = new_game(client)
    refused = send(client, g["id"], "undo", version=g["version"], action="refused-once")
    assert refused.status_code == 422, refused.text
    stale = send(client, g["id"], "moves", move=first_move(g), version=9, action="stale-once")
    assert stale.status_code == 409
    assert kept_ids(db_url, g["id"]) == []
    # The same ids, sent again with a request that can be applied, are applied.
    ok = send(client, g["id"], "moves", move=first_move(g), version=1, action="stale-once")
    assert ok.status_code == 200 and REPLAYED not in ok.headers
    assert ok.json()["version"] == 2
    undone = send(client, g["id"], "undo", version=2, action="refused-once")
    assert undone.status_code == 200 and REPLAYED not in undone.headers


def test_the_newest_64_are_kept(client: TestClient, db_url: str) -> None:
    g = new_game(client)
    r = send(client, g["id"], "moves", move=first_move(g), version=1)
    version = r.json()["version"]
    answers: list[bytes] = []
    for i in range(KEPT + 1):
        route = "undo" if i % 2 == 0 else "redo"
        r = send(client, g["id"], route, version=version, action=f"step-{i:04d}")
        assert r.status_code == 200, r.text
        answers.append(r.content)
        version = r.json()["version"]
    ids = kept_ids(db_url, g["id"])
    assert ids == [f"step-{i:04d}" for i in range(1, KEPT + 1)]
    # The oldest is forgotten: judged afresh (its version is stale now), not replayed.
    old = send(client, g["id"], "undo", version=2, action="step-0000")
    assert old.status_code == 409 and REPLAYED not in old.headers
    # The oldest kept one is still answered as first.
    kept = send(client, g["id"], "redo", version=3, action="step-0001")
    assert kept.headers[REPLAYED] == "1" and kept.content == answers[1]
    assert state(client, g["id"])["version"] == version


@pytest.mark.parametrize(
    "bad", ["short", "x" * 65, "has space1", "semi;colon", "ÿÿÿÿÿÿÿÿ", 12345678, None, ""]
)
def test_a_bad_action_id_is_refused_and_changes_nothing(client: TestClient, bad: Any) -> None:
    g = new_game(client)
    body: dict[str, Any] = {"move": first_move(g), "version": 1, "action": bad}
    r = client.post(f"/api/games/{g['id']}/moves", json=body)
    if bad is None:  # null is the same as no id
        assert r.status_code == 200, r.text
        return
    assert r.status_code == 422, r.text
    assert r.json()["code"] == "bad_action_id"
    assert "8 to 64" in r.json()["message"]
    assert state(client, g["id"])["version"] == 1


def test_ids_belong_to_their_game(client: TestClient) -> None:
    a = new_game(client)
    b = new_game(client, "nivernais")
    ra = send(client, a["id"], "moves", move=first_move(a), version=1, action="same-id-both")
    rb = send(client, b["id"], "moves", move=first_move(b), version=1, action="same-id-both")
    assert REPLAYED not in ra.headers and REPLAYED not in rb.headers
    assert rb.json()["id"] == b["id"] and rb.json()["version"] == 2


def test_another_players_repeat_gets_404(client: TestClient, other: TestClient) -> None:
    g = new_game(client)
    send(client, g["id"], "moves", move=first_move(g), version=1, action="mine-only-1")
    r = send(other, g["id"], "moves", move=first_move(g), version=1, action="mine-only-1")
    assert r.status_code == 404


def race(send: list[Callable[[], httpx.Response]]) -> list[httpx.Response]:
    barrier = threading.Barrier(len(send))
    out: list[httpx.Response | None] = [None] * len(send)

    def run(i: int) -> None:
        barrier.wait()
        out[i] = send[i]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(send))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert all(r is not None for r in out)
    return [r for r in out if r is not None]


@pytest.mark.parametrize("servers", [1, 2])
def test_concurrent_duplicates_apply_once(
    make_app: Callable[..., FastAPI], db_url: str, servers: int
) -> None:
    """Two threads send the same action at once, to one app or to two apps on the same
    database (two workers: each its own engine, cache and write lock)."""
    apps = [make_app() for _ in range(servers)]
    with TestClient(apps[0]) as c1, TestClient(apps[-1]) as c2:
        g = new_game(c1)
        c2.cookies.set(COOKIE, c1.cookies[COOKIE])
        for round_ in range(5):
            cur = state(c1, g["id"])
            body = {
                "move": first_move(cur),
                "version": cur["version"],
                "action": f"race-{round_:04d}",
            }
            url = f"/api/games/{g['id']}/moves"
            rs = race([partial(c.post, url, json=body) for c in (c1, c2)])
            assert [r.status_code for r in rs] == [200, 200], [r.text for r in rs]
            assert rs[0].content == rs[1].content
            assert sorted(REPLAYED in r.headers for r in rs) == [False, True]
            assert state(c2, g["id"])["version"] == cur["version"] + 1
        assert kept_ids(db_url, g["id"]) == [f"race-{i:04d}" for i in range(5)]
