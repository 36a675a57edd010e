"""Spider's compiled searches on positions of 4-suit games: positions expanded a second.

The positions: every ``--every``-th of the last ``--last`` positions of the games of deals
1 … ``--deals``: the simple player's (``simple_game``, at most 200 moves), or, with
``--cache F``, the hint follower's kept by ``benchmarks/analysis.py --player follow
--cache F`` (the analysis's games). Each position is searched by

- ``prove``: the exhaustive loss prover (``spider.prove``, csrc/spiderproof.c; the
  analysis's lost side), with a new table;
- ``staged``: the staged search with its unproven rules (``spider.staged(prune=True)``,
  csrc/spider.c; the solver's, the hints' and the analysis's won side);
- ``full``: the same without them (``prune=False``),

each with at most ``--nodes`` positions: a node budget, so two trees expand the same
positions and only the time differs. Prints per search the outcomes, the positions, the
seconds and the rate. Run it in two trees side by side to compare::

    uv run python benchmarks/spider_searches.py --deals 10 --nodes 100000
    uv run python benchmarks/spider_searches.py --cache /tmp/follow-spider4.json --deals 10
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections import Counter

from analysis import followed
from pasyans.analysis import line_of
from pasyans.analysis.simple import simple_game
from pasyans.domains import spider
from pasyans.engine.game import Game
from pasyans.rules import get_game

OPTIONS = {"suits": "4"}
SEARCHES = ("prove", "staged", "full")


def game_of(deal: int, cache: dict[str, list[str]] | None) -> Game:
    """The simple player's game of ``deal``, or the follower's from ``cache`` (played by the
    follower when missing: ``benchmarks/analysis.py``'s ``followed``)."""
    if cache is None:
        return simple_game("spider", deal, OPTIONS, cap=200)
    return followed("spider4", deal, 200, cache)


def run(kind: str, game: spider.SpiderGame, nodes: int) -> spider.Found:
    if kind == "prove":
        return spider.prove(game, spider.lost_table(), nodes=nodes, seconds=None)
    return spider.staged(game, nodes=nodes, seconds=None, prune=kind == "staged")


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--deals", type=int, default=10)
    ap.add_argument("--last", type=int, default=120, help="positions from each game's end")
    ap.add_argument("--every", type=int, default=7)
    ap.add_argument("--nodes", type=int, default=100_000, help="positions a search at most")
    ap.add_argument("--cache", help="the follower's games (benchmarks/analysis.py --cache)")
    args = ap.parse_args()
    cache = None
    if args.cache:
        with open(args.cache) as f:
            cache = json.load(f)
    spec = get_game("spider", OPTIONS)
    print(f"load average before: {os.getloadavg()}")
    outcomes: dict[str, Counter[str]] = {kind: Counter() for kind in SEARCHES}
    nodes = dict.fromkeys(SEARCHES, 0)
    seconds = dict.fromkeys(SEARCHES, 0.0)
    for deal in range(1, args.deals + 1):
        states, _ = line_of(game_of(deal, cache))
        for k in range(len(states) - 1, max(-1, len(states) - 1 - args.last), -args.every):
            for kind in SEARCHES:
                game = spider.SpiderGame(spec, states[k])
                t0 = time.perf_counter()
                r = run(kind, game, args.nodes)
                seconds[kind] += time.perf_counter() - t0
                outcomes[kind][r.status] += 1
                nodes[kind] += r.nodes
    print(f"{'search':>8} {'positions':>12} {'seconds':>8} {'per s':>10}  outcomes")
    for kind in SEARCHES:
        print(f"{kind:>8} {nodes[kind]:>12,} {seconds[kind]:>8.1f}"
              f" {nodes[kind] / seconds[kind]:>10,.0f}  {dict(outcomes[kind])}")  # fmt: skip
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
