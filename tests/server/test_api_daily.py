"""Daily deals through the API, on SQLite and PostgreSQL: the same deal for every player,
one ranked attempt, leaderboards of clean wins computed from stored games only (a client
cannot post a time), past days as practice, display names and their reports."""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient

from pasyans import deals
from pasyans.cards import ACE, KING, make_card
from pasyans.deals import SolvableDeal
from pasyans.position import State
from pasyans.rules import get_game
from pasyans.server.daily import boards
from pasyans.server.pool import daily
from pasyans.server.pool import entries as pool

DAILY = {"game": "backbone", "difficulty": "easy"}
BOARD = "/api/daily/board?game=backbone&difficulty=easy"


def _near_won(
    game: str, options: object, deal: int, band: str, generator: int | None = None
) -> SolvableDeal:
    """A stand-in for the generator: every card up but one King on t1 (won by 't1>f8')."""
    spec = get_game("backbone")
    found = [[make_card(r, s) for r in range(ACE, KING + 1)] for _ in range(2) for s in range(4)]
    last = found[7].pop()
    piles: list[list[int]] = [[] for _ in spec.piles]
    for i in range(8):
        piles[2 + i] = found[i]
    piles[10] = [last]
    state = State.from_json({"piles": piles, "down": [0] * len(piles), "redeals": 0})
    version = pool.generator_version() if generator is None else generator
    return SolvableDeal(state, band, 0.1, version)


@pytest.fixture
def near_won(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pool, "make_solvable", _near_won)


def start(c: TestClient, **changes: Any) -> dict[str, Any]:
    r = c.post("/api/daily/games", json={**DAILY, **changes})
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def move(c: TestClient, g: dict[str, Any], text: str) -> dict[str, Any]:
    r = c.post(f"/api/games/{g['id']}/moves", json={"move": text, "version": g["version"]})
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def win(c: TestClient, g: dict[str, Any], detour: bool = False, undo: bool = False) -> None:
    """Win: at once, or after sending a King down and up again (two more moves), or after
    a move taken back (an undo)."""
    if detour:
        g = move(c, g, "f1>t2")
        g = move(c, g, "t2>f1")
    if undo:
        g = move(c, g, "f1>t2")
        r = c.post(f"/api/games/{g['id']}/undo", json={"version": g["version"]})
        assert r.status_code == 200
        g = r.json()
    assert move(c, g, "t1>f8")["status"] == "won"


def test_same_deal_for_every_player(app: Any, near_won: None) -> None:
    today = daily.today()
    with TestClient(app) as a, TestClient(app) as b:
        ga, gb = start(a), start(b)
        want = deals.daily_number(today, "backbone", "", "easy")
        assert ga["deal"] == gb["deal"] == want
        assert ga["daily"] == gb["daily"] == today.isoformat()
        assert ga["view"]["piles"] == gb["view"]["piles"] and ga["id"] != gb["id"]
        assert start(a)["id"] == ga["id"]  # the ranked game in progress is resumed
        # A random deal never hands the daily entry out.
        r = a.post("/api/games", json={"game": "backbone", "solvable": True, "difficulty": "easy"})
        assert r.status_code == 201 and r.json()["deal"] != want


def test_clean_and_unclean_wins_and_the_ranks(
    app: Any, near_won: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    with TestClient(app) as a, TestClient(app) as b, TestClient(app) as c:
        win(a, start(a))  # clean, 1 move
        win(b, start(b), undo=True)  # an undo: not clean
        win(c, start(c), detour=True)  # clean, 3 moves
        by_moves = c.get(BOARD + "&by=moves").json()
        assert by_moves["total"] == 2
        assert [(r["rank"], r["moves"], r["you"]) for r in by_moves["top"]] == [
            (1, 1, False),
            (2, 3, True),
        ]
        assert by_moves["you"]["rank"] == 2 and by_moves["you"]["clean"] is True
        assert c.get("/api/daily").json()["streak"] == 1
        # Beyond RANK_EXACT better wins the rank is not counted further: "over N".
        monkeypatch.setattr(boards, "RANK_EXACT", 1)
        assert c.get(BOARD + "&by=moves").json()["you"] | {"game_id": ""} == {
            "rank": None, "rank_over": 1, "clean": True, "time_ms": by_moves["you"]["time_ms"],
            "moves": 3, "game_id": "",
        }  # fmt: skip
        monkeypatch.undo()
        monkeypatch.setattr(pool, "make_solvable", _near_won)
        mine = b.get(BOARD).json()["you"]
        assert mine["rank"] is None and mine["clean"] is False and mine["moves"] == 1
        assert all(not r["you"] for r in b.get(BOARD).json()["top"])
        # The time is the server's: the board's time is the stored game's.
        mine_a = a.get(BOARD).json()["you"]
        assert a.get(f"/api/games/{mine_a['game_id']}").json()["time_ms"] == mine_a["time_ms"]
        # One ranked attempt: playing it again is practice, and changes no board.
        again = start(a)
        assert again["daily"] is None and again["deal"] == by_moves["deal"]
        win(a, again, detour=True)
        assert a.get(BOARD + "&by=moves").json()["you"]["moves"] == 1
        assert a.get(BOARD).json()["total"] == 2
        over = a.get("/api/daily").json()
        assert over["streak"] == 1 and over["today"] == daily.today().isoformat()
        assert [(g["status"], g["clean"]) for g in over["games"]] == [("won", True)]
        assert len(over["days"]) == 30


def test_no_time_can_be_posted(app: Any, near_won: None) -> None:
    with TestClient(app) as a:
        g = start(a)
        for path, body in (
            (f"/api/games/{g['id']}/moves", {"move": "t1>f8", "version": 1, "time_ms": 1}),
            ("/api/daily/games", {**DAILY, "time_ms": 1}),
            ("/api/daily/games", {**DAILY, "moves": 1}),
        ):
            r = a.post(path, json=body)
            assert r.status_code == 422, r.text
        assert a.post("/api/daily/results", json={"time_ms": 1}).status_code in (404, 405)
        assert a.get(f"/api/games/{g['id']}").json()["status"] == "playing"
        assert a.get(BOARD).json()["total"] == 0


def test_past_days_are_practice_and_the_day_is_checked(app: Any, near_won: None) -> None:
    today = daily.today()
    with TestClient(app) as a:
        past = start(a, day=(today - timedelta(days=29)).isoformat())
        assert past["daily"] is None
        assert past["deal"] == deals.daily_number(
            today - timedelta(days=29), "backbone", "", "easy"
        )
        win(a, past)
        assert (
            a.get(BOARD + f"&day={(today - timedelta(days=29)).isoformat()}").json()["total"] == 0
        )
        for day in (today - timedelta(days=30), today + timedelta(days=1)):
            r = a.post("/api/daily/games", json={**DAILY, "day": day.isoformat()})
            assert r.status_code == 422 and r.json()["error"]["code"] == "bad_day"
        assert a.get("/api/daily").json()["streak"] == 0


def test_names_are_checked_shown_and_can_be_reported(app: Any, near_won: None) -> None:
    with TestClient(app) as a:
        for bad in ("x", "a" * 21, "zero\u200bwidth", "Player 12", "<b>hi</b>", "  ", "42"):
            r = a.put("/api/player/name", json={"name": bad})
            assert r.status_code == 422 and r.json()["error"]["code"] == "bad_name", bad
        assert a.get("/api/player").json() == {"player": None, "name": None}
        assert a.put("/api/player/name", json={"name": " Анна К. "}).json()["name"] == "Анна К."
        win(a, start(a))
        me = a.get("/api/player").json()
        top = a.get(BOARD).json()["top"]
        assert top[0]["name"] == "Анна К." and top[0]["player"] == me["player"]
        assert a.post("/api/daily/report", json={"player": me["player"]}).status_code == 404
    reporters = [TestClient(app) for _ in range(3)]
    for i, r in enumerate(reporters):
        with r:
            r.get("/api/player")
            assert r.post("/api/daily/report", json={"player": me["player"]}).status_code == 200
            assert r.post("/api/daily/report", json={"player": me["player"]}).status_code == 200
            assert r.get(BOARD).json()["top"][0]["name"] is None  # hidden from the reporter
            if i < 2:
                with TestClient(app) as viewer:
                    assert viewer.get(BOARD).json()["top"][0]["name"] == "Анна К."
    with TestClient(app) as viewer:  # three reports: hidden from everyone
        assert viewer.get(BOARD).json()["top"][0]["name"] is None
        assert viewer.post("/api/daily/report", json={"player": 999999}).status_code == 404


def test_linking_and_deleting_keep_the_boards_true(app: Any, near_won: None) -> None:
    """A device that joins another player brings its daily win along unless the player has
    one for that deal (one ranked attempt: its own becomes practice and leaves the board);
    deleting a player takes their clean wins off the board's count."""
    with TestClient(app) as a, TestClient(app) as b, TestClient(app) as c:
        win(a, start(a))
        win(b, start(b), detour=True)
        win(c, start(c), detour=True)
        assert b.put("/api/player/name", json={"name": "Bea"}).status_code == 200
        assert a.get(BOARD).json()["total"] == 3
        # c joins a: a already has a ranked win of this deal, so c's is dropped.
        code = a.post("/api/devices/code", json={}).json()["code"]
        assert c.post("/api/devices/link", json={"code": code}).status_code == 200
        board = a.get(BOARD + "&by=moves").json()
        assert board["total"] == 2 and [r["moves"] for r in board["top"]] == [1, 3]
        assert c.get(BOARD).json()["you"]["moves"] == 1  # c now sees a's result
        # b deletes their data: their win leaves the board, and its count.
        assert b.post("/api/me/delete", json={"confirm": True}).status_code == 200
        board = a.get(BOARD + "&by=moves").json()
        assert board["total"] == 1 and [r["moves"] for r in board["top"]] == [1]
        # A lone device joins a player with no win of this deal: its win moves along
        # (the board keeps its count), and the player keeps their name.
        with TestClient(app) as d, TestClient(app) as e:
            assert d.put("/api/player/name", json={"name": "Dee"}).status_code == 200
            win(e, start(e), detour=True)
            assert a.get(BOARD).json()["total"] == 2
            code = d.post("/api/devices/code", json={}).json()["code"]
            assert e.post("/api/devices/link", json={"code": code}).status_code == 200
            mine = d.get(BOARD + "&by=moves").json()
            assert mine["you"]["moves"] == 3 and mine["total"] == 2
            assert e.get("/api/player").json()["name"] == "Dee"


def test_two_workers_cached_tops_follow_new_wins_and_names(
    make_app: Any, near_won: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two apps on one database, as two workers: a worker's cached top of a board is read
    again as soon as another worker records a clean win (its count moved); a name set
    through the other worker shows once the cache's time is up, through this one at once."""
    one, two = make_app(), make_app()
    with TestClient(one) as a, TestClient(two) as b, TestClient(one) as viewer:
        win(a, start(a))
        assert [r["moves"] for r in viewer.get(BOARD + "&by=moves").json()["top"]] == [1]
        win(b, start(b), detour=True)  # recorded by the other worker
        board = viewer.get(BOARD + "&by=moves").json()
        assert board["total"] == 2 and [r["moves"] for r in board["top"]] == [1, 3]
        # A name through the other worker: this worker's top is its cache's until it ages.
        assert b.put("/api/player/name", json={"name": "Bea"}).status_code == 200
        assert viewer.get(BOARD + "&by=moves").json()["top"][1]["name"] is None
        one.state.top_cache.clear()  # what its time limit does (TopCache.ttl)
        assert viewer.get(BOARD + "&by=moves").json()["top"][1]["name"] == "Bea"
        # Through this worker: at once; the other worker's cached top ages out.
        monkeypatch.setattr(two.state.top_cache, "ttl", 3.0)
        assert b.get(BOARD + "&by=moves").json()["top"][0]["name"] is None  # cached by two
        assert a.put("/api/player/name", json={"name": "Ann"}).status_code == 200
        assert viewer.get(BOARD + "&by=moves").json()["top"][0]["name"] == "Ann"
        assert b.get(BOARD + "&by=moves").json()["top"][0]["name"] is None  # two's cache
        time.sleep(3.1)
        assert b.get(BOARD + "&by=moves").json()["top"][0]["name"] == "Ann"


@pytest.mark.parametrize("step", [1, 2, 100])
def test_ranks_through_the_ladder_match_the_board(
    app: Any, near_won: None, monkeypatch: pytest.MonkeyPatch, step: int
) -> None:
    """A rank is the cached ladder's count plus a count from its last key below the
    player's (boards._better): for every step, each player's rank is their place on the
    board, by time and by moves, and past RANK_EXACT it is "over"."""
    monkeypatch.setattr(boards, "LADDER_STEP", step)
    clients = [TestClient(app) for _ in range(5)]
    for i, c in enumerate(clients):
        c.__enter__()
        win(c, start(c), detour=i % 2 == 1)
    try:
        for by in ("", "&by=moves"):
            for c in clients:
                board = c.get(BOARD + by).json()
                place = [r["you"] for r in board["top"]].index(True) + 1
                assert board["you"]["rank"] == place and board["total"] == 5
        monkeypatch.setattr(boards, "RANK_EXACT", 3)
        app.state.top_cache.clear()
        for c in clients:
            board = c.get(BOARD + "&by=moves").json()
            place = [r["you"] for r in board["top"]].index(True) + 1
            want = (place, None) if place <= 3 else (None, 3)
            assert (board["you"]["rank"], board["you"]["rank_over"]) == want
    finally:
        for c in clients:
            c.__exit__(None, None, None)
