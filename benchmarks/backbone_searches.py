"""The analysis's Backbone searches on chosen positions: seconds, positions and their rate.

Each ``DEAL:K[:SIDE]`` names position ``K`` of the simple player's game of that deal
(``simple_game``: from the solvable layout, seed = deal, at most 1,000 moves: the games of
``benchmarks/analysis.py --games backbone --lost``) and the side of the analysis's search
(``won``: the restarting search for a win, the default; ``lost``: the one dive for a
loss). Each search runs as the analysis runs it (`pasyans.analysis.outcomes.search`: the
kept table, draws as moves, the last pass's column-capacity rule), with a new table, at
most ``--seconds``. Run it in two trees side by side to compare their searches::

    uv run python benchmarks/backbone_searches.py 42:23 37:47 7:229:lost --seconds 300
"""

from __future__ import annotations

import argparse
import os
import time

from pasyans.analysis import line_of, outcomes
from pasyans.analysis.simple import simple_game
from pasyans.rules import get_game


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("at", nargs="+", help="DEAL:K or DEAL:K:won|lost")
    ap.add_argument("--seconds", type=float, default=60.0)
    args = ap.parse_args()
    spec = get_game("backbone")
    print(f"load average before: {os.getloadavg()}")
    head = ("position", 12), ("side", 5), ("pass", 4), ("outcome", 8), ("seconds", 8)
    print(" ".join(f"{h:>{w}}" for h, w in head), f"{'positions':>10} {'per s':>9}")
    for at in args.at:
        deal, k, *rest = at.split(":")
        side = rest[0] if rest else "won"
        if side not in ("won", "lost"):
            raise SystemExit(f"{at}: the side is won or lost")
        game = simple_game("backbone", int(deal), cap=1000)
        states, _ = line_of(game)
        state = states[int(k)]
        table = outcomes.table_for(spec, states[0])
        t0 = time.perf_counter()
        r = outcomes.search(spec, state, args.seconds, None, table, prove=side == "lost")
        dt = time.perf_counter() - t0
        print(
            f"{deal + ':' + k:>12} {side:>5} {state.redeals + 1:>4} {r.result:>8} {dt:>8.1f}"
            f" {r.nodes:>10,} {r.nodes / dt:>9,.0f}",
            flush=True,
        )
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
