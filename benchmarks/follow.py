"""The hint follower: how often a player who always plays the hint wins (no undo).

For one game and option set, deals in a range are played by following every hint
(:mod:`pasyans.solver.follow`), one deal per worker process, under a node budget per hint
so every figure is reproducible. Prints, per method, the win count with a Wilson 95%
interval, the mean and p95 time per hint, and how the plays ended; with ``--full-nodes``
also the full-information win rate of the same deals (the solver, seeing every card: the
upper bound)::

    uv run python benchmarks/follow.py spider -o suits=1 --deals 1-200 --samples 8 --nodes 8000
    uv run python benchmarks/follow.py backbone --deals 1-50 --samples 0      # the baseline
    uv run python benchmarks/follow.py spider -o suits=4 --deals 1-20 --no-guard --csv /tmp/f.csv

``--samples 0`` is the pre-sampling hint (the ranked heuristic on the visible cards; it
stops when that finds nothing useful). Times are per hint in this process, without HTTP.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from pasyans.engine.core import initial_state
from pasyans.rules import get_game
from pasyans.solver.follow import Play, follow
from pasyans.solver.hints import Budget
from pasyans.solver.search import solve
from pasyans.solver.sweep import wilson


def _deals(text: str) -> list[int]:
    lo, _, hi = text.partition("-")
    return list(range(int(lo), int(hi or lo) + 1))


def _options(raw: list[str]) -> dict[str, str]:
    return dict(item.split("=", 1) for item in raw)


def _follow(args: tuple[str, dict[str, str], int, Budget, int]) -> Play:
    return follow(*args)


def _full(args: tuple[str, dict[str, str], int, int]) -> str:
    game, options, deal, nodes = args
    spec = get_game(game, options)
    return solve(spec, initial_state(spec, deal), nodes=nodes).result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("-o", "--option", action="append", default=[], help="key=value")
    ap.add_argument("--deals", default="1-200", help="a range, e.g. 1-200")
    ap.add_argument("--samples", type=int, default=8, help="0: the pre-sampling heuristic")
    ap.add_argument("--nodes", type=int, default=8000, help="search nodes per hint, all samples")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--no-guard", action="store_true", help="no strategy-fusion guard")
    ap.add_argument("--max-moves", type=int, default=600)
    ap.add_argument("--full-nodes", type=int, default=0, help="full-information solve budget")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--csv", type=Path, default=None, help="one row per deal")
    args = ap.parse_args()
    options = _options(args.option)
    deals = _deals(args.deals)
    budget = Budget(
        seconds=None,
        nodes=args.nodes,
        samples=args.samples,
        seed=args.seed,
        guard=not args.no_guard,
    )
    tasks = [(args.game, options, d, budget, args.max_moves) for d in deals]
    plays: list[Play] = []
    out = args.csv.open("w") if args.csv else None
    if out:
        out.write("deal,won,moves,hints,seconds,cpu,slowest,ended,sources\n")
    with ProcessPoolExecutor(args.jobs) as pool:
        for p in pool.map(_follow, tasks):
            plays.append(p)
            if out:
                src = " ".join(f"{k}:{v}" for k, v in p.sources)
                out.write(
                    f"{p.deal},{int(p.won)},{p.moves},{p.hints},{p.seconds:.3f},{p.cpu:.3f},"
                    f"{p.slowest:.3f},{p.ended},{src}\n"
                )
                out.flush()
        full: list[str] = []
        if args.full_nodes:
            full = list(pool.map(_full, [(args.game, options, d, args.full_nodes) for d in deals]))
    if out:
        out.close()
    won = sum(p.won for p in plays)
    lo, hi = wilson(won, len(plays))
    hint_count = sum(p.hints for p in plays)
    mean = sum(p.seconds for p in plays) / max(hint_count, 1)
    mean_cpu = sum(p.cpu for p in plays) / max(hint_count, 1)
    label = args.game + "".join(f" {k}={v}" for k, v in options.items())
    method = "heuristic (baseline)" if args.samples == 0 else f"sampled {args.samples}"
    if args.samples:
        method += f", {args.nodes} nodes/hint" + ("" if budget.guard else ", no guard")
    ended: dict[str, int] = {}
    for p in plays:
        ended[p.ended] = ended.get(p.ended, 0) + 1
    print(f"{label}, deals {args.deals}, {method}")
    print(
        f"  follower won {won}/{len(plays)} = {100 * won / len(plays):.1f}% "
        f"(95% CI {100 * lo:.1f}-{100 * hi:.1f}%)"
    )
    print(
        f"  hints {hint_count}, mean {1000 * mean:.1f} ms (CPU {1000 * mean_cpu:.1f} ms), "
        f"slowest {1000 * max(p.slowest for p in plays):.0f} ms, "
        f"median moves {statistics.median(p.moves for p in plays):.0f}; ended: "
        + ", ".join(f"{k} {v}" for k, v in sorted(ended.items()))
    )
    if full:
        fw = full.count("won")
        flo, fhi = wilson(fw, len(full))
        print(
            f"  full information ({args.full_nodes} nodes): won {fw}, lost {full.count('lost')}, "
            f"unknown {full.count('unknown')} (won {100 * fw / len(full):.1f}%, "
            f"95% CI {100 * flo:.1f}-{100 * fhi:.1f}%)"
        )
    sys.stdout.flush()


if __name__ == "__main__":
    main()
