"""Solver benchmark: prints its figures (not a timed test).

    uv run python benchmarks/solver.py                    # everything, as issue 5 asks
    uv run python benchmarks/solver.py --deals 20 --seconds 2 --games spine,backbone
    uv run python benchmarks/solver.py --skip-spine --games spider --deals 20 --nodes 30000
    uv run python benchmarks/solver.py --skip-spine --skip-sweep --spider-rate 10 --engine-rate 10
    uv run python benchmarks/solver.py --skip-spine --skip-sweep --spider-long 40
    uv run python benchmarks/solver.py --skip-spine --skip-sweep --curve nivernais \
        --curve-deals 1-20 --before
    uv run python benchmarks/solver.py --skip-spine --skip-sweep --curve spider:suits=4 \
        --curve-deals 1-100 --per-second 307845 --derive [--compare-weights | --portfolio]
    uv run python benchmarks/solver.py --skip-spine --skip-sweep --table 1-100

Part 1, Spine solvable deals: generation time per deal, solve time and nodes/s (medians).
Part 2 (with --spider-rate N), Spider positions expanded per CPU second, deals 1…N: the
search before the compiled core (Python), the Python reference of today's search and the
compiled core (``ratio`` is compiled against before), one after the other in this process.
Part 2b (with --engine-rate N), the same for Backbone, Backbone classic (its dead-spine test
run on every position, as before, and cached) and Spine: the same search through the engine
and through the compiled core's packed rules; Nivernais through the engine only. Parts 2 and
2b also print ten times the compiled rate: the node budget equal to 10 s of this CPU.
Part 2c (with --spider-long N), whole compiled searches of 4-suit Spider deals 101…100+N at
--long-nodes each (1,000,000): the long-search rate that sets Spider's 10 s budget.
Part 2d (with --curve GAME[:KEY=VALUE]), the decided rate against time: deals
--curve-deals A-B, each solved once per budget of --budgets (0.1, 0.3, 1, 3, 10 s of wall
time, one process); with --before, Nivernais' search as it was before its compiled core
(the Python reference) beside it, deal by deal in the same run; with --nivernais-caps
A,B, Nivernais' portfolio once per starting cap of its final passes (nivernais.CAP), deal
by deal side by side; with --nivernais-main, today's search and main's before the
cell lock and the search going on (nivernais.LOCK_TEST, GO_ON, MEMORY), side by side.
With --derive (Spider, node budgets): one search per deal at the largest budget, the
others read from its count (the search does not depend on the budget); with
--compare-weights, by Spider's old weights (spider.V1) and today's side by side; with
--portfolio, also portfolios of the two: the joint search over one table (solve's default
for 4 suits) and its swap mode, run; equal halves of the budget and alternating doubling
budgets, read from the two counts; and solve's default run at 1 s, as a check.
Part 4 (with --table A-B), every game (Spine random and solvable, Backbone, Backbone
classic, Spider 1/2/4 suits, Nivernais) on deals A-B at the node budget equal to 10 s of
one core, one process: won / lost / unknown and the decided rate (--games to pick).
Part 3, fixed deal sets: deals 1…N of every game and option at a time budget per deal,
one deal per worker process; solved / lost / unknown counts, median and p90 time, and
nodes/s over all the deals.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from pasyans.cli.sweep import Task, decide
from pasyans.domains import nivernais, spider
from pasyans.domains.packed import PackedDomain
from pasyans.engine.core import initial_state
from pasyans.rules import get_game
from pasyans.rules.registry import variants
from pasyans.solvable.generate import solvable_spine
from pasyans.solver.search import Domain, EngineDomain, Result, search, solve

sys.path.insert(0, str(Path(__file__).resolve().parent / "legacy"))
from guided_search import GuidedSpider, guided_search  # out of the package


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def spine_part(count: int, options: dict[str, str]) -> None:
    text = " ".join(f"{k}={v}" for k, v in options.items())
    print(f"== Spine solvable deals 1…{count} ({text}) ==")
    spec = get_game("spine", options)
    gen: list[float] = []
    solve_times: list[float] = []
    rates: list[float] = []
    outcomes: list[Result] = []
    for deal in range(1, count + 1):
        t = time.perf_counter()
        state = solvable_spine(spec, deal)
        gen.append(time.perf_counter() - t)
        r = solve(spec, state, seconds=10)
        outcomes.append(r)
        solve_times.append(r.seconds)
        if r.seconds > 0:
            rates.append(r.nodes / r.seconds)
    print(
        f"generate+verify: median {statistics.median(gen) * 1000:.0f} ms, "
        f"p90 {pct(gen, 0.9) * 1000:.0f} ms, max {max(gen) * 1000:.0f} ms"
    )
    print(
        f"solve:           median {statistics.median(solve_times) * 1000:.0f} ms, "
        f"p90 {pct(solve_times, 0.9) * 1000:.0f} ms, max {max(solve_times) * 1000:.0f} ms"
    )
    results = [r.result for r in outcomes]
    print(f"decided:         {sum(x != 'unknown' for x in results)} of {len(results)}")
    print(f"nodes/s:         median {statistics.median(rates):.0f}")


def spider_rate_part(deals: int, nodes: int, scale: int) -> None:
    """Positions expanded per CPU second (``time.process_time``: the machine is shared, so
    CPU time, not wall time), deals 1…N one after the other in this process: the search
    before the compiled core (the staged attempts that restart, then depth-first, on the
    Python domain), the Python reference of today's search, and the compiled core (given
    ``scale`` times the node budget, so that its run is long enough to time)."""
    print(
        f"== Spider positions per CPU second, deals 1…{deals}: {nodes} nodes each in Python, "
        f"{nodes * scale} compiled =="
    )
    print(f"{'suits':<8}{'before':>10}{'reference':>11}{'compiled':>10}{'ratio':>8}{'10 s':>12}")
    for suits in ("1", "2", "4"):
        spec = get_game("spider", {"suits": suits})
        rates: dict[str, list[float]] = {"before": [], "reference": [], "compiled": []}
        for deal in range(1, deals + 1):
            state = initial_state(spec, deal)
            game = spider.SpiderGame(spec, state)
            t = time.process_time()
            r = guided_search(GuidedSpider(spec, state), time.perf_counter(), None, nodes)
            rates["before"].append(r.nodes / max(time.process_time() - t, 1e-9))
            for name, budget, use in (
                ("reference", nodes, False),
                ("compiled", nodes * scale, True),
            ):
                t = time.process_time()
                f = spider.staged(game, nodes=budget, seconds=None, prune=True, use_compiled=use)
                rates[name].append(f.nodes / max(time.process_time() - t, 1e-9))
        med = {k: statistics.median(v) for k, v in rates.items()}
        print(
            f"{suits:<8}{med['before']:>10.0f}{med['reference']:>11.0f}{med['compiled']:>10.0f}"
            f"{med['compiled'] / med['before']:>8.1f}{10 * med['compiled']:>12,.0f}",
            flush=True,
        )


def engine_rate_part(deals: int, nodes: int) -> None:
    """Positions expanded per CPU second by the same search (the same positions in the
    same order) through the engine's ``legal_moves``/``apply`` and through the compiled
    core's packed rules (``domains/packed.py``), deals 1…N, one after the other. Backbone
    classic twice: its dead-spine test run on every position unpacked (as before) and
    cached on what it reads (``engine_lock``). Nivernais: the engine's depth-first search,
    then its own best-first search (``domains/nivernais.py``, first score, capped final
    passes) in Python and in C (``csrc/nivernais.c``, 20 times the nodes), and again without
    its cell lock (``nivernais.LOCK_TEST``: main's search before 2026-12-04). ``loop in
    Python`` is the packed rules with the search's loop in
    Python (before the restarting search was compiled, ``engine_restarts``); ``compiled``
    runs the loop in C too (Backbone and Backbone classic, whose dead-spine test is then
    compiled too; Spine's plain depth-first loop is still Python). ``10 s`` is the node
    budget equal to 10 s of this CPU (the compiled rate, else the engine's, times 10)."""
    print(
        f"== Positions per CPU second, deals 1…{deals}, {nodes} nodes each: engine vs compiled =="
    )
    print(
        f"{'game':<34}{'engine':>10}{'loop in Python':>16}{'compiled':>10}{'ratio':>8}"
        f"{'vs loop':>9}{'10 s':>12}"
    )
    rows: tuple[tuple[str, str, bool | None], ...] = (
        ("backbone", "backbone", True),
        ("backbone-classic (dead test uncached)", "backbone-classic", False),
        ("backbone-classic", "backbone-classic", True),
        ("spine", "spine", True),
        ("nivernais", "nivernais", None),
        ("nivernais, no cell lock (main)", "nivernais", None),
    )
    lock_was = nivernais.LOCK_TEST
    for label, game, lock_cache in rows:
        nivernais.LOCK_TEST = lock_was and "no cell lock" not in label
        spec = get_game(game)
        times = {"engine": 0.0, "loop": 0.0, "compiled": 0.0}
        counts = {"engine": 0, "loop": 0, "compiled": 0}
        for deal in range(1, deals + 1):
            state = solvable_spine(spec, deal) if game == "spine" else initial_state(spec, deal)
            domains: list[tuple[str, Domain[Any]]] = [("engine", EngineDomain(spec, state))]
            if lock_cache is not None:
                loop = PackedDomain(spec, state, lock_cache=lock_cache, compiled_search=False)
                domains.append(("loop", loop))
                domains.append(("compiled", PackedDomain(spec, state, lock_cache=lock_cache)))
            for name, d in domains:
                t = time.process_time()
                r = search(d, time.perf_counter(), None, nodes)
                times[name] += time.process_time() - t
                counts[name] += r.nodes
            if game == "nivernais":
                root = nivernais.pack(spec, state)
                for name, use in (("loop", False), ("compiled", True)):
                    budget = nodes * (20 if use else 1)
                    t = time.process_time()
                    cap = nivernais.CAP
                    n = nivernais.best_first(root, budget, None, cap=cap, use_compiled=use)
                    times[name] += time.process_time() - t
                    counts[name] += n[2]
        rate = {k: counts[k] / max(times[k], 1e-9) for k in times}
        packed = lock_cache is not None or game == "nivernais"
        best = rate["compiled"] if packed else rate["engine"]
        loop = f"{rate['loop']:.0f}" if packed else "-"
        compiled = f"{rate['compiled']:.0f}" if packed else "-"
        ratio = f"{rate['compiled'] / rate['engine']:.1f}" if packed else "-"
        vs_loop = f"{rate['compiled'] / rate['loop']:.1f}" if packed else "-"
        print(
            f"{label:<34}{rate['engine']:>10.0f}{loop:>16}{compiled:>10}{ratio:>8}{vs_loop:>9}"
            f"{10 * best:>12,.0f}",
            flush=True,
        )
    nivernais.LOCK_TEST = lock_was


def sweep_part(
    games: set[str] | None,
    deals: int,
    seconds: float,
    jobs: int,
    nodes: int | None = None,
    first: int = 1,
    only: dict[str, str] | None = None,
) -> None:
    only = only or {}
    budget = f"{nodes} nodes" if nodes is not None else f"{seconds:g} s"
    last = first + deals - 1
    print(f"== Deals {first}…{last} of every game and option, {budget} per deal, {jobs} jobs ==")
    print(
        f"{'game':<18}{'options':<34}{'won':>5}{'lost':>6}{'unk':>5}{'median s':>10}"
        f"{'p90 s':>8}{'max s':>8}{'nodes/s':>10}"
    )
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for game, options in variants():
            if games is not None and game not in games:
                continue
            if any(options.get(k) != v for k, v in only.items()):
                continue
            opts = tuple(sorted(options.items()))
            limit = None if nodes is not None else seconds
            tasks = [Task(game, opts, d, "random", limit, nodes) for d in range(first, last + 1)]
            rows = list(pool.map(decide, tasks, chunksize=1))
            counts = {k: sum(r["result"] == k for r in rows) for k in ("won", "lost", "unknown")}
            times = [float(r["seconds"]) for r in rows]
            # Rows keep milliseconds: below a tenth of a second in all, no rate is shown.
            total = sum(times)
            rate = f"{sum(int(r['nodes']) for r in rows) / total:.0f}" if total >= 0.1 else "-"
            text = " ".join(f"{k}={v}" for k, v in options.items()) or "-"
            print(
                f"{game:<18}{text:<34}{counts['won']:>5}{counts['lost']:>6}{counts['unknown']:>5}"
                f"{statistics.median(times):>10.3f}{pct(times, 0.9):>8.3f}{max(times):>8.3f}"
                f"{rate:>10}",
                flush=True,
            )


def spider_long_part(deals: int, nodes: int) -> None:
    """Positions per CPU second of whole compiled searches (``solve``, as ``pasyans
    winnability`` runs them) of 4-suit Spider deals 101…100+N at ``nodes`` each: long
    searches, whose table outgrows the caches, so slower than part 2's; ten times it is
    the node budget equal to 10 s of one core for Spider."""
    spec = get_game("spider", {"suits": "4"})
    count, cpu, won = 0, 0.0, 0
    for deal in range(101, 101 + deals):
        t = time.process_time()
        r = solve(spec, initial_state(spec, deal), nodes=nodes)
        cpu += time.process_time() - t
        count += r.nodes
        won += r.result == "won"
    print(
        f"== Spider 4 suits, whole searches of deals 101…{100 + deals} at {nodes} nodes: "
        f"{count:,} positions in {cpu:.1f} s of CPU ({won} won): {count / max(cpu, 1e-9):,.0f} "
        f"per CPU second; 10 s: {10 * count / max(cpu, 1e-9):,.0f} ==",
        flush=True,
    )


def curve_part(
    target: str,
    deals: str,
    budgets: list[float],
    before: bool,
    rates: list[float],
    derive: bool = False,
    each: bool = False,
    compare: bool = False,
    portfolio: bool = False,
    caps: list[int] | None = None,
    main: bool = False,
) -> None:
    """Won / lost / unknown of deals ``A-B`` at each budget (wall seconds, ``solve`` as
    ``pasyans solve`` runs it), after (today's search) and, with ``before``, Nivernais'
    Python search beside it: both run on each deal and budget one after the other.
    With ``rates`` (positions per CPU second, after[, before]) each budget is the node
    budget equal to that many seconds of one core instead: reproducible, and the same
    on a loaded machine. With ``derive`` (node budgets, Spider only) each deal is searched
    once, at the largest budget, and a smaller budget's answer is read from the count:
    Spider's search (``spider.solve``) is the same at every node budget, the budget only
    stops it, so it decides within budget ``b`` exactly when it decides within ``b``
    positions at the largest. With ``caps`` (Nivernais), the portfolio once per starting
    cap of its final passes (``nivernais.CAP``), side by side on each deal. With ``main``
    (Nivernais), today's portfolio and main's before the cell lock (``nivernais.LOCK_TEST``),
    the search going on once it knows every final pass (``nivernais.GO_ON``) and the memory
    bound of 1.5 GB (``nivernais.MEMORY``, 1 GB before), side by side on each deal."""
    if derive:
        _derived_curve(target, deals, budgets, rates, compare, portfolio)
        return
    game, _, opt = target.partition(":")
    options = dict([opt.split("=", 1)]) if opt else {}
    spec = get_game(game, options)
    first, last = (int(x) for x in deals.split("-"))
    kinds = ("before", "after") if before else ("after",)
    if caps:
        kinds = tuple(f"cap {c}" for c in caps)
    if main:
        kinds = ("today", "main")
    unit = f"node budgets at {rates} positions/s" if rates else "wall s"
    print(f"== {target}, deals {first}…{last}: won/lost/unknown against time ({unit}) ==")
    head = "".join(f"{k + ' w/l/u':>16}{'decided':>9}{'med cpu s':>10}" for k in kinds)
    print(f"{'budget':>8}{head}")
    was = (nivernais.CAP, nivernais.LOCK_TEST, nivernais.GO_ON, nivernais.MEMORY)
    for budget in budgets:
        rows: dict[str, list[tuple[str, float]]] = {k: [] for k in kinds}
        for deal in range(first, last + 1):
            state = initial_state(spec, deal)
            for k in kinds:
                nivernais.USE_COMPILED = k != "before"
                if caps:
                    nivernais.CAP = int(k.split()[1])
                if main:
                    nivernais.LOCK_TEST = nivernais.GO_ON = k == "today"
                    nivernais.MEMORY = was[3] if k == "today" else 1 << 30
                t = time.process_time()
                if rates:
                    rate = rates[-1] if k == "before" else rates[0]
                    r = solve(spec, state, nodes=round(budget * rate))
                else:
                    r = solve(spec, state, seconds=budget)
                rows[k].append((r.result, time.process_time() - t))
                if each:
                    print(
                        f"  {k} deal {deal} at {budget:g}: {r.result}, {r.nodes:,} positions",
                        flush=True,
                    )
        nivernais.USE_COMPILED = True
        nivernais.CAP, nivernais.LOCK_TEST, nivernais.GO_ON, nivernais.MEMORY = was
        line = f"{budget:>8g}"
        for k in kinds:
            res = [x for x, _ in rows[k]]
            w, lo, u = (res.count(x) for x in ("won", "lost", "unknown"))
            med = statistics.median(c for _, c in rows[k])
            line += f"{f'{w}/{lo}/{u}':>16}{(w + lo) / len(res):>9.0%}{med:>10.2f}"
        print(line, flush=True)


def _derived_curve(
    target: str,
    deals: str,
    budgets: list[float],
    rates: list[float],
    compare: bool = False,
    portfolio: bool = False,
) -> None:
    """:func:`curve_part` with ``derive``: one search per deal at the largest budget. With
    ``compare``, by Spider's first weights (``spider.V1``, "old") and by today's
    (``spider.WEIGHTS``, "new") one after the other on each deal. With ``portfolio``
    (implies ``compare``) also: "joint" and "swap", the staged search over one table by
    both weights (``SpiderGame(..., other=spider.V1[, swap=True])``), each run at the
    largest budget; "halves" (half the budget by "new", then the rest by "old", fresh
    searches) and "doubling" (fresh searches alternating "new" and "old" with budgets
    ``DOUBLING_UNIT`` × 1, 1, 2, 2, 4, 4, …), read from the two counts at each budget; and,
    as a check of those readings, ``solve``'s default run on every deal at the 1 s budget."""
    game, _, opt = target.partition(":")
    if game != "spider" or not rates:
        raise SystemExit("--derive needs --per-second and a Spider curve (a budget-blind search)")
    spec = get_game(game, dict([opt.split("=", 1)]) if opt else {})
    first, last = (int(x) for x in deals.split("-"))
    top = round(max(budgets) * rates[0])
    compare = compare or portfolio
    if portfolio and 1.0 not in budgets:
        raise SystemExit("--portfolio runs solve's default at 1 s: --budgets must hold 1")
    kinds: dict[str, spider.Weights | None] = (
        {"old": spider.V1, "new": spider.WEIGHTS} if compare else {"": None}
    )
    found: dict[str, list[tuple[str, int, float]]] = {k: [] for k in kinds}
    if portfolio:
        found["joint"] = []
        found["swap"] = []
    real: list[tuple[str, int, float]] = []
    one = round(rates[0])  # 1 s
    for deal in range(first, last + 1):
        for k, weights in kinds.items():
            t = time.process_time()
            r = solve(spec, initial_state(spec, deal), nodes=top, spider_weights=weights)
            found[k].append((r.result, r.nodes, time.process_time() - t))
        if portfolio:
            state = initial_state(spec, deal)
            for k, swap in (("joint", False), ("swap", True)):
                game = spider.SpiderGame(spec, state, spider.WEIGHTS, spider.V1, swap=swap)
                t = time.process_time()
                x, _, n, _ = spider.solve(game, seconds=None, nodes=top)
                found[k].append((x, n, time.process_time() - t))
            t = time.process_time()
            r = solve(spec, state, nodes=one)  # the default
            if r.nodes > one:
                raise SystemExit(f"deal {deal}: solve spent {r.nodes} > {one} positions")
            real.append((r.result, r.nodes, time.process_time() - t))
    pairs = list(zip(found["new"], found["old"], strict=True)) if compare else []
    if portfolio:
        found["halves"] = []  # read per budget below
        found["doubling"] = []
    readings: dict[str, list[str]] = {}
    print(
        f"== {target}, deals {first}…{last}: won/lost/unknown against time (node budgets at "
        f"{rates[0]:,.0f} positions/s, one search per deal at {top:,} nodes) =="
    )
    if compare:
        print(f"   old: weights {tuple(spider.V1)}; new: weights {tuple(spider.WEIGHTS)}")
    print(
        f"{'budget':>8}{'nodes':>12}"
        + "".join(f"{(k + ' ').lstrip() + 'w/l/u':>16}{'decided':>9}{'won':>7}" for k in found)
    )
    for budget in sorted(budgets):
        cap = round(budget * rates[0])
        line = f"{budget:>8g}{cap:>12,}"
        for k in found:
            if k == "halves":
                res = [_halves(a, b, cap) for a, b in pairs]
            elif k == "doubling":
                res = [_doubling(a, b, cap) for a, b in pairs]
            else:
                res = [x if n <= cap else "unknown" for x, n, _ in found[k]]
            w, lo, u = (res.count(x) for x in ("won", "lost", "unknown"))
            line += f"{f'{w}/{lo}/{u}':>16}{(w + lo) / len(res):>9.0%}{w / len(res):>7.0%}"
            if cap == one:
                readings[k] = res
        print(line)
    if portfolio:
        ran = [x for x, _, _ in real]
        differ = {
            k: [first + i for i, (a, b) in enumerate(zip(readings[k], ran, strict=True)) if a != b]
            for k in ("halves", "joint", "swap")
        }
        print(
            f"solve's default run at 1 s ({one:,} nodes): {ran.count('won')} won, "
            f"{ran.count('lost')} lost; most positions {max(n for _, n, _ in real):,}; "
            f"median CPU {statistics.median(c for _, _, c in real):.2f} s; differs from the "
            f"halves read on: {differ['halves'] or '-'}; from joint on: {differ['joint'] or '-'}"
            f"; from swap on: {differ['swap'] or '-'}"
        )
        lost_at_one = [first + i for i, x in enumerate(ran) if x != "won"]
        print(f"solve's default: not won at 1 s: {lost_at_one or '-'}")
    for k in [*kinds, *(["joint", "swap"] if portfolio else [])]:  # the deals decided past 1 s
        late = [
            f"{first + i} ({n:,})"
            for i, (x, n, _) in enumerate(found[k])
            if x != "unknown" and n > one
        ]
        print(f"{k + ': ' if k else ''}decided past 1 s (positions): {', '.join(late) or '-'}")
        unknown = [first + i for i, (x, _, _) in enumerate(found[k]) if x == "unknown"]
        cpu = statistics.median(c for _, _, c in found[k])
        total = sum(c for _, _, c in found[k])
        rate = sum(n for _, n, _ in found[k]) / max(total, 1e-9)
        in_cpu = [sum(x == "won" and c <= b for x, _, c in found[k]) for b in (1.0, 10.0)]
        print(
            f"{k + ': ' if k else ''}unknown at the largest budget: {unknown or '-'}; "
            f"median CPU {cpu:.2f} s; {rate:,.0f} positions per CPU second over all; "
            f"won within 1 / 10 s of CPU (its own clock, process time): {in_cpu[0]} / {in_cpu[1]}"
        )


DOUBLING_UNIT = 1000
"""The first budget of the "doubling" schedule (``_doubling``): the staged search's third
attempt (``spider.attempt(2)``)."""


def _halves(new: tuple[str, int, float], old: tuple[str, int, float], cap: int) -> str:
    """Equal halves' answer at ``cap`` positions read from each search's answer and
    count at a larger budget: "new" with half, then "old" with the rest (a search cut
    short spends its whole share)."""
    half = cap // 2
    if new[0] != "unknown" and new[1] <= half:
        return new[0]
    if old[0] != "unknown" and old[1] <= cap - half:
        return old[0]
    return "unknown"


def _doubling(new: tuple[str, int, float], old: tuple[str, int, float], cap: int) -> str:
    """Fresh searches alternating "new" and "old", budgets ``DOUBLING_UNIT`` × 1, 1, 2, 2,
    4, 4, …, until ``cap`` positions are spent: the answer read from the two counts."""
    spent, size = 0, DOUBLING_UNIT
    while spent < cap:
        for x, n, _ in (new, old):
            share = min(size, cap - spent)
            if x != "unknown" and n <= share:
                return x
            spent += share
            if spent >= cap:
                return "unknown"
        size *= 2
    return "unknown"


TABLE = (
    ("spine", "random", (), None),
    ("spine", "solvable", (), None),
    ("backbone", "random", (), 8_000_000),
    ("backbone-classic", "random", (), 7_700_000),
    ("spider", "random", (("suits", "1"),), 3_500_000),
    ("spider", "random", (("suits", "2"),), 3_500_000),
    ("spider", "random", (("suits", "4"),), 3_500_000),
    ("nivernais", "random", (), 6_500_000),
)
"""Part 4's rows: game, deal kind, options (Spine: its defaults) and the node budget equal
to 10 s of one core (docs/solver.md, "Budgets"; Spine: every deal decides within a few
hundred positions, so the row runs at Backbone's)."""


def table_part(deals: str, games: set[str] | None) -> None:
    """Won / lost / unknown of deals ``A-B`` of every game at the node budget equal to 10 s
    of one core, one process (the issue's "every game >= 95% decided at 10 s")."""
    first, last = (int(x) for x in deals.split("-"))
    print(f"== Deals {first}…{last}, node budget equal to 10 s of one core ==")
    print(
        f"{'game':<18}{'kind':<10}{'options':<10}{'nodes':>11}{'won':>5}{'lost':>6}{'unk':>5}"
        f"{'decided':>9}{'med cpu s':>10}{'max nodes':>12}"
    )
    for game, kind, options, budget in TABLE:
        if games is not None and game not in games:
            continue
        nodes = budget or 8_000_000
        rows: list[tuple[str, int, float]] = []
        for deal in range(first, last + 1):
            t = time.process_time()
            r = decide(Task(game, options, deal, kind, None, nodes))
            rows.append((str(r["result"]), int(r["nodes"]), time.process_time() - t))
        res = [x for x, _, _ in rows]
        w, lo, u = (res.count(x) for x in ("won", "lost", "unknown"))
        text = " ".join(f"{k}={v}" for k, v in options) or "-"
        print(
            f"{game:<18}{kind:<10}{text:<10}{nodes:>11,}{w:>5}{lo:>6}{u:>5}"
            f"{(w + lo) / len(rows):>9.0%}{statistics.median(c for _, _, c in rows):>10.2f}"
            f"{max(n for _, n, _ in rows):>12,}",
            flush=True,
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--first", type=int, default=1, help="first deal number of the sweep")
    ap.add_argument("--option", action="append", default=[], help="only option sets with KEY=VALUE")
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--nodes", type=int, default=None, help="node budget (reproducible)")
    ap.add_argument("--spine-deals", type=int, default=50)
    ap.add_argument("--games", default="", help="comma-separated game ids (default: all)")
    ap.add_argument("--skip-spine", action="store_true")
    ap.add_argument("--spine-all", action="store_true", help="every Spine option, not the default")
    ap.add_argument("--skip-sweep", action="store_true")
    ap.add_argument("--spider-rate", type=int, default=0, help="Spider nodes/s, deals 1…N")
    ap.add_argument("--engine-rate", type=int, default=0, help="foundation games, deals 1…N")
    ap.add_argument(
        "--spider-long", type=int, default=0, help="Spider 4 suits, whole searches, deals 101…"
    )
    ap.add_argument("--long-nodes", type=int, default=1_000_000)
    ap.add_argument("--rate-nodes", type=int, default=5000)
    ap.add_argument("--rate-scale", type=int, default=20, help="compiled budget: this × Python's")
    ap.add_argument("--curve", default="", help="GAME[:KEY=VALUE]: decided rate against time")
    ap.add_argument("--curve-deals", default="1-20", help="A-B")
    ap.add_argument("--budgets", default="0.1,0.3,1,3,10", help="seconds, comma-separated")
    ap.add_argument("--before", action="store_true", help="Nivernais' Python search beside")
    ap.add_argument(
        "--per-second", default="", help="AFTER[,BEFORE] positions/s: node budgets, not time"
    )
    ap.add_argument("--derive", action="store_true", help="Spider curve: one search per deal")
    ap.add_argument(
        "--compare-weights", action="store_true", help="--derive: Spider's old and new weights"
    )
    ap.add_argument(
        "--portfolio",
        action="store_true",
        help="--derive: Spider's portfolios of the two weights beside the single searches",
    )
    ap.add_argument("--each", action="store_true", help="curve: print every deal's answer")
    ap.add_argument(
        "--nivernais-caps", default="", help="A,B: Nivernais' curve by each final-pass cap beside"
    )
    ap.add_argument(
        "--nivernais-main",
        action="store_true",
        help="Nivernais' curve today and as on main beside",
    )
    ap.add_argument("--table", default="", help="A-B: every game at 10 s of one core (part 4)")
    a = ap.parse_args()
    if not a.skip_spine:
        for game, options in variants():
            if game == "spine" and (a.spine_all or options == variants()[0][1]):
                spine_part(a.spine_deals, options)
    if a.spider_rate:
        spider_rate_part(a.spider_rate, a.rate_nodes, a.rate_scale)
    if a.engine_rate:
        engine_rate_part(a.engine_rate, a.rate_nodes)
    if a.spider_long:
        spider_long_part(a.spider_long, a.long_nodes)
    if a.curve:
        budgets = [float(x) for x in a.budgets.split(",")]
        rates = [float(x) for x in a.per_second.split(",")] if a.per_second else []
        curve_part(
            a.curve,
            a.curve_deals,
            budgets,
            a.before,
            rates,
            a.derive,
            a.each,
            a.compare_weights,
            a.portfolio,
            [int(x) for x in a.nivernais_caps.split(",")] if a.nivernais_caps else None,
            a.nivernais_main,
        )
    if a.table:
        table_part(a.table, set(a.games.split(",")) if a.games else None)
    if not a.skip_sweep:
        games = set(a.games.split(",")) if a.games else None
        only = dict(o.split("=", 1) for o in a.option)
        sweep_part(games, a.deals, a.seconds, a.jobs, a.nodes, a.first, only)


if __name__ == "__main__":
    main()
