"""Statistics, history, reset and replay through the API: every counting rule of
``docs/statistics.md`` (won, given up, abandoned, no move, clean, streaks, bests), paging,
player isolation, and replays that never show a face-down card."""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from devtools import collectable_spine, pool_collectable
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st
from server_helpers import CARD, assert_no_hidden, move, new_game, post
from sqlalchemy import select, update

from pasyans.deals import new_game as engine_game
from pasyans.engine import Game, core
from pasyans.engine.moves import Move
from pasyans.rules.spec import PileKind
from pasyans.server.stats import records as stats
from pasyans.server.stats.records import Record, streaks, summarize
from pasyans.server.storage.models import GameRow

# Spine solvable deal 1 is, in these tests, a layout that autocollect wins from the start
# (104 moves, put in the deal pool: real solvable deals never are); "t4>t2" first keeps it
# collectable and makes the line 105 moves.
WIN_DEAL = 1
DETOUR = "t4>t2"


@pytest.fixture(autouse=True)
def collectable_deal(app: FastAPI) -> None:
    with app.state.sessionmaker() as s:
        pool_collectable(s, WIN_DEAL)
        s.commit()


def win(client: TestClient, *, pre: Sequence[str] = (), hint: bool = False) -> dict[str, Any]:
    """Win Spine deal 1 through the API: the ``pre`` moves, an optional hint, autocollect."""
    g = new_game(client, "spine", deal=WIN_DEAL, solvable=True)
    for m in pre:
        g = move(client, g, m)
    if hint:
        r = post(client, g["id"], "hint", version=g["version"])
        assert r.status_code == 200, r.text
        g = r.json()
    r = post(client, g["id"], "autocollect", version=g["version"])
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    assert out["status"] == "won"
    return out


def lose(
    client: TestClient, *, how: str = "giveup", game: str = "spine", **options: str
) -> dict[str, Any]:
    """A counted loss: one move, then given up, or abandoned by starting the same game."""
    if game == "spine":
        g = new_game(client, game, deal=WIN_DEAL, solvable=True)
        g = move(client, g, DETOUR)
    else:
        g = move(client, new_game(client, game, options=options))
    if how == "giveup":
        r = post(client, g["id"], "giveup", version=g["version"])
        assert r.status_code == 200 and r.json()["status"] == "lost", r.text
    else:
        new_game(client, game, deal=2, options=options)
        assert client.get(f"/api/games/{g['id']}").json()["status"] == "abandoned"
    return g


def figures(client: TestClient, **query: str) -> dict[str, Any]:
    r = client.get("/api/stats", params=query)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def spine(client: TestClient) -> dict[str, Any]:
    games = figures(client)["games"]
    found = [g for g in games if g["game"] == "spine"]
    assert len(found) == 1, games
    return found[0]


def set_time(app: FastAPI, game_id: str, ms: int) -> None:
    """Set a game's recorded playing time (the server measures it by the wall clock).

    A change behind the API's back: the kept figures are then recounted from the games
    (``stats.rebuild``), as an operator would after editing rows by hand."""
    with app.state.sessionmaker() as s:
        s.execute(update(GameRow).where(GameRow.id == game_id).values(time_ms=ms))
        player = s.scalar(select(GameRow.player_id).where(GameRow.id == game_id))
        assert player is not None
        stats.rebuild(s, player)
        s.commit()


def history(client: TestClient, **query: int) -> dict[str, Any]:
    r = client.get("/api/history", params=query)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


# --- counting rules ------------------------------------------------------------------------


def test_nothing_played_gives_empty_figures(client: TestClient) -> None:
    data = figures(client)
    assert data["games"] == []
    total = data["total"]
    assert total["played"] == total["won"] == total["current_streak"] == 0
    assert total["win_rate"] is None and total["best_time"] is None
    assert total["points"] == []


def test_a_won_game_counts_with_its_figures(app: FastAPI, client: TestClient) -> None:
    g = win(client)
    set_time(app, g["id"], 61_000)
    s = spine(client)
    assert s["options"] == g["options"]
    assert (s["played"], s["won"], s["lost"], s["win_rate"]) == (1, 1, 0, 1.0)
    assert s["clean_wins"] == 1
    assert s["best_time"] == {
        "value": 61_000,
        "deal": WIN_DEAL,
        "kind": "solvable",
        "game": "spine",
        "options": g["options"],
        "id": g["id"],
    }
    assert s["fewest_moves"]["value"] == 104 == g["view"]["counters"]["moves"]
    assert s["average_time_ms"] == 61_000 and s["average_moves"] == 104
    assert (s["current_streak"], s["best_streak"]) == (1, 1)
    assert [p["result"] for p in s["points"]] == ["won"]
    assert figures(client)["total"]["won"] == 1


def test_a_given_up_game_is_lost(client: TestClient) -> None:
    lose(client, how="giveup")
    s = spine(client)
    assert (s["played"], s["won"], s["lost"], s["given_up"], s["abandoned"]) == (1, 0, 1, 1, 0)
    assert s["win_rate"] == 0.0 and s["best_time"] is None and s["average_moves"] is None


def test_an_abandoned_game_is_lost_and_the_new_one_is_in_progress(client: TestClient) -> None:
    lose(client, how="abandon")
    s = spine(client)
    assert (s["played"], s["lost"], s["abandoned"], s["given_up"]) == (1, 1, 1, 0)
    assert s["in_progress"] == 0  # the new game has no move yet: it does not count
    g = client.get("/api/current", params={"game": "spine"}).json()
    move(client, g, g["view"]["moves"][0]["text"])
    s = spine(client)
    assert s["in_progress"] == 1 and s["played"] == 1  # counted, but not in played yet


def test_a_game_with_no_move_does_not_count(client: TestClient) -> None:
    g = new_game(client, "spider")
    assert post(client, g["id"], "giveup", version=g["version"]).json()["status"] == "lost"
    h = new_game(client, "nivernais")
    new_game(client, "nivernais")  # abandons h, which had no move
    assert client.get(f"/api/games/{h['id']}").json()["status"] == "abandoned"
    data = figures(client)
    assert data["games"] == [] and data["total"]["played"] == 0
    assert history(client)["total"] == 0


def test_a_hint_alone_is_no_move_but_autocollect_is(client: TestClient) -> None:
    g = new_game(client, "spine", deal=WIN_DEAL, solvable=True)
    g = post(client, g["id"], "hint", version=g["version"]).json()
    post(client, g["id"], "giveup", version=g["version"])
    assert figures(client)["total"]["played"] == 0
    win(client)
    assert figures(client)["total"]["played"] == 1


def test_clean_wins_are_shown_apart(client: TestClient) -> None:
    win(client)  # clean
    win(client, hint=True)  # a hint
    g = new_game(client, "spine", deal=WIN_DEAL, solvable=True)
    g = move(client, g, DETOUR)
    g = post(client, g["id"], "undo", version=g["version"]).json()
    g = post(client, g["id"], "autocollect", version=g["version"]).json()
    assert g["status"] == "won"  # an undo
    g = new_game(client, "spine", deal=WIN_DEAL, solvable=True)
    g = move(client, g, DETOUR)
    g = post(client, g["id"], "restart", version=g["version"]).json()
    g = post(client, g["id"], "autocollect", version=g["version"]).json()
    assert g["status"] == "won"  # a restart
    s = spine(client)
    assert (s["won"], s["clean_wins"], s["hints"], s["undos"]) == (4, 1, 1, 1)
    items = history(client)["items"]
    assert [i["clean"] for i in items] == [False, False, False, True]
    assert [(i["hints"], i["undos"], i["restarts"]) for i in items] == [
        (0, 0, 1),
        (0, 1, 0),
        (1, 0, 0),
        (0, 0, 0),
    ]


def test_streaks_are_extended_by_wins_and_broken_by_losses(client: TestClient) -> None:
    def streak() -> tuple[int, int]:
        s = spine(client)
        return s["current_streak"], s["best_streak"]

    win(client)
    win(client)
    assert streak() == (2, 2)
    lose(client, how="giveup")
    assert streak() == (0, 2)
    win(client)
    assert streak() == (1, 2)
    new_game(client, "spine", deal=3, solvable=True)  # no move: not a loss
    win(client)  # abandons nothing counted
    assert streak() == (2, 2)
    win(client)
    assert streak() == (3, 3)
    lose(client, how="abandon")
    assert streak() == (0, 3)
    total = figures(client)["total"]
    assert (total["played"], total["won"], total["lost"]) == (7, 5, 2)


def test_streaks_follow_the_order_games_ended_in(client: TestClient) -> None:
    # A loss started before a win but ended after it breaks the streak.
    spider = new_game(client, "spider")
    spider = move(client, spider)
    win(client)
    post(client, spider["id"], "giveup", version=spider["version"])
    total = figures(client)["total"]
    assert (total["current_streak"], total["best_streak"]) == (0, 1)
    assert [p["result"] for p in total["points"]] == ["won", "given_up"]


def test_streak_function() -> None:
    assert streaks([True, False, True, True, True, False, True]) == (1, 3)
    assert streaks([False, False]) == (0, 0)
    assert streaks([True] * 4) == (4, 4)


def test_bests_are_replaced_only_by_better_results(app: FastAPI, client: TestClient) -> None:
    a = win(client, pre=[DETOUR])  # 105 moves
    set_time(app, a["id"], 90_000)
    s = spine(client)
    assert s["best_time"]["id"] == a["id"] and s["fewest_moves"]["value"] == 105

    b = win(client, pre=[DETOUR])  # the same moves, slower: nothing replaced
    set_time(app, b["id"], 95_000)
    s = spine(client)
    assert s["best_time"]["id"] == a["id"] and s["fewest_moves"]["id"] == a["id"]

    c = win(client)  # fewer moves, equal time: moves replaced, time kept (a tie)
    set_time(app, c["id"], 90_000)
    s = spine(client)
    assert (s["best_time"]["id"], s["best_time"]["value"]) == (a["id"], 90_000)
    assert (s["fewest_moves"]["id"], s["fewest_moves"]["value"]) == (c["id"], 104)

    d = win(client, pre=[DETOUR])  # faster, more moves: time replaced only
    set_time(app, d["id"], 30_000)
    s = spine(client)
    assert (s["best_time"]["id"], s["best_time"]["value"]) == (d["id"], 30_000)
    assert s["fewest_moves"]["id"] == c["id"]

    e = win(client)  # equal moves (a tie): the first 104 stays
    set_time(app, e["id"], 45_000)
    lose(client)  # a quick loss is no record
    s = spine(client)
    assert s["fewest_moves"]["id"] == c["id"] and s["best_time"]["id"] == d["id"]
    assert s["average_time_ms"] == (90_000 + 95_000 + 90_000 + 30_000 + 45_000) // 5
    assert s["average_moves"] == round((105 * 3 + 104 * 2) / 5, 1)


def test_figures_per_game_and_option_set_and_the_total(client: TestClient) -> None:
    win(client)
    lose(client, game="spider", suits="1")
    lose(client, game="spider", suits="2", how="abandon")
    data = figures(client)
    keys = [(x["game"], x["options"].get("suits")) for x in data["games"]]
    assert keys == [("spine", None), ("spider", "1"), ("spider", "2")]  # catalog order
    assert data["total"]["played"] == 3 and data["total"]["won"] == 1
    assert sum(x["played"] for x in data["games"]) == 3
    one = figures(client, game="spider", suits="2")
    assert [x["options"]["suits"] for x in one["games"]] == ["2"]
    assert one["total"]["played"] == 1
    both = figures(client, game="spider")
    assert len(both["games"]) == 2 and both["total"]["played"] == 2


def test_stats_query_errors(client: TestClient) -> None:
    assert client.get("/api/stats", params={"game": "chess"}).status_code == 422
    r = client.get("/api/stats", params={"game": "spider", "suits": "3"})
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_option"
    assert client.get("/api/stats", params={"suits": "2"}).status_code == 422


# --- history --------------------------------------------------------------------------------


def test_history_is_newest_first_and_paged(client: TestClient) -> None:
    ids = []
    for _ in range(5):
        ids.append(lose(client, how="abandon")["id"])  # each one abandons... the previous new
    won = win(client)
    ids.append(won["id"])
    first = history(client, per_page=4)
    assert (first["total"], first["pages"], first["page"]) == (6, 2, 1)
    second = history(client, per_page=4, page=2)
    got = [i["id"] for i in first["items"] + second["items"]]
    assert got == ids[::-1]
    assert history(client, per_page=4, page=3)["items"] == []
    item = first["items"][0]
    assert item["result"] == "won" and item["game"] == "spine" and item["deal"] == WIN_DEAL
    assert item["moves"] == 104 and item["score"] == won["view"]["counters"]["score"]
    assert item["date"] == item["finished_at"] and item["clean"]
    assert {i["result"] for i in second["items"]} == {"abandoned"}
    for bad in ({"page": 0}, {"per_page": 0}, {"per_page": 101}):
        assert client.get("/api/history", params=bad).status_code == 422


def test_history_item_fields(client: TestClient) -> None:
    g = lose(client, how="giveup")
    item = history(client)["items"][0]
    assert set(item) >= {"game", "options", "deal", "result", "time_ms", "moves", "score"}
    assert set(item) >= {"hints", "undos", "date", "id", "kind"}
    assert item["id"] == g["id"] and item["result"] == "given_up" and item["moves"] == 1


# --- reset ----------------------------------------------------------------------------------


def test_reset_needs_confirmation_and_keeps_the_game_in_progress(client: TestClient) -> None:
    win(client)
    lose(client, how="giveup")
    playing = move(client, new_game(client, "spider"))
    for body in ({}, {"confirm": False}, {"confirm": "yes"}, {"confirm": 1}):
        r = client.post("/api/stats/reset", json=body)
        assert r.status_code == 422, (body, r.text)
    r = client.post("/api/stats/reset", content="{", headers={"content-type": "application/json"})
    assert r.status_code == 400
    assert client.post("/api/stats/reset", content="confirm=true").status_code == 415
    assert client.post("/api/stats/reset", json={"confirm": False}).json()["error"]["code"] == (
        "confirmation_required"
    )
    assert figures(client)["total"]["played"] == 2
    r = client.post("/api/stats/reset", json={"confirm": True})
    assert r.status_code == 200 and r.json() == {"deleted": 2}
    data = figures(client)
    assert data["total"]["played"] == 0 and data["total"]["in_progress"] == 1
    assert [i["id"] for i in history(client)["items"]] == [playing["id"]]
    # The game in progress goes on and counts when it ends.
    post(client, playing["id"], "giveup", version=playing["version"])
    assert figures(client)["total"]["played"] == 1


def test_charts_follow_finished_games_and_a_reset(client: TestClient) -> None:
    """Charts are remembered per scope until a game of it finishes or the figures are
    reset: each change shows at once, on the total and on the option set."""

    def charts() -> tuple[list[str], list[str]]:
        data = figures(client)
        return (
            [p["result"] for p in data["total"]["points"]],
            [p["result"] for p in spine(client)["points"]] if data["games"] else [],
        )

    assert charts() == ([], [])
    win(client)
    assert charts() == (["won"], ["won"])
    assert charts() == (["won"], ["won"])  # asked again: the same
    lose(client, how="giveup")
    assert charts() == (["won", "given_up"], ["won", "given_up"])
    lose(client, game="spider", how="giveup")
    total, by_set = charts()
    assert total == ["won", "given_up", "given_up"] and by_set == ["won", "given_up"]
    assert client.post("/api/stats/reset", json={"confirm": True}).status_code == 200
    assert charts() == ([], [])
    win(client)
    assert charts() == (["won"], ["won"])


# --- players --------------------------------------------------------------------------------


def test_another_players_records_never_show(client: TestClient, other: TestClient) -> None:
    mine = win(client)
    lose(client)
    assert figures(other)["total"]["played"] == 0
    assert history(other)["total"] == 0
    r = other.get(f"/api/games/{mine['id']}/replay")
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
    theirs = win(other)
    assert other.post("/api/stats/reset", json={"confirm": True}).json() == {"deleted": 1}
    assert figures(client)["total"]["played"] == 2
    assert [i["id"] for i in history(client)["items"]][-1] == mine["id"]
    assert client.get(f"/api/games/{theirs['id']}/replay").status_code == 404


# --- replay ---------------------------------------------------------------------------------


def test_replay_steps_through_the_won_line(client: TestClient) -> None:
    g = win(client, pre=[DETOUR])
    r = client.get(f"/api/games/{g['id']}/replay")
    assert r.status_code == 200, r.text
    start = r.json()
    assert (start["step"], start["steps"], start["result"]) == (0, 105, "won")
    assert start["moves"][0] == DETOUR and len(start["moves"]) == 105
    fresh = Game("spine", WIN_DEAL, start=collectable_spine(), kind="solvable").view()
    assert start["view"]["piles"] == fresh["piles"]
    assert start["view"]["moves"] == []  # a replay is not played
    one = client.get(f"/api/games/{g['id']}/replay", params={"step": 1}).json()
    assert one["view"]["counters"]["moves"] == 1
    assert one["view"]["piles"]["t2"]["cards"][-1] == fresh["piles"]["t4"]["cards"][-1]
    last = client.get(f"/api/games/{g['id']}/replay", params={"step": 10_000}).json()
    assert last["step"] == 105 and last["view"]["flags"]["won"]
    assert last["view"]["piles"] == g["view"]["piles"]
    assert client.get(f"/api/games/{g['id']}/replay", params={"step": -1}).status_code == 422


def test_replay_shows_only_the_final_line_not_undone_moves(client: TestClient) -> None:
    g = new_game(client, "spine", deal=WIN_DEAL, solvable=True)
    g = move(client, g, DETOUR)
    g = post(client, g["id"], "undo", version=g["version"]).json()
    data = client.get(f"/api/games/{g['id']}/replay").json()
    assert data["steps"] == 0 and data["moves"] == [] and data["result"] == "playing"


def test_spider_replay_never_shows_a_face_down_card(client: TestClient) -> None:
    g = new_game(client, "spider", options={"suits": "2"}, deal=77)
    rng = random.Random(5)
    for _ in range(40):
        legal = g["view"]["moves"]
        if not legal:
            break
        g = move(client, g, rng.choice(legal)["text"])
    post(client, g["id"], "giveup", version=g["version"])
    local = engine_game("spider", 77, {"suits": "2"}, "random")
    spec = local.spec
    state = local.state
    data = client.get(f"/api/games/{g['id']}/replay").json()
    assert data["steps"] == len(data["moves"]) >= 10
    for k in range(data["steps"] + 1):
        if k:
            state = core.apply(spec, state, Move.parse(data["moves"][k - 1]))
        step = client.get(f"/api/games/{g['id']}/replay", params={"step": k}).json()
        assert step["step"] == k
        assert_no_hidden(step)
        codes = [c for p in step["view"]["piles"].values() for c in p["cards"] if c is not None]
        assert all(CARD.match(c) for c in codes)
        for i, p in enumerate(spec.piles):
            shown = step["view"]["piles"][p.id]["cards"]
            hidden = len(state.piles[i]) if p.kind is PileKind.STOCK else state.down[i]
            assert len(shown) == len(state.piles[i])
            assert shown[:hidden] == [None] * hidden, (k, p.id)
            assert None not in shown[hidden:], (k, p.id)
        # Every face-down card of the deal is still hidden somewhere: 104 cards in all.
        assert sum(len(p["cards"]) for p in step["view"]["piles"].values()) == 104


# --- the counting functions, on random records -------------------------------------------

STATUSES = ["won", "lost", "abandoned", "playing"]


@st.composite
def record_lists(draw: st.DrawFn) -> list[Record]:
    t0 = datetime(2026, 1, 1, tzinfo=UTC)
    out = []
    for i in range(draw(st.integers(0, 25))):
        status = draw(st.sampled_from(STATUSES))
        moved = status == "won" or draw(st.booleans())
        end = t0 + timedelta(minutes=draw(st.integers(0, 10_000)))
        out.append(
            Record(
                id=f"g{i}",
                game=draw(st.sampled_from(["spine", "spider"])),
                options={},
                options_key="",
                deal=draw(st.integers(1, 5)),
                kind="random",
                status=status,
                moves=draw(st.integers(1, 300)),
                moves_total=0,
                score=0,
                hints=draw(st.integers(0, 2)),
                undos=draw(st.integers(0, 2)),
                restarts=draw(st.integers(0, 1)),
                time_ms=draw(st.integers(0, 5)) * 1000,
                created_at=t0,
                first_move_at=t0 if moved else None,
                finished_at=None if status == "playing" else end,
            )
        )
    return out


@settings(max_examples=300, deadline=None)
@given(record_lists())
def test_summary_matches_a_plain_recount(recs: list[Record]) -> None:
    f = summarize(recs)
    ended = sorted(
        (r for r in recs if r.first_move_at and r.finished_at),
        key=lambda r: (r.finished_at, r.created_at, r.id),
    )
    wins = [r for r in ended if r.status == "won"]
    assert f["played"] == len(ended) == f["won"] + f["lost"]
    assert f["lost"] == f["given_up"] + f["abandoned"]
    assert f["won"] == len(wins)
    assert f["clean_wins"] == sum(r.hints == r.undos == r.restarts == 0 for r in wins)
    assert f["in_progress"] == sum(
        r.first_move_at is not None and r.finished_at is None for r in recs
    )
    # Streaks: the longest run of wins, and the run at the end.
    text = "".join("W" if r.status == "won" else "L" for r in ended)
    assert f["best_streak"] == max((len(run) for run in text.split("L")), default=0)
    assert f["current_streak"] == len(text) - len(text.rstrip("W"))
    # Bests: the minimum, held by the first game that reached it.
    if wins:
        fastest = min(r.time_ms for r in wins)
        assert f["best_time"]["value"] == fastest
        assert f["best_time"]["id"] == next(r.id for r in wins if r.time_ms == fastest)
        fewest = min(r.moves for r in wins)
        assert f["fewest_moves"]["id"] == next(r.id for r in wins if r.moves == fewest)
        assert f["average_moves"] == round(sum(r.moves for r in wins) / len(wins), 1)
    else:
        assert f["best_time"] is None and f["average_time_ms"] is None
    assert [p["result"] for p in f["points"]] == [r.result for r in ended]
    assert f["hints"] == sum(r.hints for r in ended)


@settings(max_examples=200, deadline=None)
@given(record_lists())
def test_kept_tally_matches_a_recount(recs: list[Record]) -> None:
    """Folding finished games one by one (what the server keeps) gives the figures that
    counting them all at once gives (``summarize``)."""
    tally = stats.Tally()
    ended = sorted((r for r in recs if r.counted and r.finished), key=Record.finish_order)
    for r in ended:
        stats.fold(tally, r)
    bests = {
        r.id: {"deal": r.deal, "kind": r.kind, "game": r.game, "options": r.options, "id": r.id}
        for r in recs
    }
    in_progress = sum(r.counted and not r.finished for r in recs)
    kept = stats.figures_of(tally, in_progress, bests, [])
    assert kept == summarize(recs, points=0)


def test_a_replay_after_undo_or_redo_plays_only_what_the_line_adds(client: TestClient) -> None:
    """Issue 33, finding 5: each undo or redo makes a version, and a replay per version
    rebuilt the whole line. The kept line of the game is reused: an undo plays nothing,
    a redo or a move one move, and every answer equals a line built from nothing."""
    from pasyans.server.games import replay

    g = new_game(client, "spider", options={"suits": "2"}, deal=77)
    rng = random.Random(3)
    for _ in range(30):
        g = move(client, g, rng.choice(g["view"]["moves"])["text"])
    replay.LINES.clear()

    def replayed() -> dict[str, Any]:
        r = client.get(f"/api/games/{g['id']}/replay", params={"step": 10_000})
        assert r.status_code == 200, r.text
        return r.json()

    first = replayed()
    assert replay.LINES.played == first["steps"] == 30
    for action, steps, played in (("undo", 29, 0), ("redo", 30, 1), ("undo", 29, 0)):
        g = post(client, g["id"], action, version=g["version"]).json()
        before = replay.LINES.played
        got = replayed()
        assert (got["steps"], replay.LINES.played - before) == (steps, played)
        assert got["view"]["piles"] == g["view"]["piles"]
    g = move(client, g, g["view"]["moves"][0]["text"])
    before = replay.LINES.played
    got = replayed()
    assert (got["steps"], replay.LINES.played - before) == (30, 1)
    assert got["view"]["piles"] == g["view"]["piles"]
    replay.LINES.clear()  # the same answer from nothing
    assert replayed() == got and replay.LINES.played == 30
