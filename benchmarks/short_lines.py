"""How much :func:`pasyans.solver.shorten.shortened` cuts from the solver's wins, and what
it costs. For every game, deals 1…N from their start (every card known) are solved to a
node budget; each win is shortened and replayed through the engine. Prints per game the
median line length before and after, the median and largest cut, and the median and
largest time the cut took; with ``--reference`` also the median time of the reference
(the engine's graph in Python, ``shorten._engine_graph``) on the same lines, and the ratio
of the two medians (the packed games and Spider build their graphs compiled)::

    uv run python benchmarks/short_lines.py                 # deals 1-10, 200,000 nodes
    uv run python benchmarks/short_lines.py --deals 30 --nodes 500000
    uv run python benchmarks/short_lines.py --reference
"""

from __future__ import annotations

import argparse
import statistics
import time

from pasyans.engine import core
from pasyans.rules import get_game
from pasyans.solver.search import solve
from pasyans.solver.shorten import _engine_graph, _shortest, shortened

GAMES = (("spine", {}), ("backbone", {}), ("backbone-classic", {}), ("spider", {"suits": "1"}),
         ("spider", {"suits": "2"}), ("spider", {}), ("nivernais", {}))  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=10)
    ap.add_argument("--nodes", type=int, default=200_000)
    ap.add_argument("--reference", action="store_true", help="time the engine's graph too")
    args = ap.parse_args()
    print(f"deals 1-{args.deals}, {args.nodes:,} nodes a solve; lines of the wins found")
    extra = f"{'ref ms':>8}{'ratio':>7}" if args.reference else ""
    print(f"{'game':<22}{'won':>5}{'median':>8}{'short':>7}{'cut':>7}{'max cut':>9}"
          f"{'ms':>7}{'max ms':>8}{extra}")  # fmt: skip
    for game, options in GAMES:
        spec = get_game(game, options)
        before, after, cuts, ms, ref = [], [], [], [], []
        for deal in range(1, args.deals + 1):
            state = core.initial_state(spec, deal)
            r = solve(spec, state, nodes=args.nodes)
            if r.result != "won":
                continue
            t0 = time.perf_counter()
            short = shortened(spec, state, r.moves)
            ms.append(1000 * (time.perf_counter() - t0))
            if args.reference:
                t0 = time.perf_counter()
                slow = _shortest(r.moves, *_engine_graph(spec, state, r.moves))
                ref.append(1000 * (time.perf_counter() - t0))
                assert len(slow) == len(short)
            end = state
            for m in short:
                end = core.apply(spec, end, m)
            assert core.is_won(spec, end) and len(short) <= len(r.moves)
            before.append(len(r.moves))
            after.append(len(short))
            cuts.append(1 - len(short) / len(r.moves))
        name = game + "".join(f" {k}={v}" for k, v in options.items())
        if not before:
            print(f"{name:<22}{0:>5}")
            continue
        fast = statistics.median(ms)
        slow = statistics.median(ref) if ref else 0.0
        extra = f"{slow:>8.1f}{slow / fast:>7.0f}" if ref else ""
        print(f"{name:<22}{len(before):>5}{statistics.median(before):>8.0f}"
              f"{statistics.median(after):>7.0f}{statistics.median(cuts):>7.1%}{max(cuts):>9.1%}"
              f"{fast:>7.1f}{max(ms):>8.1f}{extra}")  # fmt: skip


if __name__ == "__main__":
    main()
