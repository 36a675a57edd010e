"""The no-peek player's hint latency (issue 34's target: p95 at most 1 s a hint).

For each budget, deals in a range are followed (every hint played, no undo, as
``benchmarks/follow.py``) for at most ``--steps`` moves, with the memories cleared before
each deal; every hint is timed (wall and CPU, in this process, without HTTP). A hint that
follows the chosen line to its event costs no new decision, as in the product. Prints
p50, p95 and max per budget side by side::

    uv run python benchmarks/player.py spider -o suits=4 --deals 5827301-5827310 \
        --players 0,1024,4096

``--policy``: instead, the playout policy alone (:func:`pasyans.hints.player.play`, seeing
only face-up cards, no search) from each deal's start, seeded by the deal number: its
wins, mean score and median CPU a playout::

    uv run python benchmarks/player.py spider -o suits=2 --deals 1-200 --policy

``--decide``: the CPU of one decision (:func:`pasyans.hints.player.decide`, no cache) at
each budget of ``--players``, by ``--method`` (``--nodes``: each search of methods (a)
and (c)), at every ``--every``-th position along each deal followed by today's hint (the
x axis of the win rate against CPU a decision)::

    uv run python benchmarks/player.py spider -o suits=4 --deals 1-5 --steps 100 \
        --decide --players 1024,4096,16384
"""

from __future__ import annotations

import argparse
import statistics
import time
from dataclasses import replace

from pasyans import caches
from pasyans.domains import spider
from pasyans.domains.spider import SpiderGame
from pasyans.engine import core
from pasyans.hints import player, suggest
from pasyans.hints.policy import product_budget
from pasyans.hints.sampling import known
from pasyans.position import State
from pasyans.rules import get_game
from pasyans.rules.spec import GameSpec


def percentile(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))] if s else 0.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("-o", "--option", action="append", default=[], help="key=value")
    ap.add_argument("--deals", default="5827301-5827310")
    ap.add_argument("--steps", type=int, default=200, help="moves followed per deal")
    ap.add_argument("--players", default="0,1024", help="playouts a decision (0: today's hint)")
    ap.add_argument("--rescue", action="store_true", help="the player only where no sample won")
    ap.add_argument("--policy", action="store_true", help="the playout policy alone")
    ap.add_argument("--decide", action="store_true", help="the CPU of one decision")
    ap.add_argument("--caps", default="0", help="--policy: caps, 0 the greedy policy")
    ap.add_argument("--bonus", type=int, default=player.SEARCH_BONUS, help="an event's bonus")
    ap.add_argument("--method", default="rollout", choices=player.METHODS)
    ap.add_argument("--nodes", type=int, default=1000, help="--decide: nodes a search")
    ap.add_argument("--every", type=int, default=10, help="--decide: every N-th position")
    args = ap.parse_args()
    options = dict(item.split("=", 1) for item in args.option)
    spec = get_game(args.game, options)
    lo, _, hi = args.deals.partition("-")
    deals = range(int(lo), int(hi or lo) + 1)
    if args.policy:
        policy_alone(spec, deals, args)
        return
    if args.decide:
        decision_cpu(spec, deals, args)
        return
    print(f"{args.game} {options}, deals {args.deals}, at most {args.steps} moves each")
    for n in (int(x) for x in args.players.split(",")):
        budget = replace(
            product_budget(spec, None), player=n, rescue=args.rescue, method=args.method
        )
        wall: list[float] = []
        cpu: list[float] = []
        for deal in deals:
            caches.clear()
            state = core.initial_state(spec, deal)
            history: list[State] = []
            for _ in range(args.steps):
                if core.is_won(spec, state):
                    break
                t0, c0 = time.perf_counter(), time.process_time()
                hint = suggest(spec, state, history=history, budget=budget)
                wall.append(time.perf_counter() - t0)
                cpu.append(time.process_time() - c0)
                if hint.move is None:
                    break
                history.append(state)
                state = core.apply(spec, state, hint.move)
        print(
            f"  player {n:>5}{' (rescue)' if args.rescue and n else ''} {args.method}: "
            f"{len(wall)} hints; "
            f"wall p50 {1000 * percentile(wall, 0.5):.0f} ms, "
            f"p95 {1000 * percentile(wall, 0.95):.0f} ms, max {1000 * max(wall):.0f} ms; "
            f"CPU p50 {1000 * percentile(cpu, 0.5):.0f} ms, "
            f"p95 {1000 * percentile(cpu, 0.95):.0f} ms",
            flush=True,
        )


def policy_alone(spec: GameSpec, deals: range, args: argparse.Namespace) -> None:
    """Print the playout policy's wins alone from each deal's start, one row a cap of
    ``args.caps`` (0: the greedy policy; else the searching policy), side by side."""
    print(f"{args.game} {args.option}, deals {args.deals}: the policy alone")
    for cap in (int(x) for x in args.caps.split(",")):
        scores = []
        cpu = []
        for deal in deals:
            g = SpiderGame(spec, core.initial_state(spec, deal))
            c0 = time.process_time()
            scores.append(player.play(g.stock, g.root, deal, spider.WON, cap=cap, bonus=args.bonus))
            cpu.append(time.process_time() - c0)
        won = sum(s == player.WIN for s in scores)
        rest = [s for s in scores if s != player.WIN] or [0]
        name = "greedy" if not cap else f"search cap {cap} bonus {args.bonus}"
        print(
            f"  {name:>24}: won {won}/{len(scores)}; mean score of the others "
            f"{statistics.mean(rest):.1f}; CPU a playout median "
            f"{1e6 * statistics.median(cpu):.0f} us, mean {1e6 * statistics.mean(cpu):.0f} us",
            flush=True,
        )


def decision_cpu(spec: GameSpec, deals: range, args: argparse.Namespace) -> None:
    """Print the CPU of one decision (p50, p95) per budget of ``args.players``."""
    budgets = [int(x) for x in args.players.split(",")]
    views: list[State] = []
    for deal in deals:
        caches.clear()
        state = core.initial_state(spec, deal)
        history: list[State] = []
        for step in range(args.steps):
            if core.is_won(spec, state):
                break
            if step % args.every == 0:
                views.append(known(spec, state))
            hint = suggest(spec, state, history=history, budget=product_budget(spec, None))
            if hint.move is None:
                break
            history.append(state)
            state = core.apply(spec, state, hint.move)
    print(f"{args.game} {len(views)} positions of deals {args.deals}, method {args.method}")
    for n in budgets:
        cpu: list[float] = []
        for view in views:
            c0 = time.process_time()
            player.decide(spec, view, playouts=n, method=args.method, nodes=args.nodes)
            cpu.append(time.process_time() - c0)
        print(
            f"  {n:>6} playouts: CPU a decision p50 {1000 * percentile(cpu, 0.5):.0f} ms, "
            f"p95 {1000 * percentile(cpu, 0.95):.0f} ms, mean {1000 * statistics.mean(cpu):.0f} ms",
            flush=True,
        )


if __name__ == "__main__":
    main()
