"""Fit Spider's distance weights on a training range (not a timed test; prints figures).

    uv run python benchmarks/spider_fit.py --deals 6357157-6357256 --nodes 307845 \
        --start 4,3,1,1,8,4,0,0,1,4

Each candidate weight vector (spider.Weights order: break, offsuit, tangle, down, empty,
stock, done, buried, second, shape) searches every training deal once with the compiled
staged search (the unproven rules on, as ``spider.solve``'s first pass) at ``--nodes``
positions; its score is the deals won summed over budgets up to it (FRACTIONS), ties
broken by the positions spent (a lost or unknown deal counts the whole budget).
Coordinate search: each weight in turn is moved by each of ``--steps`` (up and down),
kept when it scores better; the loop ends when no single move helps.
"""

from __future__ import annotations

import argparse
import time

from pasyans.domains import spider
from pasyans.engine.core import initial_state
from pasyans.rules import get_game

FRACTIONS = (0.1, 0.15, 0.2, 0.3, 0.45, 0.7, 1.0)
"""The budgets (fractions of ``--nodes``, evenly spaced in log) whose wins are summed."""


def score(games: list[spider.SpiderGame], weights: tuple[int, ...], nodes: int) -> tuple[int, int]:
    """(deals won summed over the budgets of FRACTIONS, positions spent) of ``weights``:
    the area under the won-against-time curve up to ``nodes`` (in log time), smoother
    than the wins at ``nodes`` alone; one search per deal at ``nodes``."""
    assert spider.compiled is not None
    won = spent = 0
    for game in games:
        cols, down, left, done, _ = game.root
        r = spider.compiled.spider_search(
            game.stock,
            (cols, down, left, done),
            spider.WON,
            nodes,
            0.0,
            spider.MEMORY,
            True,
            weights=weights,
        )
        if r["status"] == "won":
            won += sum(r["nodes"] <= f * nodes for f in FRACTIONS)
            spent += r["nodes"]
        else:
            spent += nodes
    return won, spent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--deals", required=True, help="A-B: the training range")
    ap.add_argument("--nodes", type=int, default=307_845)
    ap.add_argument("--start", default="4,3,1,1,8,4,0,0,1,4")
    ap.add_argument("--steps", default="1", help="comma-separated step sizes")
    ap.add_argument("--only", default="", help="comma-separated weight indexes to move")
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    spec = get_game("spider", {"suits": "4"})
    first, last = (int(x) for x in a.deals.split("-"))
    games = [spider.SpiderGame(spec, initial_state(spec, d)) for d in range(first, last + 1)]
    best = tuple(int(x) for x in a.start.split(","))
    steps = [int(x) for x in a.steps.split(",")]
    only = [int(x) for x in a.only.split(",")] if a.only else list(range(len(best)))
    seen: dict[tuple[int, ...], tuple[int, int]] = {}

    def run(w: tuple[int, ...]) -> tuple[int, int]:
        if w not in seen:
            t = time.process_time()
            seen[w] = score(games, w, a.nodes)
            won, spent = seen[w]
            print(
                f"  {w}: {won} won (summed), {spent:,} positions ({time.process_time() - t:.0f} s)",
                flush=True,
            )
        return seen[w]

    top = run(best)
    for _ in range(a.rounds):
        moved = False
        for j in only:
            for step in steps:
                for sign in (1, -1):
                    w = list(best)
                    w[j] += sign * step
                    if w[j] < 0 or w[j] > 64:
                        continue
                    got = run(tuple(w))
                    if (got[0], -got[1]) > (top[0], -top[1]):
                        best, top, moved = tuple(w), got, True
                        print(f"best {best}: {top[0]} won, {top[1]:,} positions", flush=True)
        if not moved:
            break
    print(f"fitted {best}: {top[0]} won, {top[1]:,} positions")


if __name__ == "__main__":
    main()
