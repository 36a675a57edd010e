"""The no-peek player's decision, Python against compiled (issue 34, "Compiled").

Positions along Spider games followed by the player itself (its hints at the product's
budget, the positions played before avoided, as the product does), then at every
``--every``-th of them, median CPU (``time.process_time``, ``--repeat`` runs each):

- the candidates step: :func:`pasyans.hints.player.candidates_py` against the compiled
  :func:`~pasyans.hints.player.candidates`;
- a whole decision (:func:`~pasyans.hints.player.decide`, ``--playouts`` playouts): with
  the candidates, the sampler and the bandit's rounds in Python (the playouts compiled,
  one call each: the decision before the rest was compiled) against everything compiled;
- where each decision's CPU goes: the candidates, the sampler
  (:func:`pasyans.hints.sampling.samples`), the playouts (:func:`~pasyans.hints.player.
  score`), the compiled rounds (``pl_round``: the draws, the hidden cards filled in and
  the playouts in one call) and the rest (the bandit's bookkeeping: in Python, each
  sample's game and the candidates' lines filled in with its hidden cards).

Run it on an idle core::

    nice -n 10 uv run python benchmarks/player_compiled.py --deals 5827301-5827302 \
        --steps 60 --every 4
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from pasyans.domains.spider import SpiderGame
from pasyans.engine import core
from pasyans.hints import player, sampling
from pasyans.hints.macro import View
from pasyans.hints.sampled import _packed
from pasyans.hints.sampling import known
from pasyans.position import State
from pasyans.rules import get_game
from pasyans.rules.spec import GameSpec


def positions(spec: GameSpec, deals: range, steps: int, every: int, playouts: int) -> list:
    """Every ``every``-th view along each deal followed by the player, with its avoid set."""
    out: list[tuple[State, set[View]]] = []
    for deal in deals:
        player.PLANS.clear()
        state = core.initial_state(spec, deal)
        history: list[State] = []
        for step in range(steps):
            view = known(spec, state)
            avoid = {_packed(spec, h) for h in history}
            if step % every == 0:
                out.append((view, avoid))
            got = player.hint(
                spec, view, playouts=playouts, seed=0, method="rollout", nodes=0, avoid=avoid
            )
            if got is None or core.is_won(spec, state):
                break
            history.append(state)
            state = core.apply(spec, state, got[2].move(got[0]))
    return out


def cpu(f: Callable[[], object], repeat: int) -> float:
    """The median CPU seconds of ``f`` over ``repeat`` runs."""
    times = []
    for _ in range(repeat):
        c0 = time.process_time()
        f()
        times.append(time.process_time() - c0)
    return statistics.median(times)


@contextmanager
def python_steps() -> Iterator[None]:
    """The candidates, the sampler's draws and the bandit's rounds in Python (the
    playouts stay compiled, one call each)."""
    cands, draws, rounds = player.candidates, sampling.draws, player._compiled_round
    player.candidates = player.candidates_py  # type: ignore[assignment]
    sampling.draws = sampling.draws_py  # type: ignore[assignment]
    player._compiled_round = lambda *a, **k: None  # type: ignore[assignment]
    try:
        yield
    finally:
        player.candidates, sampling.draws = cands, draws  # type: ignore[assignment]
        player._compiled_round = rounds  # type: ignore[assignment]


@contextmanager
def timed(totals: dict[str, float]) -> Iterator[None]:
    """Add each step's CPU to ``totals`` while in the block."""
    saved: dict[tuple[Any, str], Any] = {}

    def wrap(module: Any, name: str, key: str) -> None:
        real = saved[(module, name)] = getattr(module, name)

        def f(*a: Any, **k: Any) -> Any:
            c0 = time.process_time()
            try:
                return real(*a, **k)
            finally:
                totals[key] = totals.get(key, 0.0) + time.process_time() - c0

        setattr(module, name, f)

    wrap(player, "candidates", "candidates")
    wrap(sampling, "samples", "sampler")
    wrap(player, "score", "playouts")
    make = saved[(player, "_compiled_round")] = player._compiled_round

    def compiled_round(*a: Any, **k: Any) -> Any:
        run = make(*a, **k)
        if run is None:
            return None

        def timed_run(*b: Any) -> Any:
            c0 = time.process_time()
            try:
                return run(*b)
            finally:
                key = "compiled rounds"
                totals[key] = totals.get(key, 0.0) + time.process_time() - c0

        return timed_run

    player._compiled_round = compiled_round  # type: ignore[assignment]
    try:
        yield
    finally:
        for (module, name), real in saved.items():
            setattr(module, name, real)


def split(totals: dict[str, float], f: Callable[[], object]) -> None:
    """Run ``f`` once, adding its CPU by step to ``totals`` (``"decision"``: the whole)."""
    with timed(totals):
        c0 = time.process_time()
        f()
        totals["decision"] = totals.get("decision", 0.0) + time.process_time() - c0


def measure(
    spec: GameSpec,
    view: State,
    avoid: set[View],
    n: int,
    repeat: int,
    splits: tuple[dict[str, float], dict[str, float]],
) -> tuple[float, float, float, float]:
    """One position's median CPU: candidates in Python and compiled, a decision with the
    Python steps and compiled; each decision's split added to ``splits``."""
    game = SpiderGame(spec, view)

    def decide() -> object:
        return player.decide(spec, view, playouts=n, avoid=avoid)

    py = cpu(lambda: player.candidates_py(game, cap=200, avoid=avoid), repeat)
    c = cpu(lambda: player.candidates(game, cap=200, avoid=avoid), repeat)
    with python_steps():
        dpy = cpu(decide, repeat)
        split(splits[0], decide)
    dc = cpu(decide, repeat)
    split(splits[1], decide)
    return py, c, dpy, dc


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-o", "--option", action="append", default=["suits=4"], help="key=value")
    ap.add_argument("--deals", default="5827301-5827302")
    ap.add_argument("--steps", type=int, default=60, help="moves followed per deal")
    ap.add_argument("--every", type=int, default=4, help="every N-th position")
    ap.add_argument("--playouts", type=int, default=1024, help="a decision's playouts")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each measurement")
    args = ap.parse_args()
    spec = get_game("spider", dict(item.split("=", 1) for item in args.option))
    lo, _, hi = args.deals.partition("-")
    views = positions(spec, range(int(lo), int(hi or lo) + 1), args.steps, args.every, 256)
    n = args.playouts
    rows = []
    splits: tuple[dict[str, float], dict[str, float]] = ({}, {})
    for view, avoid in views:
        rows.append(measure(spec, view, avoid, n, args.repeat, splits))

    def med(k: int) -> float:
        return 1000 * statistics.median(r[k] for r in rows)

    print(f"spider {args.option}, {len(rows)} positions of deals {args.deals}, {n} playouts")
    print(f"  {'median CPU':<22}{'Python':>10}{'compiled':>10}{'ratio':>8}")
    for name, a, b in (("candidates", 0, 1), ("whole decision", 2, 3)):
        print(f"  {name:<22}{med(a):>8.2f}ms{med(b):>8.2f}ms{med(a) / max(med(b), 1e-9):>7.1f}x")
    for name, totals in zip(("Python", "compiled"), splits, strict=True):
        whole = totals.pop("decision")
        rest = whole - sum(totals.values())
        parts = ", ".join(f"{k} {v / whole:.1%}" for k, v in (*totals.items(), ("rest", rest)))
        print(f"  {name} decision's CPU ({whole:.2f} s over the positions): {parts}")


if __name__ == "__main__":
    main()
