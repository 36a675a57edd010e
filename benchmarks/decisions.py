"""Decisions at the critical positions: how often a hint budget plays a move after which a
deal winnable with every card known is no longer found won, against its CPU a decision.

A followed game asks hundreds of hints, and most of them cannot spoil it: every legal
move keeps the deal winnable. The game is decided at the few positions where some moves
keep it winnable and others do not. This benchmark finds those positions along the
product hint's own games (every ``--every``-th position where a card is still hidden,
the true position won by the full-information solver within ``--truth`` nodes, and at
least one legal move after which the solver, within the same nodes, finds no win while
another move keeps a win), then asks each budget for its hint there (the caches cleared,
the game's history given) and counts the moves that leave the deal not found won: the
**fatal share**. The solver peeks at every card to judge; the hints never do. A move
the solver does not find won within ``--truth`` nodes counts as fatal: a budget too
small to win the true position calls some good moves fatal, the same for every hint
budget measured. Each position is one paired trial, so two budgets (or two methods) are
compared on the same positions: a sign test on the positions where one is fatal and the
other is not. Many more decisions a CPU-hour than whole followed games, so large
budgets (seconds a decision) can be measured on this machine::

    uv run python benchmarks/decisions.py spider -o suits=2 --deals 1-20 --every 8 \
        --budgets x1,x4,x16,x64 --truth 300000 --csv /tmp/s2-decisions.csv

``xK`` (K a power of 4) is the product's budget with ``log4 K`` doublings of its samples
(and of the no-peek player's playouts and Backbone classic's playout searches) and K
times its nodes, the steps of the budget curve in docs/winnability.md; ``product`` and
``expert`` are the follower's named budgets; ``+FIELD=VALUE`` changes one field of the
budget (``x1+deeper=3``), so a variant of the hint is judged on the same positions.
A move not found won within ``--truth`` nodes may still win: the judge's budget can be
short of a hard win (a followed game sometimes reaches a position found won after a
move so judged). So every move a budget *chose* that the first judgement calls unsafe is
judged again with ``--recheck`` nodes (10 times ``--truth`` by default), and it is fatal
only if no win is found then either; the summary says how many of the fatal moves the
judge proved lost. ``--csv F`` keeps the decisions (one row each), ``F.positions.csv``
the critical positions found (one row each, and a row with index -1 for every deal
classified) and ``F.rechecks.csv`` the second judgements, so a killed run resumes where
it stopped, and a run of older decisions with a larger ``--recheck`` judges them again.
The deals run on Dask like ``benchmarks/follow.py``
(``--jobs``, ``--scheduler``).
"""

from __future__ import annotations

import argparse
import csv
import math
import statistics
import time
from dataclasses import dataclass, fields, replace
from pathlib import Path

from paired import sign_test

from pasyans import caches
from pasyans.cli.sweep import wilson
from pasyans.cli.winnability import run_on_dask
from pasyans.engine import core
from pasyans.engine.moves import Move
from pasyans.hints import Budget, hidden_to_player, suggest
from pasyans.hints.follow import follow
from pasyans.hints.policy import BUDGET_NAMES, player_budget
from pasyans.position import State
from pasyans.rules import get_game
from pasyans.rules.spec import GameSpec
from pasyans.solver.search import solve

POSITION_FIELDS = ["deal", "index", "legal", "safe"]
DECISION_FIELDS = ["deal", "index", "budget", "move", "safe", "cpu"]
RECHECK_FIELDS = ["deal", "index", "move", "nodes", "result"]


def scaled(base: Budget, name: str) -> Budget:
    """``xK``: ``base`` with ``log4 K`` doublings of its samples, playouts and playout
    searches and K times its nodes (``x1`` is ``base``)."""
    k = int(name[1:]) if name[1:].isdigit() else 0
    steps = round(math.log(k, 4)) if k > 0 else 0
    if k < 1 or 4**steps != k:
        raise SystemExit(f"{name}: K must be a power of 4")
    twice = 2**steps
    return replace(
        base,
        samples=base.samples * twice,
        nodes=None if base.nodes is None else base.nodes * k,
        player=base.player * twice,
        playout=base.playout * twice,
    )


def budget_of(spec: GameSpec, name: str) -> Budget:
    """``product``, ``expert`` or ``xK``, then any ``+FIELD=VALUE`` of :class:`Budget`
    (``x1+deeper=3``: the product's budget with the deeper look), so that a variant is
    measured on the same positions as the budget it changes."""
    head, *changes = name.split("+")
    if head in BUDGET_NAMES:
        budget = player_budget(spec, head)
    elif head.startswith("x"):
        budget = scaled(player_budget(spec, "product"), head)
    else:
        raise SystemExit(f"{name}: a budget is product, expert or xK, then +FIELD=VALUE")
    kinds = {f.name: type(getattr(budget, f.name)) for f in fields(Budget)}
    for change in changes:
        key, _, text = change.partition("=")
        kind = kinds.get(key)
        if kind is None or kind is type(None) or not text:
            raise SystemExit(f"{name}: {change!r} is not FIELD=VALUE of a Budget field")
        try:
            value = text not in ("0", "false", "no") if kind is bool else kind(text)
        except ValueError:
            raise SystemExit(f"{name}: {text!r} is not a {kind.__name__}") from None
        budget = replace(budget, **{key: value})
    return budget


@dataclass(frozen=True)
class Critical:
    """A position of a followed game (its ``index`` in the line) where some moves keep the
    deal winnable with every card known and others do not; ``safe``: those that keep it."""

    deal: int
    index: int
    legal: int
    safe: frozenset[str]


def _found_won(spec: GameSpec, state: State, nodes: int) -> bool:
    return core.is_won(spec, state) or solve(spec, state, nodes=nodes).result == "won"


def critical(spec: GameSpec, deal: int, index: int, state: State, nodes: int) -> Critical | None:
    """``state`` as a :class:`Critical` position, or None: no card hidden from the player,
    the true position not found won, or every legal move alike."""
    if not hidden_to_player(spec, state) or not _found_won(spec, state, nodes):
        return None
    moves = core.legal_moves(spec, state)
    safe = frozenset(
        m.to_str() for m in moves if _found_won(spec, core.apply(spec, state, m), nodes)
    )
    if not safe or len(safe) == len(moves):
        return None
    return Critical(deal, index, len(moves), safe)


@dataclass(frozen=True)
class Task:
    """One deal's work: classify its positions (unless ``known``), decide with
    ``budgets`` at each, and judge again with ``recheck`` nodes each chosen move the first
    judgement called unsafe (those of earlier runs, ``pending``, too)."""

    game: str
    options: dict[str, str]
    deal: int
    every: int
    truth: int
    budgets: tuple[str, ...]
    known: tuple[Critical, ...] | None
    recheck: int = 0
    pending: tuple[tuple[int, str], ...] = ()


def run(task: Task) -> tuple[int, list[Critical], list[dict[str, str]], list[dict[str, str]]]:
    """One deal: its product-followed line, its critical positions (``task.known`` when
    already classified), each budget's decision at each of them, and the rechecks."""
    spec = get_game(task.game, task.options)
    play = follow(task.game, task.options, task.deal, player_budget(spec, "product"))
    states = [core.initial_state(spec, task.deal)]
    for m in play.line:
        states.append(core.apply(spec, states[-1], m))
    if task.known is None:
        found = [
            c
            for i in range(task.every, len(states), task.every)
            if (c := critical(spec, task.deal, i, states[i], task.truth)) is not None
        ]
    else:
        found = list(task.known)
    rows = []
    budgets = {name: budget_of(spec, name) for name in task.budgets}
    for c in found:
        state, history = states[c.index], states[: c.index]
        for name, budget in budgets.items():
            move, cpu = decide(spec, state, history, budget)
            rows.append(
                {
                    "deal": str(task.deal),
                    "index": str(c.index),
                    "budget": name,
                    "move": "" if move is None else move.to_str(),
                    "safe": str(int(move is not None and move.to_str() in c.safe)),
                    "cpu": f"{cpu:.4f}",
                }
            )
    unsafe = set(task.pending) | {
        (int(r["index"]), r["move"]) for r in rows if r["safe"] == "0" and r["move"]
    }
    rechecks = []
    if task.recheck:
        for index, text in sorted(unsafe):
            after = core.apply(spec, states[index], Move.parse(text))
            result = (
                "won" if core.is_won(spec, after) else solve(spec, after, nodes=task.recheck).result
            )
            rechecks.append(
                {
                    "deal": str(task.deal),
                    "index": str(index),
                    "move": text,
                    "nodes": str(task.recheck),
                    "result": result,
                }
            )
    return task.deal, found, rows, rechecks


def decide(
    spec: GameSpec, state: State, history: list[State], budget: Budget
) -> tuple[Move | None, float]:
    """The hint at ``state`` from nothing remembered, and its CPU seconds."""
    caches.clear()
    c0 = time.process_time()
    hint = suggest(spec, state, history=history, budget=budget)
    return hint.move, time.process_time() - c0


def judged(rows: list[dict[str, str]], rechecks: list[dict[str, str]]) -> list[dict[str, str]]:
    """``rows`` with ``safe`` set to 1 where the move was found won when judged again, and
    ``lost`` 1 where that judgement proved it lost (the largest recheck of a move counts)."""
    last: dict[tuple[str, str, str], dict[str, str]] = {}
    for r in rechecks:
        key = (r["deal"], r["index"], r["move"])
        if key not in last or int(r["nodes"]) >= int(last[key]["nodes"]):
            last[key] = r
    out = []
    for r in rows:
        again = last.get((r["deal"], r["index"], r["move"]))
        result = again["result"] if again is not None and r["safe"] == "0" else ""
        out.append(
            r | {"safe": "1" if result == "won" else r["safe"], "lost": str(int(result == "lost"))}
        )
    return out


def summary(
    rows: list[dict[str, str]], budgets: list[str], rechecks: list[dict[str, str]] | None = None
) -> list[str]:
    """Each budget's fatal share (Wilson 95%; the rows judged again with ``rechecks``) and
    CPU a decision, and each budget paired with the first on the positions both decided."""
    by: dict[str, dict[tuple[str, str], dict[str, str]]] = {b: {} for b in budgets}
    for r in judged(rows, rechecks or []):
        if r["budget"] in by:
            by[r["budget"]][(r["deal"], r["index"])] = r
    out = []
    first = by[budgets[0]] if budgets else {}
    for name in budgets:
        got = by[name]
        n = len(got)
        fatal = sum(r["safe"] == "0" for r in got.values())
        lost = sum(r["lost"] == "1" for r in got.values())
        lo, hi = wilson(fatal, n)
        cpu = [1000 * float(r["cpu"]) for r in got.values()] or [0.0]
        line = (
            f"{name}: {n} decisions, fatal {fatal} = {100 * fatal / max(n, 1):.1f}% "
            f"(95% CI {100 * lo:.1f}-{100 * hi:.1f}%; {lost} proven lost), CPU a decision "
            f"median {statistics.median(cpu):.0f} ms, mean {statistics.mean(cpu):.0f} ms"
        )
        if name != budgets[0]:
            both = set(got) & set(first)
            better = sum(first[k]["safe"] == "0" and got[k]["safe"] == "1" for k in both)
            worse = sum(first[k]["safe"] == "1" and got[k]["safe"] == "0" for k in both)
            line += (
                f"; against {budgets[0]}: {better} saved, {worse} spoiled, "
                f"sign test p = {sign_test(better, worse):.3f}"
            )
        out.append(line)
    return out


def _read(path: Path) -> list[dict[str, str]]:
    if not path.exists():
        return []
    with path.open() as f:
        return list(csv.DictReader(f))


def _append(path: Path, fields: list[str], rows: list[dict[str, str]]) -> None:
    fresh = not path.exists() or path.stat().st_size == 0
    with path.open("a", newline="") as f:
        w = csv.DictWriter(f, fields)
        if fresh:
            w.writeheader()
        w.writerows(rows)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("-o", "--option", action="append", default=[], help="key=value")
    ap.add_argument("--deals", default="1-20", help="a range, e.g. 1-20")
    ap.add_argument("--every", type=int, default=8, help="every N-th position of a game")
    ap.add_argument("--budgets", default="x1,x4,x16", help="product, expert or xK, comma-separated")
    ap.add_argument("--truth", type=int, default=300_000, help="the judging solver's nodes")
    ap.add_argument(
        "--recheck",
        type=int,
        default=None,
        help="nodes to judge again a chosen move not found won (default 10 x --truth; 0: off)",
    )
    ap.add_argument("--jobs", type=int, default=1, help="local Dask workers (1: this process)")
    ap.add_argument("--scheduler", default=None, help="a Dask scheduler's address instead")
    ap.add_argument("--csv", type=Path, default=None, help="the decisions; resumes")
    args = ap.parse_args()
    recheck = 10 * args.truth if args.recheck is None else args.recheck
    options = dict(item.split("=", 1) for item in args.option)
    budgets = [b for b in args.budgets.split(",") if b]
    spec = get_game(args.game, options)
    for name in budgets:
        budget_of(spec, name)  # an unknown name stops here, before any work
    lo, _, hi = args.deals.partition("-")
    deals = range(int(lo), int(hi or lo) + 1)
    kept = args.csv.with_suffix(".positions.csv") if args.csv else None
    again = args.csv.with_suffix(".rechecks.csv") if args.csv else None
    done = _read(args.csv) if args.csv else []
    rechecks = _read(again) if again else []
    classified: dict[int, list[Critical]] = {}
    for r in _read(kept) if kept else []:
        positions = classified.setdefault(int(r["deal"]), [])
        if int(r["index"]) >= 0:
            safe = frozenset(r["safe"].split()) if r["safe"] else frozenset()
            positions.append(Critical(int(r["deal"]), int(r["index"]), int(r["legal"]), safe))
    have = {(int(r["deal"]), r["budget"]) for r in done}
    unsafe: dict[int, set[tuple[int, str]]] = {}  # by deal: the moves judged unsafe
    for r in done:
        if r["safe"] == "0" and r["move"]:
            unsafe.setdefault(int(r["deal"]), set()).add((int(r["index"]), r["move"]))
    for r in rechecks:  # those searched again with enough nodes are settled
        if int(r["nodes"]) >= recheck:
            unsafe.get(int(r["deal"]), set()).discard((int(r["index"]), r["move"]))
    tasks: list[Task] = []
    for d in deals:
        known = classified.get(d)
        pending = tuple(sorted(unsafe.get(d, ())))
        todo = tuple(b for b in budgets if (d, b) not in have and known != [])
        if known is not None and not todo and not (recheck and pending):
            continue
        pack = None if known is None else tuple(known)
        tasks.append(
            Task(args.game, options, d, args.every, args.truth, todo, pack, recheck, pending)
        )
    for deal, found, rows, more in run_on_dask(run, tasks, args.jobs, args.scheduler):
        done += rows
        rechecks += more
        if args.csv is not None and kept is not None and again is not None:
            if deal not in classified:
                marks = [{"deal": str(deal), "index": "-1", "legal": "0", "safe": ""}]
                marks += [
                    {
                        "deal": str(c.deal),
                        "index": str(c.index),
                        "legal": str(c.legal),
                        "safe": " ".join(sorted(c.safe)),
                    }
                    for c in found
                ]
                _append(kept, POSITION_FIELDS, marks)
            _append(args.csv, DECISION_FIELDS, rows)
            _append(again, RECHECK_FIELDS, more)
        classified.setdefault(deal, found)
        print(f"deal {deal}: {len(found)} critical positions", flush=True)
    wanted = [r for r in done if int(r["deal"]) in deals]
    positions = sum(len(classified.get(d, [])) for d in deals)
    print(f"{args.game} {options}, deals {args.deals}: {positions} critical positions")
    for line in summary(wanted, budgets, rechecks):
        print("  " + line)


if __name__ == "__main__":
    main()
