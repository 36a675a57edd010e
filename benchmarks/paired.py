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


def _rows(path: Path) -> tuple[str, list[dict[str, str]]]:
    with path.open() as f:
        rows = list(csv.DictReader(f))
    methods = {r["method"] for r in rows}
    if len(methods) != 1:
        raise SystemExit(f"{path}: {len(methods)} methods; one file per method")
    return methods.pop(), rows


def _wins(path: Path) -> tuple[str, dict[int, bool]]:
    method, rows = _rows(path)
    return method, {int(r["deal"]): r["won"] == "1" for r in rows}


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


def proven(paths: list[Path]) -> set[int]:
    """The deals proven winnable by the files: the full-information search won them
    (the ``full`` column, where the run had ``--full-nodes``) or some run did."""
    out: set[int] = set()
    for path in paths:
        for r in _rows(path)[1]:
            if r["won"] == "1" or r.get("full") == "won":
                out.add(int(r["deal"]))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", type=Path, nargs="+", help="BEFORE AFTER [BEFORE AFTER ...]")
    args = ap.parse_args()
    if len(args.files) % 2:
        raise SystemExit("files come in pairs: BEFORE AFTER [BEFORE AFTER ...]")
    pairs = [(args.files[i], args.files[i + 1]) for i in range(0, len(args.files), 2)]
    totals = [0, 0, 0, 0, 0]  # games, won before, won after, gained, lost
    common: set[int] | None = None
    for before, after in pairs:
        (m1, a), (m2, b) = _wins(before), _wins(after)
        deals = sorted(set(a) & set(b))
        n = len(deals)
        print(f"{n} deals in both ({deals[0]}-{deals[-1]})" if deals else "no deal in both")
        print(_won(m1, sum(a[d] for d in deals), n))
        print(_won(m2, sum(b[d] for d in deals), n))
        gained = sum(b[d] and not a[d] for d in deals)
        lost = sum(a[d] and not b[d] for d in deals)
        print(_changed(gained, lost))
        common = set(deals) if common is None else common & set(deals)
        for i, v in enumerate((n, sum(a[d] for d in deals), sum(b[d] for d in deals))):
            totals[i] += v
        totals[3] += gained
        totals[4] += lost
    if len(pairs) < 2:
        return
    n, won_a, won_b, gained, lost = totals
    print(f"pooled over {len(pairs)} pairs: {n} games")
    print(_won("before", won_a, n))
    print(_won("after", won_b, n))
    print(_changed(gained, lost))
    sure = proven(args.files) & (common or set())
    if not sure:
        return
    for side, files in (("before", args.files[0::2]), ("after", args.files[1::2])):
        won = sum(w for path in files for d, w in _wins(path)[1].items() if d in sure)
        games = len(sure) * len(pairs)
        print(
            f"  {side}: won {won} of the {games} games of the {len(sure)} deals proven "
            f"winnable = {100 * won / games:.1f}%"
        )


if __name__ == "__main__":
    main()
