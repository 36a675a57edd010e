"""Solvable deals against random ones: surface statistics, difficulty, time (not a test).

    uv run python benchmarks/deals.py --games spine --deals 1000      # the issue's table
    uv run python benchmarks/deals.py --deals 20                      # every game, quick
    uv run python benchmarks/deals.py --games spider --options suits=1 --deals 50

For each game and option set offering solvable deals (``pasyans.deals.kinds_for``), deals
``--first`` … ``--first + --deals - 1``:

1. **Surface statistics** of the random layouts and of the solvable ones, side by side
   (docs/winnability.md defines them). The solvable layout measured is each number's
   first kept candidate: the three bands are chosen among such candidates, so this is
   the population of solvable deals over all bands, at a third of the cost.
2. **Difficulty spread** (the first ``--ranked`` numbers): per band, the mean measure and
   the randomised simple player's win share (``pasyans.solver.difficulty``).
3. **Time to a deal**: p50 and p95 of :func:`pasyans.solver.generate.bands` per number
   (all three bands come from one ranking, so this is the time of any one of them), in
   wall-clock and in CPU seconds (the fairer figure on a shared machine).

Figures depend on the machine's load: compare columns of one run, not runs.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from statistics import mean

from pasyans.deals import DIFFICULTIES, kinds_for
from pasyans.engine.core import autocollect_moves, foundation_targets, initial_state, legal_moves
from pasyans.position import State
from pasyans.rules import get_game
from pasyans.rules.registry import variants
from pasyans.rules.spec import GameSpec, PileKind
from pasyans.solver.difficulty import measure, simple_player_wins
from pasyans.solver.generate import bands, candidates

Stat = Callable[[GameSpec, State], float]


def _rank(card: int) -> int:
    return (card >> 2) + 1


def _spine_top(spec: GameSpec, s: State) -> list[int]:
    return list(s.piles[spec.index["spine"]])


COMMON: dict[str, Stat] = {
    "autocollect at move 0": lambda spec, s: float(autocollect_moves(spec, s) is not None),
    "won by the simple player": lambda spec, s: float(simple_player_wins(spec, s)),
    "cards that can go to a foundation at move 0": lambda spec, s: float(
        len(
            {
                m.src
                for m in legal_moves(spec, s)
                if m.dst is not None and spec.piles[spec.index[m.dst]].kind is PileKind.FOUNDATION
            }
        )
    ),
    "moves at move 0 (foundations counted once)": lambda spec, s: float(
        len(
            {
                (m.src, "f" if spec.piles[spec.index[m.dst]].kind is PileKind.FOUNDATION else m.dst)
                for m in legal_moves(spec, s)
                if m.dst is not None
            }
        )
    ),
    "face-up Aces and 2s": lambda spec, s: float(
        sum(
            1
            for i, p in enumerate(s.piles)
            for c in p[s.down[i] :]
            if _rank(c) <= 2 and spec.piles[i].kind not in (PileKind.STOCK,)
        )
    ),
}

SPINE: dict[str, Stat] = {
    "playable spine card is an Ace": lambda spec, s: float(_rank(_spine_top(spec, s)[-1]) == 1),
    "rank of the playable spine card": lambda spec, s: float(_rank(_spine_top(spec, s)[-1])),
    "mean rank of the spine's top 10": lambda spec, s: mean(
        _rank(c) for c in _spine_top(spec, s)[-10:]
    ),
    "Aces and 2s on top (columns + spine)": lambda spec, s: float(
        sum(1 for i in _top_piles(spec) if s.piles[i] and _rank(s.piles[i][-1]) <= 2)
    ),
    "cards wanted by a foundation in 10 first cards": lambda spec, s: float(_first_wanted(spec, s)),
}


def _top_piles(spec: GameSpec) -> list[int]:
    return [*spec.indexes_of(PileKind.COLUMN), spec.index["spine"]]


def _first_wanted(spec: GameSpec, s: State) -> int:
    """How many of the spine's 10 top cards are Aces, or follow a card above them in the
    spine or on a column top (low cards reachable in the first moves)."""
    spine = _spine_top(spec, s)[-10:]
    tops = {s.piles[c][-1] for c in spec.indexes_of(PileKind.COLUMN) if s.piles[c]}
    seen: set[int] = set(tops)
    n = 0
    for c in reversed(spine):
        if _rank(c) == 1 or c - 4 in seen:
            n += 1
        seen.add(c)
    return n


TAILBONE: dict[str, Stat] = {
    "rank of the tailbone": lambda spec, s: float(_rank(s.piles[spec.index["tailbone"]][-1])),
    "mean rank of the spine piles' playable cards": lambda spec, s: mean(
        _rank(s.piles[spec.index[p]][-1]) for p in ("spine1", "spine2")
    ),
}


def _face_up_wanted(spec: GameSpec, s: State) -> float:
    wanted = foundation_targets(spec, s)
    return float(
        sum(
            1
            for i, p in enumerate(s.piles)
            for c in p[s.down[i] :]
            if spec.piles[i].kind is not PileKind.STOCK and c in wanted
        )
    )


def _first_deal_ends(spec: GameSpec, s: State) -> float:
    """Aces and Kings among the 24 cards the first stock click deals (the stock's top)."""
    return float(sum(1 for c in s.piles[spec.index["stock"]][-24:] if (c >> 2) in (0, 12)))


NIVERNAIS: dict[str, Stat] = {
    "Aces and Kings face up": _face_up_wanted,
    "Aces and Kings in the first stock deal (24 cards)": _first_deal_ends,
}


def stats_for(spec: GameSpec) -> dict[str, Stat]:
    extra: dict[str, Stat] = {}
    if spec.has_pile("spine") and spec.piles[spec.index["spine"]].kind is PileKind.SPINE:
        extra = SPINE
    elif spec.has_pile("tailbone"):
        extra = TAILBONE
    elif spec.id == "nivernais":
        extra = NIVERNAIS
    return {**extra, **COMMON}


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def run(game_id: str, options: dict[str, str], deals: range, ranked: range) -> None:
    spec = get_game(game_id, options)
    label = game_id + "".join(f" {k}={v}" for k, v in sorted(options.items()))
    stats = stats_for(spec)
    random_states = [initial_state(spec, d) for d in deals]
    solvable = [next(candidates(spec, d)).state for d in deals]
    print(f"\n## {label}: deals {deals.start}-{deals.stop - 1} ({len(deals)} each)")
    print(f"{'statistic':<50} {'random':>9} {'solvable':>9}")
    for name, f in stats.items():
        r = mean(f(spec, s) for s in random_states)
        v = mean(f(spec, s) for s in solvable)
        print(f"{name:<50} {r:>9.3f} {v:>9.3f}")
    made = []
    times = []
    cpu = []
    for d in ranked:
        t, c = time.perf_counter(), time.process_time()
        made.append(bands(spec, d))
        times.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    print(f"difficulty: deals {ranked.start}-{ranked.stop - 1}")
    print(f"{'band':<8} {'mean measure':>13} {'random player wins':>19}")
    for b in DIFFICULTIES:
        plays = [measure(spec, m[b].state) for m in made]
        wins = sum(p.wins for p in plays) / (len(plays) * 8)
        print(f"{b:<8} {mean(p.measure for p in plays):>13.3f} {wins:>19.3f}")
    for name, xs in (("wall", times), ("CPU", cpu)):
        print(
            f"time to a deal (all bands, {name}): p50 {statistics.median(xs):.2f} s, "
            f"p95 {_pct(xs, 0.95):.2f} s, max {max(xs):.2f} s"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--first", type=int, default=1)
    ap.add_argument("--games", default=None, help="comma-separated game ids (default: all)")
    ap.add_argument("--options", default=None, help="only this option set, e.g. suits=1")
    ap.add_argument(
        "--ranked",
        type=int,
        default=None,
        help="deals ranked into bands and timed, from --first (default: --deals, at most 100)",
    )
    args = ap.parse_args()
    wanted = None if args.games is None else set(args.games.split(","))
    only = None
    if args.options:
        only = dict(kv.split("=", 1) for kv in args.options.split(","))
    for game_id, options in variants():
        if wanted is not None and game_id not in wanted:
            continue
        if only is not None and any(options.get(k) != v for k, v in only.items()):
            continue
        if "solvable" not in kinds_for(game_id, options):
            continue
        n = args.ranked if args.ranked is not None else min(args.deals, 100)
        run(
            game_id,
            options,
            range(args.first, args.first + args.deals),
            range(args.first, args.first + n),
        )


if __name__ == "__main__":
    main()
