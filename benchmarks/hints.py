"""Hint latency on a real ``pasyans serve`` (issue 16's target: p95 at most 1 s).

For every game and option set, deals 1…N are played through the API by a player who asks
for a hint before every move and then plays it (or, when the hint has no move, a legal
move picked at random from the view), for at most ``--steps`` moves. With ``--mistakes P``
the player ignores the hint with probability P and plays a random legal move instead (lost
positions then need a proof). Every ``/hint`` request is timed on the client side, so the
figure includes HTTP, the database, rebuilding
the game and the search. Prints p50, p95 and max per game and over all requests, and how
the hints were made (solver, heuristic, none)::

    uv run python benchmarks/hints.py                       # 5 deals × 30 moves per game
    uv run python benchmarks/hints.py --deals 10 --steps 60 --mistakes 0.3

The server runs with its default settings except the rate limits (off), the deal pool's
worker (off: it would compete for the core; a solvable deal is made inside its own
untimed request instead) and, if given,
``--hint-seconds`` (the default, 0.25 s, is the solver's CPU cap: with hidden cards all the
samples' searches and the scoring of the candidates share it). Client and server share
the machine; the load average before and after is printed.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections import Counter
from typing import Any

import httpx
from load import percentile, serve

CASES: list[tuple[str, dict[str, Any]]] = [
    ("spine", {}),
    ("spine", {"runs": "suit", "empty": "any"}),
    ("backbone", {}),
    ("backbone-classic", {}),
    ("spider", {"suits": 1}),
    ("spider", {"suits": 2}),
    ("spider", {"suits": 4}),
    ("nivernais", {}),
]


def play(
    client: httpx.Client,
    game: str,
    options: dict[str, Any],
    deal: int,
    steps: int,
    mistakes: float,
    seed: int,
) -> tuple[list[float], Counter[str]]:
    rnd = random.Random(seed)
    r = client.post("/api/games", json={"game": game, "options": options, "deal": deal})
    r.raise_for_status()
    state = r.json()
    times: list[float] = []
    sources: Counter[str] = Counter()
    for _ in range(steps):
        if state["status"] != "playing" or not state["view"]["moves"]:
            break
        t0 = time.perf_counter()
        r = client.post(f"/api/games/{state['id']}/hint", json={"version": state["version"]})
        times.append(time.perf_counter() - t0)
        r.raise_for_status()
        state = r.json()
        hint = state["hint"]
        sources[hint["source"]] += 1
        if hint["move"] and rnd.random() >= mistakes:
            move = hint["move"]["text"]
        else:
            move = rnd.choice(state["view"]["moves"])["text"]
        body = {"move": move, "version": state["version"]}
        r = client.post(f"/api/games/{state['id']}/moves", json=body)
        r.raise_for_status()
        state = r.json()
    return times, sources


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=5)
    ap.add_argument("--steps", type=int, default=30, help="moves per deal (a hint before each)")
    ap.add_argument("--mistakes", type=float, default=0.0, help="share of hints ignored")
    ap.add_argument("--hint-seconds", type=float, default=None, help="server's hint budget")
    args = ap.parse_args()
    env = {
        "PASYANS_RATE_SEARCH_PER_MINUTE": "0",
        "PASYANS_RATE_HINT_ANY_PER_MINUTE": "0",
        "PASYANS_RATE_NEW_GAME_PER_MINUTE": "0",
        "PASYANS_RATE_NEW_PLAYER_PER_HOUR": "0",
        "PASYANS_POOL_WORKER": "false",  # the deal pool's generator would share the core
        "PASYANS_POOL_INLINE": "true",  # so a solvable deal is made in its (untimed) request
    }
    if args.hint_seconds is not None:
        env["PASYANS_HINT_SECONDS"] = str(args.hint_seconds)
    every: list[float] = []
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    with serve(None, 1, env) as server, httpx.Client(base_url=server.base, timeout=60) as client:
        print(f"{'game':<32} {'hints':>5} {'p50 ms':>7} {'p95 ms':>7} {'max ms':>7}  sources")
        for game, options in CASES:
            times: list[float] = []
            sources: Counter[str] = Counter()
            for deal in range(1, args.deals + 1):
                t, s = play(client, game, options, deal, args.steps, args.mistakes, seed=deal)
                times += t
                sources += s
            every += times
            ordered = sorted(times)
            label = game + "".join(f" {k}={v}" for k, v in options.items())
            print(
                f"{label:<32} {len(times):>5} {statistics.median(times) * 1000:>7.0f} "
                f"{percentile(ordered, 95) * 1000:>7.0f} {ordered[-1] * 1000:>7.0f}  "
                + ", ".join(f"{k} {v}" for k, v in sorted(sources.items()))
            )
    ordered = sorted(every)
    print(
        f"{'all':<32} {len(every):>5} {statistics.median(every) * 1000:>7.0f} "
        f"{percentile(ordered, 95) * 1000:>7.0f} {ordered[-1] * 1000:>7.0f}"
    )
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
