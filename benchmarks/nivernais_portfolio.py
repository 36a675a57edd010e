"""Nivernais' search before and after the final-pass cap and the eight scores, side by
side on the same deals in one process (docs/solver.md, "Nivernais: capped final passes
and eight scores")::

    uv run python benchmarks/nivernais_portfolio.py --deals 5047-5066 --nodes 280000

"before" is the three scores of 2026-12-01 with no cap (``best_first`` with
``cap=None`` is that search, position for position); "after" is the product's
:data:`~pasyans.domains.nivernais.WEIGHTS` and :data:`~pasyans.domains.nivernais.CAP`.
Prints one line per deal (verdict, nodes, CPU seconds of each) and the totals.
"""

from __future__ import annotations

import argparse
import time

from pasyans.domains import nivernais as nv
from pasyans.engine.core import initial_state
from pasyans.rules import get_game

BEFORE: tuple[tuple[tuple[int, int, int, int], ...], int | None] = (
    ((4, 2, 3, 1), (4, 2, 3, 0), (4, 2, 3, 2)),
    None,
)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", default="5047-5066", help="a range A-B")
    ap.add_argument("--nodes", type=int, default=280_000)
    args = ap.parse_args()
    a, b = (int(x) for x in args.deals.split("-"))
    spec = get_game("nivernais")
    configs = {"before": BEFORE, "after": (nv.WEIGHTS, nv.CAP)}
    totals = {name: {"won": 0, "lost": 0, "unknown": 0, "cpu": 0.0} for name in configs}
    for deal in range(a, b + 1):
        root = nv.pack(spec, initial_state(spec, deal))
        row = []
        for name, (weights, cap) in configs.items():
            nv.WEIGHTS, nv.CAP = weights, cap
            t = time.process_time()
            outcome, _, used = nv.portfolio(root, args.nodes, None, 0.0)
            cpu = time.process_time() - t
            totals[name][outcome] += 1
            totals[name]["cpu"] += cpu
            row.append(f"{name} {outcome:7} {used:7} nodes {cpu:5.1f} s")
        print(deal, " | ".join(row), flush=True)
    for name, t in totals.items():
        print(
            f"{name}: {t['won']} won, {t['lost']} lost, {t['unknown']} unknown, "
            f"{t['cpu']:.0f} s CPU"
        )


if __name__ == "__main__":
    main()
