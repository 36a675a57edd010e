"""The CPU of Backbone's hint once the player knows every card (after the redeal), where it
costs the most: along followed plays that are lost, where every such hint runs the exact
search to its node budget (``hints.policy.EXACT_HINTS``). Each deal is followed with the
product's budget; then every position of its line where no card is hidden is asked again
as the server asks (``suggest`` with the hint's time cap, no budget), caches cleared
before each, and the CPU of each hint is timed. Prints p50, p95 and max::

    uv run python benchmarks/exact_latency.py backbone --deals 6630009,6630026,6630044
"""

from __future__ import annotations

import argparse
import statistics
import time

from pasyans import caches, hints
from pasyans.engine import core
from pasyans.hints.follow import follow
from pasyans.hints.policy import player_budget
from pasyans.rules import get_game


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("--deals", required=True, help="e.g. 6630009,6630026")
    ap.add_argument("--seconds", type=float, default=0.25, help="the hint's time cap")
    args = ap.parse_args()
    spec = get_game(args.game, {})
    budget = player_budget(spec, "product")
    cpu: list[float] = []
    for deal in (int(d) for d in args.deals.split(",")):
        play = follow(args.game, {}, deal, budget)
        states = [core.initial_state(spec, deal)]
        for m in play.line:
            states.append(core.apply(spec, states[-1], m))
        for i, s in enumerate(states):
            if hints.hidden_to_player(spec, s) or core.is_won(spec, s):
                continue
            caches.clear()
            c0 = time.process_time()
            hints.suggest(spec, s, seconds=args.seconds, history=states[:i])
            cpu.append(time.process_time() - c0)
    cpu.sort()
    p95 = cpu[min(len(cpu) - 1, int(0.95 * len(cpu)))]
    print(
        f"{args.game}: {len(cpu)} hints with every card known; CPU p50 "
        f"{1000 * statistics.median(cpu):.0f} ms, p95 {1000 * p95:.0f} ms, "
        f"max {1000 * max(cpu):.0f} ms"
    )


if __name__ == "__main__":
    main()
