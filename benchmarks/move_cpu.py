"""CPU per move request inside one server process, this tree side by side with another
git revision: the whole ASGI app (middleware, validation, database, engine, JSON) on a
SQLite file, driven in-process with no network, so the figure is the server's own work.

Each round runs a fresh child process per tree (the baseline exported with ``git archive``
and put first on ``PYTHONPATH``), alternating, and reads its CPU seconds (user + system)
for ``--moves`` random legal Spider (1 suit) moves after a warm-up. Prints each round, the
medians and the ratio; ``1000 / (CPU ms per move)`` is the most one worker can serve.

    uv run python benchmarks/move_cpu.py --baseline 5f7a610 --moves 600 --rounds 5
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = r"""
import asyncio, json, random, sys, tempfile, time
from pathlib import Path
import httpx
import fastapi.routing, fastapi.dependencies.utils, starlette.concurrency
from contextlib import asynccontextmanager

async def direct(func, *args, **kwargs):  # one thread: the CPU clock sees all the work
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
d = Path(tempfile.mkdtemp())
app = create_app(Settings(database_url=f"sqlite:///{d}/m.sqlite3", data_dir=d,
                          rate_new_game_per_minute=0, sqlite_synchronous="NORMAL"))
rng = random.Random(7)
body = {"game": "spider", "options": {"suits": 1}, "solvable": False}

async def main():
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
        async def run(n):
            g = (await c.post("/api/games", json={**body, "deal": 5})).json()
            played = 0
            while played < n:
                if g["status"] != "playing" or not g["view"]["moves"]:
                    g = (await c.post("/api/games", json=body)).json()
                    continue
                m = rng.choice(g["view"]["moves"])["text"]
                r = await c.post(f"/api/games/{g['id']}/moves",
                                 json={"move": m, "version": g["version"]})
                assert r.status_code == 200, r.text
                g = r.json()
                played += 1
        await run(100)
        client = 0.0
        t = time.process_time()
        await run(moves)
        return (time.process_time() - t) / moves * 1000

print(json.dumps({"cpu_ms": asyncio.run(main())}))
"""


def export(revision: str, into: Path) -> Path:
    archive = into / "tree.tar"
    with archive.open("wb") as out:
        subprocess.run(["git", "archive", revision, "src"], cwd=ROOT, stdout=out, check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(into, filter="data")
    return into / "src"


def child(moves: int, pythonpath: str | None) -> float:
    env = dict(os.environ)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(moves)], env=env, capture_output=True, text=True
    )
    if out.returncode != 0:
        raise SystemExit(out.stderr)
    value: float = json.loads(out.stdout.strip().splitlines()[-1])["cpu_ms"]
    return value


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--baseline", default="main", help="git revision to compare with [main]")
    ap.add_argument("--moves", type=int, default=600)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    base: list[float] = []
    ours: list[float] = []
    with tempfile.TemporaryDirectory(prefix="pasyans-baseline-") as tmp:
        src = str(export(args.baseline, Path(tmp)))
        for n in range(args.rounds):
            base.append(child(args.moves, src))
            ours.append(child(args.moves, None))
            print(f"round {n + 1}: {args.baseline} {base[-1]:.2f} ms  this tree {ours[-1]:.2f} ms",
                  flush=True)  # fmt: skip
    b, o = statistics.median(base), statistics.median(ours)
    print(f"CPU per move request (client included, in-process), median of {args.rounds}:")
    print(f"  {args.baseline}: {b:.2f} ms ({1000 / b:.0f} moves/s of one core)")
    print(f"  this tree: {o:.2f} ms ({1000 / o:.0f} moves/s of one core)")
    print(f"  ratio this tree / {args.baseline}: {o / b:.2f}")


if __name__ == "__main__":
    main()
