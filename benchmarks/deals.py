"""Solvable-deal generation time per game and option set (not a timed test).

    uv run python benchmarks/deals.py                  # deals 1…20 of every offered kind
    uv run python benchmarks/deals.py --deals 50 --games nivernais

For every game and option set where ``pasyans.deals.kinds_for`` offers "solvable", makes
the solvable layouts of deals 1…N in this process (the per-process cache is cleared first)
and prints the median, p90 and max time per deal.
"""

from __future__ import annotations

import argparse
import statistics
import time

from pasyans.deals import _solvable, kinds_for, start_position
from pasyans.rules import get_game
from pasyans.rules.registry import variants


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--games", default=None, help="comma-separated game ids (default: all)")
    args = ap.parse_args()
    wanted = None if args.games is None else set(args.games.split(","))
    print(f"{'game':<36} {'deals':>5} {'median s':>9} {'p90 s':>7} {'max s':>7}")
    for game_id, options in variants():
        if wanted is not None and game_id not in wanted:
            continue
        if "solvable" not in kinds_for(game_id, options):
            continue
        spec = get_game(game_id, options)
        _solvable.cache_clear()
        times: list[float] = []
        for deal in range(1, args.deals + 1):
            t = time.perf_counter()
            start_position(spec, deal, "solvable")
            times.append(time.perf_counter() - t)
        times.sort()
        label = game_id + "".join(f" {k}={v}" for k, v in sorted(options.items()))
        p90 = times[min(len(times) - 1, int(0.9 * len(times)))]
        print(
            f"{label:<36} {len(times):>5} {statistics.median(times):>9.3f} "
            f"{p90:>7.3f} {times[-1]:>7.3f}"
        )


if __name__ == "__main__":
    main()
