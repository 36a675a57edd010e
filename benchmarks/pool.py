"""How fast a solvable new game is served from the deal pool, through a real server.

Fills the pool of a fresh database with ``pasyans worker --once`` (the real generator,
``--target`` deals per game, option set and difficulty of the ``--games`` chosen), starts
``pasyans serve`` on it (with its own worker topping the pool up meanwhile), and has
``--clients`` players ask for solvable new games of random option sets and difficulties,
one after another. Prints the latency (client side) of each answer, p50/p95/max, and how
many were served (201) or had to wait for a deal (202)::

    uv run python benchmarks/pool.py --games spine spider --target 2 --requests 300
    uv run python benchmarks/pool.py --postgres --workers 2 --games spine backbone
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

from pasyans.server import pool


async def client(
    base: str, keys: list[tuple[str, dict[str, str], str]], n: int, rnd: random.Random, out: Any
) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=30) as c:
        for _ in range(n):
            game, options, difficulty = rnd.choice(keys)
            body = {"game": game, "options": options, "solvable": True, "difficulty": difficulty}
            t0 = time.perf_counter()
            r = await c.post("/api/games", json=body)
            out.append((r.status_code, time.perf_counter() - t0))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--games", nargs="+", default=["spine", "spider"])
    ap.add_argument("--target", type=int, default=2, help="deals made per key before the run")
    ap.add_argument("--requests", type=int, default=300)
    ap.add_argument("--clients", type=int, default=4)
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--postgres", action="store_true")
    args = ap.parse_args()

    keys = [k for k in pool.all_keys() if k[0] in args.games]
    database: AbstractContextManager[str | None] = (
        throwaway_postgres() if args.postgres else nullcontext(None)
    )
    workers = args.workers or (2 if args.postgres else 1)
    with database as url:
        data = Path(os.environ.get("TMPDIR", "/tmp")) / f"pasyans-pool-{os.getpid()}"
        env = {k: v for k, v in os.environ.items() if not k.startswith("PASYANS_")}
        env["PASYANS_DATA_DIR"] = str(data / "data")
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
            out: list[tuple[int, float]] = []
            per = args.requests // args.clients

            async def run() -> None:
                await asyncio.gather(
                    *(client(server.base, keys, per, random.Random(i), out)
                      for i in range(args.clients))
                )  # fmt: skip

            asyncio.run(run())
        lat = sorted(t for _, t in out)
        codes: dict[int, int] = {}
        for code, _ in out:
            codes[code] = codes.get(code, 0) + 1
        backend = "PostgreSQL" if args.postgres else "SQLite"
        print(f"# {backend}, {workers} worker(s), {args.clients} clients, games {args.games}")
        print("| requests | answers | p50 ms | p95 ms | max ms |")
        print("|---:|---|---:|---:|---:|")
        print(
            f"| {len(lat)} | {codes} | {percentile(lat, 50) * 1000:.1f} | "
            f"{percentile(lat, 95) * 1000:.1f} | {lat[-1] * 1000:.1f} |"
        )


if __name__ == "__main__":
    main()
