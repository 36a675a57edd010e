"""The CPU of ``generate.bands`` per deal number, two generator versions side by side.

For deals ``--start`` … ``--start + --deals - 1`` of one game and option set, makes the
three bands of each number with generator version ``--before`` and then ``--after``
(default 4 and the current one), every cache of the library emptied before each
(``caches.clear(everything=True)``: no version reuses the other's solver proofs), and
prints the CPU seconds per number of each (p50, p95) and their ratio. The pool runs the
same call for every entry it makes (``pasyans worker``).

    uv run python benchmarks/bands_cpu.py --game spine --deals 20
    uv run python benchmarks/bands_cpu.py --game backbone-classic --deals 10
"""

from __future__ import annotations

import statistics
import time

from bands import deals_parser, spec_of

from pasyans import caches
from pasyans.solvable import generate


def p95(xs: list[float]) -> float:
    return statistics.quantiles(xs, n=20)[18] if len(xs) > 1 else xs[0]


def main() -> None:
    ap = deals_parser(__doc__)
    ap.add_argument("--before", type=int, default=4)
    ap.add_argument("--after", type=int, default=generate.GENERATOR_VERSION)
    a = ap.parse_args()
    spec = spec_of(a)
    cpu: dict[int, list[float]] = {a.before: [], a.after: []}
    for deal in range(a.start, a.start + a.deals):
        for version in (a.before, a.after):
            caches.clear(everything=True)
            c0 = time.process_time()
            generate.bands(spec, deal, version)
            cpu[version].append(time.process_time() - c0)
    b, f = cpu[a.before], cpu[a.after]
    print(f"{a.game} {a.options or '(default)'} deals {a.start}-{a.start + a.deals - 1}:"
          " generate.bands CPU s per number")  # fmt: skip
    print("| version | p50 | p95 |\n|---|---:|---:|")
    for v, xs in cpu.items():
        print(f"| {v} | {statistics.median(xs):.2f} | {p95(xs):.2f} |")
    ratio = statistics.median(y / x for x, y in zip(b, f, strict=True))
    print(f"median ratio {a.after}/{a.before} per number: {ratio:.2f}")


if __name__ == "__main__":
    main()
