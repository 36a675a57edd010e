"""Solvable deals against random ones: surface statistics, difficulty, time (not a test).

    uv run python benchmarks/deals.py --games spine --deals 1000      # the issue's table
    uv run python benchmarks/deals.py --deals 20                      # every game, quick
    uv run python benchmarks/deals.py --games spider --options suits=1 --deals 50
    uv run python benchmarks/deals.py --deals 1000 --ranked 100 --before \
        --cache /tmp/deals-cache.jsonl                 # resumable: a killed run continues

For each game and option set offering solvable deals (``pasyans.deals.kinds_for``), deals
``--first`` … ``--first + --deals - 1``:

1. **Surface statistics** of the random layouts and of the solvable ones, side by side
   (docs/solvable.md defines them). The solvable layout measured is each number's
   first kept candidate: the three bands are chosen among such candidates, so this is
   the population of solvable deals over all bands, at a third of the cost. With
   ``--before``, a column for generator version 1 too (``benchmarks/legacy/generate_v1.py``
   ``make_solvable``, the layouts dealt before this issue), so the table is before/after.
2. **Difficulty spread** (the first ``--ranked`` numbers): per band, the mean measure and
   the randomised simple player's win share (``pasyans.solvable.difficulty``).
3. **Time to a deal**: p50 and p95 of :func:`pasyans.solvable.generate.bands` per number
   (all three bands come from one ranking, so this is the time of any one of them), in
   wall-clock and in CPU seconds (the fairer figure on a shared machine).

Figures depend on the machine's load: compare columns of one run, not runs. With
``--cache FILE`` every layout made (and its CPU time) is appended to FILE as it is made,
and a later run with the same FILE reuses it: a killed sweep continues where it stopped.
The cache is keyed by game, options, generator version and deal number; delete it when
the generator changes without a version bump.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from statistics import mean
from typing import Any

from pasyans.deals import DIFFICULTIES, kinds_for
from pasyans.engine.core import autocollect_moves, foundation_targets, initial_state, legal_moves
from pasyans.position import State
from pasyans.rules import get_game
from pasyans.rules.registry import variants
from pasyans.rules.spec import GameSpec, PileKind
from pasyans.solvable import generate
from pasyans.solvable.difficulty import PLAYOUTS, Playouts, simple_player_wins
from pasyans.solvable.difficulty import measure as _measure
from pasyans.solvable.generate import (
    GENERATOR_VERSION,
    GenerationError,
    bands,
    candidates,
)

Stat = Callable[[GameSpec, State], float]

sys.path.insert(0, str(Path(__file__).resolve().parent / "legacy"))
import generate_v1  # noqa: E402  (version 1, out of the package)


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


_measured: dict[tuple[str, str, State], Playouts] = {}


def measure(spec: GameSpec, state: State, playouts: int = PLAYOUTS) -> Playouts:
    """The difficulty measure, kept: the generator's ranking and the spread share it."""
    key = (spec.id, json.dumps(spec.option_values, sort_keys=True), state)
    if key not in _measured or playouts != PLAYOUTS:
        if len(_measured) > 64:
            _measured.clear()
        _measured[key] = _measure(spec, state, playouts)
    return _measured[key]


generate.measure = measure  # type: ignore[assignment]  # the generator's calls share it


class Cache:
    """Layouts made so far, one JSON object a line (see the module docstring)."""

    def __init__(self, path: str | None) -> None:
        self.path = Path(path) if path else None
        self.rows: dict[str, dict[str, Any]] = {}
        if self.path and self.path.exists():
            for line in self.path.read_text().splitlines():
                try:
                    row = json.loads(line)
                except ValueError:  # a line cut short when a run was killed
                    continue
                self.rows[row["key"]] = row

    def get(self, key: str, make: Callable[[], dict[str, Any]]) -> dict[str, Any]:
        row = self.rows.get(key)
        if row is None:
            row = {"key": key, **make()}
            self.rows[key] = row
            if self.path:
                with self.path.open("a") as f:
                    f.write(json.dumps(row) + "\n")
        return row


def _timed(make: Callable[[], Any]) -> tuple[Any, float, float]:
    t, c = time.perf_counter(), time.process_time()
    out = make()
    return out, time.perf_counter() - t, time.process_time() - c


def run(
    game_id: str,
    options: dict[str, str],
    deals: range,
    ranked: range,
    cache: Cache,
    before: bool,
) -> None:
    spec = get_game(game_id, options)
    label = game_id + "".join(f" {k}={v}" for k, v in sorted(options.items()))
    tag = f"{game_id}|{json.dumps(spec.option_values, sort_keys=True)}"
    stats = stats_for(spec)
    v = GENERATOR_VERSION

    def first(d: int) -> dict[str, Any]:
        state, wall, cpu = _timed(lambda: next(candidates(spec, d)).state)
        return {"state": state.to_json(), "wall": wall, "cpu": cpu}

    def old(d: int) -> dict[str, Any]:
        def make() -> State | None:
            try:
                return generate_v1.make_solvable(game_id, options, d).state
            except GenerationError:  # version 1 gave up on some numbers (4-suit Spider)
                return None

        state, wall, cpu = _timed(make)
        return {"state": state and state.to_json(), "wall": wall, "cpu": cpu}

    def ranked_bands(d: int) -> dict[str, Any]:
        made, wall, cpu = _timed(lambda: bands(spec, d))
        out: dict[str, Any] = {"wall": wall, "cpu": cpu}
        for b in DIFFICULTIES:
            p = measure(spec, made[b].state)
            out[b] = {"state": made[b].state.to_json(), "measure": p.measure, "wins": p.wins}
        return out

    columns: dict[str, list[State]] = {"random": [initial_state(spec, d) for d in deals]}
    if before:
        kept = [cache.get(f"{tag}|1|{d}", lambda d=d: old(d))["state"] for d in deals]
        columns["generator 1"] = [State.from_json(s) for s in kept if s is not None]
        if len(columns["generator 1"]) < len(deals):
            missing = len(deals) - len(columns["generator 1"])
            print(f"generator 1 made no layout for {missing} deals")
    columns[f"generator {v}"] = [
        State.from_json(cache.get(f"{tag}|{v}|first|{d}", lambda d=d: first(d))["state"])
        for d in deals
    ]
    print(f"\n## {label}: deals {deals.start}-{deals.stop - 1} ({len(deals)} each)")
    print(f"| statistic | {' | '.join(columns)} |")
    print("|---|" + "---:|" * len(columns))
    for name, f in stats.items():
        cells = " | ".join(f"{mean(f(spec, s) for s in states):.3f}" for states in columns.values())
        print(f"| {name} | {cells} |")
    made = [cache.get(f"{tag}|{v}|bands|{d}", lambda d=d: ranked_bands(d)) for d in ranked]
    print(f"\ndifficulty (generator {v}): deals {ranked.start}-{ranked.stop - 1}")
    print("| band | mean measure | random player's win share |")
    print("|---|---:|---:|")
    for b in DIFFICULTIES:
        wins = sum(m[b]["wins"] for m in made) / (len(made) * PLAYOUTS)
        print(f"| {b} | {mean(m[b]['measure'] for m in made):.3f} | {wins:.3f} |")
    for name in ("wall", "cpu"):
        xs = [m[name] for m in made]
        print(
            f"time to a deal (all bands, {name}): p50 {statistics.median(xs):.2f} s, "
            f"p95 {_pct(xs, 0.95):.2f} s, max {max(xs):.2f} s"
        )


def swaps(options: dict[str, str], deals: range) -> None:
    """Spine's nearest winnable layouts (``--swaps``): how many card swaps each takes from
    the deal's own shuffle, and how many of the 104 places end with another card."""
    from pasyans.cards import shuffled
    from pasyans.engine.core import deck_for
    from pasyans.solvable.nearby import nearest_winnable

    spec = get_game("spine", options)
    counts: list[float] = []
    moved: list[float] = []
    opening: list[float] = []
    failed = 0
    for d in deals:
        made = nearest_winnable(spec, d)
        if made is None:
            failed += 1
            continue
        before = spec.deal(spec, shuffled(deck_for(spec), d)).freeze()
        counts.append(made.swaps)
        pairs = zip(before.piles, made.state.piles, strict=True)
        moved.append(sum(a != b for p, q in pairs for a, b in zip(p, q, strict=True)))
        opening.append(
            sum(
                1
                for p, q in zip(before.piles, made.state.piles, strict=True)
                if p and p[-1] != q[-1]
            )
        )
    label = "".join(f" {k}={v}" for k, v in sorted(spec.option_values.items()))
    print(f"\n## spine{label}: the deal's own shuffle, deals {deals.start}-{deals.stop - 1}")
    print(f"shuffles that gave no layout: {failed} of {len(deals)}")
    print("| of the layouts made | mean | p10 | p50 | p90 | max |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, xs in (
        ("swaps", counts),
        ("places whose card changed (of 104)", moved),
        ("pile tops changed at move 0 (of 9)", opening),
    ):
        print(
            f"| {name} | {mean(xs):.1f} | {_pct(xs, 0.1):.0f} | {_pct(xs, 0.5):.0f} | "
            f"{_pct(xs, 0.9):.0f} | {max(xs):.0f} |"
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
    ap.add_argument("--before", action="store_true", help="add generator version 1's column")
    ap.add_argument("--cache", default=None, help="JSON-lines file of layouts made (resumable)")
    ap.add_argument(
        "--swaps", action="store_true", help="only Spine's swap counts (nearby.py), per option set"
    )
    args = ap.parse_args()
    wanted = None if args.games is None else args.games.split(",")
    only = None
    if args.options:
        only = dict(kv.split("=", 1) for kv in args.options.split(","))
    cache = Cache(args.cache)
    todo = [
        (game_id, options)
        for game_id, options in variants()
        if (wanted is None or game_id in wanted)
        and (only is None or all(options.get(k) == v for k, v in only.items()))
        and "solvable" in kinds_for(game_id, options)
    ]
    if wanted is not None:  # in the order asked for
        todo.sort(key=lambda t: wanted.index(t[0]))
    if args.swaps:
        for _, options in [t for t in todo if t[0] == "spine"]:
            swaps(options, range(args.first, args.first + args.deals))
        return
    for game_id, options in todo:
        n = args.ranked if args.ranked is not None else min(args.deals, 100)
        run(
            game_id,
            options,
            range(args.first, args.first + args.deals),
            range(args.first, args.first + n),
            cache,
            args.before,
        )


if __name__ == "__main__":
    main()
