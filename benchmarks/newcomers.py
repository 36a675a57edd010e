"""Newcomers from one address against a flood from the same address (issue 33, finding 7),
side by side with another revision's server in one run.

Two phases per server, each a fresh ``pasyans serve`` (one worker, SQLite by default, or a
throwaway PostgreSQL with ``--postgres``, two workers), every client behind one address
(``X-Forwarded-For`` from a trusted proxy):

1. **An hour of newcomers, compressed.** ``--newcomers`` new visitors, as a browser comes:
   ``GET /api/current`` (no cookie: it gets one), ``POST /api/games``, one move. They come
   evenly over ``--hour`` seconds, while a flood sends cookieless new games on
   ``--flood`` connections as fast as they are answered. Time is compressed by running
   the server with every rate limit ``3600 / --hour`` times the shipped one (bursts as
   shipped, the refusal delay shortened alike): what an hour allows, a compressed hour
   allows. Prints how many newcomers got a playable table (201, then the move 200).
2. **The flood's share of a core**, in real time with the limits as shipped: for
   ``--seconds``, the cookieless flood on ``--flood`` connections and as many more
   connections of a smarter flood that first takes a cookie from ``GET /api/current``
   (so it is counted as a browser). Prints the server's CPU (all its processes) over
   the phase, as a share of one core, and what the floods got.

::

    uv run python benchmarks/newcomers.py --baseline main
    uv run python benchmarks/newcomers.py --baseline main --postgres
"""

from __future__ import annotations

import argparse
import contextlib
import multiprocessing
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).parent))
from load import _load, export, group_cpu_seconds, pythonpath, serve, throwaway_postgres

ADDRESS = {"X-Forwarded-For": "198.18.7.7"}
SHIPPED = {  # the shipped limits (settings.py) that an hour compresses
    "PASYANS_RATE_NEW_GAME_PER_MINUTE": 60.0,
    "PASYANS_RATE_NEW_PLAYER_PER_HOUR": 60.0,
    "PASYANS_RATE_REFUSAL_DELAY_SECONDS": 1.0,
}


def flood(base: str, seconds: float, connections: int, smart: bool, out: Any) -> None:
    """New games as fast as answered on ``connections`` threads, each with no cookie (or
    ``smart``: with the one ``GET /api/current`` gives); puts the answers on ``out``."""
    got: Counter[str] = Counter()
    lock = threading.Lock()
    stop = time.monotonic() + seconds

    def one() -> None:
        with httpx.Client(base_url=base, timeout=60, headers=ADDRESS) as c:
            while time.monotonic() < stop:
                c.cookies.clear()
                try:
                    if smart:
                        c.get("/api/current", params={"game": "spider"})
                    r = c.post("/api/games", json={"game": "spider", "solvable": False})
                    status = str(r.status_code)
                except httpx.HTTPError as e:
                    status = type(e).__name__
                with lock:
                    got[("smart " if smart else "cookieless ") + status] += 1

    threads = [threading.Thread(target=one) for _ in range(connections)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    out.put(dict(got))


def start_flood(base: str, seconds: float, connections: int, smart: bool) -> tuple[Any, Any]:
    ctx = multiprocessing.get_context("fork")
    queue: Any = ctx.Queue()
    proc = ctx.Process(target=flood, args=(base, seconds, connections, smart, queue))
    proc.start()
    return proc, queue


def newcomer(base: str) -> str:
    """One newcomer, as a browser comes: the answer that stopped it, or ``ok``."""
    with httpx.Client(base_url=base, timeout=60, headers=ADDRESS) as c:
        r = c.get("/api/current", params={"game": "spider"})
        if r.status_code != 200:
            return f"current {r.status_code}"
        r = c.post("/api/games", json={"game": "spider", "solvable": False})
        if r.status_code != 201:
            return f"new game {r.status_code}"
        g = r.json()
        r = c.post(f"/api/games/{g['id']}/moves",
                   json={"move": g["view"]["moves"][0]["text"], "version": g["version"]})  # fmt: skip
        return "ok" if r.status_code == 200 else f"move {r.status_code}"


def compressed_hour(url: str | None, workers: int, args: argparse.Namespace) -> str:
    k = 3600 / args.hour
    env = {"PASYANS_TRUST_PROXY": "true", "PASYANS_FORWARDED_ALLOW_IPS": "127.0.0.1",
           "PASYANS_POOL_WORKER": "false"}  # fmt: skip
    env.update({name: str(v / k if "DELAY" in name else v * k) for name, v in SHIPPED.items()})
    results: Counter[str] = Counter()
    with serve(url, workers, env) as server:
        proc, queue = start_flood(server.base, args.hour + 2, args.flood, False)
        t0 = time.monotonic()
        threads: list[threading.Thread] = []
        lock = threading.Lock()

        def run() -> None:
            got = newcomer(server.base)
            with lock:
                results[got] += 1

        for i in range(args.newcomers):
            time.sleep(max(0.0, t0 + i * args.hour / args.newcomers - time.monotonic()))
            th = threading.Thread(target=run)
            th.start()
            threads.append(th)
        for th in threads:
            th.join()
        flooded = queue.get()
        proc.join()
    return f"{results['ok']} of {args.newcomers} ({dict(results)}); flood {flooded}"


def flood_share(url: str | None, workers: int, args: argparse.Namespace) -> str:
    env = {"PASYANS_TRUST_PROXY": "true", "PASYANS_FORWARDED_ALLOW_IPS": "127.0.0.1",
           "PASYANS_POOL_WORKER": "false"}  # fmt: skip
    with serve(url, workers, env) as server:
        cpu0, t0 = group_cpu_seconds(server.pgid), time.monotonic()
        a = start_flood(server.base, args.seconds, args.flood, False)
        b = start_flood(server.base, args.seconds, args.flood, True)
        got = {**a[1].get(), **b[1].get()}
        a[0].join()
        b[0].join()
        share = (group_cpu_seconds(server.pgid) - cpu0) / (time.monotonic() - t0)
    return f"{share:.0%} of a core; {got}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--baseline", default=None, help="a git revision measured first")
    ap.add_argument("--newcomers", type=int, default=500)
    ap.add_argument("--hour", type=float, default=60.0, help="seconds one hour is compressed to")
    ap.add_argument("--flood", type=int, default=4, help="connections of each flood")
    ap.add_argument("--seconds", type=float, default=20.0, help="phase 2, real time")
    ap.add_argument("--postgres", action="store_true", help="a throwaway PostgreSQL, 2 workers")
    args = ap.parse_args()
    workers = 2 if args.postgres else 1
    backend = "PostgreSQL, 2 workers" if args.postgres else "SQLite, 1 worker"
    print(f"# {backend}; {args.newcomers} newcomers in a {args.hour:.0f} s hour; floods of "
          f"{args.flood} connections; load average {_load()}", flush=True)  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="pasyans-baseline-") as tmp:
        src = str(export(args.baseline, Path(tmp))) if args.baseline else None
        runs = [(args.baseline, src)] if src else []
        for name, path in [*runs, ("this tree", None)]:
            with pythonpath(path):
                for phase in (compressed_hour, flood_share):
                    db = throwaway_postgres() if args.postgres else contextlib.nullcontext()
                    with db as url:
                        print(f"| {name} | {phase.__name__} | {phase(url, workers, args)} |",
                              flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
