"""How fast a solvable new game is served from the deal pool, through a real server.

Fills the pool of a fresh database with ``pasyans worker --once`` (the real generator,
``--target`` deals per game, option set and difficulty of the ``--games`` chosen), starts
``pasyans serve`` on it (with its own worker topping the pool up meanwhile), and has
``--clients`` players ask for solvable new games of random option sets and difficulties,
one after another. Each solvable request is followed by a random new game
of the same game and options (the baseline: nothing to generate), so both are measured
side by side. Prints the latency (client side), p50/p95/max, and how many were served
(201) or had to wait for a deal (202)::

    uv run python benchmarks/pool.py --games spine spider --target 2 --requests 300
    uv run python benchmarks/pool.py --postgres --workers 2 --games spine backbone
    uv run python benchmarks/pool.py --cpu 200      # CPU per request, in one process
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import subprocess
import sys
import time
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).parent))

from load import PASYANS, percentile, serve, throwaway_postgres

from pasyans.server.pool import entries as pool


async def client(
    base: str,
    keys: list[tuple[str, dict[str, str], str]],
    n: int,
    rnd: random.Random,
    out: Any,
    baseline: Any,
) -> None:
    """Solvable new games, each followed by a random one (the baseline: a new game that
    never needed the generator), so both are measured side by side."""
    async with httpx.AsyncClient(base_url=base, timeout=30) as c:
        for _ in range(n):
            game, options, difficulty = rnd.choice(keys)
            body = {"game": game, "options": options, "solvable": True, "difficulty": difficulty}
            t0 = time.perf_counter()
            r = await c.post("/api/games", json=body)
            out.append((r.status_code, time.perf_counter() - t0, game))
            body = {"game": game, "options": options, "solvable": False}
            t0 = time.perf_counter()
            r = await c.post("/api/games", json=body)
            baseline.append((r.status_code, time.perf_counter() - t0, game))


def cpu_per_request(n: int) -> None:
    """In one process (no HTTP server, no other client): the CPU time of a solvable new
    game served from a pre-filled pool and of a random new game, alternating in rounds.
    CPU time, unlike latency, hardly depends on what else the machine runs."""
    import statistics
    import tempfile

    from fastapi.testclient import TestClient

    from pasyans.deals import GENERATOR_VERSION
    from pasyans.engine import initial_state
    from pasyans.rules import get_game
    from pasyans.rules.registry import resolve_options
    from pasyans.server.app import create_app
    from pasyans.server.settings import Settings
    from pasyans.server.storage import store

    tmp = Path(tempfile.mkdtemp(prefix="pasyans-pool-cpu-"))
    app = create_app(
        Settings(database_url=f"sqlite:///{tmp / 'cpu.sqlite3'}", data_dir=tmp,
                 rate_new_game_per_minute=0, rate_new_player_per_hour=0)
    )  # fmt: skip
    options = resolve_options("spine", {})
    key = store.options_key(options)
    with app.state.sessionmaker() as s:
        for deal in range(1, 2 * n + 1):  # stand-ins: the layout does not change the cost
            state = initial_state(get_game("spine"), deal)
            made = pool.Made(state, "medium", 0.0, GENERATOR_VERSION)
            pool.add(s, "spine", key, deal, made)
        s.commit()
    cpu: dict[str, list[float]] = {"solvable, from the pool": [], "random (baseline)": []}
    with TestClient(app) as c:
        for _ in range(2):
            for label, solvable in (
                ("solvable, from the pool", True),
                ("random (baseline)", False),
            ):
                for _ in range(n // 2):
                    t0 = time.process_time()
                    r = c.post("/api/games", json={"game": "spine", "solvable": solvable})
                    assert r.status_code == 201, r.text
                    cpu[label].append(time.process_time() - t0)
    print(f"# CPU per new game, in process, SQLite, {n} of each")
    print("| new game | median CPU ms | p95 CPU ms |")
    print("|---|---:|---:|")
    for label, values in cpu.items():
        values.sort()
        print(
            f"| {label} | {statistics.median(values) * 1000:.1f} | "
            f"{percentile(values, 95) * 1000:.1f} |"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--games", nargs="+", default=["spine", "spider"])
    ap.add_argument("--target", type=int, default=2, help="deals made per key before the run")
    ap.add_argument("--requests", type=int, default=300)
    ap.add_argument("--clients", type=int, default=4)
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--postgres", action="store_true")
    ap.add_argument("--cpu", type=int, default=0, help="only the in-process CPU comparison")
    args = ap.parse_args()
    if args.cpu:
        cpu_per_request(args.cpu)
        return

    keys = [k for k in pool.all_keys() if k[0] in args.games]
    database: AbstractContextManager[str | None] = (
        throwaway_postgres() if args.postgres else nullcontext(None)
    )
    workers = args.workers or (2 if args.postgres else 1)
    with database as url:
        data = Path(os.environ.get("TMPDIR", "/tmp")) / f"pasyans-pool-{os.getpid()}"
        env = {k: v for k, v in os.environ.items() if not k.startswith("PASYANS_")}
        env["PASYANS_DATA_DIR"] = str(data / "data")
        (data / "data").mkdir(parents=True, exist_ok=True)
        extra: dict[str, str] = {"PASYANS_RATE_NEW_GAME_PER_MINUTE": "0",
                                 "PASYANS_RATE_NEW_PLAYER_PER_HOUR": "0",
                                 "PASYANS_POOL_GAMES": ",".join(args.games)}  # fmt: skip
        if url:
            env["PASYANS_DATABASE_URL"] = url
        else:
            url = f"sqlite:///{data / 'data' / 'pasyans.sqlite3'}"
            env["PASYANS_DATABASE_URL"] = url
        extra["PASYANS_DATABASE_URL"] = url
        t0 = time.monotonic()
        subprocess.run(
            [str(PASYANS), "worker", "--once", "--target", str(args.target),
             "--games", ",".join(args.games)],
            env={**env, "PASYANS_LOG_LEVEL": "warning"}, check=True,
        )  # fmt: skip
        print(f"# pool filled: {len(keys)} keys x {args.target} in {time.monotonic() - t0:.0f} s")
        with serve(url, workers, extra) as server:
            out: list[tuple[int, float, str]] = []
            baseline: list[tuple[int, float, str]] = []
            per = args.requests // args.clients

            async def run() -> None:
                await asyncio.gather(
                    *(client(server.base, keys, per, random.Random(i), out, baseline)
                      for i in range(args.clients))
                )  # fmt: skip

            asyncio.run(run())
        backend = "PostgreSQL" if args.postgres else "SQLite"
        print(f"# {backend}, {workers} worker(s), {args.clients} clients, games {args.games}")
        print("| new game | game | requests | answers | p50 ms | p95 ms | max ms |")
        print("|---|---|---:|---|---:|---:|---:|")
        for label, rows in (("solvable, from the pool", out), ("random (baseline)", baseline)):
            for game in ["all", *args.games]:
                mine = [r for r in rows if game in ("all", r[2])]
                if not mine:
                    continue
                lat = sorted(t for _, t, _ in mine)
                codes: dict[int, int] = {}
                for code, _, _ in mine:
                    codes[code] = codes.get(code, 0) + 1
                print(
                    f"| {label} | {game} | {len(lat)} | {codes} | "
                    f"{percentile(lat, 50) * 1000:.1f} | {percentile(lat, 95) * 1000:.1f} | "
                    f"{lat[-1] * 1000:.1f} |"
                )


if __name__ == "__main__":
    main()
