"""Big request heads against another player: a player's read of their game, quiet and
while a client sends large heads, p50 and p99 side by side.

The attacker sends, on ``--attackers`` connections in a loop, GET requests whose
``Cookie`` is a quoted run of backslashes (what makes ``http.cookies``' unquoting
quadratic on CPython before 3.11.10, CVE-2024-7592): ``--size`` bytes of head (default
32 KB, over the 8 KB cap: answered 431; try ``--size 8000``, just under it). The player
reads their game ``--reads`` times in each phase::

    uv run python benchmarks/big_heads.py
    uv run python benchmarks/big_heads.py --size 8000 --database-url postgresql+psycopg://…

Prints the player's p50 and p99 quiet and attacked, their ratio, and the attacker's
requests answered.
"""

from __future__ import annotations

import argparse
import socket
import statistics
import sys
import threading
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).parent))
from load import serve


def head(size: int) -> bytes:
    start = b'GET /api/games HTTP/1.1\r\nHost: x\r\nCookie: a="'
    end = b'"\r\n\r\n'
    return start + b"\\" * max(0, size - len(start) - len(end)) + end


def attack(host: str, port: int, data: bytes, stop: threading.Event, count: list[int]) -> None:
    while not stop.is_set():
        try:
            with socket.create_connection((host, port), timeout=30) as sock:
                sock.sendall(data)
                got = sock.recv(64)
                if got:
                    count[0] += 1
        except OSError:
            time.sleep(0.01)


def reads(base: str, cookies: dict[str, str], game: str, n: int) -> list[float]:
    out = []
    with httpx.Client(base_url=base, cookies=cookies, timeout=60) as c:
        for _ in range(n):
            t = time.perf_counter()
            assert c.get(f"/api/games/{game}").status_code == 200
            out.append(time.perf_counter() - t)
            time.sleep(0.005)
    return out


def p99(xs: list[float]) -> float:
    return statistics.quantiles(xs, n=100)[98]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=32_000, help="bytes of each attacking head")
    ap.add_argument("--attackers", type=int, default=2)
    ap.add_argument("--reads", type=int, default=300)
    ap.add_argument("--database-url", default=None)
    ap.add_argument("--workers", type=int, default=1)
    args = ap.parse_args()
    with serve(args.database_url, args.workers, {"PASYANS_POOL_WORKER": "false"}) as server:
        host, port = server.base.removeprefix("http://").split(":")
        with httpx.Client(base_url=server.base) as c:
            game = c.post("/api/games", json={"game": "spider", "deal": 1}).json()["id"]
            cookies = dict(c.cookies)
        quiet = reads(server.base, cookies, game, args.reads)
        stop, count = threading.Event(), [0]
        threads = [
            threading.Thread(target=attack, args=(host, int(port), head(args.size), stop, count))
            for _ in range(args.attackers)
        ]
        for t in threads:
            t.start()
        time.sleep(0.5)
        attacked = reads(server.base, cookies, game, args.reads)
        stop.set()
        for t in threads:
            t.join()
    q50, a50 = statistics.median(quiet), statistics.median(attacked)
    q99, a99 = p99(quiet), p99(attacked)
    print(f"heads of {args.size} bytes on {args.attackers} connections "
          f"({count[0]} answered), {args.reads} reads per phase")  # fmt: skip
    print("            p50 ms   p99 ms   max ms")
    print(f"quiet     {q50 * 1000:8.1f} {q99 * 1000:8.1f} {max(quiet) * 1000:8.1f}")
    print(f"attacked  {a50 * 1000:8.1f} {a99 * 1000:8.1f} {max(attacked) * 1000:8.1f}")
    print(f"p99 attacked / quiet: {a99 / q99:.2f}x")


if __name__ == "__main__":
    main()
