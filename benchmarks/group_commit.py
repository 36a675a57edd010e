"""SQLite writes as the server makes them, with and without group commit, side by side.

Each of ``--writers`` threads loops: take the web process's write path
(``service.writing``: the process's write lock, ``BEGIN IMMEDIATE``, one row updated,
commit), then pause a random 0-``--pause`` ms. The time of a write runs from asking for
the lock to the acknowledgement (with group commit: after the shared fsync of the log).
``FULL`` is SQLite's fsync inside each commit, locks held; ``group`` is
:mod:`pasyans.server.storage.groupsync`. The two alternate in ``--rounds`` rounds of
``--seconds`` each, on the same disk (a scratch database next to ``--dir``)::

    uv run python benchmarks/group_commit.py
    uv run python benchmarks/group_commit.py --writers 1 4 16 --seconds 5 --rounds 3 --dir data

It prints, per writer count and setting: the write's p50, p95 and p99 in ms over all
rounds, writes per second, and fsyncs per write (the group commit's batch size is its
inverse). Both settings keep every acknowledged write through a power loss.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import threading
import time
from pathlib import Path

from sqlalchemy import text

from pasyans.server.games.cache import GameCache
from pasyans.server.games.service import Context, writing
from pasyans.server.settings import Settings
from pasyans.server.storage.db import WRITE, log_flusher, make_engine, make_sessionmaker


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def run(
    path: Path, group: bool, writers: int, seconds: float, pause_ms: float
) -> tuple[list[float], int]:
    """One round: the writes' times (ms) and the fsyncs run (group commit only: -1)."""
    engine = make_engine(f"sqlite:///{path}", pool_size=writers, group_commit=group)
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE IF NOT EXISTS rows (id INTEGER PRIMARY KEY, n INTEGER)"))
        conn.execute(text("INSERT OR IGNORE INTO rows VALUES (1, 0)"))
    maker = make_sessionmaker(engine)
    lock = threading.Lock()
    settings = Settings(database_url=f"sqlite:///{path}")
    times: list[list[float]] = [[] for _ in range(writers)]
    flusher = log_flusher(engine)
    before = flusher.flushes if flusher is not None else 0
    stop = time.perf_counter() + seconds

    def loop(k: int) -> None:
        rng = random.Random(k)
        ctx = Context(maker=maker, token_hash="", cache=GameCache(1), settings=settings,
                      write_lock=lock)  # fmt: skip
        while time.perf_counter() < stop:
            t = time.perf_counter()
            with writing(ctx):
                ctx.session.connection(execution_options=WRITE)
                ctx.session.execute(text("UPDATE rows SET n = n + 1 WHERE id = :k"), {"k": k % 4})
                ctx.session.commit()
            times[k].append((time.perf_counter() - t) * 1000)
            ctx.close()
            time.sleep(rng.uniform(0, pause_ms) / 1000)

    threads = [threading.Thread(target=loop, args=(k,)) for k in range(writers)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    fsyncs = flusher.flushes - before if flusher is not None else -1
    engine.dispose()
    return [t for ts in times for t in ts], fsyncs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--writers", type=int, nargs="+", default=[1, 4, 16])
    parser.add_argument("--seconds", type=float, default=5.0, help="per round and setting")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--pause", type=float, default=5.0, help="max ms between a thread's writes")
    parser.add_argument("--dir", default=None, help="where the scratch database goes")
    args = parser.parse_args()
    pause = f"pause 0-{args.pause:g} ms"
    print(f"# {args.rounds} rounds of {args.seconds:g} s per setting, alternating; {pause}")
    print("| writers | setting | writes | writes/s | p50 ms | p95 ms | p99 ms | fsyncs per write |")
    print("|---:|---|---:|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        for n in args.writers:
            got: dict[str, list[float]] = {"FULL": [], "group": []}
            fsyncs = 0
            for r in range(args.rounds):
                for name in ("FULL", "group"):
                    ts, f = run(Path(tmp) / f"{name}-{n}-{r}.sqlite3", name == "group", n,
                                args.seconds, args.pause)  # fmt: skip
                    got[name] += ts
                    fsyncs += max(f, 0)
            for name, ts in got.items():
                per_write = "1 (in the commit)" if name == "FULL" else f"{fsyncs / len(ts):.2f}"
                rate = len(ts) / (args.seconds * args.rounds)
                print(
                    f"| {n} | {name} | {len(ts)} | {rate:.0f} | {statistics.median(ts):.2f} | "
                    f"{percentile(ts, 95):.2f} | {percentile(ts, 99):.2f} | {per_write} |"
                )


if __name__ == "__main__":
    main()
