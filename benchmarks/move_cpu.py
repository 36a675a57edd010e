"""CPU per move request, this tree side by side with another git revision, two ways.

``--mode app`` (the default): the server's own work per move. The whole ASGI app
(middleware, validation, database, engine, JSON) on a SQLite file, driven in-process by a
bare ASGI caller (a scope, the body, the answer collected: no HTTP client library, no
network), so the CPU clock sees the server and next to nothing else. Each round runs a
fresh child process per tree, alternating, and reads its CPU seconds (user + system) for
``--moves`` random legal Spider (1 suit) moves after a warm-up of 100. ``1000 / (CPU ms
per move)`` is the most moves one worker can serve on one core::

    uv run python benchmarks/move_cpu.py --baseline 5f7a610 --moves 600 --rounds 5

``--mode serve``: real ``pasyans serve`` processes (one worker, SQLite), each tree in turn,
driven by ``benchmarks/load.py``'s players with no think time (a closed loop): requests/s,
the server's CPU ms per request (all its processes, the deal worker included) and the web
worker's alone (``worker ms/req``: ``1000 /`` it is requests per CPU-second of the worker),
p50/p99 move latency, and the load average. Client and server share the machine, so
requests/s is the throughput of a busy small machine, not of one worker alone::

    uv run python benchmarks/move_cpu.py --mode serve --baseline 5f7a610 --players 16

``--action-ids`` (app mode): this tree's moves carry an action id each (kept and pruned
to 64 per game, docs/server.md), the baseline's none: what exactly-once costs::

    uv run python benchmarks/move_cpu.py --baseline main --moves 400 --rounds 5 --action-ids

``--mode refused``: as ``app``, the CPU of a refused new game (``429``: the player's
allowance is spent), what a costly client's flood mostly costs the server::

    uv run python benchmarks/move_cpu.py --mode refused --baseline d760ee7 --moves 600

The baseline tree is exported with ``git archive`` and put first on ``PYTHONPATH``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from load import export, percentile, run_load, serve

ROOT = Path(__file__).resolve().parents[1]

CHILD = r"""
import asyncio, json, random, sys, tempfile, time
from contextlib import asynccontextmanager
from pathlib import Path
import fastapi.routing, fastapi.dependencies.utils, starlette.concurrency

async def direct(func, *args, **kwargs):  # one thread: no thread hops in the figure
    return func(*args, **kwargs)

@asynccontextmanager
async def cm_direct(cm):
    with cm as value:
        yield value

fastapi.routing.run_in_threadpool = direct
fastapi.dependencies.utils.run_in_threadpool = direct
fastapi.dependencies.utils.contextmanager_in_threadpool = cm_direct
starlette.concurrency.run_in_threadpool = direct
from pasyans.server.app import create_app
from pasyans.server.settings import Settings

moves = int(sys.argv[1])
refusals = sys.argv[2:] == ["refused"]
ids = sys.argv[2:] == ["ids"]  # every move with an action id (kept, pruned to 64)
d = Path(tempfile.mkdtemp())
app = create_app(Settings(database_url=f"sqlite:///{d}/m.sqlite3", data_dir=d,
                          rate_new_game_per_minute=0.001 if refusals else 0, rate_new_game_burst=1,
                          sqlite_synchronous="NORMAL"))
rng = random.Random(7)
body = {"game": "spider", "options": {"suits": 1}, "solvable": False}
cookie = []

async def post(path, data, ok=(200, 201)):
    raw = json.dumps(data).encode()
    headers = [(b"host", b"t"), (b"content-type", b"application/json"),
               (b"content-length", str(len(raw)).encode())] + cookie
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "method": "POST", "scheme": "http", "path": path, "raw_path": path.encode(),
             "query_string": b"", "root_path": "", "headers": headers,
             "client": ("127.0.0.1", 5000), "server": ("t", 80), "state": {}}
    sent = [False]
    async def receive():
        if not sent[0]:
            sent[0] = True
            return {"type": "http.request", "body": raw, "more_body": False}
        await asyncio.Event().wait()
    out = {}
    chunks = []
    async def send(message):
        if message["type"] == "http.response.start":
            out["status"] = message["status"]
            for k, v in message["headers"]:
                if k == b"set-cookie" and not cookie:
                    cookie.append((b"cookie", v.split(b";")[0]))
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))
    await app(scope, receive, send)
    assert out["status"] in ok, (out, b"".join(chunks)[:300])
    return json.loads(b"".join(chunks))

async def run(n):
    g = await post("/api/games", {**body, "deal": 5})
    played = 0
    while played < n:
        if g["status"] != "playing" or not g["view"]["moves"]:
            g = await post("/api/games", body)
            continue
        m = rng.choice(g["view"]["moves"])["text"]
        data = {"move": m, "version": g["version"]}
        if ids:
            data["action"] = "%016x" % rng.getrandbits(64)
        g = await post(f"/api/games/{g['id']}/moves", data)
        played += 1

async def refuse(n):  # new games of a player whose allowance is spent: 429 each
    for _ in range(n):
        await post("/api/games", body, ok=(429,))

async def main():
    if refusals:
        await post("/api/games", body)
        await refuse(100)
        t = time.process_time()
        await refuse(moves)
        return (time.process_time() - t) / moves * 1000
    await run(100)
    t = time.process_time()
    await run(moves)
    return (time.process_time() - t) / moves * 1000

print(json.dumps({"cpu_ms": asyncio.run(main())}))
"""


def app_cpu(moves: int, pythonpath: str | None, refused: bool = False, ids: bool = False) -> float:
    """CPU ms per move (or per refused new game) in a fresh child process (``--mode app``,
    ``--mode refused``); ``ids``: each move carries an action id."""
    env = dict(os.environ)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            CHILD,
            str(moves),
            *(["refused"] if refused else []),
            *(["ids"] if ids else []),
        ],
        env=env,
        capture_output=True,
        text=True,
    )
    if out.returncode != 0:
        raise SystemExit(out.stderr)
    value: float = json.loads(out.stdout.strip().splitlines()[-1])["cpu_ms"]
    return value


def served(pythonpath: str | None, args: argparse.Namespace) -> dict[str, float]:
    """One closed-loop run against a real server (``--mode serve``)."""
    saved = os.environ.copy()
    if pythonpath:
        os.environ["PYTHONPATH"] = pythonpath
    try:
        with serve(None, 1, {"PASYANS_SQLITE_SYNCHRONOUS": "NORMAL"}) as server:
            tally, cpu = asyncio.run(
                run_load(server, args.players, args.duration, args.warmup, 0.0, args.game)
            )
    finally:
        os.environ.clear()
        os.environ.update(saved)
    server_cpu = cpu.server_total
    lat = sorted(tally.latencies)
    return {
        "req/s": tally.requests / args.duration,
        "cpu ms/req": 1000 * server_cpu / max(1, tally.requests),
        # The web worker alone: the deal worker fills a fresh pool meanwhile (up to a core).
        "worker ms/req": 1000 * cpu.server["web"] / max(1, tally.requests),
        "p50 ms": percentile(lat, 50) * 1000,
        "p99 ms": percentile(lat, 99) * 1000,
        "errors": float(tally.errors),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--mode", choices=("app", "serve", "refused"), default="app")
    ap.add_argument("--baseline", default="main", help="git revision to compare with [main]")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--moves", type=int, default=600, help="app mode: moves per round")
    ap.add_argument("--players", type=int, default=16, help="serve mode")
    ap.add_argument("--duration", type=float, default=15.0, help="serve mode: seconds")
    ap.add_argument("--warmup", type=float, default=3.0, help="serve mode: seconds")
    ap.add_argument("--game", default="spider", help="serve mode")
    ap.add_argument(
        "--action-ids", action="store_true", help="app mode: this tree's moves carry action ids"
    )
    args = ap.parse_args()
    labels = (args.baseline, "this tree")
    runs: dict[str, list[dict[str, float]]] = {label: [] for label in labels}
    print("load average at the start: " + " ".join(f"{x:.1f}" for x in os.getloadavg()))
    with tempfile.TemporaryDirectory(prefix="pasyans-baseline-") as tmp:
        src = str(export(args.baseline, Path(tmp)))
        for n in range(args.rounds):
            for label, path in zip(labels, (src, None), strict=True):
                if args.mode == "app":
                    ids = args.action_ids and path is None
                    runs[label].append({"cpu ms/move": app_cpu(args.moves, path, ids=ids)})
                elif args.mode == "refused":
                    runs[label].append({"cpu ms/refusal": app_cpu(args.moves, path, True)})
                else:
                    runs[label].append(served(path, args))
            print(f"round {n + 1}: " + "   ".join(
                f"{label}: " + "  ".join(f"{k} {v:.2f}" for k, v in runs[label][-1].items())
                for label in labels), flush=True)  # fmt: skip
    print(f"medians of {args.rounds} rounds ({args.mode} mode):")
    med = {
        label: {k: statistics.median(r[k] for r in rs) for k in rs[0]} for label, rs in runs.items()
    }
    for label in labels:
        print(f"  {label:>12}: " + "  ".join(f"{k} {v:.2f}" for k, v in med[label].items()))
    if args.mode == "refused":
        b, o = med[args.baseline]["cpu ms/refusal"], med["this tree"]["cpu ms/refusal"]
        print(f"  CPU per refused new game (429): {args.baseline} {b:.2f} ms, this tree "
              f"{o:.2f} ms; ratio {o / b:.2f}")  # fmt: skip
        return
    key = "cpu ms/move" if args.mode == "app" else "cpu ms/req"
    b, o = med[args.baseline][key], med["this tree"][key]
    print(f"  CPU per move: {args.baseline} {b:.2f} ms ({1000 / b:.0f} moves/s of one core), "
          f"this tree {o:.2f} ms ({1000 / o:.0f} moves/s); ratio {o / b:.2f}")  # fmt: skip
    if args.mode == "serve":
        b, o = med[args.baseline]["worker ms/req"], med["this tree"]["worker ms/req"]
        print(f"  the web worker's CPU per request: {args.baseline} {b:.2f} ms ({1000 / b:.0f} "
              f"requests per CPU-second), this tree {o:.2f} ms ({1000 / o:.0f}); ratio "
              f"{o / b:.2f}")  # fmt: skip
        print(f"  throughput ratio: {med['this tree']['req/s'] / med[args.baseline]['req/s']:.2f}")
    print("  load average at the end: " + " ".join(f"{x:.1f}" for x in os.getloadavg()))


if __name__ == "__main__":
    main()
