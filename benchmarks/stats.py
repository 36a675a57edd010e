"""Statistics and replay speed on a heavy player's records.

Fills a temporary SQLite database with one player's games (finished, with lines of the
given length; inserted in bulk, then the kept figures recounted once with
``stats.rebuild``), then times ``GET /api/stats``, ``GET /api/history`` and the replay of a
long Spider game (the first step rebuilds the line; later steps come from the cache).
Prints the median of a few repeats, wall-clock, and the CPU time of folding one finished
game into the kept figures (the web worker pays it whenever a game ends or is abandoned).

    uv run python benchmarks/stats.py [--games 2000] [--moves 150] [--repeats 5]
    uv run python benchmarks/stats.py --games 100000 --moves 40
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import insert

from pasyans.deals import new_game
from pasyans.server.app import create_app
from pasyans.server.games import replay
from pasyans.server.settings import Settings
from pasyans.server.stats import records as stats
from pasyans.server.storage.models import GameRow
from pasyans.server.storage.store import ensure_player, hash_token, options_key

TOKEN = "b" * 43


def fill(app: FastAPI, games: int, moves: int) -> str:
    """``games`` finished Spine games with ``moves``-long (fake) lines, and one real Spider
    game of up to 400 moves; returns the Spider game's id."""
    maker = app.state.sessionmaker
    rng = random.Random(1)
    t0 = datetime(2025, 1, 1, tzinfo=UTC)
    opts = {"empty": "kings", "runs": "single", "spine": "56"}
    with maker() as s:
        player = ensure_player(s, hash_token(TOKEN))
        rows = []
        for i in range(games):
            at = t0 + timedelta(hours=7 * i)
            won = rng.random() < 0.6
            rows.append(
                dict(
                    id=f"g{i:08d}",
                    player_id=player,
                    game="spine",
                    options=opts,
                    options_key=options_key(opts),
                    deal=rng.randint(1, 10**6),
                    kind="solvable",
                    rules_version=1,
                    moves=["t1>t2"] * moves,
                    redo=[],
                    version=moves + 1,
                    status="won" if won else rng.choice(["lost", "abandoned"]),
                    undos=rng.randint(0, 3),
                    hints=rng.randint(0, 2),
                    restarts=0,
                    moves_total=moves,
                    score=104,
                    foundation_cards=104,
                    time_ms=rng.randint(60_000, 900_000),
                    created_at=at,
                    updated_at=at,
                    last_active_at=at,
                    first_move_at=at,
                    finished_at=at + timedelta(minutes=10),
                )
            )
            if len(rows) == 5000 or i == games - 1:
                s.execute(insert(GameRow), rows)  # Core: no per-row bookkeeping
                rows = []
        stats.rebuild(s, player)
        g = new_game("spider", 7, {"suits": "2"}, "random")
        for _ in range(400):
            legal = g.legal_moves()
            if not legal:
                break
            g.play(rng.choice(legal))
        now = datetime.now(UTC)
        s.add(
            GameRow(
                id="spider-long",
                player_id=player,
                game="spider",
                options=g.options,
                options_key=options_key(g.options),
                deal=7,
                kind="random",
                rules_version=1,
                moves=[m.to_str() for m in g.moves],
                redo=[],
                version=1,
                status="lost",
                undos=0,
                hints=0,
                restarts=0,
                moves_total=g.moves_made,
                score=g.score,
                foundation_cards=0,
                time_ms=1000,
                created_at=now,
                updated_at=now,
                last_active_at=now,
                first_move_at=now,
                finished_at=now,
            )
        )
        s.commit()
    return "spider-long"


def timed(fn: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def finish_cpu(app: FastAPI, repeats: int) -> float:
    """Median CPU seconds of folding one finished game into the kept figures
    (``stats.record_finish``: four ``player_stats`` rows), each in its own transaction."""
    now = datetime.now(UTC)
    with app.state.sessionmaker() as s:
        player = ensure_player(s, hash_token(TOKEN))
        s.commit()
    times = []
    for i in range(repeats):
        rec = stats.Record(
            id=f"fold-{i}", game="spine", options={}, options_key="", deal=i, kind="random",
            status="won" if i % 3 == 0 else "abandoned", moves=40, moves_total=45, score=0,
            hints=1, undos=0, restarts=0, time_ms=60_000 + i, created_at=now,
            first_move_at=now, finished_at=now,
        )  # fmt: skip
        with app.state.engine.begin() as conn:
            t = time.thread_time()
            stats.record_finish(conn, player, rec)
            times.append(time.thread_time() - t)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--moves", type=int, default=150)
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        settings = Settings(data_dir=Path(d), database_url=f"sqlite:///{Path(d) / 'b.sqlite3'}")
        app = create_app(settings)
        spider = fill(app, args.games, args.moves)
        with TestClient(app, cookies={"pasyans_player": TOKEN}) as c:

            def get(url: str) -> None:
                r = c.get(url)
                assert r.status_code == 200, r.text

            url = f"/api/games/{spider}/replay"
            steps = c.get(url).json()["steps"]

            def fresh_replay() -> None:
                replay.LINES = replay.LineCache()
                get(f"{url}?step={steps}")

            rows = [
                ("GET /api/stats", lambda: get("/api/stats")),
                ("GET /api/history?page=50", lambda: get("/api/history?page=50")),
                (f"replay, first step ({steps} moves rebuilt)", fresh_replay),
                ("replay, another step (cached)", lambda: get(f"{url}?step=5")),
            ]
            print(f"{args.games} games of {args.moves} moves, SQLite, median of {args.repeats}:")
            for name, fn in rows:
                print(f"  {name:40} {timed(fn, args.repeats) * 1000:8.1f} ms")
        fold = finish_cpu(app, 200)
        print(f"  {'a finished game folded in (CPU)':40} {fold * 1000:8.2f} ms, median of 200")
        app.state.engine.dispose()


if __name__ == "__main__":
    main()
