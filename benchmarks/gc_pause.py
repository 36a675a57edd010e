"""How long a full pass of the garbage collector stalls a web worker, with and without
the objects held at start frozen (``app.freeze_heap``, what ``app_from_env`` does).

A full pass holds the interpreter lock while it walks every tracked object, so every
request in progress waits for it. Each round starts two fresh processes, one after the
other: both build the app as a worker does, one freezes what it holds then and one does
not; both play the same games through it in process (new games, moves, a hint), then
time full passes (``gc.collect()``)::

    uv run python benchmarks/gc_pause.py
    uv run python benchmarks/gc_pause.py --games 100 --rounds 5

It prints, per state, the objects a pass walks and the median and slowest pass in ms
over all rounds.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def child(frozen: bool, games: int, passes: int) -> None:
    from fastapi.testclient import TestClient

    from pasyans.server.app import create_app, freeze_heap
    from pasyans.server.settings import Settings

    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(
            database_url=f"sqlite:///{Path(tmp) / 'gc.sqlite3'}",
            data_dir=Path(tmp),
            solver_prestart=False,
            rate_new_game_per_minute=0,
            rate_new_player_per_hour=0,
            rate_search_per_minute=0,
            rate_hint_any_per_minute=0,
        )
        app = create_app(settings)
        if frozen:
            freeze_heap()
        with TestClient(app) as c:
            for deal in range(1, games + 1):
                g = c.post("/api/games", json={"game": "spider", "deal": deal}).json()
                for _ in range(10):
                    if not g["view"]["moves"]:
                        break
                    body = {"move": g["view"]["moves"][0]["text"], "version": g["version"]}
                    g = c.post(f"/api/games/{g['id']}/moves", json=body).json()
                c.post(f"/api/games/{g['id']}/hint", json={"version": g["version"]})
            walked = len(gc.get_objects())
            times = []
            for _ in range(passes):
                t = time.perf_counter()
                gc.collect()
                times.append((time.perf_counter() - t) * 1000)
        app.state.engine.dispose()
    print(json.dumps({"walked": walked, "times": times}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40, help="games played before timing")
    parser.add_argument("--passes", type=int, default=5, help="timed passes per process")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--child", choices=["frozen", "plain"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child == "frozen", args.games, args.passes)
        return
    got: dict[str, dict[str, list[float]]] = {
        s: {"walked": [], "times": []} for s in ("plain", "frozen")
    }
    for _ in range(args.rounds):
        for state in got:
            command = [sys.executable, __file__, "--child", state]
            command += ["--games", str(args.games), "--passes", str(args.passes)]
            out = subprocess.run(
                command,
                capture_output=True,
                text=True,
                check=True,
            )
            data = json.loads(out.stdout.strip().splitlines()[-1])
            got[state]["walked"].append(data["walked"])
            got[state]["times"] += data["times"]
    print(f"# {args.rounds} rounds; {args.games} games played per process; {args.passes} passes")
    print("| objects held at start | objects a pass walks | median pass ms | slowest ms |")
    print("|---|---:|---:|---:|")
    for state, data in got.items():
        name = "frozen (app_from_env)" if state == "frozen" else "not frozen (before)"
        print(
            f"| {name} | {statistics.median(data['walked']):.0f} | "
            f"{statistics.median(data['times']):.1f} | {max(data['times']):.1f} |"
        )


if __name__ == "__main__":
    main()
