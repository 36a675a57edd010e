"""The hint follower: how often a player who always plays the hint wins (no undo).

For one game and option set, deals in a range are played by following every hint
(:mod:`pasyans.hints.follow`) under a node budget per hint, so every figure is
reproducible. Prints, per method, the win count with a Wilson 95% interval, the mean time
per hint (wall and CPU), and how the plays ended; with ``--full-nodes`` also the
full-information win rate of the same deals (the solver, seeing every card: the upper
bound)::

    uv run python benchmarks/follow.py spider -o suits=1 --deals 1-200 --csv /tmp/s1.csv
    uv run python benchmarks/follow.py backbone --deals 1-50 --samples 0      # the baseline
    uv run python benchmarks/follow.py spider -o suits=4 --deals 1-20 --no-guard

(``--deeper K``: the K best moves valued one level deeper, issue 34, the product's on
Spider 1 suit; measured on the other games in docs/hints.md. ``--playout 1000`` is the product's
Backbone classic hint when no sample is won; ``--dives`` splits those searches into
restarting dives, measured and rejected; on Spider ``--playout`` was measured worse, 1
suit. ``--unstick 10`` is the product's Spider 1-suit hint: deal after 10 moves that moved
nothing on, when no sample is won. The variants measured and rejected were removed on
2026-12-06; docs/hints.md, "Removed options", says where to run them.)

``--lines N`` (Backbone, Backbone classic, Nivernais) is the line player of issue 34
(``pasyans.hints.lines``): while a card is hidden, the line to the next card revealed
chosen by successive halving over about N searches of samples a decision (each of
``--player-nodes`` positions, else the budget's nodes a sample); with ``--budget``, on
top of the named budget.

``--player N`` (Spider) is the no-peek player of issue 34 (``pasyans.hints.player``) with
about N playouts a decision, scored by ``--method`` (``rollout``, ``determinized`` or
``epimc``). ``--budget product`` / ``--budget expert`` take the follower's named budget
whole (``hints.policy.player_budget``: the product's hint, or the expert mode's larger
one, ``hints.policy.EXPERT_HINTS``) in place of the other budget options::

    uv run python benchmarks/follow.py spider -o suits=4 --deals 5827301-5827400 --budget product

The deals run on Dask like ``pasyans winnability``: ``--jobs N`` local worker processes
(1, the default: in this process), or ``--scheduler ADDRESS`` for a real cluster.

``--csv`` keeps one row per deal and makes a run resumable: a deal already in the file
(for the same game, options and method) is not played again, so a killed run continues
where it stopped, and the summary covers every row of the file. ``--samples 0`` is the
pre-sampling hint (the ranked heuristic on the visible cards; it stops when that finds
nothing useful). Times are per hint in this process, without HTTP; on a shared machine
the CPU time is the honest one.
"""

from __future__ import annotations

import argparse
import csv
import statistics
import sys
from dataclasses import replace
from pathlib import Path

from pasyans.cli.sweep import wilson
from pasyans.cli.winnability import run_on_dask
from pasyans.engine.core import initial_state
from pasyans.hints import Budget, player
from pasyans.hints.follow import Play, follow
from pasyans.hints.policy import BUDGET_NAMES, player_budget
from pasyans.rules import get_game
from pasyans.solver.search import solve

FIELDS = [
    "game", "method", "deal", "won", "moves", "hints", "seconds", "cpu", "slowest",
    "ended", "sources", "full", "cards",
]  # fmt: skip


def _deals(text: str) -> list[int]:
    lo, _, hi = text.partition("-")
    return list(range(int(lo), int(hi or lo) + 1))


def _options(raw: list[str]) -> dict[str, str]:
    return dict(item.split("=", 1) for item in raw)


Task = tuple[str, dict[str, str], int, Budget, int, int]


def run(task: Task) -> tuple[Play, str]:
    """Follow one deal, then (with a full-information budget) solve it seeing every card."""
    game, options, deal, budget, max_moves, full_nodes = task
    play = follow(game, options, deal, budget, max_moves)
    full = ""
    if full_nodes:
        spec = get_game(game, options)
        full = solve(spec, initial_state(spec, deal), nodes=full_nodes).result
    return play, full


def method_of(budget: Budget, full_nodes: int) -> str:
    if budget.samples == 0:
        text = f"heuristic, {budget.nodes} nodes when all is known"
    else:
        text = f"sampled {budget.samples}, {budget.nodes} nodes/hint"
        text += "" if budget.guard else ", no guard"
        text += f", deeper {budget.deeper}" if budget.deeper else ""
        text += f" x{budget.deeper_samples}" if budget.deeper and budget.deeper_samples else ""
        text += f" cap {budget.deeper_cap}" if budget.deeper and budget.deeper_cap else ""
        text += f", macro {budget.macro} cap {budget.cap}" if budget.macro else ""
        text += f" after {budget.stall} still" if budget.macro and budget.stall else ""
        text += " eager" if budget.macro and budget.eager else ""
        text += f", playout {budget.playout}" if budget.playout else ""
        text += f" in {budget.dives} dives" if budget.playout and budget.dives > 1 else ""
        text += f", unstick {budget.unstick}" if budget.unstick else ""
        text += f", player {budget.method} {budget.player}" if budget.player else ""
        text += f" x {budget.player_nodes} nodes" if budget.player and budget.player_nodes else ""
        text += " when no sample won" if budget.player and budget.rescue else ""
        text += f", exact {budget.exact}" if budget.exact else ""
        text += f", lines {budget.lines} x {budget.line_nodes()} nodes" if budget.lines else ""
        text += f", seed {budget.seed}"
    return text + (f"; full {full_nodes}" if full_nodes else "")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("-o", "--option", action="append", default=[], help="key=value")
    ap.add_argument("--deals", default="1-200", help="a range, e.g. 1-200")
    ap.add_argument("--samples", type=int, default=8, help="0: the pre-sampling heuristic")
    ap.add_argument("--nodes", type=int, default=8000, help="search nodes per hint, all samples")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--no-guard", action="store_true", help="no strategy-fusion guard")
    ap.add_argument(
        "--deeper",
        type=int,
        default=0,
        help="the K best moves valued one level deeper (also on a named budget)",
    )
    ap.add_argument(
        "--deeper-samples", type=int, default=0, help="--deeper: samples of each inner tally"
    )
    ap.add_argument(
        "--deeper-cap", type=int, default=0, help="--deeper: most cards a reveal is valued over"
    )
    ap.add_argument("--macro", type=int, default=0, help="Spider: value N event lines (0: off)")
    ap.add_argument(
        "--stall", type=int, default=0, help="macro only after N moves without progress"
    )
    ap.add_argument("--eager", action="store_true", help="macro: the deal competes on samples")
    ap.add_argument("--cap", type=int, default=400, help="macro: positions walked")
    ap.add_argument(
        "--playout", type=int, default=0, help="no sample won: score moves by N-node searches"
    )
    ap.add_argument("--dives", type=int, default=1, help="playout: N restarting dives")
    ap.add_argument(
        "--unstick", type=int, default=0, help="Spider: deal after N moves that moved nothing on"
    )
    ap.add_argument(
        "--player", type=int, default=0, help="Spider: the no-peek player, N playouts a decision"
    )
    ap.add_argument("--rescue", action="store_true", help="the player only where no sample is won")
    ap.add_argument(
        "--player-nodes", type=int, default=0, help="the player's nodes a search (a), (c)"
    )
    ap.add_argument("--method", default="rollout", choices=player.METHODS)
    ap.add_argument(
        "--lines",
        type=int,
        default=0,
        help="packed games: the line player, N searches a decision (also on a named budget)",
    )
    ap.add_argument(
        "--budget",
        choices=BUDGET_NAMES,
        default=None,
        help="the follower's named budget, whole (overrides the budget options)",
    )
    ap.add_argument(
        "--exact", type=int, default=0, help="nodes of the exact search, every card known"
    )
    ap.add_argument("--max-moves", type=int, default=600)
    ap.add_argument("--full-nodes", type=int, default=0, help="full-information solve budget")
    ap.add_argument("--jobs", type=int, default=1, help="local Dask workers (1: this process)")
    ap.add_argument("--scheduler", default=None, help="a Dask scheduler's address instead")
    ap.add_argument("--csv", type=Path, default=None, help="one row per deal; resumes")
    args = ap.parse_args()
    options = _options(args.option)
    label = args.game + "".join(f" {k}={v}" for k, v in sorted(options.items()))
    budget = Budget(
        seconds=None,
        nodes=args.nodes,
        samples=args.samples,
        seed=args.seed,
        guard=not args.no_guard,
        deeper=args.deeper,
        deeper_samples=args.deeper_samples,
        deeper_cap=args.deeper_cap,
        macro=args.macro,
        cap=args.cap,
        stall=args.stall,
        eager=args.eager,
        playout=args.playout,
        dives=args.dives,
        unstick=args.unstick,
        player=args.player,
        method=args.method,
        rescue=args.rescue,
        player_nodes=args.player_nodes,
        exact=args.exact,
        lines=args.lines,
    )
    if args.budget:
        budget = replace(player_budget(get_game(args.game, options), args.budget), seed=args.seed)
        if args.deeper:
            budget = replace(budget, deeper=args.deeper)
        if args.lines:
            budget = replace(budget, lines=args.lines, player_nodes=args.player_nodes)
        if args.deeper_samples or args.deeper_cap:
            budget = replace(budget, deeper_samples=args.deeper_samples, deeper_cap=args.deeper_cap)
    method = method_of(budget, args.full_nodes)
    wanted = _deals(args.deals)
    rows: dict[int, dict[str, str]] = {}
    if args.csv is not None and args.csv.exists():
        with args.csv.open() as f:
            for row in csv.DictReader(f):
                if row["game"] == label and row["method"] == method:
                    rows[int(row["deal"])] = row
    todo = [d for d in wanted if d not in rows]
    out = None
    if args.csv is not None:
        fresh = not args.csv.exists() or args.csv.stat().st_size == 0
        out = args.csv.open("a", newline="")
        writer = csv.DictWriter(out, FIELDS)
        if fresh:
            writer.writeheader()
    tasks: list[Task] = [
        (args.game, options, d, budget, args.max_moves, args.full_nodes) for d in todo
    ]
    for p, full in run_on_dask(run, tasks, args.jobs, args.scheduler):
        row = {
            "game": label,
            "method": method,
            "deal": str(p.deal),
            "won": str(int(p.won)),
            "moves": str(p.moves),
            "hints": str(p.hints),
            "seconds": f"{p.seconds:.3f}",
            "cpu": f"{p.cpu:.3f}",
            "slowest": f"{p.slowest:.3f}",
            "ended": p.ended,
            "sources": " ".join(f"{k}:{v}" for k, v in p.sources),
            "full": full,
            "cards": str(p.cards),
        }
        rows[p.deal] = row
        if out is not None:
            writer.writerow(row)
            out.flush()
    if out is not None:
        out.close()
    report(label, method, args.deals, [rows[d] for d in wanted if d in rows], args.full_nodes)


def report(label: str, method: str, deals: str, rows: list[dict[str, str]], full: int) -> None:
    n = len(rows)
    won = sum(int(r["won"]) for r in rows)
    lo, hi = wilson(won, n)
    hint_count = sum(int(r["hints"]) for r in rows)
    mean = sum(float(r["seconds"]) for r in rows) / max(hint_count, 1)
    mean_cpu = sum(float(r["cpu"]) for r in rows) / max(hint_count, 1)
    ended: dict[str, int] = {}
    for r in rows:
        ended[r["ended"]] = ended.get(r["ended"], 0) + 1
    print(f"{label}, deals {deals} ({n} played), {method}")
    if not n:
        return
    print(
        f"  follower won {won}/{n} = {100 * won / n:.1f}% (95% CI {100 * lo:.1f}-{100 * hi:.1f}%)"
    )
    print(
        f"  hints {hint_count}, mean {1000 * mean:.1f} ms (CPU {1000 * mean_cpu:.1f} ms), "
        f"slowest {1000 * max(float(r['slowest']) for r in rows):.0f} ms, "
        f"median moves {statistics.median(int(r['moves']) for r in rows):.0f}; ended: "
        + ", ".join(f"{k} {v}" for k, v in sorted(ended.items()))
    )
    cards = [int(r["cards"]) for r in rows if r.get("cards")]
    if cards:  # rows written before the column was added have none
        print(
            f"  cards on the foundations at the end: mean {statistics.mean(cards):.1f}, "
            f"median {statistics.median(cards):.0f} (of {len(cards)} plays)"
        )
    if full:
        results = [r["full"] for r in rows]
        fw = results.count("won")
        flo, fhi = wilson(fw, n)
        both = sum(int(r["won"]) for r in rows if r["full"] == "won")
        print(
            f"  full information ({full} nodes): won {fw}, lost {results.count('lost')}, "
            f"unknown {results.count('unknown')} (won {100 * fw / n:.1f}%, "
            f"95% CI {100 * flo:.1f}-{100 * fhi:.1f}%); follower/full "
            f"{100 * won / max(fw, 1):.0f}% (follower won {both} of the {fw})"
        )
    sys.stdout.flush()


if __name__ == "__main__":
    main()
