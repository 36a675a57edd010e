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
``--csv F`` keeps the decisions (one row each) and ``F.positions.csv`` the critical
positions found (one row each, and a row with index -1 for every deal classified), so a
killed run resumes where it stopped. The deals run on Dask like ``benchmarks/follow.py``
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


Task = tuple[str, dict[str, str], int, int, int, tuple[str, ...], tuple[Critical, ...] | None]


def run(task: Task) -> tuple[int, list[Critical], list[dict[str, str]]]:
    """One deal: its product-followed line, its critical positions (``known`` when
    already classified), and each budget's decision at each of them."""
    game, options, deal, every, truth, budgets, known = task
    spec = get_game(game, options)
    play = follow(game, options, deal, player_budget(spec, "product"))
    states = [core.initial_state(spec, deal)]
    for m in play.line:
        states.append(core.apply(spec, states[-1], m))
    if known is None:
        found = [
            c
            for i in range(every, len(states), every)
            if (c := critical(spec, deal, i, states[i], truth)) is not None
        ]
    else:
        found = list(known)
    rows = []
    for c in found:
        state, history = states[c.index], states[: c.index]
        for name in budgets:
            move, cpu = decide(spec, state, history, budget_of(spec, name))
            rows.append(
                {
                    "deal": str(deal),
                    "index": str(c.index),
                    "budget": name,
                    "move": "" if move is None else move.to_str(),
                    "safe": str(int(move is not None and move.to_str() in c.safe)),
                    "cpu": f"{cpu:.4f}",
                }
            )
    return deal, found, rows


def decide(
    spec: GameSpec, state: State, history: list[State], budget: Budget
) -> tuple[Move | None, float]:
    """The hint at ``state`` from nothing remembered, and its CPU seconds."""
    caches.clear()
    c0 = time.process_time()
    hint = suggest(spec, state, history=history, budget=budget)
    return hint.move, time.process_time() - c0


def summary(rows: list[dict[str, str]], budgets: list[str]) -> list[str]:
    """Each budget's fatal share (Wilson 95%) and CPU a decision, and each budget paired
    with the first on the positions both decided."""
    by: dict[str, dict[tuple[str, str], dict[str, str]]] = {b: {} for b in budgets}
    for r in rows:
        if r["budget"] in by:
            by[r["budget"]][(r["deal"], r["index"])] = r
    out = []
    first = by[budgets[0]] if budgets else {}
    for name in budgets:
        got = by[name]
        n = len(got)
        fatal = sum(r["safe"] == "0" for r in got.values())
        lo, hi = wilson(fatal, n)
        cpu = [1000 * float(r["cpu"]) for r in got.values()] or [0.0]
        line = (
            f"{name}: {n} decisions, fatal {fatal} = {100 * fatal / max(n, 1):.1f}% "
            f"(95% CI {100 * lo:.1f}-{100 * hi:.1f}%), CPU a decision median "
            f"{statistics.median(cpu):.0f} ms, mean {statistics.mean(cpu):.0f} ms"
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
    ap.add_argument("--jobs", type=int, default=1, help="local Dask workers (1: this process)")
    ap.add_argument("--scheduler", default=None, help="a Dask scheduler's address instead")
    ap.add_argument("--csv", type=Path, default=None, help="the decisions; resumes")
    args = ap.parse_args()
    options = dict(item.split("=", 1) for item in args.option)
    budgets = [b for b in args.budgets.split(",") if b]
    spec = get_game(args.game, options)
    for name in budgets:
        budget_of(spec, name)  # an unknown name stops here, before any work
    lo, _, hi = args.deals.partition("-")
    deals = range(int(lo), int(hi or lo) + 1)
    kept = args.csv.with_suffix(".positions.csv") if args.csv else None
    done = _read(args.csv) if args.csv else []
    classified: dict[int, list[Critical]] = {}
    for r in _read(kept) if kept else []:
        positions = classified.setdefault(int(r["deal"]), [])
        if int(r["index"]) >= 0:
            safe = frozenset(r["safe"].split()) if r["safe"] else frozenset()
            positions.append(Critical(int(r["deal"]), int(r["index"]), int(r["legal"]), safe))
    have = {(int(r["deal"]), r["budget"]) for r in done}
    tasks: list[Task] = []
    for d in deals:
        known = classified.get(d)
        if known is not None and all((d, b) in have for b in budgets):
            continue
        todo = tuple(b for b in budgets if (d, b) not in have)
        pack = None if known is None else tuple(known)
        tasks.append((args.game, options, d, args.every, args.truth, todo, pack))
    for deal, found, rows in run_on_dask(run, tasks, args.jobs, args.scheduler):
        done += rows
        if args.csv is not None and kept is not None:
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
        classified.setdefault(deal, found)
        print(f"deal {deal}: {len(found)} critical positions", flush=True)
    wanted = [r for r in done if int(r["deal"]) in deals]
    positions = sum(len(classified.get(d, [])) for d in deals)
    print(f"{args.game} {options}, deals {args.deals}: {positions} critical positions")
    for line in summary(wanted, budgets):
        print("  " + line)


if __name__ == "__main__":
    main()
