"""How long one SQLite commit takes on this disk, as the server makes it.

A move is acknowledged after its transaction commits; on SQLite (WAL mode) with the
default ``synchronous=FULL`` every commit waits for an fsync of the write-ahead log, and
while it waits the one SQLite writer is held, so the next move waits too. This prints the
commit latency percentiles of one-row transactions for ``FULL`` and ``NORMAL`` side by
side (alternating, in a scratch database next to ``--dir``, removed afterwards)::

    uv run python benchmarks/commit.py
    uv run python benchmarks/commit.py --commits 2000 --dir data
"""

from __future__ import annotations

import argparse
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def connect(path: Path, synchronous: str) -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute(f"PRAGMA synchronous={synchronous}")
    conn.execute("CREATE TABLE IF NOT EXISTS moves (game INTEGER, move TEXT)")
    return conn


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--commits", type=int, default=500, help="per setting")
    parser.add_argument("--dir", default=None, help="where the scratch database goes")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        conns = {s: connect(Path(tmp) / f"{s}.sqlite3", s) for s in ("FULL", "NORMAL")}
        times: dict[str, list[float]] = {s: [] for s in conns}
        for i in range(args.commits):
            for setting, conn in conns.items():  # alternating: the same disk moment
                t = time.perf_counter()
                conn.execute("BEGIN IMMEDIATE")
                conn.execute("INSERT INTO moves VALUES (?, ?)", (i, "m"))
                conn.execute("COMMIT")
                times[setting].append((time.perf_counter() - t) * 1000)
        for conn in conns.values():
            conn.close()
    print(f"# {args.commits} one-row commits per setting, WAL mode, ms")
    print("| synchronous | p50 | p95 | p99 | max | mean |")
    print("|---|---:|---:|---:|---:|---:|")
    for setting, ts in times.items():
        print(
            f"| {setting} | {percentile(ts, 50):.2f} | {percentile(ts, 95):.2f} | "
            f"{percentile(ts, 99):.2f} | {max(ts):.2f} | {statistics.fmean(ts):.2f} |"
        )


if __name__ == "__main__":
    main()
