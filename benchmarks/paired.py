"""Two follower runs on the same deals, paired: each run's wins with a Wilson 95%
interval, and an exact two-sided sign test on the deals whose outcome changed.

Reads two ``benchmarks/follow.py --csv`` files (one method each) and compares them on the
deals both have::

    uv run python benchmarks/paired.py /tmp/s4_base.csv /tmp/s4_player.csv

Several pairs (``BEFORE AFTER BEFORE AFTER …``, e.g. one pair a hint seed, each pair
run with the same ``--seed``) are compared pair by pair and then pooled: the wins of all
the pairs' games, the changes summed and one sign test on them (an approximation: a deal
played under several seeds is counted once a seed), and, where the files give it, the
share of the deals proven winnable (the ``full`` column's ``won``, or won by any file)
that each side won::

    uv run python benchmarks/paired.py B0.csv A0.csv B1.csv A1.csv B2.csv A2.csv
"""

from __future__ import annotations

import argparse
import csv
from dataclasses import dataclass
from math import comb
from pathlib import Path

from pasyans.cli.sweep import wilson


def sign_test(a: int, b: int) -> float:
    """The exact two-sided p-value of ``a`` against ``b`` changes under a fair coin."""
    n = a + b
    if n == 0:
        return 1.0
    k = min(a, b)
    p: float = 2 * sum(comb(n, i) for i in range(k + 1)) / 2**n
    return min(1.0, p)


@dataclass(frozen=True)
class Run:
    """One follower CSV, read once: its method, each deal's outcome, and the deals its
    full-information column (``--full-nodes``) says are won."""

    method: str
    wins: dict[int, bool]
    full: frozenset[int]

    @classmethod
    def read(cls, path: Path) -> Run:
        with path.open() as f:
            rows = list(csv.DictReader(f))
        methods = {r["method"] for r in rows}
        if len(methods) != 1:
            raise SystemExit(f"{path}: {len(methods)} methods; one file per method")
        return cls(
            methods.pop(),
            {int(r["deal"]): r["won"] == "1" for r in rows},
            frozenset(int(r["deal"]) for r in rows if r.get("full") == "won"),
        )


@dataclass(frozen=True)
class Pair:
    """Two runs on the deals both have."""

    deals: tuple[int, ...]
    won_before: int
    won_after: int
    gained: int
    lost: int

    @classmethod
    def of(cls, a: dict[int, bool], b: dict[int, bool]) -> Pair:
        deals = tuple(sorted(set(a) & set(b)))
        return cls(
            deals,
            sum(a[d] for d in deals),
            sum(b[d] for d in deals),
            sum(b[d] and not a[d] for d in deals),
            sum(a[d] and not b[d] for d in deals),
        )


def _won(label: str, won: int, n: int) -> str:
    lo, hi = wilson(won, n)
    return (
        f"  {label}: won {won}/{n} = {100 * won / max(n, 1):.1f}% "
        f"(95% CI {100 * lo:.1f}-{100 * hi:.1f}%)"
    )


def _changed(gained: int, lost: int) -> str:
    return (
        f"  changed: {gained} won only after, {lost} won only before; "
        f"sign test p = {sign_test(gained, lost):.3f}"
    )


def proven(runs: list[Run]) -> set[int]:
    """The deals proven winnable by the runs: the full-information search won them
    (the ``full`` column, where the run had ``--full-nodes``) or some run did."""
    out: set[int] = set()
    for run in runs:
        out |= run.full | {d for d, w in run.wins.items() if w}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", type=Path, nargs="+", help="BEFORE AFTER [BEFORE AFTER ...]")
    args = ap.parse_args()
    if len(args.files) % 2:
        raise SystemExit("files come in pairs: BEFORE AFTER [BEFORE AFTER ...]")
    runs = [Run.read(path) for path in args.files]
    pairs = [Pair.of(runs[i].wins, runs[i + 1].wins) for i in range(0, len(runs), 2)]
    for i, pair in enumerate(pairs):
        n = len(pair.deals)
        deals = pair.deals
        print(f"{n} deals in both ({deals[0]}-{deals[-1]})" if deals else "no deal in both")
        print(_won(runs[2 * i].method, pair.won_before, n))
        print(_won(runs[2 * i + 1].method, pair.won_after, n))
        print(_changed(pair.gained, pair.lost))
    if len(pairs) < 2:
        return
    n = sum(len(p.deals) for p in pairs)
    print(f"pooled over {len(pairs)} pairs: {n} games")
    print(_won("before", sum(p.won_before for p in pairs), n))
    print(_won("after", sum(p.won_after for p in pairs), n))
    print(_changed(sum(p.gained for p in pairs), sum(p.lost for p in pairs)))
    common = set.intersection(*(set(p.deals) for p in pairs))
    sure = proven(runs) & common
    if not sure:
        return
    games = len(sure) * len(pairs)
    for side, sides in (("before", runs[0::2]), ("after", runs[1::2])):
        won = sum(run.wins[d] for run in sides for d in sure)
        print(
            f"  {side}: won {won} of the {games} games of the {len(sure)} deals proven "
            f"winnable = {100 * won / games:.1f}%"
        )


if __name__ == "__main__":
    main()
