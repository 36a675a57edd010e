"""What the line player's walk of a view costs (``hints.lines.candidates``, issue 34 item
4): the compiled walk against its Python reference, side by side on the same views, and
for Nivernais also the engine's walk it replaced (``lines.walk``, the walk of Backbone
and classic, which moves cards between reserve cells as distinct positions). The views
are the player's (``sampling.known``) along random play-outs of the first pass (moves to
the foundations preferred), deals 1…N, every 5th position. Prints per game and walk the
median, mean and largest milliseconds a view and the median ratio to the compiled walk::

    uv run python benchmarks/line_walks.py               # deals 1-10
    uv run python benchmarks/line_walks.py --deals 20
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from pasyans.engine import core
from pasyans.hints import lines
from pasyans.hints.sampling import known
from pasyans.position import State
from pasyans.rules import get_game
from pasyans.rules.spec import GameSpec


def views(spec: GameSpec, deal: int, steps: int = 120) -> list[State]:
    """The player's views along a random play-out of ``deal``'s first pass."""
    rng = random.Random(deal)
    state, out = core.initial_state(spec, deal), []
    for k in range(steps):
        if state.redeals:
            break
        if k % 5 == 0:
            out.append(known(spec, state))
        moves = core.legal_moves(spec, state)
        if not moves:
            break
        home = [m for m in moves if m.dst is not None and m.dst.startswith("f")]
        other = [m for m in moves if m.dst is not None] or moves  # the stock seldom
        pick = home if home and rng.random() < 0.7 else other
        if rng.random() < 0.05:
            pick = moves
        state = core.apply(spec, state, rng.choice(pick))
    return out


ENGINE_WALK = "engine walk (until 12-06)"


def timed(name: str, spec: GameSpec, view: State) -> float:
    """Milliseconds of walk ``name`` on ``view``."""
    saved = lines.compiled
    if name != "compiled":
        lines.compiled = None  # the Python walks
    t = time.perf_counter()
    try:
        if name == ENGINE_WALK:
            lines.walk(spec, view)
        else:
            lines.candidates(spec, view)
        return (time.perf_counter() - t) * 1000
    finally:
        lines.compiled = saved


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=10)
    args = ap.parse_args()
    print(f"deals 1-{args.deals}, views every 5th move of the first pass; ms a view")
    print(
        f"{'game':<18}{'walk':<26}{'views':>6}{'median':>9}{'mean':>9}{'max':>9}{'x compiled':>12}"
    )
    for game in ("backbone", "backbone-classic", "nivernais"):
        spec = get_game(game)
        names = ["compiled", "python reference"]
        if game == "nivernais":
            names.append(ENGINE_WALK)
        ms: dict[str, list[float]] = {name: [] for name in names}
        for deal in range(1, args.deals + 1):
            for v in views(spec, deal):
                for name in names:
                    ms[name].append(timed(name, spec, v))
        base = ms["compiled"]
        for name, xs in ms.items():
            ratio = statistics.median(x / max(b, 1e-6) for x, b in zip(xs, base, strict=True))
            print(f"{game:<18}{name:<26}{len(xs):>6}{statistics.median(xs):>9.2f}"
                  f"{statistics.fmean(xs):>9.2f}"
                  f"{max(xs):>9.2f}{ratio:>12.1f}")  # fmt: skip


if __name__ == "__main__":
    main()
