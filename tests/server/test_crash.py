"""Crash test: ``pasyans serve`` is killed with SIGKILL in the middle of a load of concurrent
players, restarted on the same database, and then

- every move, undo and redo the server acknowledged is in its game (the clients keep what
  was acknowledged; a request cut off by the kill may or may not have happened, nothing
  else may differ),
- every stored game replays with the engine's checked replay (no half-written game),
- the restarted server serves and plays every game.

On SQLite (one worker) and on PostgreSQL (two workers). Servers listen on 127.0.0.1 only.
"""

from __future__ import annotations

import json
import random
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from powercut import Image, recorder
from servers import Serve
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session
from sqlalchemy.pool import NullPool

from pasyans import deals
from pasyans.server.storage import store
from pasyans.server.storage.models import GameRow

PLAYERS = 8
MIN_ACKS = 12 * PLAYERS


def serve(url: str, workers: int, log: Path, extra: dict[str, str] | None = None) -> Serve:
    """``pasyans serve`` on ``url`` with no limit on new games or on undo and redo (the
    players undo and redo at full speed)."""
    env = {
        "PASYANS_DATABASE_URL": url,
        "PASYANS_RATE_NEW_GAME_PER_MINUTE": "0",
        "PASYANS_RATE_HISTORY_PER_MINUTE": "0",
        **(extra or {}),
    }
    return Serve(log, env, workers)


@dataclass
class Known:
    """What the client knows of one game from acknowledged answers."""

    version: int
    line: list[str] = field(default_factory=list)
    redo: list[str] = field(default_factory=list)  # the next move to redo first
    in_flight: tuple[str, str] | None = None  # (action, move) sent, never answered

    def after(self, action: str, move: str) -> Known:
        """What the game is after ``action``; ``abandon``: the player started another
        game of the same game and options while this one was playing (a stuck game:
        no move left), which the server marks abandoned, its version one up."""
        line, redo = list(self.line), list(self.redo)
        if action == "moves":
            line, redo = [*line, move], []
        elif action == "undo":
            redo = [line.pop(), *redo]
        elif action == "redo":
            line = [*line, redo.pop(0)]
        return Known(self.version + 1, line, redo)


@dataclass
class Player:
    cookies: dict[str, str] = field(default_factory=dict)
    games: dict[str, Known] = field(default_factory=dict)
    acks: int = 0
    failure: str | None = None


Loop = Callable[[str, int, Player, threading.Event], None]


def reporting(loop: Loop) -> Loop:
    """``loop`` run in a thread: an exception is kept on the player, reported by the test
    (not lost in the thread)."""

    def run(base: str, seed: int, who: Player, stop: threading.Event) -> None:
        try:
            loop(base, seed, who, stop)
        except Exception as e:
            who.failure = repr(e)

    return run


def pick(rnd: random.Random, game: dict[str, Any], known: Known) -> tuple[str, str, dict[str, Any]]:
    """The next action on ``game``: an undo or a redo now and then when one can be made,
    else a random legal move; (action, move text, request body), marked in flight."""
    roll = rnd.random()
    if roll < 0.15 and game["view"]["flags"]["can_undo"]:
        action, move = "undo", ""
    elif roll < 0.25 and game["view"]["flags"]["can_redo"]:
        action, move = "redo", ""
    else:
        action, move = "moves", rnd.choice(game["view"]["moves"])["text"]
    body: dict[str, Any] = {"version": game["version"]}
    if action == "moves":
        body["move"] = move
    known.in_flight = (action, move)
    return action, move, body


def abandoning(who: Player, game: dict[str, Any] | None) -> str | None:
    """Before a new game: a game still playing (stuck, no move left) will be abandoned by
    it, so its abandonment is in flight; its id, else None."""
    if game is None or game["status"] != "playing":
        return None
    known = who.games[game["id"]]
    if known.in_flight is None or known.in_flight[0] != "abandon":
        known.in_flight = ("abandon", "")
    return str(game["id"])


def abandoned(who: Player, stuck: str | None) -> None:
    """The new game's 201 acknowledges the abandonment of ``stuck`` (one transaction)."""
    if stuck is not None:
        known = who.games[stuck]
        if known.in_flight == ("abandon", ""):
            who.games[stuck] = known.after("abandon", "")


def acknowledged(who: Player, game: dict[str, Any], known: Known, action: str, move: str) -> None:
    """The answer ``game`` to ``action`` acknowledges it: the client now knows this."""
    now = known.after(action, move)
    assert game["version"] == now.version
    who.games[game["id"]] = now
    who.acks += 1


def _play(base: str, seed: int, who: Player, stop: threading.Event) -> None:
    """Moves (mostly), undos and redos on the player's own game until the server dies."""
    rnd = random.Random(seed)
    # A slow answer on a busy machine is not the kill: only a broken connection is.
    with httpx.Client(base_url=base, timeout=60) as c:
        game: dict[str, Any] | None = None
        while not stop.is_set():
            if game is None or game["status"] != "playing" or not game["view"]["moves"]:
                stuck = abandoning(who, game)
                try:
                    r = c.post("/api/games", json={"game": "spider", "options": {"suits": 1}})
                except httpx.TransportError:
                    return
                assert r.status_code == 201, r.text
                abandoned(who, stuck)
                game = r.json()
                who.games[game["id"]] = Known(game["version"])
                who.cookies = dict(c.cookies)
                continue
            known = who.games[game["id"]]
            action, move, body = pick(rnd, game, known)
            try:
                r = c.post(f"/api/games/{game['id']}/{action}", json=body)
            except httpx.TransportError:
                return  # the kill: this request may or may not have been committed
            assert r.status_code == 200, r.text
            game = r.json()
            acknowledged(who, game, known, action, move)


play = reporting(_play)


def start_players(
    base: str, loop: Loop
) -> tuple[list[Player], threading.Event, list[threading.Thread]]:
    """PLAYERS players, each running ``loop`` in a thread of its own until the event is
    set."""
    players = [Player() for _ in range(PLAYERS)]
    stop = threading.Event()
    threads = [
        threading.Thread(target=loop, args=(base, i, p, stop), daemon=True)
        for i, p in enumerate(players)
    ]
    for t in threads:
        t.start()
    return players, stop, threads


def wait_for_acks(players: list[Player], seconds: float) -> None:
    """Until the players have MIN_ACKS acknowledged actions between them, or ``seconds``."""
    started = time.monotonic()
    while sum(p.acks for p in players) < MIN_ACKS and time.monotonic() - started < seconds:
        time.sleep(0.05)


def test_sigkill_loses_no_acknowledged_move(db_url: str, tmp_path: Path) -> None:
    workers = 1 if db_url.startswith("sqlite") else 2
    server = serve(db_url, workers, tmp_path / "server.log")
    players, stop, threads = start_players(server.base, play)
    try:
        # Kill in the middle of the load: once enough has been acknowledged.
        wait_for_acks(players, 30)
        server.kill()  # in the middle of the load: requests are in flight
        stop.set()
        for t in threads:
            t.join(timeout=30)
            assert not t.is_alive()
    finally:
        stop.set()
        server.stop()
    assert [p.failure for p in players if p.failure] == []
    acks = sum(p.acks for p in players)
    assert acks >= MIN_ACKS, f"too little load before the kill: {acks} acknowledgements"

    server = serve(db_url, workers, tmp_path / "server.log")
    try:
        engine = create_engine(db_url, poolclass=NullPool)
        with Session(engine) as session:
            rows = {r.id: r for r in session.scalars(select(GameRow))}
        engine.dispose()
        for row in rows.values():
            # Nothing half-written: every stored game replays, checked move by move.
            game = deals.load_game(store.saved_record(row))
            for _ in row.redo:
                game.undo()
            assert [m.to_str() for m in game.moves] == list(row.moves)
        cut_off = committed = 0
        for who in players:
            with httpx.Client(base_url=server.base, cookies=who.cookies, timeout=30) as c:
                for game_id, known in who.games.items():
                    row = rows[game_id]
                    stored = (row.version, list(row.moves), list(row.redo))
                    possible = [(known.version, known.line, known.redo)]
                    if known.in_flight is not None:
                        after = known.after(*known.in_flight)
                        possible.append((after.version, after.line, after.redo))
                    assert stored in possible, (game_id, stored, possible)
                    cut_off += known.in_flight is not None
                    committed += known.in_flight is not None and stored == possible[-1]
                    # The restarted server serves the game and plays on from there.
                    r = c.get(f"/api/games/{game_id}")
                    assert r.status_code == 200, r.text
                    now = r.json()
                    assert now["version"] == row.version
                    assert now["view"]["counters"]["moves"] == len(row.moves)
                    if now["status"] == "playing" and now["view"]["moves"]:
                        body = {"move": now["view"]["moves"][0]["text"], "version": row.version}
                        assert c.post(f"/api/games/{game_id}/moves", json=body).status_code == 200
    finally:
        server.stop()
    print(
        f"crash on {db_url.split(':')[0]}: {acks} acknowledged actions, {len(rows)} games, "
        f"{cut_off} requests cut off by the kill ({committed} of them committed)"
    )
    crash_log = (tmp_path / "server.log").read_text()
    assert "Traceback" not in crash_log, crash_log[-3000:]


def test_tabs_on_one_game_never_lose_or_duplicate_an_action(db_url: str, tmp_path: Path) -> None:
    """Four tabs (threads, one cookie) play moves, undos and redos on the SAME game at once
    against a real server (PostgreSQL: two workers). Every acknowledged action made exactly
    one new version, and replaying the acknowledged actions in version order gives exactly
    the stored line and redo list."""
    workers = 1 if db_url.startswith("sqlite") else 2
    server = serve(db_url, workers, tmp_path / "server.log")
    try:
        with httpx.Client(base_url=server.base, timeout=30) as c:
            game = c.post("/api/games", json={"game": "spider", "options": {"suits": 1}}).json()
            cookies = dict(c.cookies)
        acks: list[tuple[int, str, str]] = []  # (new version, action, move)
        failures: list[str] = []

        def tab(seed: int) -> None:
            rnd = random.Random(seed)
            try:
                with httpx.Client(base_url=server.base, cookies=cookies, timeout=30) as t:
                    now = t.get(f"/api/games/{game['id']}").json()
                    for _ in range(15):
                        flags = now["view"]["flags"]
                        roll = rnd.random()
                        if roll < 0.25 and flags["can_undo"]:
                            action, move = "undo", ""
                        elif roll < 0.4 and flags["can_redo"]:
                            action, move = "redo", ""
                        elif now["view"]["moves"]:
                            action, move = "moves", rnd.choice(now["view"]["moves"])["text"]
                        else:
                            break
                        body: dict[str, Any] = {"version": now["version"]}
                        if move:
                            body["move"] = move
                        r = t.post(f"/api/games/{game['id']}/{action}", json=body)
                        assert r.status_code in (200, 409), r.text
                        if r.status_code == 200:
                            acks.append((r.json()["version"], action, move))
                        now = r.json()
            except Exception as e:
                failures.append(repr(e))

        threads = [threading.Thread(target=tab, args=(i,)) for i in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=120)
        assert failures == []
        versions = sorted(v for v, _, _ in acks)
        assert versions == list(range(2, 2 + len(acks))), "a version acknowledged twice"
        assert len(acks) >= 10
        known = Known(1)
        for _, action, move in sorted(acks):
            known = known.after(action, move)
        engine = create_engine(db_url, poolclass=NullPool)
        with Session(engine) as session:
            row = session.get(GameRow, game["id"])
            assert row is not None
            assert (row.version, list(row.moves), list(row.redo)) == (
                known.version,
                known.line,
                known.redo,
            )
        engine.dispose()
    finally:
        server.stop()


def _play_on_a_sick_disk(base: str, seed: int, who: Player, stop: threading.Event) -> None:
    """Like :func:`_play`, where a 503 is an answer: the action may or may not have been
    made, and the player reads the game again (what a read shows counts as seen: it must
    survive the cut as much as an acknowledgement)."""
    rnd = random.Random(seed)
    with httpx.Client(base_url=base, timeout=60) as c:
        game: dict[str, Any] | None = None
        while not stop.is_set():
            try:
                if game is None or game["status"] != "playing" or not game["view"]["moves"]:
                    stuck = abandoning(who, game)
                    r = c.post("/api/games", json={"game": "spider", "options": {"suits": 1}})
                    if r.status_code == 503:  # it may have been made (and the old one
                        time.sleep(0.1)  # abandoned): the abandonment stays in flight
                        continue
                    assert r.status_code == 201, r.text
                    abandoned(who, stuck)
                    game = r.json()
                    who.games[game["id"]] = Known(game["version"])
                    who.cookies = dict(c.cookies)
                    continue
                known = who.games[game["id"]]
                action, move, body = pick(rnd, game, known)
                r = c.post(f"/api/games/{game['id']}/{action}", json=body)
                if r.status_code == 503:
                    assert r.headers.get("Retry-After"), r.headers
                    while not stop.is_set():  # read until the game is shown again
                        time.sleep(0.1)
                        again = c.get(f"/api/games/{game['id']}")
                        if again.status_code == 200:
                            break
                        assert again.status_code == 503, again.text
                    else:
                        return
                    game = again.json()
                    if game["version"] == known.version + 1:
                        who.games[game["id"]] = known.after(action, move)
                    else:
                        assert game["version"] == known.version, (game["version"], known)
                        known.in_flight = None
                    continue
                assert r.status_code == 200, r.text
            except httpx.TransportError:
                return  # the cut: this request may or may not have been committed
            game = r.json()
            acknowledged(who, game, known, action, move)


play_on_a_sick_disk = reporting(_play_on_a_sick_disk)


@pytest.mark.parametrize(
    ("group_commit", "cut_after"),
    [(True, 0.2), (True, 2.5), (False, 0.3)],
    ids=["group-commit-cut-at-0.2s", "group-commit-cut-at-2.5s", "no-group-commit-cut-at-0.3s"],
)
def test_a_power_cut_after_a_failed_fsync_loses_nothing_acknowledged_or_seen(
    tmp_path: Path, group_commit: bool, cut_after: float
) -> None:
    """The database behind a symbolic link (data on a volume), one fsync of its files
    failing under load, then a power cut: every action acknowledged, and every version a
    read showed, is in the database the cut leaves (``powercut.py`` rebuilds it from a
    journal of every write and fsync, kept by an LD_PRELOAD recorder)."""
    rec = recorder(tmp_path)
    volume, journal, trigger = rec.volume, rec.journal, rec.trigger
    link = tmp_path / "pasyans.sqlite3"
    link.symlink_to(volume / "pasyans.sqlite3")
    extra = {**rec.env, "PASYANS_SQLITE_GROUP_COMMIT": str(group_commit).lower()}
    server = serve(f"sqlite:///{link}", 1, tmp_path / "server.log", extra)
    players, stop, threads = start_players(server.base, play_on_a_sick_disk)
    try:
        wait_for_acks(players, 60)
        before = sum(p.acks for p in players)
        trigger.write_text("")  # the next fsync of the database's files fails
        deadline = time.monotonic() + 20
        while trigger.exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        assert not trigger.exists(), "no fsync came to fail"
        time.sleep(cut_after)
        server.kill()  # the power cut: nothing more reaches the disk
        stop.set()
        for t in threads:
            t.join(timeout=30)
            assert not t.is_alive()
    finally:
        stop.set()
        server.stop()
    assert [p.failure for p in players if p.failure] == []
    acks = sum(p.acks for p in players)
    assert before >= MIN_ACKS, f"too little load before the failure: {before} acknowledgements"

    image = Image()
    image.read(journal)
    assert image.failed_syncs == 1
    cut = tmp_path / "cut"
    cut.mkdir()
    assert cut / "pasyans.sqlite3" in image.write(volume, cut)
    db = sqlite3.connect(cut / "pasyans.sqlite3")
    assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    rows = {
        r[0]: (r[1], json.loads(r[2]), json.loads(r[3]))
        for r in db.execute("SELECT id, version, moves, redo FROM games")
    }
    db.close()
    lost: list[tuple[str, object, object]] = []
    for who in players:
        for game_id, known in who.games.items():
            stored = rows.get(game_id)
            possible = [(known.version, known.line, known.redo)]
            if known.in_flight is not None:
                after = known.after(*known.in_flight)
                possible.append((after.version, after.line, after.redo))
            if stored not in possible:
                lost.append((game_id, stored and stored[0], known.version))
    print(
        f"power cut {cut_after} s after a failed fsync (group commit {group_commit}): "
        f"{acks} acknowledged actions ({acks - before} after the failure), "
        f"{image.lost_writes} writes lost by the failed fsync, {len(lost)} games behind"
    )
    assert lost == [], f"{len(lost)} games lost acknowledged or seen versions: {lost[:5]}"
