"""Persistence: a new app on the same database rebuilds exactly the state that was played."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import move, new_game, post, state
from sqlalchemy import select

from pasyans.deals import load_game
from pasyans.server.security import COOKIE
from pasyans.server.storage import store
from pasyans.server.storage.models import GameRow


def _play_a_while(c: TestClient) -> dict[str, Any]:
    g = new_game(c, "nivernais", deal=42)
    for _ in range(6):
        g = move(c, g, g["view"]["moves"][-1]["text"])
    g = post(c, g["id"], "undo", version=g["version"]).json()
    g = post(c, g["id"], "undo", version=g["version"]).json()
    g = post(c, g["id"], "redo", version=g["version"]).json()
    g = post(c, g["id"], "hint", version=g["version"]).json()
    return {k: v for k, v in g.items() if k not in ("events", "hint")}


def test_new_app_instance_rebuilds_identical_views(make_app: Any) -> None:
    first = make_app()
    with TestClient(first) as c:
        g = _play_a_while(c)
        token = c.cookies[COOKIE]
    assert g["view"]["counters"]["undos"] == 2 and g["view"]["counters"]["hints"] == 1
    assert g["view"]["flags"]["can_redo"] is True
    second = make_app(game_cache_size=0)
    with TestClient(second, cookies={COOKIE: token}) as c:
        assert state(c, g["id"]) == g
        # The redo list survived too.
        r = post(c, g["id"], "redo", version=g["version"])
        assert r.status_code == 200


def test_the_row_is_a_saved_game_the_engine_replays(make_app: Any) -> None:
    app = make_app()
    with TestClient(app) as c:
        g = _play_a_while(c)
    with app.state.sessionmaker() as s:
        row = s.scalar(select(GameRow).where(GameRow.id == g["id"]))
        assert row is not None
        assert row.version == g["version"] and row.status == "playing"
        assert len(row.moves) == g["view"]["counters"]["moves"] and len(row.redo) == 1
        assert row.moves_total == 7 and row.first_move_at is not None
        game = load_game(store.saved_record(row) | {"moves": row.moves})
        assert game.view()["piles"] == g["view"]["piles"]


def test_every_move_is_committed_before_the_answer(make_app: Any) -> None:
    app = make_app()
    with TestClient(app) as c:
        g = move(c, new_game(c))
        with app.state.sessionmaker() as s:  # another connection sees it already
            row = s.get(GameRow, g["id"])
            assert row is not None and row.version == 2 and len(row.moves) == 1


def test_active_time_counts_short_gaps_only(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = [store.now()]
    monkeypatch.setattr(store, "now", lambda: clock[0])
    g = new_game(client)

    def beat(seconds: float) -> int:
        clock[0] += timedelta(seconds=seconds)
        r = post(client, g["id"], "active")
        assert r.status_code == 200
        value: int = r.json()["time_ms"]
        return value

    assert beat(10) == 10_000
    assert beat(10) == 20_000
    assert beat(600) == 20_000  # the page was away: nothing counted
    assert beat(5) == 25_000
    clock[0] += timedelta(seconds=3)
    g2 = move(client, state(client, g["id"]))
    assert g2["time_ms"] == 28_000
    assert state(client, g["id"])["version"] == 2  # heartbeats do not change the version


def test_won_game_is_finished(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    from pasyans.engine import core

    g = new_game(client)
    monkeypatch.setattr(core, "is_won", lambda spec, st: True)
    out = move(client, g)
    assert out["status"] == "won"
    r = post(client, g["id"], "undo", version=out["version"])
    assert r.status_code == 409 and r.json()["error"]["code"] == "game_over"


def test_the_stored_line_follows_every_kind_of_action(make_app: Any) -> None:
    """A move appends its moves to the stored line (the list is not rewritten), an undo,
    retarget or restart rewrites it: after each action the stored line and redo list are
    exactly the engine's, on both databases."""
    import random

    from pasyans.engine import Game

    app = make_app()
    rng = random.Random(3)
    with TestClient(app) as c:
        g = new_game(c, game="spine", deal=11, solvable=False)
        twin = Game("spine", 11, g["options"])
        for step in range(80):
            action = rng.choice(["moves"] * 6 + ["undo", "redo", "retarget", "restart"])
            body: dict[str, Any] = {"version": g["version"]}
            if action in ("moves", "retarget"):
                legal = g["view"]["moves"]
                if action == "retarget":
                    last = twin.moves[-1] if twin.moves else None
                    legal = [
                        m for m in legal
                        if last is not None and m["json"].get("from") == last.src
                    ]  # fmt: skip
                if not legal:
                    continue
                body |= {"move": rng.choice(legal)["text"], "auto": step % 2 == 0}
            r = c.post(f"/api/games/{g['id']}/{action}", json=body)
            if r.status_code != 200:
                assert r.status_code in (409, 422), r.text
                continue
            g = r.json()
            if action == "moves":
                twin.play(body["move"], auto=body["auto"])
            elif action == "retarget":
                twin.retarget(body["move"], auto=body["auto"])
            elif action == "undo":
                twin.undo()
            elif action == "redo":
                twin.redo()
            else:
                twin.restart()
            with app.state.sessionmaker() as s:
                row = s.get(GameRow, g["id"])
                assert row is not None
                assert row.moves == twin.saved_moves(), (step, action)
                assert row.redo == twin.redo_moves(), (step, action)
            if g["status"] != "playing":
                break


def test_a_game_of_the_retired_generator_without_its_layout_answers_410(make_app: Any) -> None:
    """A solvable game saved before layouts were stored (generator version 1, no
    ``start``) cannot be rebuilt now that version 1 is out of the library: 410
    ``deal_retired`` with both languages, and the row is left as it was."""
    first = make_app()
    with TestClient(first) as c:
        g = new_game(c, "spine", deal=5, solvable=True)
        token = c.cookies[COOKIE]
        with first.state.sessionmaker() as s:
            s.execute(
                GameRow.__table__.update()
                .where(GameRow.id == g["id"])
                .values(start=None, generator=None)
            )
            s.commit()
    second = make_app(game_cache_size=0)
    with TestClient(second, cookies={COOKIE: token}) as c:
        r = c.get(f"/api/games/{g['id']}")
        assert r.status_code == 410, r.text
        error = r.json()["error"]
        assert error["code"] == "deal_retired"
        assert "generator" in error["message"] and error["message_ru"]
        with second.state.sessionmaker() as s:
            row = s.execute(select(GameRow).where(GameRow.id == g["id"])).scalar_one()
            assert row.start is None and row.version == g["version"]
