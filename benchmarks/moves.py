"""Moves per second on one worker, this tree side by side with another git revision.

Starts ``pasyans serve`` (one worker, SQLite) from this tree and from ``--baseline`` (a git
revision, exported to a temporary directory and put first on ``PYTHONPATH``), and runs the
closed-loop players of ``benchmarks/load.py`` (``--think 0``) against each in turn,
alternating ``--rounds`` times, so both see the same machine load. Prints each round and
the medians: requests/s, server CPU ms per request, p50/p99 move latency.

    uv run python benchmarks/moves.py --baseline main --players 16 --duration 15 --rounds 3
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from load import percentile, run_load, serve

ROOT = Path(__file__).resolve().parents[1]


def export(revision: str, into: Path) -> Path:
    """The ``src`` directory of ``revision``, exported with ``git archive``."""
    archive = into / "tree.tar"
    with archive.open("wb") as out:
        subprocess.run(["git", "archive", revision, "src"], cwd=ROOT, stdout=out, check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(into, filter="data")
    return into / "src"


def measure(label: str, env: dict[str, str], args: argparse.Namespace) -> dict[str, float]:
    saved = os.environ.copy()
    os.environ.update(env)
    try:
        with serve(None, 1, {"PASYANS_SQLITE_SYNCHRONOUS": "NORMAL"}) as server:
            tally, server_cpu, _ = asyncio.run(
                run_load(server, args.players, args.duration, args.warmup, 0.0, args.game)
            )
    finally:
        os.environ.clear()
        os.environ.update(saved)
    lat = sorted(tally.latencies)
    out = {
        "req/s": tally.requests / args.duration,
        "cpu ms/req": 1000 * server_cpu / max(1, tally.requests),
        "p50 ms": percentile(lat, 50) * 1000,
        "p99 ms": percentile(lat, 99) * 1000,
        "errors": float(tally.errors),
    }
    print(f"  {label:9} " + "  ".join(f"{k} {v:7.1f}" for k, v in out.items()), flush=True)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--baseline", default="main", help="git revision to compare with [main]")
    ap.add_argument("--players", type=int, default=16)
    ap.add_argument("--duration", type=float, default=15.0)
    ap.add_argument("--warmup", type=float, default=3.0)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--game", default="spider")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="pasyans-baseline-") as tmp:
        src = export(args.baseline, Path(tmp))
        runs: dict[str, list[dict[str, float]]] = {args.baseline: [], "this tree": []}
        for n in range(args.rounds):
            print(f"round {n + 1}:")
            runs[args.baseline].append(measure(args.baseline, {"PYTHONPATH": str(src)}, args))
            runs["this tree"].append(measure("this tree", {}, args))
    print(f"medians over {args.rounds} rounds, {args.players} players, think 0, one worker:")
    for label, results in runs.items():
        keys = results[0].keys()
        med = {k: statistics.median(r[k] for r in results) for k in keys}
        print(f"  {label:9} " + "  ".join(f"{k} {v:7.1f}" for k, v in med.items()))
    base, ours = (
        statistics.median(r["req/s"] for r in runs[k]) for k in (args.baseline, "this tree")
    )
    print(f"throughput ratio (this tree / {args.baseline}): {ours / base:.2f}")


if __name__ == "__main__":
    main()
