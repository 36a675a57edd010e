"""Leaderboard and daily-page speed with many players, on PostgreSQL (docs/daily.md).

Starts a throwaway PostgreSQL cluster (or uses ``--url``), fills it with ``--players``
players and ``--games`` games (COPY): every player won today's hot deal (Spine, default
options, medium: its leaderboard holds every player), and the other games are daily games
of the last 30 days and other keys, spread over the players (two in three won, a fifth of
the wins not clean). Every won daily game has its ``daily_results`` row, as the server
writes it. Then times, in the app (FastAPI's test client: routing, the database and JSON,
no network), ``--repeats`` requests of each:

- the hot leaderboard (100,000 results), by time and by moves, for a player ranked in the
  middle (their rank is a count through the index) and for one with no result;
- the hot leaderboard for the ranked player with the app's cached top forgotten before
  each request (what a new clean win causes: the top and its rank ladder read again);
- a small leaderboard (a few hundred results) for the same player, side by side;
- ``GET /api/daily`` (the player's 30 days and streak);
- ``POST /api/daily/games`` by new visitors: the first players of the day starting today's
  deal, already in the pool (the deal worker makes it the day before).

Prints p50 and p95 in ms, the CPU time per request of the app's process (the test client
included) and of PostgreSQL's processes (what a request costs whatever the machine's load),
the hot board's ratios to the floor (``GET /api/player``: a device lookup and one read) and
to the small board, and the load average.

    uv run python benchmarks/leaderboard.py                       # 100,000 players, 1,000,000 games
    uv run python benchmarks/leaderboard.py --players 10000 --games 100000 --repeats 100
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
import devtools

from pasyans import deals
from pasyans.engine import initial_state
from pasyans.rules import get_game
from pasyans.rules.registry import variants
from pasyans.server.app import create_app
from pasyans.server.pool import daily
from pasyans.server.settings import Settings
from pasyans.server.storage.store import hash_token, options_key

HOT = ("spine", "empty=kings&runs=single&spine=56", "medium")
GAME_COLUMNS = (
    "id, player_id, game, options, options_key, deal, kind, rules_version, moves, redo,"
    " version, status, undos, hints, restarts, moves_total, score, foundation_cards, time_ms,"
    " created_at, updated_at, last_active_at, first_move_at, finished_at, difficulty, daily"
)
RESULT_COLUMNS = (
    "day, game, options_key, difficulty, player_id, game_id, clean, time_ms, moves, finished_at"
)


@contextmanager
def postgres(url: str | None) -> Iterator[str]:
    if url:
        yield url
        return
    try:
        with devtools.throwaway_postgres("pasyans_board", fsync=False, stop_mode="fast") as u:
            yield u
    except devtools.PostgresUnavailable as e:
        raise SystemExit(f"PostgreSQL cannot be started here: {e}") from e


def token(i: int) -> str:
    return f"{i:043d}"


def fill(engine: object, players: int, games: int) -> None:
    """Players, games and results, by COPY (see the module doc)."""
    rng = random.Random(1)
    today = daily.today()
    days = [(today - timedelta(days=i)).isoformat() for i in range(daily.DAYS_BACK)]
    keys = [(g, options_key(o), o) for g, o in variants()]
    t0 = datetime.now(UTC)
    raw = engine.raw_connection()  # type: ignore[attr-defined]
    try:
        cur = raw.driver_connection.cursor()
        with cur.copy("COPY players (id, token_hash, created_at, name_reports) FROM STDIN") as cp:
            for i in range(1, players + 1):
                cp.write_row((i, hash_token(token(i)), t0, 0))
        cur.execute("SELECT setval('players_id_seq', %s)", (players,))
        # Each player's one device: what the cookie's token names (docs/devices.md).
        columns = "id, token_hash, player_id, label, created_at, last_seen_at"
        with cur.copy(f"COPY devices ({columns}) FROM STDIN") as cp:
            for i in range(1, players + 1):
                cp.write_row((f"d{i}", hash_token(token(i)), i, "benchmark", t0, t0))
        seen: set[tuple[str, str, str, str, int]] = set()
        results = []
        with cur.copy(f"COPY games ({GAME_COLUMNS}) FROM STDIN") as cg:
            for n in range(games):
                player = n % players + 1
                if n < players:  # everyone's game of today's hot deal
                    day, (game, key, band) = today.isoformat(), HOT
                    opts = dict(p.split("=") for p in key.split("&"))
                    won = True
                else:
                    day = rng.choice(days)
                    game, key, opts = rng.choice(keys)
                    band = rng.choice(("easy", "medium", "hard"))
                    won = rng.random() < 2 / 3
                if (day, game, key, band, player) in seen:
                    day = None  # a second game of a deal is practice
                clean = won and rng.random() < 0.8
                time_ms = rng.randint(40_000, 1_800_000)
                moves = rng.randint(90, 400)
                at = t0 - timedelta(minutes=rng.randint(0, 60 * 24 * 30))
                status = "won" if won else rng.choice(("lost", "abandoned"))
                gid = f"b{n:012d}"
                cg.write_row((
                    gid, player, game, _json(opts), key, rng.randint(1, 2**31 - 1), "solvable",
                    1, "[]", "[]", moves + 1, status, 0 if clean else 1, 0, 0, moves, 0, 0,
                    time_ms, at, at, at, at, at, band, day,
                ))  # fmt: skip
                if day is not None:
                    seen.add((day, game, key, band, player))
                    if won:
                        results.append(
                            (day, game, key, band, player, gid, clean, time_ms, moves, at)
                        )
        with cur.copy(f"COPY daily_results ({RESULT_COLUMNS}) FROM STDIN") as cr:
            for row in results:
                cr.write_row(row)
        cur.execute(
            "INSERT INTO daily_boards (day, game, options_key, difficulty, clean_wins)"
            " SELECT day, game, options_key, difficulty, count(*) FROM daily_results"
            " WHERE clean GROUP BY 1, 2, 3, 4"
        )
        # Today's hot deal is in the pool, made ahead of time (the board names its number).
        number = deals.daily_number(today, HOT[0], HOT[1], HOT[2])
        start = initial_state(get_game("spine"), number).to_json()
        cur.execute(
            "INSERT INTO deal_pool (game, options_key, difficulty, deal, generator, start,"
            " measure, created_at, daily) VALUES (%s, %s, %s, %s, %s, %s, 0, %s, true)",
            (*HOT, number, deals.GENERATOR_VERSION, json.dumps(start), t0),
        )
        raw.commit()
        # As autovacuum leaves an insert-only table (PostgreSQL 13+ vacuums after inserts):
        # the visibility map set, so counts through an index need not visit the rows.
        raw.driver_connection.autocommit = True
        cur.execute("VACUUM ANALYZE")
        raw.commit()
    finally:
        raw.close()


def _json(d: dict[str, str]) -> str:
    return "{" + ", ".join(f'"{k}": "{v}"' for k, v in d.items()) + "}"


def timed(
    client: TestClient, path: str, repeats: int, before: Callable[[], None] = lambda: None
) -> list[float]:
    out = []
    for _ in range(repeats):
        before()
        t = time.perf_counter()
        r = client.get(path)
        out.append((time.perf_counter() - t) * 1000)
        assert r.status_code == 200, r.text
    return out


def postgres_cpu(engine: Any) -> float:
    """CPU seconds used so far by the cluster's processes (the postmaster's children, read
    from /proc): with the process's own CPU time, the work of a request whatever the
    machine's load."""
    with engine.connect() as c:
        data = c.scalar(text("SHOW data_directory"))
    try:
        postmaster = int((Path(data) / "postmaster.pid").read_text().split()[0])
    except OSError:
        return float("nan")  # another machine's server (--url)
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == postmaster:  # ppid; utime, stime: fields 14, 15 of stat
            total += int(fields[11]) + int(fields[12])
    return total / ticks


def p95(xs: list[float]) -> float:
    return statistics.quantiles(xs, n=20)[-1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=100_000)
    ap.add_argument("--games", type=int, default=1_000_000)
    ap.add_argument("--repeats", type=int, default=200)
    ap.add_argument("--url", help="a PostgreSQL URL to fill (default: a throwaway cluster)")
    args = ap.parse_args()
    if args.games < args.players:
        raise SystemExit("--games must be at least --players (everyone plays the hot deal)")
    load = os.getloadavg()
    with postgres(args.url) as url:
        app = create_app(
            Settings(
                database_url=url,
                solver_prestart=False,
                rate_new_player_per_hour=0,
                rate_new_game_per_minute=0,
            )
        )
        t = time.perf_counter()
        filler = create_engine(url, poolclass=NullPool)  # the app's has a statement timeout
        fill(filler, args.players, args.games)
        filler.dispose()
        with app.state.engine.connect() as c:
            results = c.scalar(text("SELECT count(*) FROM daily_results"))
        print(f"filled {args.players:,} players, {args.games:,} games, {results:,} daily"
              f" results in {time.perf_counter() - t:.0f} s")  # fmt: skip
        middle = args.players // 2
        today = daily.today().isoformat()
        hot = f"/api/daily/board?game=spine&difficulty=medium&day={today}"
        with app.state.engine.connect() as c:
            small = c.execute(
                text(
                    "SELECT game, options_key, difficulty, day, count(*) FROM daily_results"
                    " WHERE clean AND NOT (game = 'spine' AND day = :d AND difficulty = 'medium')"
                    " GROUP BY 1, 2, 3, 4 ORDER BY 5 DESC LIMIT 1"
                ),
                {"d": today},
            ).one()
        small_path = f"/api/daily/board?game={small[0]}&difficulty={small[2]}&day={small[3]}"
        if small[1]:
            small_path += "&" + small[1]
        print(f"small board: {small[0]} {small[1] or '-'} {small[2]} {small[3]}:"
              f" {small[4]:,} clean results; hot board: {args.players:,} results")  # fmt: skip
        rows = []
        with TestClient(app) as mid, TestClient(app) as newcomer:
            mid.cookies.set("pasyans_player", token(middle))

            def reread() -> None:  # as after a new clean win: the top is read again
                app.state.top_cache.clear()

            def nothing() -> None:
                pass

            cases: list[tuple[str, TestClient, str, Callable[[], None]]] = [
                ("hot board, by time, ranked player", mid, hot, nothing),
                ("hot board, by moves, ranked player", mid, hot + "&by=moves", nothing),
                ("hot board, by time, new visitor", newcomer, hot, nothing),
                ("hot board, ranked, top read again", mid, hot, reread),
                ("small board, by time, same player", mid, small_path, nothing),
                ("GET /api/daily (30 days, streak)", mid, "/api/daily", nothing),
                ("GET /api/player (one read: the floor)", mid, "/api/player", nothing),
            ]
            mine = mid.get(hot).json()["you"]
            assert mine is not None and mine["clean"], mine  # the middle player is ranked
            for name, client, path, before in cases:
                timed(client, path, 5, before)  # warm-up
                cpu, pg = time.process_time(), postgres_cpu(app.state.engine)
                xs = timed(client, path, args.repeats, before)
                cpu = (time.process_time() - cpu) * 1000 / args.repeats
                pg = (postgres_cpu(app.state.engine) - pg) * 1000 / args.repeats
                rows.append((name, statistics.median(xs), p95(xs), cpu, pg))
        # The first players of the day: each a new visitor starting today's hot deal, made
        # ahead of time by the worker (a pool lookup and the game's insert).
        xs = []
        cpu, pg = time.process_time(), postgres_cpu(app.state.engine)
        for _ in range(args.repeats):
            with TestClient(app) as first:
                t = time.perf_counter()
                r = first.post("/api/daily/games", json={"game": "spine", "difficulty": "medium"})
                xs.append((time.perf_counter() - t) * 1000)
                assert r.status_code == 201, r.text
        cpu = (time.process_time() - cpu) * 1000 / args.repeats
        pg = (postgres_cpu(app.state.engine) - pg) * 1000 / args.repeats
        rows.append(("POST /api/daily/games (a new player)", statistics.median(xs), p95(xs),
                     cpu, pg))  # fmt: skip
        print(f"{'request':40} {'p50 ms':>8} {'p95 ms':>8} {'app CPU':>8} {'PG CPU':>8}"
              f"   ({args.repeats} requests each; CPU: ms per request)")  # fmt: skip
        for name, p50, p, cpu, pg in rows:
            print(f"{name:40} {p50:8.1f} {p:8.1f} {cpu:8.2f} {pg:8.2f}")
        floor = rows[6]
        print(f"hot board (by time, ranked) / floor: p50 {rows[0][1] / floor[1]:.2f},"
              f" p95 {rows[0][2] / floor[2]:.2f}, CPU {rows[0][3] / floor[3]:.2f};"
              f" hot / small board p50: {rows[0][1] / rows[4][1]:.2f}")  # fmt: skip
        print(
            "load average (1, 5, 15 min) at the start: {:.1f} {:.1f} {:.1f}; at the end:"
            " {:.1f} {:.1f} {:.1f}".format(*load, *os.getloadavg())
        )
        app.state.engine.dispose()


if __name__ == "__main__":
    main()
