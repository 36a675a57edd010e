"""Linked devices and the player's data through the API, on SQLite and PostgreSQL: a code
links a second device to the same player (history, games in progress, statistics); a code
expires after 10 minutes, works once, and is rate limited per device and per address;
devices are listed and unlinked; the data is exported and deleted (docs/devices.md)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from server_helpers import assert_no_hidden, move, new_game, post
from sqlalchemy import func, select

from pasyans.server.players import data, devices
from pasyans.server.storage import store
from pasyans.server.storage.models import Device, GameRow, LinkCode, Player


@pytest.fixture
def two(app: FastAPI) -> Iterator[tuple[TestClient, TestClient]]:
    """Two devices (two cookie jars) of one site."""
    with TestClient(app) as a, TestClient(app) as b:
        yield a, b


def code_of(c: TestClient) -> str:
    r = c.post("/api/devices/code", json={})
    assert r.status_code == 200, r.text
    out = r.json()
    assert devices.normalized(out["code"]) is not None and len(out["code"]) == 14
    return str(out["code"])


def link(c: TestClient, code: str) -> Any:
    return c.post("/api/devices/link", json={"code": code})


def history_ids(c: TestClient) -> list[str]:
    r = c.get("/api/history")
    assert r.status_code == 200, r.text
    return [i["id"] for i in r.json()["items"]]


def played(c: TestClient) -> dict[str, Any]:
    """Two counted games on ``c``: one given up, one in progress (a move made)."""
    lost = move(c, new_game(c, "spider", options={"suits": "1"}))
    assert post(c, lost["id"], "giveup", version=lost["version"]).status_code == 200
    return move(c, new_game(c, "spider", options={"suits": "1"}))


def test_a_linked_device_shares_history_games_and_statistics(
    two: tuple[TestClient, TestClient],
) -> None:
    a, b = two
    playing = played(a)
    assert history_ids(b) == [] and b.get("/api/devices").json() == {"devices": []}
    code = code_of(a)
    r = b.post("/api/devices/code", json={})  # b's own code does not link a
    assert r.status_code == 200
    r = link(b, code.lower().replace("-", " "))  # typed loosely
    assert r.status_code == 200, r.text
    assert r.json()["games_moved"] == 0  # b's code made b a player with no game
    assert history_ids(b) == history_ids(a) and len(history_ids(a)) == 2
    assert b.get("/api/stats").json() == a.get("/api/stats").json()
    # The game in progress is b's too: b plays on in it, a sees the move.
    current = b.get("/api/current", params={"game": "spider", "suits": "1"}).json()
    assert current["id"] == playing["id"]
    after = move(b, current)
    assert a.get(f"/api/games/{playing['id']}").json()["version"] == after["version"]
    la, lb = a.get("/api/devices").json()["devices"], b.get("/api/devices").json()["devices"]
    assert len(la) == 2 and [d["id"] for d in la] == [d["id"] for d in lb]
    assert [d["current"] for d in la] == [True, False] and [d["current"] for d in lb] == [
        False,
        True,
    ]


def test_a_code_expires_after_ten_minutes(
    two: tuple[TestClient, TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b = two
    played(a)
    code = code_of(a)
    real = store.now
    monkeypatch.setattr(store, "now", lambda: real() + timedelta(seconds=599))
    assert link(b, code).status_code == 200  # still valid a second before the end
    c = TestClient(b.app)
    with c:
        monkeypatch.setattr(store, "now", real)
        code = code_of(a)
        monkeypatch.setattr(store, "now", lambda: real() + timedelta(seconds=601))
        r = link(c, code)
        assert r.status_code == 404 and r.json()["error"]["code"] == "link_code_invalid"
        assert "10" in r.json()["error"]["message_en"] and r.json()["error"]["message_ru"]
        assert history_ids(c) == [] and c.get("/api/devices").json() == {"devices": []}


def test_a_code_works_once_and_a_new_code_replaces_the_old(
    app: FastAPI, two: tuple[TestClient, TestClient]
) -> None:
    a, b = two
    played(a)
    first = code_of(a)
    second = code_of(a)
    r = link(b, first)  # replaced by the second
    assert r.status_code == 404 and r.json()["error"]["code"] == "link_code_invalid"
    assert link(b, second).status_code == 200
    with TestClient(app) as c:
        r = link(c, second)  # used
        assert r.status_code == 404 and r.json()["error"]["code"] == "link_code_invalid"
        assert history_ids(c) == []
    with app.state.sessionmaker() as s:
        assert s.scalar(select(func.count()).select_from(LinkCode)) == 0
    code = code_of(a)
    with app.state.sessionmaker() as s:  # only the hash of a code is stored
        stored = s.scalars(select(LinkCode.code_hash)).all()
        assert stored == [devices.code_hash(devices.normalized(code) or "")]
        assert devices.normalized(code) not in stored[0]


def test_bad_input_is_refused_and_changes_nothing(
    app: FastAPI, two: tuple[TestClient, TestClient]
) -> None:
    a, b = two
    played(a)
    code = code_of(a)
    for body in ({"code": "ABCD"}, {"code": "ABCD-EFGH-JKMU"}, {"code": "é" * 12}):
        r = b.post("/api/devices/link", json=body)
        assert r.status_code == 422 and r.json()["error"]["code"] == "bad_link_code", body
    for body in ({}, {"code": 123456789012}, {"code": code, "x": 1}, {"code": "A" * 41}):
        r = b.post("/api/devices/link", json=body)
        assert r.status_code == 422 and r.json()["error"]["code"] == "validation_error", body
    assert b.post("/api/devices/link", content="code").status_code == 415
    r = link(a, code)  # a's own code on a
    assert r.status_code == 409 and r.json()["error"]["code"] == "already_linked"
    assert history_ids(b) == []
    assert link(b, code).status_code == 200  # nothing above used the code up
    assert a.post("/api/devices/x!/unlink", json={}).status_code in (404, 422)


def test_link_tries_are_rate_limited_per_device_and_per_address(
    make_app: Any,
) -> None:
    app = make_app(rate_link_per_minute=1, rate_link_burst=3, rate_address_factor=2,
                   rate_refusal_delay_seconds=0)  # fmt: skip
    app.state.limits.clock = lambda: 1_900_000_000.0  # no refill while the test runs
    with TestClient(app, client=("192.0.2.1", 1)) as a:
        code = code_of(a)
        with TestClient(app, client=("192.0.2.2", 1)) as b:
            for _ in range(3):
                assert link(b, "0000-0000-0000").status_code == 404
            r = link(b, code)  # the right code, but the device's tries are spent
            assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1
            assert r.json()["error"]["code"] == "rate_limited"
        # A fresh cookie on the same address: the address's share (2 x 3) runs out too.
        statuses = []
        for _ in range(5):
            with TestClient(app, client=("192.0.2.2", 2)) as c:
                statuses.append(link(c, "0000-0000-0000").status_code)
        assert statuses == [404, 404, 404, 429, 429]  # 3 + 3 allowed to the address
        with TestClient(app, client=("192.0.2.3", 1)) as d:  # another address: allowed
            assert link(d, code).status_code == 200


def test_unlink_and_list(app: FastAPI, two: tuple[TestClient, TestClient]) -> None:
    a, b = two
    playing = played(a)
    assert link(b, code_of(a)).status_code == 200
    ids = [d["id"] for d in a.get("/api/devices").json()["devices"]]
    with TestClient(app) as stranger:
        played(stranger)
        r = stranger.post(f"/api/devices/{ids[1]}/unlink", json={})  # not its device
        assert r.status_code == 404
        assert r.json()["error"]["code"] == "not_found"
    assert a.post("/api/devices/nosuchdevice/unlink", json={}).status_code == 404
    r = a.post(f"/api/devices/{ids[1]}/unlink", json={})
    assert r.status_code == 200 and [d["id"] for d in r.json()["devices"]] == ids[:1]
    # b is on its own again: no history, no game, no device.
    assert history_ids(b) == [] and b.get("/api/devices").json() == {"devices": []}
    assert b.get(f"/api/games/{playing['id']}").status_code == 404
    assert len(history_ids(a)) == 2
    r = a.post(f"/api/devices/{ids[0]}/unlink", json={})  # the last device stays
    assert r.status_code == 409 and r.json()["error"]["code"] == "last_device"
    assert len(a.get("/api/devices").json()["devices"]) == 1


def test_linking_brings_the_devices_own_games_along(
    app: FastAPI, two: tuple[TestClient, TestClient]
) -> None:
    """b played before linking: its games join a's; where both have a game in progress
    of the same game and options, the one played less recently is abandoned."""
    a, b = two
    older = played(b)  # b's game in progress, spider 1 suit
    a_playing = played(a)  # a's, played later
    own = move(b, new_game(b, "spider", options={"suits": "2"}))  # b's alone
    r = link(b, code_of(a))
    assert r.status_code == 200 and r.json()["games_moved"] == 3
    assert len(history_ids(a)) == 5 and history_ids(a) == history_ids(b)
    statuses = {g["id"]: g["status"] for g in a.get("/api/games").json()["games"]}
    assert statuses[a_playing["id"]] == "playing" and statuses[own["id"]] == "playing"
    assert statuses[older["id"]] == "abandoned"
    total = a.get("/api/stats").json()["total"]
    assert (total["played"], total["given_up"], total["abandoned"]) == (3, 2, 1)
    assert total["in_progress"] == 2
    with app.state.sessionmaker() as s:
        assert s.scalar(select(func.count()).select_from(Player)) == 1
        assert s.scalar(select(func.count()).select_from(Device)) == 2


def test_export_holds_every_game_and_no_hidden_card(two: tuple[TestClient, TestClient]) -> None:
    a, b = two
    playing = played(a)
    r = a.get("/api/me/export")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    out = r.json()
    assert out["format"] == "pasyans-export" and len(out["games"]) == 2
    by_id = {g["id"]: g for g in out["games"]}
    line = by_id[playing["id"]]["moves"]
    assert len(line) == 1 and isinstance(line[0], str)  # the one move made, in notation
    assert by_id[playing["id"]]["status"] == "playing"
    assert all("start" not in g for g in out["games"])
    assert out["statistics"]["total"]["played"] == 1 and len(out["devices"]) == 1
    assert_no_hidden(out)
    empty = b.get("/api/me/export").json()
    assert empty["games"] == [] and empty["player"] is None


def test_export_streams_the_same_json_as_the_whole_export(
    app: FastAPI, two: tuple[TestClient, TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A player with many games: the download comes in pieces, holds at most a batch of
    games at a time, and is the same text as the export built in memory."""
    a, _ = two
    played(a)
    token_hash = store.hash_token(str(a.cookies.get("pasyans_player")))
    with app.state.sessionmaker() as s:
        player = store.player_id(s, token_hash)
        assert player is not None
        for i in range(300):
            store.add_game(s, player, game="spider", options={"suits": "1"}, deal=1000 + i,
                           kind="random", rules_version=1, summary={})  # fmt: skip
        s.commit()
    monkeypatch.setattr(data, "CHUNK", 4096)
    monkeypatch.setattr(data, "GAMES_PER_READ", 25)
    frozen = store.now()
    monkeypatch.setattr(store, "now", lambda: frozen)
    r = a.get("/api/me/export")
    assert r.status_code == 200 and r.headers["content-type"] == "application/json"
    assert "attachment" in r.headers["content-disposition"]
    with app.state.sessionmaker() as s:
        whole = data.export(s, token_hash)
        assert r.text == json.dumps(whole, ensure_ascii=False, default=str)
        assert len(json.loads(r.text)["games"]) == 302  # valid JSON, every game
        held = []
        pieces = []
        for piece in data.export_json(s, token_hash):
            pieces.append(piece)
            held.append(sum(isinstance(o, GameRow) for o in s.identity_map.values()))
        assert "".join(pieces) == r.text and len(pieces) > 10
        assert max(held) <= 25  # a batch of games at a time, whatever their number


def test_delete_needs_confirmation_then_removes_everything(
    app: FastAPI, two: tuple[TestClient, TestClient]
) -> None:
    a, b = two
    played(a)
    assert link(b, code_of(a)).status_code == 200
    code_of(a)
    for body in ({}, {"confirm": False}, {"confirm": "yes"}, {"confirm": True, "x": 1}):
        r = a.post("/api/me/delete", json=body)
        assert r.status_code == 422, (body, r.text)
    assert a.post("/api/me/delete", json={"confirm": False}).json()["error"]["code"] == (
        "confirmation_required"
    )
    assert len(history_ids(b)) == 2  # nothing changed
    r = b.post("/api/me/delete", json={"confirm": True})
    assert r.status_code == 200 and r.json() == {"games": 2, "devices": 2}
    for c in (a, b):
        assert history_ids(c) == [] and c.get("/api/devices").json() == {"devices": []}
        assert c.get("/api/stats").json()["total"]["played"] == 0
    with app.state.sessionmaker() as s:
        for table in (Player, Device, GameRow, LinkCode):
            assert s.scalar(select(func.count()).select_from(table)) == 0, table
    # Nothing left to delete: zero, and a new game makes a new player.
    assert a.post("/api/me/delete", json={"confirm": True}).json() == {"games": 0, "devices": 0}
    new_game(a, "spider", options={"suits": "1"})
    assert len(a.get("/api/devices").json()["devices"]) == 1


def test_two_devices_asking_for_codes_at_once_leave_one_live_code(
    app: FastAPI, two: tuple[TestClient, TestClient]
) -> None:
    """Devices of one player making codes in parallel: every request is answered, and one
    code (the last made) is live."""
    from concurrent.futures import ThreadPoolExecutor

    a, b = two
    played(a)
    assert link(b, code_of(a)).status_code == 200
    with ThreadPoolExecutor(4) as pool:
        answers = list(pool.map(lambda c: c.post("/api/devices/code", json={}), [a, b] * 4))
    assert [r.status_code for r in answers] == [200] * 8
    with app.state.sessionmaker() as s:
        assert s.scalar(select(func.count()).select_from(LinkCode)) == 1


def test_one_code_entered_on_several_devices_at_once_links_one(app: FastAPI) -> None:
    from concurrent.futures import ThreadPoolExecutor

    with TestClient(app) as a:
        played(a)
        code = code_of(a)
        clients = [TestClient(app) for _ in range(4)]
        try:
            with ThreadPoolExecutor(4) as pool:
                answers = list(pool.map(lambda c: link(c, code), clients))
            assert sorted(r.status_code for r in answers) == [200, 404, 404, 404]
        finally:
            for c in clients:
                c.close()
        assert len(a.get("/api/devices").json()["devices"]) == 2
