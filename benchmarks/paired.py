"""Two follower runs on the same deals, paired: each run's wins with a Wilson 95%
interval, and an exact two-sided sign test on the deals whose outcome changed.

Reads two ``benchmarks/follow.py --csv`` files (one method each) and compares them on the
deals both have::

    uv run python benchmarks/paired.py /tmp/s4_base.csv /tmp/s4_player.csv
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


def _wins(path: Path) -> tuple[str, dict[int, bool]]:
    with path.open() as f:
        rows = list(csv.DictReader(f))
    methods = {r["method"] for r in rows}
    if len(methods) != 1:
        raise SystemExit(f"{path}: {len(methods)} methods; one file per method")
    return methods.pop(), {int(r["deal"]): r["won"] == "1" for r in rows}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("before", type=Path)
    ap.add_argument("after", type=Path)
    args = ap.parse_args()
    (m1, a), (m2, b) = _wins(args.before), _wins(args.after)
    deals = sorted(set(a) & set(b))
    n = len(deals)
    print(f"{n} deals in both ({deals[0]}-{deals[-1]})" if deals else "no deal in both")
    for name, w in ((m1, a), (m2, b)):
        won = sum(w[d] for d in deals)
        lo, hi = wilson(won, n)
        print(
            f"  {name}: won {won}/{n} = {100 * won / max(n, 1):.1f}% "
            f"(95% CI {100 * lo:.1f}-{100 * hi:.1f}%)"
        )
    gained = sum(b[d] and not a[d] for d in deals)
    lost = sum(a[d] and not b[d] for d in deals)
    print(
        f"  changed: {gained} won only after, {lost} won only before; "
        f"sign test p = {sign_test(gained, lost):.3f}"
    )


if __name__ == "__main__":
    main()
